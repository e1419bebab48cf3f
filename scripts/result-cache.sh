# shellcheck shell=bash
# Results of expensive checks kept by the hash of everything they depend
# on (the tree that is built, the config, the compiler, binutils, libelf
# and checker versions, the environment kbuild reads, checkpatch's
# configuration, the scripts that check), next to ccache outside the checkout:
# a check whose inputs did not change is not run again, and says
# "(cached)". Only passing results are kept. Sourced, never run.
RESULT_CACHE=${RESULT_CACHE:-/var/cache/sched-points/results}

# result_key: the key of the description read on stdin.
result_key() { sha256sum | cut -c1-40; }

# result_get KEY: print the result stored under KEY; false if none.
result_get() { cat "$RESULT_CACHE/$1" 2>/dev/null; }
# result_replay KEY [nested]: print a kept TAP pass, each "ok" marked
# "(cached)"; false when KEY has none (then the caller runs its check).
# nested: a guest's TAP, judged against selftests/manifest by the names
# of its results: every "ok" at any depth is marked with a TAP comment,
# " # (cached)", which leaves its name as it was.
result_replay() {
	result_get "$1" >/dev/null || return 1
	if [ "${2:-}" = nested ]; then
		result_get "$1" | sed -E 's/^([# ]*ok .*)$/\1 # (cached)/'
	else
		result_get "$1" | sed 's/^ok .*/& (cached)/'
	fi
}

# result_put KEY: store stdin under KEY (atomically).
result_put() {
	mkdir -p "$RESULT_CACHE"
	cat >"$RESULT_CACHE/$1.$$"
	mv "$RESULT_CACHE/$1.$$" "$RESULT_CACHE/$1"
}

# toolchain_id: the versions of what builds and checks the kernel: the
# compiler, binutils (as, ld), libelf (objtool), sparse, make, perl,
# codespell.
toolchain_id() {
	gcc --version | head -1
	as --version | head -1
	ld --version | head -1
	pkg-config --modversion libelf 2>/dev/null || echo "no libelf.pc"
	sparse --version 2>/dev/null || true
	make --version | head -1
	perl -e 'print "perl $]\n"'
	codespell --version 2>/dev/null || true
}

# build_env_id: the environment that kbuild reads, which changes what a
# build compiles or says (KCFLAGS=-w hides every warning): KCFLAGS,
# KCPPFLAGS, KAFLAGS, CFLAGS_KERNEL and the rest of the flags, KBUILD_*,
# KCONFIG_*, ARCH, CROSS_COMPILE, LLVM, MAKEFLAGS (-i, -k; not -j nor the
# jobserver's file descriptors, which change every run).
build_env_id() {
	env | LC_ALL=C sort | grep -E '^(K[A-Z]*FLAGS|[A-Z]*FLAGS_(KERNEL|MODULE|vmlinux)|HOST(CC|CXX|CFLAGS|CXXFLAGS|LDFLAGS|LDLIBS|RUSTFLAGS)|USER(CFLAGS|LDFLAGS)|KBUILD_[A-Z_]*|KCONFIG_[A-Z_]*|ARCH|SUBARCH|CROSS_COMPILE|LLVM|LLVM_IAS|MAKEFLAGS|GNUMAKEFLAGS)=' |
		sed -E 's/ ?(--jobserver-(auth|fds)=[^ ]*|-j[0-9]*)//g' || true
}

# tree_id DIR [PATH...]: the content of the work tree DIR as a build there
# sees it: the files on disk, tracked or not (but not ignored), committed
# or not (written as a tree with a scratch index; the real index is not
# touched). With PATHs (relative to DIR), only the files under them.
tree_id() {
	local dir=$1 index
	shift
	index=$(mktemp)
	if [ $# = 0 ]; then
		cp "$(git -C "$dir" rev-parse --path-format=absolute --git-path index)" "$index"
	else
		rm -f "$index" # an index of PATH... alone
	fi
	GIT_INDEX_FILE=$index git -C "$dir" add -A -- "$@"
	GIT_INDEX_FILE=$index git -C "$dir" write-tree
	rm -f "$index"
}

# checkpatch_conf_id: the .checkpatch.conf files checkpatch.pl reads (its
# which_conf(): the current directory, $HOME, .scripts), whose options
# (--ignore ...) change what it reports.
checkpatch_conf_id() {
	local d
	for d in . "${HOME:-}" .scripts; do
		[ ! -f "$d/.checkpatch.conf" ] || { echo "$d/.checkpatch.conf:"; cat "$d/.checkpatch.conf"; }
	done
}

# script_id FILE...: the content of the scripts that decide a result.
script_id() { cat "$@" | result_key; }
