#!/usr/bin/env bash
# Print the warnings of AFTER that BEFORE does not have, counted per text
# per file: line numbers are dropped (they move with every patch), but a
# second instance of a text that BEFORE had once is new. The same warning
# at the same place printed twice (a header seen by two objects) counts
# once. Reads compiler, sparse and kernel-doc output; exit 1 if any is new.
set -euo pipefail
if [ "${1:-}" = --help ] || [ $# != 2 ]; then
	echo "usage: $0 BEFORE.log AFTER.log    print new warnings, exit 1 if any"
	[ $# = 2 ]; exit
fi
# One "file: [sparse: ]warning: text" line per distinct instance.
instances() {
	grep -aE '^[^ :]+:[0-9]+(:[0-9]+)?: (sparse: )?(warning|error)' "$1" |
		sed -E 's#^(\.\./)*##' | sort -u |
		sed -E 's#^([^ :]+):[0-9]+(:[0-9]+)?:#\1:#' | sort || true
}
new=$(comm -13 <(instances "$1") <(instances "$2"))
[ -z "$new" ] || { echo "$new"; exit 1; }
