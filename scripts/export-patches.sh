#!/usr/bin/env bash
# Write the kernel tree's commits since "pristine" back to patches/, the
# series' source of truth (git format-patch, numbered, no signature),
# after bringing its selftests commit up to date with selftests/
# (scripts/selftests-commit.sh).
set -euo pipefail
if [ "${1:-}" = --help ]; then
	echo "usage: $0    export build/linux commits since 'pristine' to patches/"
	exit 0
fi
source "$(dirname "$0")/env.sh"
[ -d "$TREE/.git" ] || die "no kernel tree at $TREE (make tree)"
# The selftests patch first: selftests/ as the tree's commit of them.
"$REPO/scripts/selftests-commit.sh"
git -C "$TREE" diff --quiet HEAD || die "$TREE has uncommitted changes; commit them first"
rm -f "$REPO"/patches/*.patch
git -C "$TREE" format-patch --quiet --no-signature --zero-commit \
	-o "$REPO/patches" pristine..HEAD
# The tree now matches patches/ exactly: record it, so the next build keeps it.
state=$TREE/.git/sched-points-state
patch_id=$(cat /dev/null "$REPO"/patches/*.patch | sha256sum | cut -c1-16)
sed -i "2s/.*/$patch_id/;3s/.*/$(git -C "$TREE" rev-parse HEAD)/" "$state"
ls "$REPO"/patches/
