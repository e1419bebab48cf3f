#!/usr/bin/env bash
# Test the result cache of the bisect check: change one patch of the
# series (a comment added to the code of patch N, default the second to
# last, or the last before it that changes a .c file) on a scratch branch of the kernel tree, run the bisect check on
# that branch, and require that exactly the prefixes before N come from
# the cache and N and every later one are built again. TAP on stdout.
# Run after a bisect check of the series itself (make check does one).
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,7s/^# \{0,1\}//p' "$0"
	echo "usage: $0 [N]"
	exit 0
fi
source "$(dirname "$0")/env.sh"
mapfile -t commits < <(git -C "$TREE" rev-list --reverse pristine..HEAD)
total=${#commits[@]}
# Every prefix's key holds the list of files the series touches (their
# warnings fail it): a comment in a file the series puts back as it was
# (one a later patch restores) would add the file to that list and
# rebuild every prefix. Only files the whole series leaves changed count.
touched=$(git -C "$TREE" diff --name-only pristine HEAD)
c_files() { # c_files N: the .c files patch N changes that the series leaves changed
	git -C "$TREE" diff-tree --no-commit-id --name-only -r "${commits[$1 - 1]}" -- '*.c' |
		grep -Fx -f <(echo "$touched") || true
}
nth=${1:-$((total - 1))}
if [ "$nth" -lt 1 ] || [ "$nth" -gt "$total" ]; then
	die "N must be in 1..$total"
fi
# By default the last patch but one that changes a .c file (a patch of
# only a Makefile or a document has no code to put a comment in).
if [ -z "${1:-}" ]; then
	while [ "$nth" -gt 1 ] && [ -z "$(c_files "$nth")" ]; do
		nth=$((nth - 1))
	done
fi
target=${commits[nth - 1]}
# A .c file of patch N that no later patch changes (the later patches must
# still apply), else its first.
mapfile -t files < <(c_files "$nth")
[ ${#files[@]} -gt 0 ] || die "patch $nth changes no .c file that the series leaves changed"
file=${files[0]}
for f in "${files[@]}"; do
	if [ -z "$(git -C "$TREE" log --format=%h "$target..HEAD" -- "$f")" ]; then
		file=$f
		break
	fi
done

# The scratch branch: the series with patch N's first .c file given one
# more comment line, in a throwaway worktree; the later patches on top.
scratch=$BUILD/cache-test
git -C "$TREE" worktree remove --force "$scratch" 2>/dev/null || true
git -C "$TREE" worktree add -q --detach "$scratch" "$target"
trap 'git -C "$TREE" worktree remove --force "$scratch"' EXIT
echo "/* result-cache test: $(date +%s%N) */" >>"$scratch/$file"
git -C "$scratch" commit -q -a --amend --no-edit
for c in "${commits[@]:nth}"; do
	git -C "$scratch" cherry-pick "$c" >/dev/null 2>&1 ||
		die "patch after $nth does not apply on the changed one"
done
head=$(git -C "$scratch" rev-parse HEAD)

SERIES_HEAD=$head "$REPO/scripts/bisect-check.sh" >"$BUILD/cache-test-bisect.tap" 2>"$BUILD/cache-test-bisect.log" || true
n=0 rc=0
i=0
while read -r line; do
	i=$((i + 1))
	n=$((n + 1))
	want=built
	[ "$i" -lt "$nth" ] && want=cached
	got=built
	[[ $line == *"(cached)" ]] && got=cached
	[[ $line == "ok "* ]] || got=failed
	if [ "$got" = "$want" ]; then
		echo "ok $n - prefix $i with patch $nth changed: $got"
	else
		# not "# ok ...": a TAP reader takes that for a nested result
		echo "# the bisect check said: $line"
		echo "not ok $n - prefix $i with patch $nth changed: $got, want $want"
		rc=1
	fi
done < <(grep -E '^(not )?ok ' "$BUILD/cache-test-bisect.tap")
if [ "$i" != "$total" ]; then
	n=$((n + 1))
	echo "not ok $n - the bisect check gave $i results for $total patches"
	rc=1
fi
echo "1..$n"
exit $rc
