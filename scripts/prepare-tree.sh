#!/usr/bin/env bash
# Make the kernel work tree under build/: the pristine 6.12.y source as one
# commit (tag "pristine"), then every patch of patches/ applied in order
# with `git am -3`, one commit each.
#
# Source: $KERNEL_SRC (any 6.12.y tree, git or plain) or, by default, the
# tarball of Debian's linux-source-6.12 package.
#
# The tree is remade only when the source or patches/ changed. Commits made
# in the tree that are not yet exported (make export-patches) are never
# thrown away: the script stops and says so.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,12s/^# \{0,1\}//p' "$0"
	echo "usage: [KERNEL_SRC=DIR] $0"
	exit 0
fi
source "$(dirname "$0")/env.sh"
source "$REPO/scripts/result-cache.sh"
PRISTINE_CACHE=${PRISTINE_CACHE:-/var/cache/sched-points/pristine}

tarballs=(/usr/src/linux-source-6.12.tar.*)
tarball=
[ ! -e "${tarballs[0]}" ] || tarball=${tarballs[0]}
if [ -n "${KERNEL_SRC:-}" ]; then
	src=$(realpath "$KERNEL_SRC")
	if [ ! -f "$src/Makefile" ] || [ ! -d "$src/kernel/sched" ]; then
		die "KERNEL_SRC=$KERNEL_SRC is not a kernel source tree"
	fi
	src_id="dir:$src"
	[ -d "$src/.git" ] && src_id+=":$(git -C "$src" rev-parse HEAD)"
else
	[ -n "$tarball" ] || die "no /usr/src/linux-source-6.12.tar.*: run scripts/install-deps.sh or set KERNEL_SRC"
	src=$tarball
	src_id="tarball:$src:$(stat -c '%s:%Y' "$src")"
fi
patches=("$REPO"/patches/*.patch)
[ -e "${patches[0]}" ] || patches=()
patch_id=$(cat /dev/null "${patches[@]}" | sha256sum | cut -c1-16)
state=$TREE/.git/sched-points-state

apply_series() {
	local p
	for p in "${patches[@]}"; do
		if ! git -C "$TREE" am -3 --quiet "$p" >/dev/null 2>"$BUILD/am.log"; then
			cat "$BUILD/am.log" >&2
			git -C "$TREE" am --abort 2>/dev/null || true
			die "patch $(basename "$p") does not apply to Linux $version ($src); rebase the series on this tree (see Documentation/developing.md)"
		fi
	done
	printf '%s\n%s\n%s\n' "$src_id" "$patch_id" \
		"$(git -C "$TREE" rev-parse HEAD)" >"$state"
}

if [ -f "$state" ] && [ "$(sed -n 1p "$state")" = "$src_id" ]; then
	version=$(make -s -C "$TREE" kernelversion)
	head=$(git -C "$TREE" rev-parse HEAD)
	if [ "$(sed -n 3p "$state")" != "$head" ]; then
		[ "$(sed -n 2p "$state")" = "$patch_id" ] ||
			die "$TREE has commits not exported and patches/ changed too; run 'make export-patches' or reset the tree"
		note "Linux $version: $TREE has commits beyond patches/ (run 'make export-patches' to keep them)"
		exit 0
	fi
	if [ "$(sed -n 2p "$state")" = "$patch_id" ]; then
		note "Linux $version from $src, ${#patches[@]} patches applied (up to date)"
		exit 0
	fi
	note "patches/ changed: re-applying ${#patches[@]} patches"
	git -C "$TREE" reset --quiet --hard pristine
	apply_series
	note "Linux $version from $src, ${#patches[@]} patches applied"
	exit 0
fi

# The pristine commit of a source that cannot change under the same id (a
# tarball, a git tree's commit) is kept outside the checkout, next to
# ccache: a fresh clone clones it (about 20 s) instead of unpacking and
# hashing 1.3 GB again (about 50 s).
# (A git tree with uncommitted changes is not such a source.)
pristine_cache=
if [ -z "${KERNEL_SRC:-}" ] ||
	{ [ -d "$src/.git" ] && [ -z "$(git -C "$src" status --porcelain)" ]; }; then
	pristine_cache=$PRISTINE_CACHE/$(printf '%s\n' "$src_id" "$(script_id "$0")" | result_key).git
fi
if [ -n "$pristine_cache" ] && git -C "$pristine_cache" rev-parse -q --verify pristine >/dev/null 2>&1; then
	note "making the kernel tree $TREE from the pristine tree of $src ($pristine_cache)"
	rm -rf "$TREE"
	# Hard links where the file system allows, else a copy.
	if git clone --quiet "$pristine_cache" "$TREE" &&
		git -C "$TREE" remote remove origin; then
		printf '/obj/\n/tools/testing/selftests/sched_points/\n' >>"$TREE/.git/info/exclude"
		version=$(make -s -C "$TREE" kernelversion)
		apply_series
		note "Linux $version from $src, ${#patches[@]} patches applied"
		exit 0
	fi
	note "the pristine cache $pristine_cache is broken: dropped, unpacking $src"
	rm -rf "$pristine_cache"
fi

note "making the kernel tree $TREE from $src"
rm -rf "$TREE"
mkdir -p "$TREE"
if [ -n "${KERNEL_SRC:-}" ]; then
	rsync -a --exclude=/.git "$src/" "$TREE/"
	[ ! -f "$TREE/.config" ] || make -s -C "$TREE" mrproper
else
	tar -xf "$src" -C "$TREE" --strip-components=1
fi
version=$(make -s -C "$TREE" kernelversion)
case $version in
6.12|6.12.*) ;;
*) note "warning: Linux $version is not 6.12.y; the series targets 6.12" ;;
esac
git -C "$TREE" init --quiet
# Debian's tarball ignores every top-level path in .gitignore (its packaging
# repository holds only debian/); drop that block so the tree behaves like
# upstream's and new files can be added.
sed -i '/^# Debian packaging: ignore everything/,$d' "$TREE/.gitignore"
printf '/obj/\n/tools/testing/selftests/sched_points/\n' >>"$TREE/.git/info/exclude"
git -C "$TREE" add -A
GIT_COMMITTER_DATE='2026-01-01T00:00:00Z' GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' \
	git -C "$TREE" commit --quiet -m "Linux $version (pristine, from $src)"
git -C "$TREE" tag pristine
if [ -n "$pristine_cache" ] && [ ! -e "$pristine_cache" ]; then
	# Hard links to the tree's objects where the file system allows. One
	# source at a time: the trees of other keys (an older tarball, an
	# older version of this script) go. Published by a rename, so that a
	# concurrent run sees all of it or nothing, and never replaced.
	mkdir -p "$PRISTINE_CACHE"
	find "$PRISTINE_CACHE" -mindepth 1 -maxdepth 1 -name '*.git' \
		-not -name "${pristine_cache##*/}" -exec rm -rf {} +
	git clone --quiet --bare "$TREE" "$pristine_cache.$$"
	mv -T "$pristine_cache.$$" "$pristine_cache" 2>/dev/null || rm -rf "$pristine_cache.$$"
fi
apply_series
note "Linux $version from $src, ${#patches[@]} patches applied"
