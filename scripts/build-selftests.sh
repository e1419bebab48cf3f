#!/usr/bin/env bash
# Build the kselftests of selftests/ statically, with their test modules,
# against the built kernel, into the kselftest layout under
# $OBJ/kselftest/kselftest_install.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	echo "usage: $0    (after scripts/build-kernel.sh)"
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
kmake -s TARGETS="$targets" USERLDFLAGS=-static KDIR="$OBJ" \
	kselftest-install >"$BUILD/selftests-build.log" 2>&1 ||
	{ tail -40 "$BUILD/selftests-build.log"; die "kselftest build failed"; }
