#!/usr/bin/env bash
# Run some of the sched_points kselftests N times in a row, each time in a
# new guest of the kernel already built (make kernel, or VARIANT=debug),
# and count the runs each passed in: for a test suspected of flaking.
# KUnit does not run at boot (kunit.enable=0). With --load the tool's host
# tests run over and over beside the guests, niced, as make check runs
# them. Prints one TAP result per run and test, then "K of N runs passed";
# exits 1 if any run failed.
#
#   repeat-test.sh [-n N] [--load] TEST[,TEST...]
set -euo pipefail
usage() { echo "usage: [VARIANT=debug] $0 [-n N] [--load] TEST[,TEST...]"; }
runs=20 load=0
while [ $# -gt 0 ]; do
	case $1 in
	--help) sed -n '2,10s/^# \{0,1\}//p' "$0"; usage; exit 0 ;;
	-n) runs=${2:?-n needs a number}; shift 2 ;;
	--load) load=1; shift ;;
	-*) usage >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# = 1 ] || { usage >&2; exit 2; }
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "$0: -n wants a positive number, not '$runs'" >&2; exit 2; }
tests=$1
[[ $tests =~ ^[a-z0-9_]+(,[a-z0-9_]+)*$ ]] || { echo "$0: bad test list '$tests'" >&2; exit 2; }
source "$(dirname "$0")/env.sh"
out=$BUILD/repeat${VARIANT:+-$VARIANT}
mkdir -p "$out"

loader=
if [ "$load" = 1 ]; then
	# Its own process group, so that the whole of it (make, the tests,
	# the fuzzer) stops with us: an orphaned run would write into the
	# same tests/out as the next make check.
	# shellcheck disable=SC2016 # expanded by the inner shell
	setsid nice -n 10 bash -c 'while make -s -C "$1" check >/dev/null 2>&1; do :; done' \
		_ "$REPO/tools/schedpoints" &
	loader=$!
	trap 'kill -- -"$loader" 2>/dev/null || true' EXIT
fi

n=0 good=0
for ((run = 1; run <= runs; run++)); do
	rc=0
	SP_OUT=$out/run SP_APPEND="kunit.enable=0 sp.tests=$tests ${SP_APPEND:-}" \
		"$REPO/scripts/run-guest.sh" check >"$out/run-$run.log" 2>&1 || rc=$?
	cp "$out/run/share/tap.txt" "$out/run-$run.tap" 2>/dev/null || : >"$out/run-$run.tap"
	all=1
	for t in ${tests//,/ }; do
		n=$((n + 1))
		if [ "$rc" = 0 ] && grep -Eq "^# # ok [0-9]+ sp\.$t\$" "$out/run-$run.tap"; then
			echo "ok $n - run $run: $t"
		else
			all=0
			echo "not ok $n - run $run: $t (guest rc $rc; $out/run-$run.log, $out/run-$run.tap)"
			grep -E "^# # #.*$t" "$out/run-$run.tap" | head -10 | sed 's/^/#   /'
		fi
	done
	good=$((good + all))
done
echo "1..$n"
echo "$good of $runs runs passed"
[ "$good" = "$runs" ]
