#!/usr/bin/env bash
# Make the scratch disk of a field guest (scripts/field-run.sh,
# scripts/field-bench-run.sh): a fresh ext4 image of FIELD_SCRATCH_MB
# (default 1024) MiB at FILE, where the application does its I/O; for
# make, holding in src/ the C code base it builds: objtool and what it
# builds from, out of the image's linux-source-6.12 tarball
# (build/field/rootfs.ext4, read with debugfs), kept beside the image
# (build/field/src) while the image's key is the same.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,8s/^# \{0,1\}//p' "$0"
	echo "usage: [FIELD_SCRATCH_MB=N] $0 pgbench|make|fio|nginx|stressng FILE    (root)"
	exit 0
fi
source "$(dirname "$0")/env.sh"
[ $# = 2 ] || die "an application and a file (see --help)"
app=$1 scratch=$2
case $app in pgbench|make|fio|nginx|stressng) ;; *) die "unknown application '$app' (see --help)" ;; esac
[ "$(id -u)" = 0 ] || die "needs root (mke2fs -d keeps the owners of the staged files)"
mb=${FIELD_SCRATCH_MB:-1024}
[[ $mb =~ ^[0-9]+$ ]] || die "FIELD_SCRATCH_MB=$mb is not a number of MiB"
image=$BUILD/field/rootfs.ext4
src=$BUILD/field/src
stage=$scratch.stage
rm -rf "$stage"
mkdir -p "$stage"
if [ "$app" = make ]; then
	[ -f "$image" ] || die "no $image: run scripts/field-rootfs.sh (make field-rootfs)"
	if [ "$(cat "$src.key" 2>/dev/null)" != "$(cat "$BUILD/field/rootfs.key")" ]; then
		rm -rf "$src" "$src.key" "$src.tmp"
		mkdir -p "$src.tmp"
		note "field: objtool's sources from the image's /usr/src/linux-source-6.12.tar.xz"
		debugfs -R 'cat /usr/src/linux-source-6.12.tar.xz' "$image" 2>/dev/null |
			tar -xJ -C "$src.tmp" --strip-components=1 linux-source-6.12/tools/objtool \
				linux-source-6.12/tools/lib/subcmd linux-source-6.12/tools/lib/str_error_r.c \
				linux-source-6.12/tools/lib/string.c linux-source-6.12/tools/lib/ctype.c \
				linux-source-6.12/tools/lib/rbtree.c linux-source-6.12/tools/include \
				linux-source-6.12/tools/arch/x86 linux-source-6.12/tools/build \
				linux-source-6.12/tools/scripts || die "cannot unpack the image's kernel source"
		mv "$src.tmp" "$src"
		cp "$BUILD/field/rootfs.key" "$src.key"
	fi
	cp -a "$src" "$stage/src"
fi
rm -f "$scratch"
truncate -s "${mb}M" "$scratch"
mke2fs -q -F -t ext4 -L field-scratch -d "$stage" "$scratch"
rm -rf "$stage"
