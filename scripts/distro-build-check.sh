#!/usr/bin/env bash
# The series compiled (not booted) with Debian's own configuration of
# Linux 6.12 (the linux-config-6.12 package: config.amd64_none_amd64, or
# DISTRO_CONFIG) plus CONFIG_SCHED_POINTS=y, in
# build/series-check/obj-distro: every .c file the series touches, and
# every header it touches at the line of a warning, builds without a
# warning with a distribution's options (PREEMPT_DYNAMIC, BTF, lockdown,
# the function-graph tracer, KPROBES_ON_FTRACE, ...), not only ours.
# KUnit (off in Debian's configuration) is turned on with the series'
# KUnit tests, so that their file is built too.
# TAP on stdout; a pass is kept by the hash of the tree, the
# configuration, the compiler and this script, and replayed as "(cached)".
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,12s/^# \{0,1\}//p' "$0"
	echo "usage: [DISTRO_CONFIG=FILE[.xz]] $0"
	exit 0
fi
source "$(dirname "$0")/env.sh"
source "$REPO/scripts/result-cache.sh"
cfg=${DISTRO_CONFIG:-/usr/src/linux-config-6.12/config.amd64_none_amd64.xz}
[ -r "$cfg" ] || die "no $cfg: run scripts/install-deps.sh check (it installs linux-config-6.12)"
# read_config: the configuration, uncompressed.
read_config() { case $cfg in *.xz) xz -dc "$cfg" ;; *) cat "$cfg" ;; esac; }
"$REPO/scripts/prepare-tree.sh" >&2
head=$(git -C "$TREE" rev-parse HEAD)
key=$({ echo distro-build; git -C "$TREE" rev-parse 'HEAD^{tree}'; toolchain_id; build_env_id
	read_config; script_id "$0" "$REPO/scripts/env.sh" "$REPO/scripts/result-cache.sh"; } | result_key)
! result_replay "$key" || exit 0

series_worktree
git -C "$SERIES_WT" checkout -q --detach "$head"
OBJ=$SERIES_WT/obj-distro
mkdir -p "$OBJ"
read_config >"$OBJ/.config"
# Debian's signing keys are files of its packaging tree; no object here
# needs them.
"$SERIES_WT/scripts/config" --file "$OBJ/.config" --enable SCHED_POINTS \
	--enable KUNIT --enable SCHED_POINTS_KUNIT_TEST \
	--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" \
	--set-str MODULE_SIG_KEY ""
TREE=$SERIES_WT OBJ=$OBJ kmake -s olddefconfig >/dev/null

tap=$OBJ/distro-build-result.tap
exec 3>"$tap"
n=0 rc=0
missing=$(printf 'CONFIG_%s=y\n' SCHED_POINTS KUNIT SCHED_POINTS_KUNIT_TEST | grep -vxF -f "$OBJ/.config" || true)
tap_result "$([ -z "$missing" ] && echo 0 || echo 1)" \
	"distro: SCHED_POINTS, KUNIT and SCHED_POINTS_KUNIT_TEST took effect on $(basename "$cfg")${missing:+ (not: ${missing//$'\n'/ })}" >&3

build_touched distro
echo "1..$n" >&3
exec 3>&-
cat "$tap"
[ "$rc" != 0 ] || result_put "$key" <"$tap"
exit $rc
