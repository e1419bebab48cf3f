#!/usr/bin/env bash
# Build the kselftests of selftests/ statically, with their test modules,
# against the built kernel, into the kselftest layout under
# $OBJ/kselftest/kselftest_install. ARCH=arm64: cross-built with
# aarch64-linux-gnu-gcc (static, against Debian's libc6-dev-arm64-cross)
# and its modules against the arm64 kernel in obj-arm64.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	echo "usage: [ARCH=arm64] [VARIANT=debug] $0    (after scripts/build-kernel.sh)"
	exit 0
fi
source "$(dirname "$0")/env.sh"
[ -f "$OBJ/vmlinux" ] || die "no kernel built in $OBJ"
targets=
for d in "$REPO"/selftests/*/; do
	name=$(basename "$d")
	rsync -a --delete --exclude='*.o' --exclude='*.ko' "$d" \
		"$TREE/tools/testing/selftests/$name/"
	targets+="$name "
done
note "building kselftests: $targets"
rm -rf "$OBJ/kselftest/kselftest_install"
log=$BUILD/selftests-build$ARCH_SUFFIX.log
kmake -s TARGETS="$targets" USERLDFLAGS=-static KDIR="$OBJ" \
	kselftest-install >"$log" 2>&1 ||
	{ tail -40 "$log"; die "kselftest build failed"; }
