#!/usr/bin/env bash
# Run one application of the field (issue 31, items 2 to 4) in QEMU
# (single-threaded TCG, 2 vCPUs, FIELD_MEM default 2048M), booted by
# scripts/field-boot.sh: the
# field kernel (build/linux/obj-field, scripts/field-kernel.sh) with the
# Debian image (build/field/rootfs.ext4, scripts/field-rootfs.sh) as its
# root disk, a fresh scratch disk for the application's I/O
# (scripts/field-scratch.sh) and the guest's init scripts/guest/field-init,
# whose outputs are in build/field/APP/share/out/ (the tables in caller
# and effective mode, the kprobe+hist oracle's counts, the run's pid
# window, the application's output, the kernel log, the verdict). The
# console goes to build/field/APP/console.log. field-boot.sh scans it and
# the kernel log for kernel reports; then the counts are compared with
# the oracle's (scripts/field-oracle.sh). Exit status 0 only when the
# guest gave rc=0, no report was found and the counts match.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,14s/^# \{0,1\}//p' "$0"
	echo "usage: [FIELD_MEM=SIZE] [FIELD_TIMEOUT=S] $0 pgbench|make|fio|nginx|stressng"
	exit 0
fi
source "$(dirname "$0")/env.sh"
[ $# = 1 ] || die "one application (see --help)"
app=$1
case $app in pgbench|make|fio|nginx|stressng) ;; *) die "unknown application '$app' (see --help)" ;; esac
kernel=$TREE/obj-field/arch/x86/boot/bzImage
out=$BUILD/field/$app
note "field: booting $app ($kernel), console $out/console.log"
rc=0
"$REPO/scripts/field-boot.sh" --timeout "${FIELD_TIMEOUT:-1200}" "$out" "$kernel" field-init "$app" || rc=$?
[ $rc != 2 ] || die "$app: no verdict from the guest"
o=$out/share/out
if [ "$(sed -n 's/^rc=//p' "$o/verdict")" = 0 ]; then
	"$REPO/scripts/field-oracle.sh" "$o" | tee "$o/oracle.txt" || rc=1
fi
note "field: $app: $( [ $rc = 0 ] && echo passed || echo FAILED)"
exit $rc
