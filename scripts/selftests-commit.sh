#!/usr/bin/env bash
# The series' selftests patch, made from selftests/ (their source of
# truth): in the kernel tree, one commit that adds each selftests/NAME/ as
# tools/testing/selftests/NAME/ and lists NAME in the kselftest TARGETS,
# so that a tree with the series applied builds and installs the suite
# with the kselftest makefiles (make kselftest-install). Creates the
# commit, or brings an existing one (found by its subject) up to date
# with a fixup squashed in place, wherever it is in the series. Run by
# scripts/export-patches.sh before it writes patches/.
# --check: change nothing; fail when the tree's commit differs from
# selftests/ (make check runs it: what is tested is what is posted).
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,11s/^# \{0,1\}//p' "$0"
	echo "usage: $0 [--check]"
	exit 0
fi
source "$(dirname "$0")/env.sh"
subject="selftests/sched_points: Add tests for schedule-point accounting"
check=false
[ "${1:-}" != --check ] || check=true
[ -d "$TREE/.git" ] || die "no kernel tree at $TREE (make tree)"
# Edits of the tree's copy are not ours to keep (scripts/build-selftests.sh
# copies selftests/ over it); any other is.
git -C "$TREE" diff --quiet HEAD -- . ':(exclude)tools/testing/selftests' ||
	die "$TREE has uncommitted changes; commit them first"
sel=$TREE/tools/testing/selftests
commit=$(git -C "$TREE" log --format=%H --grep="^$subject\$" pristine..HEAD | head -1)

# sync: the tree's tools/testing/selftests/ as selftests/ has it (the
# build's products left out: make kselftest-install builds in place).
sync() {
	local d name
	for d in "$REPO"/selftests/*/; do
		name=$(basename "$d")
		rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='*.mod' \
			--exclude='*.mod.c' --exclude='.*.cmd' --exclude=Module.symvers \
			--exclude=modules.order "$d" "$sel/$name/"
		grep -qx "TARGETS += $name" "$sel/Makefile" ||
			sed -i "/^TARGETS += sched_ext\$/a TARGETS += $name" "$sel/Makefile"
		grep -qx "TARGETS += $name" "$sel/Makefile" ||
			die "no place for $name in $sel/Makefile's TARGETS"
		# Forced past the tree's exclude of the directory, file by
		# file: only what selftests/ has, never a build's product.
		(cd "$d" && find . -type f -printf "$sel/$name/%P\0") |
			xargs -0 git -C "$TREE" add -f --
		git -C "$TREE" add -u -- "$sel/$name" "$sel/Makefile"
	done
	# The tests are the feature's: its MAINTAINERS entry lists them.
	f="F:	tools/testing/selftests/sched_points/"
	if ! grep -qxF "$f" "$TREE/MAINTAINERS"; then
		sed -i "/^F:\tkernel\/sched\/points_proc.c\$/a $f" "$TREE/MAINTAINERS"
		grep -qxF "$f" "$TREE/MAINTAINERS" ||
			die "no SCHEDULE-POINT ACCOUNTING entry with kernel/sched/points_proc.c in MAINTAINERS"
		git -C "$TREE" add MAINTAINERS
	fi
}

if $check; then
	[ -n "$commit" ] || die "the series has no commit \"$subject\": run make export-patches"
	# The commit's files against selftests/, in a scratch checkout of them.
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	git -C "$TREE" archive "$commit" tools/testing/selftests | tar -x -C "$tmp"
	for d in "$REPO"/selftests/*/; do
		name=$(basename "$d")
		diff -r -q -x '*.o' -x '*.ko' -x '*.mod' -x '*.mod.c' -x '.*.cmd' \
			-x Module.symvers -x modules.order -x sched_points_test -x sp_parser_test \
			"$d" "$tmp/tools/testing/selftests/$name/" >&2 ||
			die "the series' selftests commit differs from selftests/$name/: run make export-patches"
		grep -qx "TARGETS += $name" "$tmp/tools/testing/selftests/Makefile" ||
			die "the series' selftests commit does not list $name in the kselftest TARGETS"
	done
	git -C "$TREE" show "$commit:MAINTAINERS" | grep -xF "F:	tools/testing/selftests/sched_points/" >/dev/null ||
		die "the series' selftests commit does not add the tests to MAINTAINERS"
	exit 0
fi

sync
git -C "$TREE" diff --cached --quiet && exit 0
if [ -z "$commit" ]; then
	git -C "$TREE" commit -q -F - <<EOF
$subject

The tests of schedule-point accounting, run as make check runs them in
QEMU: a harness suite (sched_points_test) that counts known schedule
points (a test module's among them) against kprobe+hist triggers and
sched_waking's stacks, under kretprobes and the function-graph tracer,
through fork storms, CPU hotplug, module churn, resizes and concurrent
readers, and every control's bad writes; a parser test of the file
formats (sp_parser_test); the test module (test_modules/). On a kernel
without CONFIG_SCHED_POINTS every test skips. README lists each test,
config the options they need.

Signed-off-by: Seed d117f1ee maintainers <maintainers@users.noreply.a-seed-d117f1ee.example>
EOF
	note "added the commit \"$subject\" from selftests/"
else
	git -C "$TREE" commit -q --fixup="$commit"
	GIT_SEQUENCE_EDITOR=: git -C "$TREE" rebase -q -i --autosquash "$commit^" ||
		die "squashing selftests/ into \"$subject\" failed: resolve in $TREE"
	note "brought the commit \"$subject\" up to date with selftests/"
fi
