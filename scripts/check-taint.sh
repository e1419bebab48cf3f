#!/usr/bin/env bash
# Judge the kernel's taint at the end of a guest run: scripts/guest/init
# prints /proc/sys/kernel/tainted as its last kernel message,
# "sp-tainted: N" (after printk's time stamp) on the console. Exit 0 when LOG has that marker and N has no flag but
# the expected ones (listed here, each with its reason); exit 1, naming
# the flags, when it has another one, or when the marker is missing (the
# guest never got to the end); exit 2 when LOG cannot be read. A backstop
# for what the splat scan (scripts/scan-splats.sh) misses: any WARN,
# oops, lockup or bad page the kernel saw taints it.
set -euo pipefail
if [ "${1:-}" = --help ] || [ $# != 1 ]; then
	echo "usage: $0 CONSOLE-LOG    exit 1 unless its 'sp-tainted: N' marker has only the expected flags"
	[ $# = 1 ]; exit
fi
# The taint flags a good run has (kernel/panic.c, taint_flags[]): the only
# place they are listed.
expected=(
	12  # O, TAINT_OOT_MODULE: the suite loads its test module,
	    # sched_points_test.ko, built out of tree by kselftest-install
	18  # N, TAINT_TEST: KUnit tests ran (the debug kernel runs them at boot)
)
letters=PFSRMBUDAWCIOELKXTN
log=$1
[ -r "$log" ] || { echo "$0: cannot read $log" >&2; exit 2; }
value=$(tr -d '\r' <"$log" | grep -aoE 'sp-tainted: [0-9]+$' | tail -1 | cut -d' ' -f2 || true)
if [ -z "$value" ]; then
	echo "no taint marker ('sp-tainted: N', printed last by the guest's init) in $log"
	exit 1
fi
allowed=0
for bit in "${expected[@]}"; do
	allowed=$((allowed | 1 << bit))
done
unexpected=$((value & ~allowed))
[ "$unexpected" != 0 ] || exit 0
flags=
for ((bit = 0; bit < 63; bit++)); do
	((unexpected >> bit & 1)) || continue
	flags+=" ${letters:bit:1}(bit $bit)"
done
echo "the kernel is tainted ($value), unexpected:$flags"
exit 1
