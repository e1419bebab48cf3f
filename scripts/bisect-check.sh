#!/usr/bin/env bash
# Build every prefix of the series (make bisect-check): vmlinux at each
# commit from the first patch to the last, incrementally and with ccache,
# in a second work tree (build/series-check). TAP on stdout, one result
# per patch: it fails when vmlinux does not build, when the patch's own
# option is not on, or when the build warns about a file the series touches.
# A prefix that passed before with the same tree, config, compiler and
# scripts is not built again (scripts/result-cache.sh): "(cached)".
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,6s/^# \{0,1\}//p' "$0"
	exit 0
fi
source "$(dirname "$0")/env.sh"
source "$REPO/scripts/result-cache.sh"
"$REPO/scripts/prepare-tree.sh" >&2
ref=$(series_reference_config)
# What every prefix's result depends on besides its own tree.
common=$({ toolchain_id; build_env_id; cat "$ref"
	script_id "$0" "$REPO/scripts/env.sh" "$REPO/scripts/result-cache.sh"; } | result_key)
head=${SERIES_HEAD:-HEAD}
touched=$(git -C "$TREE" diff --name-only pristine "$head" | paste -sd'|')
IFS='|' read -ra touched_files <<<"$touched"
n=0 rc=0
for commit in $(git -C "$TREE" rev-list --reverse "pristine..$head"); do
	n=$((n + 1))
	subject=$(git -C "$TREE" log -1 --format=%s "$commit")
	log=$SERIES_WT/obj/bisect-$n.log
	start=$SECONDS
	key=$(printf 'bisect %s %s %s\n' "$common" "$(git -C "$TREE" rev-parse "$commit^{tree}")" \
		"$touched" | result_key)
	if result_get "$key" >/dev/null; then
		echo "ok $n - builds: $subject (cached)"
		continue
	fi
	series_checkout "$commit"
	# Compile the series' files again, so that their warnings show in this
	# prefix's log even when an earlier run built them (ccache makes it
	# cheap and replays the warnings).
	for f in ${touched//|/ }; do
		[[ $f != *.c ]] || rm -f "$SERIES_WT/obj/${f%.c}.o"
	done
	why=
	if ! grep -q '^CONFIG_SCHED_POINTS=y' "$SERIES_WT/obj/.config"; then
		why="CONFIG_SCHED_POINTS is not on"
	elif ! series_make -s vmlinux >"$log" 2>&1; then
		why="vmlinux does not build"
	elif warned=$(build_warnings "$log" "${touched_files[@]}") && [ -n "$warned" ]; then
		echo "$warned" >&2
		# what printed them is redone next time (a header is touched...)
		forget_warned "$SERIES_WT" "$SERIES_WT/obj" <<<"$warned"
		why="warnings in the series' files or from objtool, modpost or the linker"
	fi
	echo "# $subject: $((SECONDS - start)) s"
	if [ -z "$why" ]; then
		echo "ok $n - builds: $subject"
		echo "$subject" | result_put "$key"
	else
		grep -E 'error|warning' "$log" | head -20 | sed 's/^/# /'
		echo "not ok $n - builds: $subject: $why (log: $log)"
		rc=1
	fi
done
echo "1..$n"
exit $rc
