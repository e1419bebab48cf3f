#!/usr/bin/env bash
# Configure the kernel: tinyconfig plus the fragments named in $FRAGMENTS
# (default: every kernel-config/*.config but the variants' own, debug*
# and lockdown*, then with ARCH=arm64 every kernel-config/arm64/*.config
# (what the virt machine needs, and the x86-only lines of the others
# turned off), plus VARIANT.config for VARIANT=debug, debug-kcsan or
# lockdown), then olddefconfig.
# Fails listing every fragment line that did not take effect (a later
# fragment's line for the same symbol replaces an earlier one's).
# --fragments: only print those fragments, one a line (relative to the
# checkout), for a cache key.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	echo "usage: [ARCH=arm64] [VARIANT=debug|lockdown] [FRAGMENTS='a.config b.config'] $0 [--fragments]"
	exit 0
fi
source "$(dirname "$0")/env.sh"
cd "$REPO/kernel-config"
if [ -z "${FRAGMENTS:-}" ]; then
	for f in *.config; do
		[[ $f == debug* || $f == lockdown* ]] || FRAGMENTS+="$f "
	done
	if [ "$ARCH" = arm64 ]; then
		for f in arm64/*.config; do
			FRAGMENTS+="$f "
		done
	fi
	FRAGMENTS+=${VARIANT:+$VARIANT.config}
fi
frags=()
for f in $FRAGMENTS; do
	[ -f "$f" ] || die "no fragment kernel-config/$f"
	frags+=("$REPO/kernel-config/$f")
done
if [ "${1:-}" = --fragments ]; then
	printf '%s\n' "${frags[@]#"$REPO"/}"
	exit 0
fi
mkdir -p "$OBJ"
# A later fragment's line for a symbol overrides an earlier one's, as in
# merge_config.sh (debug-kcsan.config turns off qemu-guest.config's
# JUMP_LABEL).
want=$(cat "${frags[@]}" |
	grep -E '^(CONFIG_[A-Za-z0-9_]+=|# CONFIG_[A-Za-z0-9_]+ is not set)' |
	awk '{ s = $0; sub(/^# /, "", s); sub(/[= ].*/, "", s); last[s] = $0 }
	     END { for (s in last) print last[s] }' | sort -u)
# Configure only when the fragments changed since the last configuration.
stamp=$OBJ/.sched-points-config
if [ -f "$OBJ/.config" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	exit 0
fi
note "configuring: tinyconfig + $FRAGMENTS"
kmake -s tinyconfig >/dev/null
(cd "$OBJ" && "$TREE/scripts/kconfig/merge_config.sh" -m -O "$OBJ" .config "${frags[@]}" >/dev/null)
kmake -s olddefconfig >/dev/null
missing=$(grep -vxF -f "$OBJ/.config" <<<"$want" |
	grep -v ' is not set' || true)
# "# X is not set" lines hold when X is absent or unset.
while read -r line; do
	[ -n "$line" ] || continue
	sym=${line#\# }; sym=${sym%% *}
	grep -q "^$sym=" "$OBJ/.config" && missing+=$'\n'"$line"
done < <(grep ' is not set' <<<"$want" || true)
if [ -n "${missing//$'\n'/}" ]; then
	echo "These fragment lines did not take effect (missing dependency?):" >&2
	echo "$missing" | sed '/^$/d; s/^/  /' >&2
	rm -f "$stamp"
	exit 1
fi
echo "$want" >"$stamp"
