#!/usr/bin/env bash
# Check the shellcheck disables of SCRIPT...: print each that hides more
# than it says, as FILE:LINE: TEXT (why), and exit 1 when there is one.
# A disable must give its reason on its own line ("# shellcheck
# disable=SC2086 # words, split on purpose"), and must not come before
# the script's first command: there it covers the whole file, and every
# new instance of the finding, anywhere, goes unseen. A .shellcheckrc
# given among the files may disable nothing.
set -euo pipefail
if [ "${1:-}" = --help ] || [ $# = 0 ]; then
	echo "usage: $0 SCRIPT...    print the shellcheck disables that hide too much, exit 1 if any"
	[ $# != 0 ]; exit
fi
awk '
FNR == 1 { started = 0; rc_file = FILENAME ~ /(^|\/)\.shellcheckrc$/ }
rc_file && /^[[:space:]]*disable=/ {
	print FILENAME ":" FNR ": " $0 " (a disable in .shellcheckrc covers every script)"; bad = 1
	next
}
rc_file { next }
/^[[:space:]]*#[[:space:]]*shellcheck[[:space:]]+.*disable=/ {
	if (!started) {
		print FILENAME ":" FNR ": " $0 " (before the first command: covers the whole file)"; bad = 1
	} else if ($0 !~ /disable=[A-Z0-9,]+[[:space:]]+#[[:space:]]*[^[:space:]]/) {
		print FILENAME ":" FNR ": " $0 " (no reason on its line)"; bad = 1
	}
	next
}
/^[[:space:]]*(#|$)/ { next }
{ started = 1 }
END { exit bad }
' "$@"
