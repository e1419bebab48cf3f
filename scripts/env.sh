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
# Out-of-tree objects: a direct subdirectory of the tree, so that ccache
# sees the same relative paths from any checkout (see the notes).
OBJ=${OBJ:-$TREE/obj${VARIANT:+-$VARIANT}}
# ccache lives outside the checkout so that CI and fresh clones reuse it.
export CCACHE_DIR=${CCACHE_DIR:-/var/cache/sched-points/ccache}
export CCACHE_BASEDIR=$REPO
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export KBUILD_BUILD_USER=sched-points
export KBUILD_BUILD_HOST=builder
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
JOBS=${JOBS:-$(nproc)}

die() { echo "$(basename "$0"): error: $*" >&2; exit 1; }
note() { echo "==> $*" >&2; }

# Kernel builds take both cores: one at a time on this machine, whoever
# starts them (a lock outside the checkout, shared by every clone).
BUILD_LOCK=${BUILD_LOCK:-/var/lock/sched-points-build.lock}

kmake() {
	flock "$BUILD_LOCK" make -C "$TREE" O="$OBJ" CC="ccache gcc" -j"$JOBS" "$@"
}
