#!/usr/bin/env bash
# Build the patched kernel (bzImage and modules) out of tree, with ccache:
# makes the tree and the config first when they are missing or stale.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	echo "usage: [KERNEL_SRC=DIR] [FRAGMENTS=...] $0"
	exit 0
fi
source "$(dirname "$0")/env.sh"
"$REPO/scripts/prepare-tree.sh"
"$REPO/scripts/configure-kernel.sh"
mkdir -p "$CCACHE_DIR"
touched=$(git -C "$TREE" diff --name-only pristine HEAD)
note "building Linux $(make -s -C "$TREE" kernelversion) in $OBJ"
start=$SECONDS
if ! kmake -s bzImage modules >"$BUILD/kernel-build.log" 2>&1; then
	grep -E 'error|Error' -A3 "$BUILD/kernel-build.log" | head -40 >&2
	die "kernel build failed (log: $BUILD/kernel-build.log)"
fi
# A warning in a file of the series fails the build (some appear only
# under the debug configs). The objects of the warned files go, so that
# the next build compiles them again and sees the warning again.
if [ -n "$touched" ] && warned=$(grep -E "^(\.\./)*($(paste -sd'|' <<<"$touched")):[0-9]+:[0-9]+: warning:" \
	"$BUILD/kernel-build.log"); then
	echo "$warned" >&2
	sed -E 's#^(\.\./)*##; s#:.*##' <<<"$warned" | sort -u | while read -r f; do
		[[ $f != *.c ]] || rm -f "$OBJ/${f%.c}.o"
	done
	die "warnings in the series' files (log: $BUILD/kernel-build.log)"
fi
note "kernel built in $((SECONDS - start)) s ($(ccache -s 2>/dev/null | grep -iE 'hits' | head -1 | xargs))"
