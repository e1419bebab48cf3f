#!/usr/bin/env bash
# The series on PREEMPT_RT, compiled (not booted): the reference config
# plus kernel-config/rt/preempt-rt.config, in build/linux/obj-rt; the
# objects that hold the hooks (the scheduler core, the rt-mutex and rtlock
# waits, the entry code, exec, the series' own files) build without a
# warning (objtool's too), nor one at a header the series touches. TAP on
# stdout; a pass is kept by the hash of the tree as it is on disk
# (committed or not), the configs, the toolchain, the environment kbuild
# reads and this script, and replayed as "(cached)".
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,9s/^# \{0,1\}//p' "$0"
	exit 0
fi
source "$(dirname "$0")/env.sh"
source "$REPO/scripts/result-cache.sh"
"$REPO/scripts/prepare-tree.sh" >&2
frag=$REPO/kernel-config/rt/preempt-rt.config
ref=$(series_reference_config)
OBJ=$TREE/obj-rt
# The key is the tree as it is on disk (what is built), not HEAD: a pass on
# an uncommitted fix must not be replayed for a HEAD without it.
key=$({ echo rt-build; tree_id "$TREE"; toolchain_id; build_env_id
	cat "$ref" "$frag"; script_id "$0" "$REPO/scripts/env.sh" "$REPO/scripts/result-cache.sh"; } | result_key)
! result_replay "$key" || exit 0

mkdir -p "$OBJ"
cp "$ref" "$OBJ/.config"
(cd "$OBJ" && "$TREE/scripts/kconfig/merge_config.sh" -m -O "$OBJ" .config "$frag" >/dev/null)
kmake -s olddefconfig >/dev/null
tap=$OBJ/rt-build-result.tap
exec 3>"$tap"
n=0 rc=0
missing=$(grep -E '^CONFIG_' "$frag" | grep -vxF -f "$OBJ/.config" || true)
while read -r sym; do
	[ -z "$sym" ] || ! grep -q "^$sym=" "$OBJ/.config" || missing+=" $sym=(set)"
done < <(sed -n 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1/p' "$frag")
tap_result "$([ -z "$missing" ] && echo 0 || echo 1)" \
	"PREEMPT_RT: every line of kernel-config/rt/preempt-rt.config took effect${missing:+ (not:$missing)}" >&3

mapfile -t touched < <(git -C "$TREE" diff --name-only pristine HEAD -- '*.c' ':!tools')
objs=(kernel/sched/core.o kernel/locking/rtmutex_api.o kernel/locking/spinlock_rt.o)
for f in "${touched[@]}"; do
	objs+=("${f%.c}.o")
done
mapfile -t objs < <(printf '%s\n' "${objs[@]}" | sort -u)
(cd "$OBJ" && rm -f "${objs[@]}")
log=$OBJ/rt-build-make.log
kmake -k "${objs[@]}" >"$log" 2>&1 || true
build_results PREEMPT_RT "$OBJ" "$log" "${objs[@]}"
# The headers the series touches: a warning there is reported at the
# header's line, whichever of the objects included it.
mapfile -t headers < <(git -C "$TREE" diff --name-only pristine HEAD -- '*.h' ':!tools')
header_results PREEMPT_RT "$log" "${headers[@]}"
echo "1..$n" >&3
exec 3>&-
cat "$tap"
[ "$rc" != 0 ] || result_put "$key" <"$tap"
exit $rc
