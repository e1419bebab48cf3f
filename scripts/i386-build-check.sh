#!/usr/bin/env bash
# The series on 32-bit x86, compiled (not booted). SCHED_POINTS depends on
# 64BIT (its counters are 64-bit and read without a lock), so this check
# takes that one dependency out of lib/Kconfig.debug in its scratch tree
# (build/series-check, restored afterwards) and builds i386 tinyconfig plus
# kernel-config/i386/series.config in build/series-check/obj-i386: every
# .c file the series touches builds without a warning, so the code stays
# C that a 32-bit port could start from. TAP on stdout; a pass is kept by
# the hash of the tree, the fragment, the compiler and this script, and
# replayed as "(cached)".
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,10s/^# \{0,1\}//p' "$0"
	exit 0
fi
source "$(dirname "$0")/env.sh"
source "$REPO/scripts/result-cache.sh"
"$REPO/scripts/prepare-tree.sh" >&2
frag=$REPO/kernel-config/i386/series.config
head=$(git -C "$TREE" rev-parse HEAD)
key=$({ echo i386-build; git -C "$TREE" rev-parse 'HEAD^{tree}'; toolchain_id; build_env_id
	cat "$frag"; script_id "$0" "$REPO/scripts/env.sh" "$REPO/scripts/result-cache.sh"; } | result_key)
! result_replay "$key" || exit 0

series_worktree
git -C "$SERIES_WT" checkout -q --detach "$head"
trap 'git -C "$SERIES_WT" checkout -q -- lib/Kconfig.debug' EXIT
kconfig=$SERIES_WT/lib/Kconfig.debug
sed -i '/^config SCHED_POINTS$/,/^config /s/^\(\tdepends on \)64BIT && /\1/' "$kconfig"
git -C "$SERIES_WT" diff --quiet -- lib/Kconfig.debug &&
	die "lib/Kconfig.debug: SCHED_POINTS no longer starts its depends with '64BIT &&'; update $0"

export ARCH=i386
OBJ=$SERIES_WT/obj-i386
mkdir -p "$OBJ"
TREE=$SERIES_WT OBJ=$OBJ kmake -s tinyconfig >/dev/null
(cd "$OBJ" && "$SERIES_WT/scripts/kconfig/merge_config.sh" -m -O "$OBJ" .config "$frag" >/dev/null)
TREE=$SERIES_WT OBJ=$OBJ kmake -s olddefconfig >/dev/null

tap=$OBJ/i386-build-result.tap
exec 3>"$tap"
n=0 rc=0
missing=$(grep -E '^CONFIG_' "$frag" | grep -vxF -f "$OBJ/.config" || true)
grep -q '^CONFIG_64BIT=y' "$OBJ/.config" && missing+=" CONFIG_64BIT=y(is 64-bit)"
tap_result "$([ -z "$missing" ] && echo 0 || echo 1)" \
	"i386: every line of kernel-config/i386/series.config took effect${missing:+ (not: ${missing//$'\n'/ })}" >&3

build_touched i386
echo "1..$n" >&3
exec 3>&-
cat "$tap"
[ "$rc" != 0 ] || result_put "$key" <"$tap"
exit $rc
