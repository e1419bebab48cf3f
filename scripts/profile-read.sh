#!/usr/bin/env bash
# Profile a read of /proc/sched_points with 100k entries: build the kernel
# with scripts/profile/sampler.c pasted into kernel/sched/points_proc.c
# (the file is put back afterwards), run the read part of the benchmark
# under -icount, and print where the guest instructions went, per
# function, or per instruction of FUNCTION.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,6s/^# \{0,1\}//p' "$0"
	echo "usage: $0 [FUNCTION]"
	exit 0
fi
source "$(dirname "$0")/env.sh"
"$REPO/scripts/prepare-tree.sh"
file=$TREE/kernel/sched/points_proc.c
backup=$(mktemp)
cp "$file" "$backup"
trap 'cp "$backup" "$file"; rm -f "$backup"' EXIT
python3 - "$file" "$REPO/scripts/profile/sampler.c" <<'PY'
import sys
path, sampler = sys.argv[1], open(sys.argv[2]).read()
s = open(path).read()
open_fn = "static int sched_points_proc_open(struct inode *inode, struct file *file)\n{"
release = "\treturn sched_points_seq_release(inode, file);"
if s.count(open_fn) != 1 or s.count(release) != 1:
    sys.exit(f"{path}: sched_points_proc_open() or its release changed: update this script")
s = s.replace(open_fn, sampler + "\n" + open_fn + "\n\tsp_prof_start();")
s = s.replace(release, "\tsp_prof_stop(file);\n" + release)
open(path, "w").write(s)
PY
"$REPO/scripts/build-kernel.sh"
"$REPO/scripts/build-initramfs.sh"
out=$BUILD/profile-read
rm -rf "$out"
SP_OUT=$out SP_QEMU_ARGS="-icount shift=0,sleep=off" \
	SP_APPEND="sp.bench=read log_buf_len=4M" "$REPO/scripts/run-guest.sh" bench
entries=$(awk '$1 == "R" && $2 == "read100000" && $3 == "entries" { print $5 }' \
	"$out/share/bench.txt")
[ -n "$entries" ] || die "no read of 100k entries in $out/share/bench.txt"
"$REPO/scripts/profile/report.py" "$OBJ/vmlinux" "$out/share/dmesg.txt" "$entries" ${1:+"$1"}
