#!/usr/bin/env bash
# The series cross-compiled for arm64 (not booted): arm64 defconfig plus
# SCHED_POINTS and KUnit with the series' tests, with Debian's
# gcc-aarch64-linux-gnu, in build/series-check/obj-arm64: every .c file the
# series touches that arm64 builds, and every header it touches, builds
# without a warning. arm64 has no generic entry in 6.12, so the series'
# hook there (kernel/entry/common.c) is not built: a TAP comment says so
# (issue 32 names the interrupted code without it). TAP on
# stdout; a pass is kept by the hash of the tree, the compiler and this
# script, and replayed as "(cached)".
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,10s/^# \{0,1\}//p' "$0"
	echo "usage: $0"
	exit 0
fi
source "$(dirname "$0")/env.sh"
source "$REPO/scripts/result-cache.sh"
cross=aarch64-linux-gnu-
command -v "${cross}gcc" >/dev/null ||
	die "no ${cross}gcc: run scripts/install-deps.sh check (it installs gcc-aarch64-linux-gnu)"
"$REPO/scripts/prepare-tree.sh" >&2
head=$(git -C "$TREE" rev-parse HEAD)
key=$({ echo arm64-build; git -C "$TREE" rev-parse 'HEAD^{tree}'; toolchain_id; build_env_id
	"${cross}gcc" --version; script_id "$0" "$REPO/scripts/env.sh" "$REPO/scripts/result-cache.sh"; } | result_key)
! result_replay "$key" || exit 0

series_worktree
git -C "$SERIES_WT" checkout -q --detach "$head"
OBJ=$SERIES_WT/obj-arm64
mkdir -p "$OBJ"
# kmake's CC is the host's gcc: the cross compiler instead, through ccache.
amake() {
	flock "$BUILD_LOCK" make -C "$SERIES_WT" O="$OBJ" ARCH=arm64 CROSS_COMPILE=$cross \
		CC="ccache ${cross}gcc" -j"$JOBS" "$@"
}
amake -s defconfig >/dev/null
"$SERIES_WT/scripts/config" --file "$OBJ/.config" --enable SCHED_POINTS \
	--enable KUNIT --enable SCHED_POINTS_KUNIT_TEST
amake -s olddefconfig >/dev/null

tap=$OBJ/arm64-build-result.tap
exec 3>"$tap"
n=0 rc=0
missing=$(printf 'CONFIG_%s=y\n' SCHED_POINTS KUNIT SCHED_POINTS_KUNIT_TEST | grep -vxF -f "$OBJ/.config" || true)
tap_result "$([ -z "$missing" ] && echo 0 || echo 1)" \
	"arm64: SCHED_POINTS, KUNIT and SCHED_POINTS_KUNIT_TEST took effect on defconfig${missing:+ (not: ${missing//$'\n'/ })}" >&3

skips=()
grep -qx 'CONFIG_GENERIC_ENTRY=y' "$OBJ/.config" ||
	skips+=("kernel/entry/common.c=arm64 has no GENERIC_ENTRY in 6.12")
TOUCHED_MAKE=amake build_touched arm64 "${skips[@]}"
echo "1..$n" >&3
exec 3>&-
cat "$tap"
[ "$rc" != 0 ] || result_put "$key" <"$tap"
exit $rc
