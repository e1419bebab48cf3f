#!/usr/bin/env bash
# Scan kernel logs for reports of a kernel problem: print each matching
# line as FILE:LINE:TEXT and exit 1 when there is any, 0 when the logs
# are clean. Every report the debug and main kernels can print starts
# with, or carries, one of these lines (scripts/tests/splats/reports.txt
# holds a real line of each kind, and scripts/test-check-scripts.sh proves
# that each is caught).
set -euo pipefail
if [ "${1:-}" = --help ] || [ $# = 0 ]; then
	echo "usage: $0 LOG...    print kernel splats found in LOG, exit 1 if any"
	[ $# != 0 ]; exit
fi
patterns=(
	'BUG:'                          # KASAN, KCSAN, KFENCE, soft lockup, atomic sleep
	'kernel BUG at'                 # BUG_ON()
	'BUG [^ ]+ \((Not t|T)ainted' # SLUB: "BUG kmalloc-64 (Not tainted): ..."
	'WARNING:'                      # WARN_ON(), lockdep, RCU lockdep
	'INFO: '                        # lockdep, hung task, RCU stall
	'blocked for more than'         # hung task
	'detected stalls? on CPUs'      # RCU stall
	'self-detected stall'
	'soft lockup'
	'hard LOCKUP'
	'Oops'
	'Call Trace'
	'cut here'
	'general protection fault'
	'Unable to handle'
	'UBSAN:'
	'KASAN:'
	'KCSAN:'
	'ODEBUG:'                       # debug objects
	'list_(add|del)[_a-z]* corruption'
	'refcount_t:'
	'Kernel panic'
	'Disabling lock debugging'      # lockdep turned itself off
	'exited with (preempt_count|irqs disabled)'
)
regex=$(IFS='|'; echo "${patterns[*]}")
files=()
for f in "$@"; do
	[ -f "$f" ] && files+=("$f")
done
[ ${#files[@]} -gt 0 ] || { echo "$0: no log to scan: $*" >&2; exit 2; }
rc=0
grep -HnaE "$regex" "${files[@]}" || rc=$?
case $rc in
0) exit 1 ;;
1) exit 0 ;;
*) echo "$0: cannot read $*" >&2; exit 2 ;;
esac
