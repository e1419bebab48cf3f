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
mapfile -t touched < <(git -C "$TREE" diff --name-only pristine HEAD)
note "building Linux $(make -s -C "$TREE" kernelversion) in $OBJ"
start=$SECONDS
if ! kmake -s bzImage modules >"$BUILD/kernel-build.log" 2>&1; then
	grep -E 'error|Error' -A3 "$BUILD/kernel-build.log" | head -40 >&2
	die "kernel build failed (log: $BUILD/kernel-build.log)"
fi
# A warning in a file of the series (some appear only under the debug
# configs), and any objtool, modpost or linker warning, fails the build.
# What printed it is made to be redone (forget_warned: a header is
# touched, an object goes, a link is redone), so that the next build sees
# the warning again instead of passing on objects it does not rebuild.
warned=$(build_warnings "$BUILD/kernel-build.log" "${touched[@]}")
if [ -n "$warned" ]; then
	echo "$warned" >&2
	forget_warned "$TREE" "$OBJ" <<<"$warned"
	die "warnings in the series' files or from objtool, modpost or the linker (log: $BUILD/kernel-build.log)"
fi
note "kernel built in $((SECONDS - start)) s ($(ccache -s 2>/dev/null | grep -iE 'hits' | head -1 | xargs))"
