# shellcheck shell=bash
# Shared settings for the sched-points scripts; sourced, never run.
# Every path can be overridden from the environment.

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
# The kernel work tree (git: pristine commit + one commit per patch).
TREE=${TREE:-$BUILD/linux}
# VARIANT is empty (the kernel of the demo, the benchmarks and the tests)
# or "debug" (kernel-config/debug.config on top: KASAN, lockdep, UBSAN...).
VARIANT=${VARIANT:-}
# ARCH is empty (the host's x86_64) or arm64: the guest kernel
# cross-compiled with Debian's gcc-aarch64-linux-gnu for
# qemu-system-aarch64 -M virt (kernel-config/arm64/), in obj-arm64
# (obj-arm64-VARIANT); its logs and outputs carry the suffix "-arm64".
ARCH=${ARCH:-}
# shellcheck disable=SC2034 # KERNEL_IMAGE is the build's and run-guest.sh's
if [ "$ARCH" = arm64 ]; then
	export ARCH
	CROSS_COMPILE=${CROSS_COMPILE:-aarch64-linux-gnu-}
	ARCH_SUFFIX=-arm64
	KERNEL_IMAGE=arch/arm64/boot/Image
else
	ARCH_SUFFIX=
	KERNEL_IMAGE=arch/x86/boot/bzImage
fi
# The arm64 guest's userspace from Debian (busybox-static's arm64 .deb,
# unpacked there by scripts/install-deps.sh arm64).
ARM64_DEBS=${ARM64_DEBS:-/var/cache/sched-points/arm64-debs}
# Out-of-tree objects: a direct subdirectory of the tree, so that ccache
# sees the same relative paths from any checkout (see the notes).
OBJ=${OBJ:-$TREE/obj$ARCH_SUFFIX${VARIANT:+-$VARIANT}}
# ccache lives outside the checkout so that CI and fresh clones reuse it.
export CCACHE_DIR=${CCACHE_DIR:-/var/cache/sched-points/ccache}
export CCACHE_BASEDIR=$REPO
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export KBUILD_BUILD_USER=sched-points
export KBUILD_BUILD_HOST=builder
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
JOBS=${JOBS:-$(nproc)}
# git am, commit and cherry-pick (prepare-tree.sh, the result cache's
# test) need an identity: a machine without one configured, or CI's
# clean environment with no ~/.gitconfig, gets this one.
if ! git config user.email >/dev/null 2>&1 && [ -z "${GIT_COMMITTER_EMAIL:-}${EMAIL:-}" ]; then
	export GIT_AUTHOR_NAME=sched-points GIT_AUTHOR_EMAIL=sched-points@localhost
	export GIT_COMMITTER_NAME=sched-points GIT_COMMITTER_EMAIL=sched-points@localhost
fi

die() { echo "$(basename "$0"): error: $*" >&2; exit 1; }
note() { echo "==> $*" >&2; }

# Kernel builds take both cores: one at a time on this machine, whoever
# starts them (a lock outside the checkout, shared by every clone).
BUILD_LOCK=${BUILD_LOCK:-/var/lock/sched-points-build.lock}

kmake() {
	if [ "$ARCH" = arm64 ]; then
		flock "$BUILD_LOCK" make -C "$TREE" O="$OBJ" ARCH=arm64 \
			CROSS_COMPILE="$CROSS_COMPILE" CC="ccache ${CROSS_COMPILE}gcc" -j"$JOBS" "$@"
	else
		flock "$BUILD_LOCK" make -C "$TREE" O="$OBJ" CC="ccache gcc" -j"$JOBS" "$@"
	fi
}

# A second work tree of the kernel tree, with its own objects, for the
# checks that move between the series' commits (bisect-check.sh,
# warnings-check.sh): the developer's tree and its HEAD stay untouched.
SERIES_WT=${SERIES_WT:-$BUILD/series-check}

# series_worktree: make $SERIES_WT if it is not there yet.
series_worktree() {
	if [ ! -e "$SERIES_WT/.git" ]; then
		git -C "$TREE" worktree prune
		git -C "$TREE" worktree add -q --detach "$SERIES_WT" pristine
	fi
}

# series_reference_config: print the path of the reference config: the
# kernel's own config, which builds the KUnit tests in (without running
# them), so that every file of the series is compiled and the last prefix
# shares its ccache objects with the kernel
# (kernel-config/sched-points-kunit.config).
series_reference_config() {
	local ref=$SERIES_WT/reference.config
	series_worktree
	VARIANT='' OBJ=$TREE/obj "$REPO/scripts/configure-kernel.sh" >&2
	grep -q '^CONFIG_SCHED_POINTS_KUNIT_TEST=y' "$TREE/obj/.config" ||
		die "the kernel's config does not build the KUnit tests (kernel-config/sched-points-kunit.config)"
	if [ ! -f "$ref" ] || ! cmp -s "$TREE/obj/.config" "$ref"; then
		cp "$TREE/obj/.config" "$ref.tmp"
		mv "$ref.tmp" "$ref"
	fi
	echo "$ref"
}

# series_checkout COMMIT: check COMMIT out in $SERIES_WT and configure it
# from the reference config.
series_checkout() {
	local ref
	ref=$(series_reference_config)
	git -C "$SERIES_WT" checkout -q --detach "$1"
	mkdir -p "$SERIES_WT/obj"
	cp "$ref" "$SERIES_WT/obj/.config"
	TREE=$SERIES_WT OBJ=$SERIES_WT/obj kmake -s olddefconfig >/dev/null
}

# series_make ARGS...: make in $SERIES_WT (serialized like every build).
series_make() {
	TREE=$SERIES_WT OBJ=$SERIES_WT/obj kmake "$@"
}

# tap_comment: copy stdin to stdout as TAP comment lines ("# ...").
tap_comment() { sed 's/^/# /'; }

# A modpost or linker warning: "WARNING: modpost: ...", "ld: warning: ...",
# "ld: FILE: warning: ..." (also x86_64-linux-gnu-ld, ld.bfd, ld.lld).
LINK_WARNING='^(WARNING: modpost: |([^ :]*-)?ld(\.[a-z]+)?: ([^ :]+: )?warning: )'

# build_warnings LOG FILE...: the lines of the build log LOG that fail a
# build of the series: a compiler warning or error at one of FILE... (the
# sources and headers the series touches), and any objtool, modpost or
# linker warning.
build_warnings() {
	local log=$1 files
	shift
	files=$(printf '%s\n' "$@" | sed 's/[.]/\\./g' | paste -sd'|')
	grep -aE "${files:+^(\.\./)*($files):[0-9]+:[0-9]+: (warning|error|fatal error):|}: warning: objtool: |$LINK_WARNING" \
		"$log" || true
}

# series_warnings LOG FILE...: the compiler warnings and errors of
# build_warnings at FILE... only, for a distribution's configuration, whose
# objtool and linker warnings are not the series'.
series_warnings() {
	local log=$1 files
	shift
	files=$(printf '%s\n' "$@" | sed 's/[.]/\\./g' | paste -sd'|')
	build_warnings "$log" "$@" | grep -aE "^(\.\./)*($files):" || true
}

# forget_warned TREE OBJ: read build_warnings' lines on stdin and make the
# next build in OBJ redo what printed them, so that it prints them again
# instead of passing: the object of a warned source goes, a warned header
# is touched (make rebuilds every object that includes it), an object
# objtool warned about goes, and a modpost or linker warning takes
# vmlinux.o, vmlinux and Module.symvers (the link and modpost run again).
forget_warned() {
	local tree=$1 obj=$2 line f
	while IFS= read -r line; do
		if [[ $line == *": warning: objtool: "* ]]; then
			rm -f "$obj/${line%%: warning: objtool: *}"
		elif [[ $line =~ $LINK_WARNING ]]; then
			rm -f "$obj/vmlinux.o" "$obj/vmlinux" "$obj/Module.symvers"
		else
			f=$(sed -E 's#^(\.\./)*##; s#:[0-9]+:[0-9]+: .*##' <<<"$line")
			if [[ $f == *.c ]]; then
				rm -f "$obj/${f%.c}.o"
			elif [ -f "$tree/$f" ]; then
				touch "$tree/$f"
			fi
		fi
	done
}

# build_results LABEL OBJ LOG OBJECTS...: a TAP result per object, to fd 3
# (counting in n, like tap_result): it was built in OBJ, and LOG has no
# warning or error about its source, nor an objtool warning about it.
build_results() {
	local label=$1 obj=$2 log=$3 o src warned
	shift 3
	for o in "$@"; do
		src=${o%.o}.c
		warned=$(grep -aE "^(\.\./)*$src:[0-9]+:[0-9]+: (warning|error|fatal error):|^$o: warning: objtool: " "$log" || true)
		if [ -f "$obj/$o" ] && [ -z "$warned" ]; then
			tap_result 0 "$label: $src builds without warnings" >&3
		else
			tap_comment <<<"${warned:-not built: see $log}" >&3
			tap_result 1 "$label: $src builds without warnings" >&3
		fi
	done
}

# build_touched LABEL [FILE.c=REASON...]: build in $OBJ, from $SERIES_WT,
# the object of every kernel .c file the series touches (not its
# selftests under tools/, userspace that kselftest builds; -k: all, into
# $OBJ/LABEL-build-make.log), then a TAP result per object and one for the
# headers the series touches, to fd 3 (build_results, header_results). A
# FILE.c given with a REASON is one the configuration does not build: a
# TAP comment that says why, not a result (a skip would fail the step).
build_touched() {
	local label=$1 f log=$OBJ/$1-build-make.log skip
	local -a srcs objs=() headers
	shift
	mapfile -t srcs < <(git -C "$SERIES_WT" diff --name-only pristine HEAD -- '*.c' ':!tools')
	for f in "${srcs[@]}"; do
		skip=$(printf '%s\n' "$@" | sed -n "s|^$f=||p")
		if [ -n "$skip" ]; then
			echo "# $label: $f is not built: $skip" >&3
			continue
		fi
		objs+=("${f%.c}.o")
	done
	(cd "$OBJ" && rm -f "${objs[@]}")
	# TOUCHED_MAKE: a make of the caller's (a cross compiler), else kmake.
	TREE=$SERIES_WT OBJ=$OBJ "${TOUCHED_MAKE:-kmake}" -k "${objs[@]}" >"$log" 2>&1 || true
	build_results "$label" "$OBJ" "$log" "${objs[@]}"
	mapfile -t headers < <(git -C "$SERIES_WT" diff --name-only pristine HEAD -- '*.h' ':!tools')
	header_results "$label" "$log" "${headers[@]}"
}

# header_results LABEL LOG HEADERS...: one TAP result, to fd 3: LOG has no
# warning or error at any of HEADERS (a warning in a header is reported at
# the header's line, whichever source included it).
header_results() {
	local label=$1 log=$2 warned
	shift 2
	warned=$(grep -aE "^(\.\./)*($(printf '%s\n' "$@" | sed 's/\./\\./g' | paste -sd'|')):[0-9]+:[0-9]+: (warning|error)" "$log" || true)
	[ $# != 0 ] || warned=
	[ -z "$warned" ] || tap_comment <<<"$warned" >&3
	tap_result "$([ -z "$warned" ] && echo 0 || echo 1)" "$label: the headers the series touches compile without warnings ($#)" >&3
}

# tap_result STATUS DESCRIPTION: print the next TAP result, counting in n;
# a STATUS other than 0 is "not ok" and sets rc=1 (the caller exits with it).
# shellcheck disable=SC2034 # rc is the calling script's exit status
tap_result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; rc=1; fi
}
