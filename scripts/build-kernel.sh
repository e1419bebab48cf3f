#!/usr/bin/env bash
# Build the patched kernel (bzImage and modules) out of tree, with ccache:
# makes the tree and the config first when they are missing or stale.
# ARCH=arm64: the arm64 guest's Image, cross-compiled into obj-arm64 (log
# build/kernel-build-arm64.log).
set -euo pipefail
if [ "${1:-}" = --help ]; then
	echo "usage: [ARCH=arm64] [VARIANT=debug] [KERNEL_SRC=DIR] [FRAGMENTS=...] $0"
	exit 0
fi
source "$(dirname "$0")/env.sh"
"$REPO/scripts/prepare-tree.sh"
"$REPO/scripts/configure-kernel.sh"
mkdir -p "$CCACHE_DIR"
log=$BUILD/kernel-build$ARCH_SUFFIX.log
mapfile -t touched < <(git -C "$TREE" diff --name-only pristine HEAD)
note "building Linux $(make -s -C "$TREE" kernelversion) in $OBJ"
start=$SECONDS
if ! kmake -s "${KERNEL_IMAGE##*/}" modules >"$log" 2>&1; then
	grep -E 'error|Error' -A3 "$log" | head -40 >&2
	die "kernel build failed (log: $log)"
fi
# A warning in a file of the series (some appear only under the debug
# configs), and any objtool, modpost or linker warning, fails the build.
# What printed it is made to be redone (forget_warned: a header is
# touched, an object goes, a link is redone), so that the next build sees
# the warning again instead of passing on objects it does not rebuild.
warned=$(build_warnings "$log" "${touched[@]}")
if [ -n "$warned" ]; then
	echo "$warned" >&2
	forget_warned "$TREE" "$OBJ" <<<"$warned"
	die "warnings in the series' files or from objtool, modpost or the linker (log: $log)"
fi
note "kernel built in $((SECONDS - start)) s ($(ccache -s 2>/dev/null | grep -iE 'hits' | head -1 | xargs))"
