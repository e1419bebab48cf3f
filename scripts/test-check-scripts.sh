#!/usr/bin/env bash
# Test the checks themselves: each planted fault must give the verdict
# written next to it. TAP on stdout, one result per case:
#  - count-tap.py on every scripts/tests/count-tap/*.tap, whose
#    "# expect: P F S" line is the verdict it must print (and
#    "# manifest: VARIANT" names the variant of that directory's manifest,
#    "# expect-stderr: LINE" a line its stderr must hold); and two of them
#    kept and replayed as make check replays the arm64 guest's TAP
#    (result_replay nested): judged the same, every ok "(cached)";
#  - scan-splats.sh on each line of scripts/tests/splats/reports.txt (each
#    must make it exit exactly 1), on clean.txt (exactly 0) and a missing log (2);
#  - check-taint.sh on synthetic consoles, and run-guest.sh against a fake
#    QEMU (a stalled first boot's splats, an unexpected taint, no marker);
#  - .ci/run against a fake make: none of the variables that shrink the run
#    reach it;
#  - install-deps.sh against a fake apt, systemctl, invoke-rc.d and
#    update-rc.d, with and without systemd running: only the packages of
#    the groups asked for (check: the arm64 guest's too), said with their
#    sizes before the install; no service started or left enabled (no new
#    systemd link or SysV S link), a policy-rc.d put back; the one-time
#    clean-up of the services an earlier install of ours left enabled;
#  - build-kernel.sh, rt-build-check.sh and bisect-check.sh on a fake
#    kernel tree with a fake kbuild (scripts/tests/kbuild/make): planted
#    header, objtool, modpost and linker warnings fail, and fail again on
#    the next run; a cached pass is not replayed for another tree on disk
#    or another KCFLAGS; the cache keys hold ld's version and
#    ~/.checkpatch.conf;
#  - shellcheck-disables.sh on scripts/tests/shellcheck/ (a disable that
#    covers a whole file, or gives no reason, is refused);
#  - new-warnings.sh on scripts/tests/warnings/ (a new instance of an old
#    text is new, moved lines are not), and env.sh's build_warnings on its
#    build.log (objtool, modpost and each form of linker warning);
#  - docs.py --quotes on a copy of Documentation/performance.md with a
#    planted change in "What the figures say" (a figure or a whole number
#    not in the run of "Latest results", a derived number computed wrong
#    or from numbers not in it, one with no computation, an undated
#    older run);
#  - docs.py --line-counts on a copy of the cover letter with a count of
#    the series' own kernel C changed, and with none;
#  - docs.py --pictures on a copy of README.md and of its latency heat map
#    with a planted change (a stale picture, the picture of another
#    capture, an image of another file);
#  - the macro bench without a kernel: field-config-check.sh on two
#    configurations, field-bench-report.sh on scripts/tests/field-bench/
#    (the report and --text table as committed), and field-bench.sh
#    through field-bench-run.sh against a fake QEMU: a run's results, a
#    boot with no verdict, kernels whose configurations differ;
#  - selftests/manifest names every TEST of the suite, for the main kernel,
#    and selftests/sched_points/README says what each of sched_points_test.c
#    proves.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,50s/^# \{0,1\}//p' "$0"
	exit 0
fi
source "$(dirname "$0")/env.sh"
t=$REPO/scripts/tests
n=0 rc=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in "$t"/count-tap/*.tap; do
	want=$(sed -n 's/^# expect: //p' "$f")
	variant=$(sed -n 's/^# manifest: //p' "$f")
	args=()
	[ -z "$variant" ] || args=(--manifest "$t/count-tap/manifest" --variant "$variant")
	stderr_want=$(sed -n 's/^# expect-stderr: //p' "$f")
	got=$("$REPO/scripts/count-tap.py" "${args[@]}" "$f" 2>"$tmp/stderr") || got="exit $?"
	# a failure's diagnostics reach stderr, and only its own
	if [ -n "$stderr_want" ] && { ! grep -qxF -- "$stderr_want" "$tmp/stderr" ||
		grep -q "not b's" "$tmp/stderr"; }; then
		got+=" (stderr lacks '$stderr_want' or has another test's line)"
	fi
	[ "$got" = "$want" ] || echo "# got '$got', want '$want'"
	tap_result "$([ "$got" = "$want" ] && echo 0 || echo 1)" "count-tap.py $(basename "$f"): $want"
done

# A guest's kept TAP (result_replay KEY nested, as make check replays the
# arm64 guest's): every ok at any depth says (cached), and the replay is
# judged against the manifest as the run was (the results keep their names).
for f in good allowed-skip; do
	f=$t/count-tap/$f.tap
	want=$(sed -n 's/^# expect: //p' "$f")
	got=$(source "$REPO/scripts/result-cache.sh"
		RESULT_CACHE=$tmp/results
		result_put kept <"$f"
		result_replay kept nested >"$tmp/replay.tap"
		"$REPO/scripts/count-tap.py" --manifest "$t/count-tap/manifest" \
			--variant "$(sed -n 's/^# manifest: //p' "$f")" "$tmp/replay.tap") || got="exit $?"
	unmarked=$(grep -E '^[# ]*ok ' "$tmp/replay.tap" | grep -vc ' # (cached)$' || true)
	[ "$got $unmarked" = "$want 0" ] || echo "# got '$got', $unmarked ok lines not marked"
	tap_result "$([ "$got $unmarked" = "$want 0" ] && echo 0 || echo 1)" \
		"result_replay nested: $(basename "$f") replayed, every ok (cached), judged $want as run"
done

# scan STATUS ARGS...: scan-splats.sh ARGS exits with exactly STATUS (1: a
# report, 0: clean, 2: it could not scan); its output goes to $tmp/scan.out.
scan() {
	local want=$1 got=0
	shift
	"$REPO/scripts/scan-splats.sh" "$@" >"$tmp/scan.out" 2>&1 || got=$?
	[ "$got" = "$want" ] || { echo "# scan-splats.sh $*: exit $got, want $want"; return 1; }
}
missed=0 lines=0
while IFS= read -r line; do
	[[ $line == \#* ]] && continue
	lines=$((lines + 1))
	printf '%s\n' "$line" >"$tmp/one.log"
	if ! { scan 1 "$tmp/one.log" && grep -qF -- "$tmp/one.log:1:" "$tmp/scan.out"; }; then
		echo "# not flagged: $line"
		missed=$((missed + 1))
	fi
done <"$t/splats/reports.txt"
tap_result "$missed" "scan-splats.sh flags each of $lines report lines (exit 1, FILE:LINE: printed)"
dirty=0
if ! { scan 0 "$t/splats/clean.txt" && [ ! -s "$tmp/scan.out" ]; }; then
	tap_comment <"$tmp/scan.out"
	dirty=1
fi
tap_result "$dirty" "scan-splats.sh passes a clean log (exit 0, nothing printed)"
# A report in the second of two logs, and a log that is not there.
tap_result "$(scan 1 "$t/splats/clean.txt" "$tmp/one.log" && echo 0 || echo 1)" \
	"scan-splats.sh flags a report in the second of two logs (exit 1)"
tap_result "$(scan 2 "$tmp/no-such.log" && echo 0 || echo 1)" \
	"scan-splats.sh cannot scan a log that is not there (exit 2)"

# check-taint.sh on synthetic consoles (serial lines end in \r): only the
# expected flags pass, and a console without the marker fails.
taint_case() { # WANT-STATUS CONSOLE-TEXT DESCRIPTION
	local got=0
	printf '%b' "$2" >"$tmp/taint.log"
	"$REPO/scripts/check-taint.sh" "$tmp/taint.log" >"$tmp/taint.out" 2>&1 || got=$?
	[ "$got" = "$1" ] || { echo "# check-taint.sh: exit $got, want $1"; tap_comment <"$tmp/taint.out"; }
	tap_result "$([ "$got" = "$1" ] && echo 0 || echo 1)" "check-taint.sh: $3"
}
taint_case 0 'boot\r\nsp-tainted: 0\r\n' "an untainted kernel passes"
taint_case 0 '[   61.042137] sp-tainted: 266240\r\n' "O (the test module) and N (KUnit) are expected"
taint_case 1 'sp-tainted: 4608\r\n' "W (a WARN) beside O fails"
taint_case 1 'sp-tainted: 16384\n' "L (a soft lockup) fails"
taint_case 1 'sp-tainted: 0\nsp-tainted: 128\n' "the last marker counts: D (an oops) fails"
taint_case 1 'boot\r\nrc=0\r\n' "a console without the marker fails"
tap_result "$(grep -qE '^echo "<4>sp-tainted: \$\(cat /proc/sys/kernel/tainted\)" >/dev/kmsg$' \
	"$REPO/scripts/guest/init" && echo 0 || echo 1)" "guest/init prints the taint marker that check-taint.sh reads"

# run-guest.sh against a fake QEMU: $tmp/qemu/boot-N/ says what boot N
# does: console.txt goes to the console, share/ to the 9p share, and a
# file "stall" makes it wait, never reaching init (so that run-guest.sh
# boots again after SP_BOOT_LIMIT).
mkdir -p "$tmp/bin"
cat >"$tmp/bin/qemu-system-x86_64" <<'FAKE'
#!/usr/bin/env bash
set -euo pipefail
while [ $# -gt 0 ]; do
	case $1 in
	-serial) console=${2#file:}; shift ;;
	-virtfs) share=${2#local,path=}; share=${share%%,*}; shift ;;
	esac
	shift
done
n=$(($(cat "$FAKE_QEMU/boots" 2>/dev/null || echo 0) + 1))
echo "$n" >"$FAKE_QEMU/boots"
boot=$FAKE_QEMU/boot-$n
cp "$boot/console.txt" "$console"
[ ! -d "$boot/share" ] || cp -r "$boot/share/." "$share/"
[ ! -e "$boot/stall" ] || exec sleep 60
exit 1 # isa-debug-exit with status 0
FAKE
chmod +x "$tmp/bin/qemu-system-x86_64"
: >"$tmp/bzImage"
: >"$tmp/initrd"
# fake_boot N CONSOLE-TEXT [stall|TAINT]: what boot N does; a boot that
# does not stall reaches the end of init, with taint flags TAINT.
fake_boot() {
	local b=$tmp/qemu/boot-$1
	mkdir -p "$b"
	printf '%b' "$2" >"$b/console.txt"
	if [ "${3:-0}" = stall ]; then
		touch "$b/stall"
		return
	fi
	mkdir -p "$b/share"
	printf 'ok 1 fake\n1..1\n' >"$b/share/tap.txt"
	printf 'Linux version 6.12\n' >"$b/share/dmesg.txt"
	echo rc=0 >"$b/share/verdict"
	printf 'sp-tainted: %s\r\n' "${3:-0}" >>"$b/console.txt"
}
# guest_case WANT-STATUS DESCRIPTION: run-guest.sh check on the fake boots
# set up by fake_boot; its exit status must be WANT-STATUS (0 or 1).
guest_case() {
	local got=0
	PATH=$tmp/bin:$PATH FAKE_QEMU=$tmp/qemu SP_KERNEL=$tmp/bzImage SP_INITRD=$tmp/initrd \
		SP_OUT=$tmp/guest SP_BOOT_LIMIT=1 SP_INJECT='' SP_APPEND='' SP_ACCEL='' \
		"$REPO/scripts/run-guest.sh" check >"$tmp/guest.out" 2>&1 || got=$?
	[ "$got" = "$1" ] || { echo "# run-guest.sh: exit $got, want $1"; tap_comment <"$tmp/guest.out"; }
	tap_result "$([ "$got" = "$1" ] && echo 0 || echo 1)" "run-guest.sh (fake QEMU): $2"
	rm -rf "$tmp/qemu"
}
fake_boot 1 'Linux version 6.12\r\nRun /init as init process\r\n' 4096
guest_case 0 "a clean run with the test module loaded passes"
fake_boot 1 'Linux version 6.12\r\n' stall
fake_boot 2 'Linux version 6.12\r\nRun /init as init process\r\n'
guest_case 0 "a clean stalled first boot, then a good one, passes"
fake_boot 1 'Linux version 6.12\r
rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\r
watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [swapper/0:1]\r
BUG: KASAN: slab-use-after-free in acpi_ps_parse_loop+0x1c/0x2a0\r\n' stall
fake_boot 2 'Linux version 6.12\r\nRun /init as init process\r\n'
guest_case 1 "splats in a stalled first boot's console fail the run"
fake_boot 1 'Linux version 6.12\r\n' 4608
guest_case 1 "an unexpected taint flag (W) fails the run"
fake_boot 1 'Linux version 6.12\r\n'
sed -i '/sp-tainted/d' "$tmp/qemu/boot-1/console.txt"
guest_case 1 "a console without the taint marker fails the run"

# .ci/run: make check with none of the variables that shrink the run,
# each named on stderr. A fake make records its arguments, directory and
# environment.
mkdir -p "$tmp/ci/.ci" "$tmp/cibin"
cp "$REPO/.ci/run" "$tmp/ci/.ci/run"
cat >"$tmp/cibin/make" <<'FAKE'
#!/usr/bin/env bash
{ echo "args: $*"; echo "dir: $PWD"; env; } >"$(dirname "$0")/../ci.out"
FAKE
chmod +x "$tmp/cibin/make"
shrinking=(SP_VARIANTS=main SP_HOST_TESTS=0 SP_INJECT=fail SP_ACCEL=kvm SP_APPEND=sp.tests=stress
	SP_TIMEOUT=1 SP_QEMU_ARGS=-S RESULT_CACHE=/tmp/planted FUZZ_SHORT=1 ASAN_OPTIONS=detect_leaks=0
	UBSAN_OPTIONS=halt_on_error=0 LSAN_OPTIONS=exitcode=0 KCFLAGS=-w KCPPFLAGS=-w CFLAGS_KERNEL=-w
	KBUILD_MODPOST_WARN=1 MAKEFLAGS=-i VARIANT=debug TREE=/tmp/other)
ci_err=$(env "${shrinking[@]}" PATH="$tmp/cibin:$PATH" \
	"$tmp/ci/.ci/run" 2>&1) || true
leaked=
for v in "${shrinking[@]}"; do
	grep -qx -- "$v" "$tmp/ci.out" 2>/dev/null && leaked+=" ${v%%=*}"
	grep -q -- " ${v%%=*}\( \|$\)" <<<"$ci_err" || leaked+=" ${v%%=*}(not named)"
done
grep -qx "args: check" "$tmp/ci.out" 2>/dev/null && grep -qx "dir: $tmp/ci" "$tmp/ci.out" ||
	leaked+=" (make check was not run at the top)"
[ -z "$leaked" ] || echo "# .ci/run passed on:$leaked"
tap_result "$([ -z "$leaked" ] && echo 0 || echo 1)" \
	".ci/run: make check without SP_VARIANTS, SP_HOST_TESTS, RESULT_CACHE, KCFLAGS, MAKEFLAGS... (each named)"

# install-deps.sh against a fake apt (apt-get, apt-cache, dpkg-query), a
# fake systemctl, invoke-rc.d and update-rc.d, a fake /etc/systemd/system
# ($d/etc) and a fake /etc's init.d and rc?.d ($d/sysv): a package in
# $d/missing/ is not installed yet, and installing it does what its
# postinst does: enables each unit of $d/units/PKG (a link, as
# deb-systemd-helper makes it), for a package with an init script
# ($d/initd/PKG) runs update-rc.d NAME defaults (S links), then starts the
# unit through invoke-rc.d, which asks policy-rc.d first (exit 101: no).
# $d/run present is systemd running (/run/systemd/system), absent is a
# machine or container without it, where the fake systemctl cannot start
# or stop. The fakes log what they do to $d/log.
d=$tmp/deps
mkdir -p "$d/bin"
cat >"$d/bin/dpkg-query" <<'FAKE'
#!/usr/bin/env bash
[ ! -e "$FAKE_DEPS/missing/${*: -1}" ] || exit 1
echo "install ok installed"
FAKE
cat >"$d/bin/apt-get" <<'FAKE'
#!/usr/bin/env bash
set -euo pipefail
[ "$1" = install ] || { echo "apt-get $*" >>"$FAKE_DEPS/log"; exit 0; }
shift
# $FAKE_DEPS/broken: every real install fails, after its start attempt
sim=0 pkgs=()
for a in "$@"; do
	case $a in -s) sim=1 ;; -*) ;; *) pkgs+=("$a") ;; esac
done
for p in "${pkgs[@]}"; do
	if [ $sim = 1 ]; then echo "Inst $p (1.0 Debian:12 [amd64])"; continue; fi
	echo "fake apt-get: installing $p" >&2
	echo "installed $p" >>"$FAKE_DEPS/log"
	rm -f "$FAKE_DEPS/missing/$p"
	while read -r link; do
		mkdir -p "$SYSTEMD_ROOT/$(dirname "$link")"
		ln -s "/lib/systemd/system/${link##*/}" "$SYSTEMD_ROOT/$link"
	done < <(cat "$FAKE_DEPS/units/$p" 2>/dev/null)
	if [ -e "$FAKE_DEPS/initd/$p" ]; then
		printf '#!/bin/sh\n' >"$SYSV_ROOT/init.d/$p"
		chmod +x "$SYSV_ROOT/init.d/$p"
		update-rc.d "$p" defaults
	fi
	[ ! -e "$FAKE_DEPS/units/$p" ] && [ ! -e "$FAKE_DEPS/initd/$p" ] ||
		invoke-rc.d "$p" start
	[ ! -e "$FAKE_DEPS/broken" ] || { echo "E: Sub-process /usr/bin/dpkg returned an error code (1)" >&2; exit 100; }
done
FAKE
# invoke-rc.d NAME ACTION: policy-rc.d first, as the real one does (and
# deb-systemd-invoke); a start it allows is a started service.
cat >"$d/bin/invoke-rc.d" <<'FAKE'
#!/usr/bin/env bash
echo "invoke-rc.d $*" >>"$FAKE_DEPS/log"
policy=0
[ ! -x "$POLICY_RC_D" ] || "$POLICY_RC_D" "$1" "$2" || policy=$?
[ $policy != 101 ] || { echo "invoke-rc.d: policy-rc.d denied execution of $2." >&2; exit 0; }
case $2 in start) echo "started $1" >>"$FAKE_DEPS/log" ;; stop) echo "stopped $1" >>"$FAKE_DEPS/log" ;; esac
FAKE
cat >"$d/bin/update-rc.d" <<'FAKE'
#!/usr/bin/env bash
echo "update-rc.d $*" >>"$FAKE_DEPS/log"
case $2 in
defaults) for r in 2 3 4 5; do ln -sfn "../init.d/$1" "$SYSV_ROOT/rc$r.d/S01$1"; done ;;
disable) for l in "$SYSV_ROOT"/rc?.d/S??"$1"; do
		[ ! -L "$l" ] || mv "$l" "${l%/*}/K${l##*/S}"
	done ;;
esac
FAKE
cat >"$d/bin/apt-cache" <<'FAKE'
#!/usr/bin/env bash
for p in "$@"; do
	[[ $p == -* || $p == show ]] || printf 'Package: %s\nSize: 1500000\nInstalled-Size: 2048\n\n' "$p"
done
FAKE
cat >"$d/bin/systemctl" <<'FAKE'
#!/usr/bin/env bash
u=${*: -1}
echo "systemctl $*" >>"$FAKE_DEPS/log"
case $1 in
start|stop) [ -d "$SYSTEMD_RUN" ] ||
		{ echo "System has not been booted with systemd as init system (PID 1). Can't operate." >&2; exit 1; }
	[ "$1" != start ] || echo "started $u" >>"$FAKE_DEPS/log" ;;
disable) find "$SYSTEMD_ROOT" -type l -lname "*/$u" -delete ;;
is-enabled) [ -n "$(find "$SYSTEMD_ROOT" -path "*.wants/$u" -type l)" ] && echo enabled || { echo disabled; exit 1; } ;;
esac
FAKE
printf '#!/bin/sh\necho 0\n' >"$d/bin/id"
chmod +x "$d"/bin/*
# deps_reset: nothing missing, no unit, no policy-rc.d, no history.
deps_reset() {
	rm -rf "${d:?}"/{missing,units,initd,etc,sysv,run,state,apt,log,broken} "$d/policy-rc.d"*
	mkdir -p "$d/missing" "$d/units" "$d/initd" "$d/etc/multi-user.target.wants" \
		"$d/run" "$d/apt" "$d/sysv/init.d" "$d"/sysv/rc{0,1,2,3,4,5,6,S}.d
	ln -s /lib/systemd/system/ssh.service "$d/etc/multi-user.target.wants/ssh.service"
	ln -s ../init.d/ssh "$d/sysv/rc2.d/S01ssh"
	: >"$d/log"
}
# An arm64 busybox already fetched (install-deps.sh arm64 fetches it once).
mkdir -p "$d/arm64-debs/root/bin"
printf '#!/bin/sh\n' >"$d/arm64-debs/root/bin/busybox"
chmod +x "$d/arm64-debs/root/bin/busybox"
# deps_run GROUP...: install-deps.sh on the fakes; output to $d/out.
deps_run() {
	env FAKE_DEPS="$d" PATH="$d/bin:$PATH" SYSTEMD_ROOT="$d/etc" SYSTEMD_RUN="$d/run" SYSV_ROOT="$d/sysv" \
		POLICY_RC_D="$d/policy-rc.d" SP_STATE_DIR="$d/state" APT_HISTORY_DIR="$d/apt" \
		ARM64_DEBS="$d/arm64-debs" \
		KERNEL_SRC=/nowhere "$REPO/scripts/install-deps.sh" "$@" >"$d/out" 2>&1 ||
		echo "# install-deps.sh $*: exit $?"
}
# links: what starts at boot, systemd's links and the SysV S links.
links() { (cd "$d" && find etc sysv -type l \( -path 'etc/*' -o -name 'S*' \) | sort); }
# deps_result DESCRIPTION PROBLEM: a TAP result, failing when PROBLEM is
# not empty (with it and install-deps.sh's output as comments).
deps_result() {
	[ -z "$2" ] || { echo "# $2"; tap_comment <"$d/out"; }
	tap_result "$([ -z "$2" ] && echo 0 || echo 1)" "install-deps.sh (fake apt): $1"
}

deps_reset
touch "$d/missing/qemu-system-x86" "$d/missing/prometheus"
deps_run demo
problem=
grep -qx "installed qemu-system-x86" "$d/log" || problem+=" qemu-system-x86 not installed;"
! grep -qx "installed prometheus" "$d/log" || problem+=" prometheus (host-tests) installed for the demo;"
deps_result "the demo's packages only (qemu-system-x86, not the host tests' prometheus)" "$problem"
first=$(grep -nm1 'fake apt-get: installing' "$d/out" | cut -d: -f1 || true)
said=$(grep -nm1 -E 'apt installs 1 packages \(download 1\.5 MB, installed 2\.1 MB\): qemu-system-x86$' "$d/out" | cut -d: -f1 || true)
deps_result "says which packages and how much (download, installed) before installing" \
	"$([ -n "$said" ] && [ -n "$first" ] && [ "$said" -lt "$first" ] || echo "no size line before the install")"

deps_reset
touch "$d/missing/prometheus"
echo multi-user.target.wants/prometheus.service >"$d/units/prometheus"
links >"$d/links.before"
deps_run check
problem=
[ "$(FAKE_DEPS=$d SYSTEMD_ROOT=$d/etc "$d/bin/systemctl" is-enabled prometheus.service)" = disabled ] ||
	problem+=" prometheus.service enabled;"
links | cmp -s - "$d/links.before" || problem+=" new unit links: $(links | comm -13 "$d/links.before" - | tr '\n' ' ');"
grep -q '==> disabling prometheus.service' "$d/out" || problem+=" not said on stderr;"
deps_result "a unit that the install enables is disabled again, said, and no new unit is left" "$problem"
deps_result "no service starts during the install (policy-rc.d exits 101), none is left after" \
	"$(grep '^started' "$d/log" | tr '\n' ' ')$([ ! -e "$d/policy-rc.d" ] || echo "policy-rc.d left behind")"

deps_reset
touch "$d/missing/prometheus"
echo multi-user.target.wants/prometheus.service >"$d/units/prometheus"
printf '#!/bin/sh\n# the machine'"'"'s own\nexit 0\n' >"$d/policy-rc.d"
chmod 750 "$d/policy-rc.d"
cp -p "$d/policy-rc.d" "$d/own-policy"
deps_run host-tests
problem=$(grep '^started' "$d/log" | tr '\n' ' ' || true)
cmp -s "$d/policy-rc.d" "$d/own-policy" && [ "$(stat -c %a "$d/policy-rc.d")" = 750 ] ||
	problem+=" the machine's policy-rc.d was not put back as it was;"
[ -z "$(find "$d" -maxdepth 1 -name 'policy-rc.d?*')" ] || problem+=" a saved copy is left;"
deps_result "a policy-rc.d of the machine's is replaced during the install (no start) and put back" "$problem"

# An install that fails: the script fails, and the policy-rc.d and the
# unit it enabled are not left behind.
deps_reset
touch "$d/missing/prometheus" "$d/broken"
echo multi-user.target.wants/prometheus.service >"$d/units/prometheus"
links >"$d/links.before"
problem=
deps_run host-tests | grep -q '^# install-deps.sh host-tests: exit [1-9]' || problem+=" exit status 0;"
[ ! -e "$d/policy-rc.d" ] || problem+=" policy-rc.d left behind;"
links | cmp -s - "$d/links.before" || problem+=" new boot links: $(links | comm -13 "$d/links.before" - | tr '\n' ' ');"
problem+=$(grep '^started' "$d/log" | tr '\n' ' ' || true)
deps_result "a failed install fails, leaves no policy-rc.d and no unit enabled" "$problem"

# make check boots the arm64 guest: its group installs what that needs,
# and says so.
deps_reset
touch "$d/missing/qemu-system-arm" "$d/missing/libc6-dev-arm64-cross"
deps_run check
problem=
grep -qx "installed qemu-system-arm" "$d/log" || problem+=" qemu-system-arm not installed;"
grep -qE 'apt installs 2 packages .*: libc6-dev-arm64-cross qemu-system-arm$' "$d/out" ||
	problem+=" not said before the install;"
deps_result "check installs the arm64 guest's packages (qemu-system-arm, libc6-dev-arm64-cross), said first" "$problem"

# A run killed during its install left our policy-rc.d and the machine's
# aside: the next run, with nothing missing, puts the machine's back.
deps_reset
printf '#!/bin/sh\n# the machine'"'"'s own\nexit 0\n' >"$d/policy-rc.d.sched-points-saved"
printf '#!/bin/sh\n# sched-points install-deps.sh: no service starts during the install\nexit 101\n' >"$d/policy-rc.d"
deps_run check
problem=
grep -qx "# the machine's own" "$d/policy-rc.d" || problem+=" the machine's policy-rc.d not back;"
[ ! -e "$d/policy-rc.d.sched-points-saved" ] || problem+=" the saved copy is left;"
deps_result "a policy-rc.d left by a killed run is put back, even with nothing to install" "$problem"

# The clean-up once: prometheus.service, enabled by an install of ours
# (apt's history), is disabled and stopped; prometheus-node-exporter.service,
# installed by the user, is not; then a unit the user enables again stays.
deps_reset
for u in prometheus prometheus-node-exporter; do
	ln -s "/lib/systemd/system/$u.service" "$d/etc/multi-user.target.wants/$u.service"
done
printf '%s\n' "Start-Date: 2026-12-03  09:38:03" \
	"Commandline: apt-get install -y --no-install-recommends bison prometheus" \
	"Commandline: apt install prometheus-node-exporter" >"$d/apt/history.log"
deps_run
problem=
[ ! -e "$d/etc/multi-user.target.wants/prometheus.service" ] || problem+=" prometheus.service still enabled;"
grep -qx "systemctl stop prometheus.service" "$d/log" || problem+=" not stopped;"
[ -e "$d/etc/multi-user.target.wants/prometheus-node-exporter.service" ] &&
	! grep -q node-exporter "$d/log" || problem+=" the user's prometheus-node-exporter.service was touched;"
grep -q '==> disabling prometheus.service' "$d/out" || problem+=" not said on stderr;"
[ -e "$d/state/services-cleaned-up" ] || problem+=" no stamp;"
deps_result "once: a service an earlier install of ours left enabled is disabled and stopped, the user's is not" "$problem"
ln -sfn /lib/systemd/system/prometheus.service "$d/etc/multi-user.target.wants/prometheus.service"
: >"$d/log"
deps_run
deps_result "after the clean-up (stamp), a service the user enables again is left alone" \
	"$([ -e "$d/state/services-cleaned-up" ] && [ -e "$d/etc/multi-user.target.wants/prometheus.service" ] &&
		[ ! -s "$d/log" ] || echo "stamp missing or prometheus.service touched: $(cat "$d/log")")"

# Without systemd running (a container, another init: this machine's
# systemctl is-system-running says offline): a package with an init
# script and a unit is installed; invoke-rc.d is refused the start, its S
# links and its unit's link are removed again, and no systemctl start or
# stop is tried (it cannot operate there).
deps_reset
rmdir "$d/run"
touch "$d/missing/prometheus"
echo multi-user.target.wants/prometheus.service >"$d/units/prometheus"
: >"$d/initd/prometheus"
links >"$d/links.before"
deps_run host-tests
problem=$(grep '^started' "$d/log" | tr '\n' ' ' || true)
grep -qx "invoke-rc.d prometheus start" "$d/log" || problem+=" the fake postinst did not try a start;"
links | cmp -s - "$d/links.before" || problem+=" new boot links: $(links | comm -13 "$d/links.before" - | tr '\n' ' ');"
! grep -q '^systemctl \(start\|stop\)' "$d/log" || problem+=" systemctl start/stop tried without systemd;"
grep -q '==> disabling prometheus.service and stopping it, systemd not running' "$d/out" ||
	problem+=" not said on stderr;"
deps_result "without systemd: no start through invoke-rc.d, no S link or unit link left" "$problem"

# Without systemd, the clean-up once: an earlier install of ours left the
# init script's S links and the service running: update-rc.d disables it,
# invoke-rc.d stops it; the user's ssh stays.
deps_reset
rmdir "$d/run"
printf '#!/bin/sh\n' >"$d/sysv/init.d/prometheus"
chmod +x "$d/sysv/init.d/prometheus"
for r in 2 3 4 5; do ln -s ../init.d/prometheus "$d/sysv/rc$r.d/S01prometheus"; done
printf '%s\n' "Commandline: apt-get install -y --no-install-recommends bison prometheus" >"$d/apt/history.log"
deps_run
problem=
[ -z "$(find "$d/sysv" -name 'S??prometheus')" ] || problem+=" S links of prometheus left;"
grep -qx "stopped prometheus" "$d/log" || problem+=" not stopped through invoke-rc.d;"
! grep -q '^systemctl \(start\|stop\)' "$d/log" || problem+=" systemctl start/stop tried without systemd;"
[ -L "$d/sysv/rc2.d/S01ssh" ] || problem+=" the user's ssh was touched;"
grep -q '==> disabling prometheus.service and stopping it, systemd not running' "$d/out" ||
	problem+=" not said on stderr;"
deps_result "without systemd, once: an init script an earlier install of ours left enabled is disabled and stopped" "$problem"

# The build scripts on a fake kernel tree ($k/linux: a pristine commit and
# one patch) with a fake kbuild (scripts/tests/kbuild/make: make's rebuild
# rule, warnings planted in the sources), from a copy of these scripts
# whose tree preparation is stubbed out.
k=$tmp/k
mkdir -p "$k/bin" "$k/repo" "$k/linux" "$k/build"
cp -r "$REPO/scripts" "$REPO/kernel-config" "$k/repo/"
cp "$t/kbuild/make" "$k/bin/make"
printf '#!/bin/sh\n' >"$k/repo/scripts/prepare-tree.sh"
cat >"$k/repo/scripts/configure-kernel.sh" <<'STUB'
#!/usr/bin/env bash
source "$(dirname "$0")/env.sh"
mkdir -p "$OBJ"
printf 'CONFIG_SCHED_POINTS=y\nCONFIG_SCHED_POINTS_KUNIT_TEST=y\n' >"$OBJ/.config"
STUB
(
	cd "$k/linux"
	git init -q
	git config user.email test@example.org
	git config user.name test
	mkdir -p kernel/sched kernel/locking include/linux scripts/kconfig
	printf '.*\n!.gitignore\n' >.gitignore
	echo /obj/ >>.git/info/exclude
	cat >scripts/kconfig/merge_config.sh <<'STUB'
#!/bin/sh
while getopts mO: o; do [ "$o" != O ] || out=$OPTARG; done
shift $((OPTIND - 1))
shift
cat "$@" >>"$out/.config"
STUB
	chmod +x scripts/kconfig/merge_config.sh
	echo 'int sched;' >include/linux/sched.h
	echo '#include "include/linux/sched.h"' >kernel/sched/core.c
	echo 'int rtmutex;' >kernel/locking/rtmutex_api.c
	echo 'int rtlock;' >kernel/locking/spinlock_rt.c
	git add -A
	git commit -qm pristine
	git tag pristine
	echo 'int points;' >include/linux/points.h
	printf '#include "include/linux/points.h"\nint hit;\n' >kernel/sched/points.c
	echo '#include "include/linux/points.h"' >kernel/sched/build_policy.c
	echo '#include "include/linux/points.h"' >>kernel/sched/core.c
	git add -A
	git commit -qm "sched: schedule points"
)
chmod +x "$k/repo/scripts/prepare-tree.sh" "$k/repo/scripts/configure-kernel.sh"
# kbuild_case WANT SCRIPT DESCRIPTION [VAR=VALUE...]: the fake repository's
# SCRIPT on the fake tree exits WANT (0: passes, 1: fails).
kbuild_case() {
	local want=$1 script=$2 what=$3 got=0
	shift 3
	env -u OBJ -u VARIANT -u SERIES_WT -u SERIES_HEAD -u KCFLAGS -u MAKEFLAGS PATH="$k/bin:$PATH" \
		TREE="$k/linux" BUILD="$k/build" BUILD_LOCK="$k/lock" RESULT_CACHE="$k/results" \
		CCACHE_DIR="$k/ccache" "$@" "$k/repo/scripts/$script" >"$k/out" 2>&1 || got=$?
	[ "$got" = 0 ] || got=1
	# a failure must be the planted one, not the harness's
	[ "$got" = 0 ] || grep -qE 'planted|from KCFLAGS' "$k/out" || got="1 (not for what was planted)"
	[ "$got" = "$want" ] || { echo "# $script: exit $got, want $want"; tap_comment <"$k/out"; }
	tap_result "$([ "$got" = "$want" ] && echo 0 || echo 1)" "$script (fake kbuild): $what"
}
# plant FILE [WORD]: put WORD (PLANT_WARNING...) in FILE of the fake tree,
# or without WORD take every planted word out.
plant() {
	if [ -n "${2:-}" ]; then echo "/* $2 */" >>"$k/linux/$1"; else sed -i '/PLANT_/d' "$k/linux/$1"; fi
}
kbuild_case 0 build-kernel.sh "the clean series builds"
plant include/linux/points.h PLANT_WARNING
kbuild_case 1 build-kernel.sh "a warning in a header of the series fails"
kbuild_case 1 build-kernel.sh "header: ... and fails again on the next run (sticky)"
plant include/linux/points.h
kbuild_case 0 build-kernel.sh "header: ... until it is fixed"
# (a source whose name holds "ld" is no linker)
plant kernel/sched/build_policy.c PLANT_WARNING
kbuild_case 1 build-kernel.sh "a warning in a source of the series fails"
kbuild_case 1 build-kernel.sh "source: ... and fails again on the next run (sticky)"
plant kernel/sched/build_policy.c
kbuild_case 0 build-kernel.sh "source: ... until it is fixed"
for w in PLANT_OBJTOOL PLANT_MODPOST PLANT_LD; do
	plant kernel/sched/points.c "$w"
	kbuild_case 1 build-kernel.sh "$w: an objtool, modpost or linker warning fails"
	kbuild_case 1 build-kernel.sh "$w: ... and fails again on the next run (sticky)"
	plant kernel/sched/points.c
	kbuild_case 0 build-kernel.sh "$w: ... until it is fixed"
done

kbuild_case 0 rt-build-check.sh "the clean series builds"
plant include/linux/points.h PLANT_WARNING
kbuild_case 1 rt-build-check.sh "a warning in a header of the series fails"
plant include/linux/points.h
plant kernel/sched/points.c PLANT_OBJTOOL
kbuild_case 1 rt-build-check.sh "an objtool warning fails"
plant kernel/sched/points.c
# A pass on an uncommitted fix is not replayed for the HEAD that warns.
plant kernel/sched/points.c PLANT_WARNING
git -C "$k/linux" commit -qam "planted warning"
plant kernel/sched/points.c
kbuild_case 0 rt-build-check.sh "the uncommitted fix of a committed warning passes"
git -C "$k/linux" checkout -q -- kernel/sched/points.c
kbuild_case 1 rt-build-check.sh "HEAD, which warns, is not passed from the cache"
plant kernel/sched/points.c
kbuild_case 0 rt-build-check.sh "the fix again, from the cache"
tap_result "$(grep -q '(cached)' "$k/out" && echo 0 || echo 1)" "rt-build-check.sh (fake kbuild): ... said (cached)"
kbuild_case 1 rt-build-check.sh "KCFLAGS (kbuild's environment) is in the key" KCFLAGS=-Wplanted
git -C "$k/linux" checkout -q -- kernel/sched/points.c
kbuild_case 1 bisect-check.sh "the prefix with a planted warning fails"
git -C "$k/linux" reset -q --hard HEAD~1
kbuild_case 0 bisect-check.sh "the clean series passes"
for w in PLANT_OBJTOOL PLANT_MODPOST PLANT_LD; do
	plant kernel/sched/points.c "$w"
	git -C "$k/linux" commit -qam "planted $w"
	kbuild_case 1 bisect-check.sh "$w: a prefix with an objtool, modpost or linker warning fails"
	git -C "$k/linux" reset -q --hard HEAD~1
done

# What else the cached results depend on: binutils, libelf and
# checkpatch's configuration.
ids() { (source "$REPO/scripts/result-cache.sh"; toolchain_id; checkpatch_conf_id) 2>&1 || echo "exit $?"; }
before=$(ids)
mkdir -p "$k/ldbin"
printf '#!/bin/sh\necho "GNU ld (planted) 9.99"\n' >"$k/ldbin/ld"
chmod +x "$k/ldbin/ld"
tap_result "$([ "$(PATH=$k/ldbin:$PATH ids)" != "$before" ] && echo 0 || echo 1)" \
	"result-cache.sh: the linker's version is in the toolchain's id"
mkdir -p "$k/home"
echo "--ignore CAMELCASE" >"$k/home/.checkpatch.conf"
tap_result "$([ "$(HOME=$k/home ids)" != "$before" ] && echo 0 || echo 1)" \
	"result-cache.sh: ~/.checkpatch.conf is in checkpatch's id"

# The check of the disables (shellcheck-disables.sh, in make lint) on
# scripts/tests/shellcheck/: each
# file's "# expect: STATUS" is how it must exit.
for f in "$t"/shellcheck/*.sh "$t"/shellcheck/rc/.shellcheckrc; do
	want=$(sed -n 's/^# expect: //p' "$f")
	got=0
	"$REPO/scripts/shellcheck-disables.sh" "$f" >"$tmp/sc.out" 2>&1 || got=$?
	[ "$got" = "$want" ] || { echo "# exit $got, want $want"; tap_comment <"$tmp/sc.out"; }
	tap_result "$([ "$got" = "$want" ] && echo 0 || echo 1)" \
		"shellcheck-disables.sh ${f#"$t"/shellcheck/}: exit $want"
done

# The macro bench's plumbing without a kernel: field-config-check.sh on
# two configurations, field-bench-report.sh on a hand-made results.csv
# (scripts/tests/field-bench/: its report and --text table as expected),
# and field-bench.sh through field-bench-run.sh against a fake QEMU that
# writes what scripts/guest/field-bench would (and a fake bpftrace).
fb=$tmp/fb
mkdir -p "$fb/cfg"
printf 'CONFIG_A=y\nCONFIG_NAME="a b"\nCONFIG_SCHED_POINTS=y\n# CONFIG_SCHED_POINTS_KUNIT_TEST is not set\n' >"$fb/cfg/series"
printf 'CONFIG_A=y\nCONFIG_NAME="a b"\n# CONFIG_C is not set\n' >"$fb/cfg/vanilla"
printf 'CONFIG_A=m\nCONFIG_NAME="a b"\n' >"$fb/cfg/other"
cc_case() { # WANT-STATUS SERIES VANILLA DESCRIPTION
	local got=0
	"$REPO/scripts/field-config-check.sh" "$fb/cfg/$2" "$fb/cfg/$3" >"$tmp/cc.out" 2>&1 || got=$?
	[ "$got" = "$1" ] || { echo "# exit $got, want $1"; tap_comment <"$tmp/cc.out"; }
	tap_result "$([ "$got" = "$1" ] && echo 0 || echo 1)" "field-config-check.sh: $4 (exit $1)"
}
cc_case 0 series vanilla "the series' options alone differ"
cc_case 1 series other "another symbol differs too"
for f in md txt; do
	args=("$t/field-bench/results.csv" 1234)
	[ $f = md ] || args=(--text "$t/field-bench/results.csv")
	"$REPO/scripts/field-bench-report.sh" "${args[@]}" >"$tmp/fbr.$f" 2>&1 || echo "exit $?" >>"$tmp/fbr.$f"
	diff -u "$t/field-bench/results.$f" "$tmp/fbr.$f" | tap_comment || true
	tap_result "$(cmp -s "$t/field-bench/results.$f" "$tmp/fbr.$f" && echo 0 || echo 1)" \
		"field-bench-report.sh$([ $f = md ] || echo ' --text'): the hand-made results' report (scripts/tests/field-bench/results.$f)"
done
mkdir -p "$fb/bin" "$fb/series/obj-field/arch/x86/boot" "$fb/vanilla/obj-field/arch/x86/boot" "$fb/build/field"
: >"$fb/series/obj-field/arch/x86/boot/bzImage"
: >"$fb/vanilla/obj-field/arch/x86/boot/bzImage"
: >"$fb/build/field/rootfs.ext4"
printf '#!/bin/sh\necho "bpftrace v0.17.0"\n' >"$fb/bin/bpftrace"
cat >"$fb/bin/qemu-system-x86_64" <<'FAKE'
#!/usr/bin/env bash
set -euo pipefail
[ "${1:-}" != --version ] || { echo "QEMU emulator version 7.2.15 (fake)"; exit 0; }
echo boot >>"$FAKE_QEMU_LOG"
while [ $# -gt 0 ]; do
	case $1 in
	-append) append=$2; shift ;;
	-serial) console=${2#file:}; shift ;;
	-virtfs) [[ $2 != *mount_tag=field,* ]] || { share=${2#local,path=}; share=${share%%,*}; }; shift ;;
	esac
	shift
done
[[ $append =~ field\.app=([a-z]+) ]] && app=${BASH_REMATCH[1]}
[[ $append =~ field\.configs=([a-z_,]+) ]] && configs=${BASH_REMATCH[1]}
[[ $append =~ field\.reps=([0-9]+) ]] && reps=${BASH_REMATCH[1]}
printf 'Linux version 6.12.118-field+\r\n' >"$console"
[ "$app" != "${FAKE_FAIL:-}" ] || exit 0
o=$share/out
echo "field-bench: kernel 6.12.118-field+, app '$app', configurations '$configs'" >"$o/bench.log"
IFS=, read -ra cs <<<"$configs"
for r in $(seq 1 "$reps"); do
	i=0
	for c in "${cs[@]}"; do
		i=$((i + 1))
		printf 'R %s %s %s %s\n' "$c" units "$r" 1000 "$c" busy_ns "$r" $((1000000000 + i * 1000000 + r * 100000)) \
			"$c" elapsed_ns "$r" 3000000000 "$c" idle_ns "$r" 1500000000 "$c" iowait_ns "$r" 500000000 "$c" ctxt "$r" 20000
	done
done >"$o/results.txt"
printf 'Linux version 6.12.118-field+\n' >"$o/dmesg.txt"
echo rc=0 >"$o/verdict"
printf 'sp-tainted: 0\r\n' >>"$console"
FAKE
chmod +x "$fb/bin/bpftrace" "$fb/bin/qemu-system-x86_64"
cp "$fb/cfg/series" "$fb/series/obj-field/.config"
cp "$fb/cfg/vanilla" "$fb/vanilla/obj-field/.config"
# fb_case WANT-STATUS BOOTS DESCRIPTION [VAR=VALUE...]: field-bench.sh on
# fio and stressng exits WANT-STATUS after BOOTS boots.
fb_case() {
	local want=$1 boots=$2 what=$3 got=0 nb
	shift 3
	rm -rf "$fb/build/field-bench"
	: >"$fb/boots"
	env "$@" PATH="$fb/bin:$PATH" BUILD="$fb/build" TREE="$fb/series" FIELD_VANILLA_TREE="$fb/vanilla" \
		FAKE_QEMU_LOG="$fb/boots" FIELD_SCRATCH_MB=8 FIELD_BENCH_APPS="fio stressng" \
		"$REPO/scripts/field-bench.sh" >"$tmp/fb.out" 2>&1 || got=$?
	nb=$(wc -l <"$fb/boots")
	[ "$got $nb" = "$want $boots" ] || { echo "# exit $got after $nb boots, want $want after $boots"; tap_comment <"$tmp/fb.out"; }
	tap_result "$([ "$got $nb" = "$want $boots" ] && echo 0 || echo 1)" "field-bench.sh (fake QEMU): $what"
}
fb_case 0 4 "two applications on both kernels pass"
r=$fb/build/field-bench
rows=$(grep -c ',busy_ns,' "$r/results.csv" || true)
tap_result "$([ "$rows" = 30 ] && grep -q '^| stressng (stressor op) | 25000 switch and mq ops | 1001200 (±100) | +0.00% (±0.02) | +0.10% (±0.02) | +0.20% (±0.02) | +0.10% (±0.02) |$' "$r/results.md" &&
	grep -q '^fio ' "$r/results.txt" && echo 0 || echo 1)" \
	"field-bench.sh (fake QEMU): results.csv has 30 runs (2 applications, 5 configurations, 3 rounds); results.md and results.txt are made"
fb_case 1 4 "a boot with no verdict fails the run" FAKE_FAIL=stressng
tap_result "$(grep -q '^| fio (I/O) |' "$r/results.md" && echo 0 || echo 1)" \
	"field-bench.sh (fake QEMU): ... and the report has the applications that ran"
printf 'CONFIG_B=y\n' >>"$fb/vanilla/obj-field/.config"
fb_case 1 0 "kernels that differ beyond the series' options fail before any boot"

# docs_case WANT-STATUS MODE FILE DESCRIPTION: docs.py MODE FILE exits
# WANT-STATUS (its TAP shown if not).
docs_case() {
	local got=0
	"$REPO/scripts/docs.py" "$2" "$3" >"$tmp/docs.out" 2>&1 || got=$?
	[ "$got" = "$1" ] || { echo "# exit $got, want $1"; tap_comment <"$tmp/docs.out"; }
	tap_result "$([ "$got" = "$1" ] && echo 0 || echo 1)" "docs.py $2: $4 (exit $1)"
}

# docs.py's quoted-from check on a copy of performance.md with one change
# planted in "What the figures say", which quotes the figures of the run
# of "Latest results" (the part before its hand-written runs before):
# a quoted figure changed, a figure of another run's section, an older
# run's paragraph that does not give its date, a marker's section gone.
# Figures inside a dated older run's paragraph are not checked.
quote_case() { # WANT-STATUS OLD NEW DESCRIPTION
	python3 - "$2" "$3" "$REPO/Documentation/performance.md" "$tmp/perf.md" <<'PY'
import sys
old, new, src, dst = sys.argv[1:]
s = open(src).read()
a = s.index('## What the figures say')
i = s.index(old, a)
open(dst, 'w').write(s[:i] + new + s[i + len(old):])
PY
	docs_case "$1" --quotes "$tmp/perf.md" "$4"
}
quote_case 0 'What the figures say' 'What the figures say' "performance.md's figures as committed"
quote_case 1 '+1341.2' '+1341.8' 'a quoted figure changed'
quote_case 1 '+64.1' '+63.3' 'a figure of another run (patch 27)'
quote_case 1 '(2026-12-01, ' '(' "an older run's paragraph without its date"
quote_case 0 '1276 and 819' '1276.4 and 819.2' "figures inside a dated older run's paragraph"
quote_case 1 'up to: Beside other' 'up to: Besides other' "an 'up to' heading not in the section"
quote_case 1 'leave 2367 and' 'leave 2368 and' 'a quoted whole number changed'
quote_case 1 '+ 26 + 63 -->' '+ 26 + 62 -->' 'a derived number whose computation comes to another'
quote_case 1 '644 = 29 + 370' '644 = 35 + 364' "a derived number computed from numbers not in the run"
quote_case 1 '408 = 1671168 / 4096; ' '' 'a worked-out number with no derived computation'

# docs.py's line-count check on a copy of the cover letter: its counts
# of the series' own kernel C as written, one changed, and none.
count_case() { # WANT-STATUS OLD-RE NEW-TEMPLATE DESCRIPTION (re.sub)
	python3 - "$2" "$3" "$REPO/Documentation/cover-letter.txt" "$tmp/letter.txt" <<'PY'
import re, sys
old, new, src, dst = sys.argv[1:]
s = open(src).read()
assert re.search(old, s)
open(dst, 'w').write(re.sub(old, new, s))
PY
	docs_case "$1" --line-counts "$tmp/letter.txt" "$4"
}
count_case 0 'patches' 'patches' "the cover letter's line counts as committed"
count_case 1 '(patches\s+1-10\s+add\s+)(\d+)' '\g<1>1\g<2>' 'a line count changed'
count_case 1 '([Pp]atches\s+\d+-\d+\s+)add' '\g<1>have' 'no line count'

# docs.py's picture check on a copy of README.md whose picture marker and
# image point at a copy of the committed latency heat map, with one
# change planted: a stale picture (a cell's colour), the picture of
# another capture, an image line that shows another file.
make -s -C "$REPO/tools/schedpoints" schedpoints >&2
picture_case() { # WANT-STATUS OLD NEW DESCRIPTION (OLD -> NEW in the SVG, or with
	# "readme:" first, in the README's copy)
	python3 - "$2" "$3" "$REPO" "$tmp" <<'PY'
import re, sys
old, new, repo, tmp = sys.argv[1:]
svg = open(repo + '/Documentation/images/heatmap-latency.svg').read()
doc = open(repo + '/README.md').read()
doc = doc.replace('file: Documentation/images/heatmap-latency.svg',
                  'file: %s/pic.svg' % tmp)
doc = doc.replace('](Documentation/images/heatmap-latency.svg)',
                  '](%s/pic.svg)' % tmp)
if old.startswith('readme:'):
    old = old[len('readme:'):]
    assert old in doc
    doc = doc.replace(old, new, 1)
else:
    assert re.search(old, svg)
    svg = re.sub(old, new, svg, count=1)
open(tmp + '/pic.svg', 'w').write(svg)
open(tmp + '/README.md', 'w').write(doc)
PY
	docs_case "$1" --pictures "$tmp/README.md" "$4"
}
picture_case 0 'svg' 'svg' "the README's latency heat map as committed"
picture_case 1 'fill="#[0-9a-f]{6}" stroke="#ffffff"' 'fill="#000000" stroke="#ffffff"' 'a stale picture (a cell of another colour)'
picture_case 1 'readme:guest-demo-caller.txt | source: /host/sched_points.txt | file:' 'guest-demo-effective.txt | source: /host/sched_points.txt | file:' 'the picture of another capture'
picture_case 1 'readme:pic.svg)' 'other.svg)' 'an image line that shows another file'

w=$t/warnings
out=$("$REPO/scripts/new-warnings.sh" "$w/before.log" "$w/after-new-instance.log") || true
tap_result "$([ "$(wc -l <<<"$out")" = 1 ] && [[ $out == *"wrong count at exit" ]] && echo 0 || echo 1)" \
	"new-warnings.sh: a third instance of a text pristine has twice is new"
out=$("$REPO/scripts/new-warnings.sh" "$w/before.log" "$w/after-moved.log") || true
tap_result "$([ -z "$out" ] && echo 0 || echo 1)" "new-warnings.sh: moved warnings are not new"
# build_warnings (env.sh): every line of build.log that names no other
# file and is not make's own fails the build: 8 of its 13 lines.
out=$(build_warnings "$w/build.log" kernel/sched/points.c include/linux/points.h 2>&1) || true
tap_result "$([ "$(wc -l <<<"$out")" = 8 ] && ! grep -qE 'fork\.c|unmet|^  ' <<<"$out" && echo 0 || echo 1)" \
	"build_warnings: the series' file, objtool, modpost and each form of linker warning"

# test_names FILE: the harness name of each TEST of FILE, "global.NAME" or
# "FIXTURE.NAME".
test_names() {
	tr '\n' ' ' <"$1" | grep -oE '\<TEST(_F(_TIMEOUT)?)?\( *[a-z0-9_]+(, *[a-z0-9_]+)?' |
		sed -E 's/^TEST\( *([a-z0-9_]+)$/global.\1/; s/^TEST_F[_A-Z]*\( *([a-z0-9_]+), *([a-z0-9_]+)$/\1.\2/'
}

# Every TEST of the suite must be in the manifest for the main kernel.
src=$REPO/selftests/sched_points
unlisted=0
for c in "$src"/*_test.c; do
	prog=$(basename "$c" .c)
	while read -r name; do
		grep -qE "^[^|]*\<main\>[^|]*\| *kselftests / selftests: sched_points: $prog / $name *(\||$)" \
			"$REPO/selftests/manifest" || { echo "# not in selftests/manifest: $prog / $name"; unlisted=$((unlisted + 1)); }
	done < <(test_names "$c")
done
tap_result "$unlisted" "selftests/manifest lists every TEST of selftests/sched_points for main"

# Every TEST of sched_points_test.c has its entry in the README's "What
# each test proves": a line that starts with its name (alone or in a
# comma-separated list), not a mention in another test's text.
readme=$src/README
listed=$(sed -n '/^What each test proves$/,$p' "$readme" | grep -E '^[a-z0-9_]' |
	tr ',' '\n' | tr -d ' ' || true)
undescribed=0
while read -r name; do
	name=${name#*.}
	grep -qxF -- "$name" <<<"$listed" ||
		{ echo "# not in selftests/sched_points/README: $name"; undescribed=$((undescribed + 1)); }
done < <(test_names "$src/sched_points_test.c")
tap_result "$undescribed" "selftests/sched_points/README describes every TEST of sched_points_test.c"
echo "1..$n"
exit $rc
