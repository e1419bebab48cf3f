#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Host tests of schedpoints: tests/run.sh BINARY
#
# Prints one TAP line per test ("ok N - name" / "not ok N - name"), then
# "# N passed, N failed" and the plan "1..N" as the last line; exits 1 if
# any test failed.  A tool the tests need that is missing is a failure (see
# need below); there are no skips.  Tests check numbers
# (totals across views, single slices), exact error messages and exit
# statuses.  Any tests/fixtures/guest-*.txt (real captures from the guest;
# those of /proc/sched_points_wakers, guest-*wakers*, are the docs check's)
# is picked up and checked for totals that agree across views.  Sums are
# exact (bc): off-CPU time sums go beyond 2^64.
#
# FUZZ_SHORT=SECONDS (default 25, at least 1): bounded libFuzzer run.
# SCALE_BIN=BINARY: the binary of the 200,000-line memory tests (default the
# static build beside this script); SRC_DIR=DIR: the sources that the tests
# of the code's shape read (default this script's tree).

set -u
BIN=${1:?usage: tests/run.sh BINARY}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
T=$(cd "$(dirname "$0")" && pwd)
TOP=$(dirname "$T")
# The suite's fixtures are format version 2 with the wait/run-delay split
# (FIX2); the tests written before the split read their version 1 forms
# (FIX, fixtures/v1/), so that reading version 1 stays tested; the tests
# of exited tasks and of the split read version 2.
FIX2=$T/fixtures
FIX=$FIX2/v1
OUT=$T/out
FUZZ_SHORT=${FUZZ_SHORT:-25}
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:exitcode=99}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=99}"
export LC_ALL=C

rm -rf "$OUT"
mkdir -p "$OUT"
n=0
failed=0

# A run of the tool that ends with another exit status than its test
# expects, or with a sanitizer report on stderr, is a fault: sp() writes it
# to $FAULTS (a file: runs in pipes and command substitutions are
# subshells, whose status the shell drops), and the next result, which is
# the test that made the run, fails with it.  SP_RC is the status the test
# expects of its runs (0 unless it says otherwise); every result sets it
# back to 0.
FAULTS=$OUT/faults
: >"$FAULTS"
SP_RC=0
# A sanitizer report: ASan, LSan, UBSan (which halt with status 99 here).
SAN_RE='^==[0-9]+==ERROR: [A-Za-z]+Sanitizer|^SUMMARY: [A-Za-z]+Sanitizer|runtime error: '

pass() {
	if [ -s "$FAULTS" ]; then fail "$1"; return; fi
	n=$((n + 1)); echo "ok $n - $1"; SP_RC=0
}
fail() {
	n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"
	shift
	for l in "$@"; do echo "#   $l"; done
	if [ -s "$FAULTS" ]; then sed 's/^/#   /' "$FAULTS" | head -n 20; : >"$FAULTS"; fi
	SP_RC=0
}

# run_checked WANT CMD ARGS...: run a command, its stderr passed on, and
# record a fault when its status is not WANT or its stderr holds a
# sanitizer report.
run_checked() {
	_want=$1
	shift
	_err=$(mktemp "$OUT/stderr.XXXXXX")
	"$@" 2>"$_err"
	_rc=$?
	cat "$_err" >&2
	if [ "$_rc" != "$_want" ]; then
		echo "exit status $_rc, expected $_want: $(basename "$1") $(shift; printf '%s' "$*")" >>"$FAULTS"
	fi
	if grep -qE "$SAN_RE" "$_err"; then
		echo "sanitizer report: $(basename "$1") $(shift; printf '%s' "$*"): $(grep -m 1 -E "$SAN_RE" "$_err")" >>"$FAULTS"
	fi
	rm -f "$_err"
	return "$_rc"
}

# eq NAME GOT WANT
eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got:  $2" "want: $3"; fi
}

sp() { run_checked "$SP_RC" "$BIN" "$@"; }

# Exact sum of the numbers on stdin, one a line (empty lines skipped).
bigsum() {
	{ echo 0; cat; } | sed '/^$/d' | paste -sd+ - | BC_LINE_LENGTH=0 bc
}

# Values of the column named $1 in the data lines of snapshot file $2.
input_col() {
	awk -F '\t' -v col="$1" '
		h { if (c) print $c; next }
		/^pid\ttgid\t/ { for (i = 1; i <= NF; i++) if ($i == col) c = i; h = 1 }' "$2"
}

# Sum of the count field of the data lines of a snapshot file.
input_total() {
	input_col count "$1" | bigsum
}

# Sum of the CSV column named $1 read from stdin (header on line 1).  Fields
# are split the RFC 4180 way, so quoted commas do not shift columns.
AWK_CSV='
function split_csv(line, f,    n, i, c, q, cur) {
	n = 0; q = 0; cur = ""
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (q) {
			if (c == "\"" && substr(line, i + 1, 1) == "\"") { cur = cur c; i++ }
			else if (c == "\"") q = 0
			else cur = cur c
		} else if (c == "\"") q = 1
		else if (c == ",") { f[++n] = cur; cur = "" }
		else cur = cur c
	}
	f[++n] = cur
	return n
}'
# CSV records, one a line: a quoted field may hold a newline (task names are
# written as they are), shown here as the two characters \n.
csv_records() {
	awk '{ r = p ? r "\n" $0 : $0; t = r; if (gsub(/"/, "", t) % 2) { p = 1; next }
		p = 0; gsub(/\n/, "\\n", r); print r }'
}
csv_sum() {
	csv_records | awk -v col="$1" "$AWK_CSV"'
		NR == 1 { m = split_csv($0, h); for (i = 1; i <= m; i++) if (h[i] == col) c = i; next }
		c { split_csv($0, f); print f[c] }' | bigsum
}

# The CSV columns named in $1 (comma separated, in that order) of stdin,
# one record a line, fields as written but unquoted: a test of some columns
# that does not shift when columns are added (the format is add-only).
csv_pick() {
	csv_records | awk -v cols="$1" "$AWK_CSV"'
		NR == 1 { m = split_csv($0, h); for (i = 1; i <= m; i++) at[h[i]] = i
			n = split(cols, want, ",") }
		{ split_csv($0, f); o = ""
		  for (i = 1; i <= n; i++) o = o (i > 1 ? "," : "") (NR == 1 ? want[i] : f[at[want[i]]])
		  print o }'
}

# Sum of the cells of a CSV matrix (every field after the 4th).
csv_cells() {
	csv_records | awk "$AWK_CSV"'
		NR > 1 { m = split_csv($0, f); for (i = 5; i <= m; i++) print f[i] }' | bigsum
}

# Seconds (exact decimals) to nanoseconds.
secs_to_ns() {
	echo "$1 * 1000000000" | BC_LINE_LENGTH=0 bc | sed 's/\..*//; s/^$/0/'
}

# Value of a JSON number field at the top level, without a JSON library.
json_num() {
	sed 's/"rows":.*//; s/"columns":.*//' |
		sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p" | head -n 1
}

# The column header of the format, and a whole head for one data line
# (printf formats, as the fixtures written below).
COLS='pid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\thist\taddress\tsymbol\tcomm\n'
# version 2's: the off-CPU time split into the wait and the run delay
H16='pid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\twait_ns\twait_max_ns\tdelay_ns\tdelay_max_ns\thist\twait_hist\tdelay_hist\taddress\tsymbol\tcomm\n'
HDR="sched_points version 1\nenabled 1\nmode caller\ntime 1\nkinds 1\nhist 1\ncpus 2\ncapacity 16\nused 1\nentries 1\ndropped 0\n$COLS"

# ---- tools the tests need --------------------------------------------------
# Each is a Debian package listed in debian-packages; a missing one is a
# failure that names its package, never a skip.
need() {	# need TOOL PACKAGE
	if command -v "$1" >/dev/null 2>&1; then
		pass "required tool $1 is installed"
	else
		fail "required tool $1 is installed" \
			"missing: apt-get install $2 (listed in tools/schedpoints/debian-packages)"
	fi
}
need python3 python3
need xmllint libxml2-utils
need groff groff-base
need cppcheck cppcheck
need clang-tidy clang-tidy
need clang clang
need bc bc
need readelf binutils
need /usr/bin/time time
need prometheus-node-exporter prometheus-node-exporter
need promtool prometheus

# ---- unit tests (C) --------------------------------------------------------
if [ -x "$T/unit" ]; then
	"$T/unit" >"$OUT/unit.log" 2>&1
	rc=$?
	nfail=0
	while IFS= read -r line; do
		case $line in
		PASS\ *) pass "unit: ${line#PASS }" ;;
		FAIL\ *) fail "unit: ${line#FAIL }"; nfail=$((nfail + 1)) ;;
		esac
	done <"$OUT/unit.log"
	# 1 exactly when a test failed; a sanitizer report (99) fails here
	eq "unit: exit status $rc says whether a unit test failed, no sanitizer report" \
		"$rc:$(grep -cE "$SAN_RE" "$OUT/unit.log")" "$([ $nfail -eq 0 ] && echo 0 || echo 1):0"
else
	fail "unit test binary tests/unit is built"
fi

# ---- totals agree across views --------------------------------------------
# For each snapshot: the sum of counts in the input equals the total of every
# view that keeps all rows.
totals_agree() {
	f=$1
	name=${f#"$FIX2"/}
	want=$(input_total "$f")
	got=""
	for view in "sites" "sites -g function" "sites -g module" "kinds" "tasks" \
		"tasks -b tgid" "tasks -b comm"; do
		# shellcheck disable=SC2086 # words of options, split on purpose
		s=$(sp -f "$f" -F csv $view | csv_sum count)
		got="$got $view=$s"
		[ "$s" = "$want" ] || { fail "$name: totals agree across views" \
			"input total $want, '$view' sums to $s"; return; }
	done
	s=$(sp -f "$f" -F csv matrix -n 0 | csv_sum count)
	[ "$s" = "$want" ] || { fail "$name: matrix total" "input $want, matrix $s"; return; }
	s=$(sp -f "$f" -F csv matrix -n 0 | csv_cells)
	[ "$s" = "$want" ] || { fail "$name: matrix cells total" "input $want, cells $s"; return; }
	s=$(sp -f "$f" -F json tasks | json_num total)
	[ "$s" = "$want" ] || { fail "$name: json total" "input $want, json $s"; return; }
	s=$(sp -f "$f" -F folded -n 0 matrix | awk '{ s += $NF } END { printf "%d\n", s }')
	[ "$s" = "$want" ] || { fail "$name: folded total" "input $want, folded $s"; return; }
	s=$(sp -f "$f" -F prometheus matrix | awk '/^sched_points_calls_total\{/ { s += $NF } END { printf "%d\n", s }')
	[ "$s" = "$want" ] || { fail "$name: prometheus total (top series and other)" "input $want, prometheus $s"; return; }
	s=$(sp -f "$f" -F prometheus -n 0 matrix | awk '/^sched_points_calls_total\{/ { s += $NF } END { printf "%d\n", s }')
	[ "$s" = "$want" ] || { fail "$name: prometheus total" "input $want, prometheus $s"; return; }
	pass "$name: total $want agrees across sites/tasks/matrix/json/folded/prometheus"
	time_totals_agree "$f"
}

# The sum of total_ns of the input equals the off-CPU time of
# every view (as the value, -T, and beside the count), of the matrix rows
# and cells, the JSON total_ns, the folded -T values and the Prometheus
# seconds; and the kinds partition both sums.
time_totals_agree() {
	f=$1
	name=${f#"$FIX2"/}
	want=$(input_col total_ns "$f" | bigsum)
	for view in "sites" "sites -g function" "sites -g module" "kinds" "tasks" \
		"tasks -b tgid" "tasks -b comm" "-T sites" "-T tasks -b comm" "-T kinds"; do
		# shellcheck disable=SC2086 # words of options, split on purpose
		s=$(sp -f "$f" -F csv $view | csv_sum total_ns)
		[ "$s" = "$want" ] || { fail "$name: off-CPU time agrees across views" \
			"input total_ns $want, '$view' sums to $s"; return; }
	done
	s=$(sp -f "$f" -F csv -T matrix -n 0 | csv_sum total_ns)
	[ "$s" = "$want" ] || { fail "$name: matrix -T time" "input $want, matrix $s"; return; }
	s=$(sp -f "$f" -F csv -T matrix -n 0 | csv_cells)
	[ "$s" = "$want" ] || { fail "$name: matrix -T cells time" "input $want, cells $s"; return; }
	s=$(sp -f "$f" -F json tasks | json_num total_ns)
	[ "$s" = "$want" ] || { fail "$name: json total_ns" "input $want, json $s"; return; }
	s=$(sp -f "$f" -F folded -T -n 0 matrix | awk '{ print $NF }' | bigsum)
	[ "$s" = "$want" ] || { fail "$name: folded -T total" "input $want, folded $s"; return; }
	s=$(secs_to_ns "$(sp -f "$f" -F prometheus matrix |
		awk '/^sched_points_offcpu_seconds_total\{/ { print $NF }' | bigsum)")
	[ "$s" = "$want" ] || { fail "$name: prometheus seconds" "input $want ns, prometheus $s ns"; return; }
	c=""
	t=""
	for k in sleep disk_sleep idle yield preempt cond_resched; do
		c="$c
$(sp -f "$f" -F csv --kind $k sites | csv_sum count)"
		t="$t
$(sp -f "$f" -F csv --kind $k tasks | csv_sum total_ns)"
	done
	c=$(echo "$c" | bigsum)
	t=$(echo "$t" | bigsum)
	[ "$c:$t" = "$(input_total "$f"):$want" ] || { fail "$name: --kind partitions" \
		"input $(input_total "$f") calls, $want ns; kinds add up to $c calls, $t ns"; return; }
	pass "$name: off-CPU time $want ns agrees across views/matrix/json/folded/prometheus/kinds"
}

for f in "$FIX"/*.txt "$FIX2"/*.txt; do
	case $(basename "$f") in guest-*) continue ;; esac
	totals_agree "$f"
done

guests=0
for f in "$FIX2"/guest-*.txt; do
	[ -e "$f" ] || continue
	# a capture of /proc/sched_points_wakers (-W), another format: the
	# docs check reads it (scripts/docs.py, README.md's wakers outputs)
	case $(basename "$f") in guest-*wakers*) continue ;; esac
	guests=$((guests + 1))
	sp -f "$f" >/dev/null 2>"$OUT/guest.err"
	eq "$(basename "$f"): parses" "$?:$(cat "$OUT/guest.err")" "0:"
	totals_agree "$f"
	lines=$(awk 'h { n++ } /^pid\ttgid\t/ { h = 1 } END { printf "%d\n", n }' "$f")
	entries=$(sed -n 's/^entries \([0-9]*\)$/\1/p' "$f")
	eq "$(basename "$f"): 'entries' matches the data lines" "$lines" "${entries:-$lines}"
done
[ $guests -gt 0 ] || fail "guest captures tests/fixtures/guest-*.txt are present (make demo writes them)"

# ---- slices, filters, sorting ----------------------------------------------
# switches-off.txt: a capture with the kernel's defaults, time, kinds and
# histograms off (every time 0, every kind a wait, no histogram).
B=$FIX/switches-off.txt
eq "sites: the busiest site and its count" \
	"$(sp -f "$B" -F csv sites | sed -n 2p)" "65,0,,0,2,sleep,do_nanosleep+0x6e/0x190"
eq "sites -g function: offsets summed per function" \
	"$(sp -f "$B" -F csv sites -g function | grep ',do_nanosleep$')" "72,0,,0,3,sleep,do_nanosleep"
eq "sites -g function: module function keeps its module" \
	"$(sp -f "$B" -F csv sites -g function | sed -n 3p)" "35,0,,0,1,sleep,sp_test_sleep_once [sched_points_test]"
eq "sites -g module: core kernel, module, unknown address" \
	"$(sp -f "$B" -F csv sites -g module | tr '\n' ' ')" \
	"count,total_ns,mean_ns,max_ns,tasks,kind,module 87,0,,0,4,sleep,[vmlinux] 35,0,,0,1,sleep,[sched_points_test] 1,0,,0,1,sleep,[unknown] "
eq "tasks: per task sums and distinct sites" \
	"$(sp -f "$B" -F csv tasks | sed -n 2,3p | tr '\n' ' ')" \
	"123,123,57,0,,0,2,sleeper 130,129,35,0,,0,2,my thread "
eq "tasks -b tgid: threads summed, leader's name" \
	"$(sp -f "$B" -F csv tasks -b tgid | grep '^129,')" "129,42,0,,0,2,3,my thread"
eq "tasks -b comm: pids summed per name" \
	"$(sp -f "$B" -F csv tasks -b comm | grep 'sleeper')" "77,0,,0,2,2,sleeper"
eq "site FUNCTION: the tasks of one function" \
	"$(sp -f "$B" -F csv site do_nanosleep | tr '\n' ' ')" \
	"pid,tgid,count,total_ns,mean_ns,max_ns,sites,comm 123,123,45,0,,0,1,sleeper 124,124,20,0,,0,1,sleeper 129,129,7,0,,0,1,my thread "
eq "site SYMBOL: exact call site only" \
	"$(sp -f "$B" -F csv site do_nanosleep+0x80/0x190 | csv_sum count)" "7"
eq "site SYMBOL without [module]" \
	"$(sp -f "$B" -F csv site sp_test_sleep_once+0x60/0x90 | csv_sum count)" "5"
eq "site [module]" \
	"$(sp -f "$B" -F csv site '[sched_points_test]' | sed -n 2p)" "130,129,35,0,,0,2,my thread"
eq "site [vmlinux]" \
	"$(sp -f "$B" -F csv site '[vmlinux]' | csv_sum count)" "87"
eq "site 0xADDR" \
	"$(sp -f "$B" -F csv site 0xffffffffc0009999 | csv_sum count)" "1"
SP_RC=1
sp -f "$B" site no_such_function >"$OUT/o" 2>"$OUT/e"
eq "site with no match: exit 1 as grep, said on stderr (#16)" "$?:$(cat "$OUT/e")" \
	"1:schedpoints: no call site matches 'no_such_function'"
SP_RC=1
sp -f "$B" task 4242 >"$OUT/o" 2>"$OUT/e"
eq "task with no match: exit 1 as grep, said on stderr (#16)" "$?:$(cat "$OUT/e")" \
	"1:schedpoints: no entry for pid 4242"
SP_RC=1
sp diff "$FIX/a.txt" "$FIX/b.txt" site no_such_function >"$OUT/o" 2>"$OUT/e"
eq "diff A B site X with no match: exit 1 as the view itself (#16)" "$?:$(cat "$OUT/e")" \
	"1:schedpoints: no call site matches 'no_such_function'"
SP_RC=1
sp diff "$FIX/a.txt" "$FIX/b.txt" task 4242 >"$OUT/o" 2>"$OUT/e"
eq "diff A B task PID with no match: exit 1 (#16)" "$?:$(cat "$OUT/e")" "1:schedpoints: no entry for pid 4242"
sp diff "$FIX/a.txt" "$FIX/b.txt" --kind preempt task 123 >"$OUT/o" 2>"$OUT/e"
eq "diff A B task PID that matches but did not move: exit 0, no row" \
	"$?:$(cat "$OUT/e"):$(tail -n 1 "$OUT/o")" "0::delta 0  rate -/s  total 10  dtime 0ns  time/s -  time 0ns  rows 0"
eq "task PID: one task's sites" \
	"$(sp -f "$B" -F csv task 123 | tr '\n' ' ')" \
	"pid,tgid,count,total_ns,mean_ns,max_ns,comm,kind,site 123,123,45,0,,0,sleeper,sleep,do_nanosleep+0x6e/0x190 123,123,12,0,,0,sleeper,sleep,schedule_timeout+0x9d/0x160 "
eq "task PID -g module" \
	"$(sp -f "$B" -F csv task 130 -g module | sed -n 2p)" "130,129,35,0,,0,my thread,sleep,[sched_points_test]"
eq "--comm glob" "$(sp -f "$B" -F csv tasks --comm 'sl*' | csv_sum count)" "77"
eq "--comm matches the decoded name" "$(sp -f "$B" -F csv tasks --comm 'my thread' | csv_sum count)" "42"
eq "--module name" "$(sp -f "$B" -F csv sites --module sched_points_test | csv_sum count)" "35"
eq "--module [name]" "$(sp -f "$B" -F csv sites --module '[sched_points_test]' | csv_sum count)" "35"
eq "--module vmlinux" "$(sp -f "$B" -F csv sites --module vmlinux | csv_sum count)" "87"
eq "--symbol glob" "$(sp -f "$B" -F csv tasks --symbol 'do_nano*' | csv_sum count)" "72"
eq "--symbol function name" "$(sp -f "$B" -F csv tasks --symbol do_nanosleep | csv_sum count)" "72"
eq "--pid list" "$(sp -f "$B" -F csv sites --pid 123,124 | csv_sum count)" "77"
eq "--tgid" "$(sp -f "$B" -F csv sites --tgid 129 | csv_sum count)" "42"
eq "filters combine (and), values of one filter (or)" \
	"$(sp -f "$B" -F csv sites --pid 123 --pid 129 --symbol 'do_*' | csv_sum count)" "52"
eq "-n: top N rows" "$(sp -f "$B" -F csv tasks -n 2 | wc -l | tr -d ' ')" "3"
eq "--sort pid" "$(sp -f "$B" -F csv tasks --sort pid | sed -n 2p | cut -d, -f1)" "1"
eq "--sort pid -r" "$(sp -f "$B" -F csv tasks --sort pid -r | sed -n 2p | cut -d, -f1)" "200"
eq "--sort name (sites: by site)" "$(sp -f "$B" -F csv sites --sort name | sed -n 2p)" "1,0,,0,1,sleep,0xffffffffc0009999"
eq "--sort comm" "$(sp -f "$B" -F csv tasks --sort comm | sed -n 2p | cut -d, -f8)" "init"
eq "matrix -n 2: 2 rows, 2 columns" \
	"$(sp -f "$B" -F csv matrix -n 2 | tr '\n' ' ')" \
	"pid,tgid,comm,count,sleep:do_nanosleep+0x6e/0x190,sleep:sp_test_sleep_once+0x4a/0x90 [sched_points_test] 123,123,sleeper,57,45,0 130,129,my thread,35,0,30 "
eq "matrix table: a cell" \
	"$(sp -f "$B" matrix | awk '$1 == 123 { print $4, $5, $7 }')" "57 45 12"
sp -f "$B" tasks >"$OUT/table"
eq "table: header, footer with the total" \
	"$(grep -c '^PID  TGID  COUNT' "$OUT/table"):$(tail -n 1 "$OUT/table")" "1:total 123  time 0ns  tasks 6"
eq "stdin with -f -" "$(sp -f - -F csv sites <"$B" | csv_sum count)" "123"

# ---- formats: names that try to forge fields (escapes.txt) ------------------
E=$FIX/escapes.txt
sp -f "$E" -F csv tasks >"$OUT/e.csv"
eq "csv: comma and quote quoted (RFC 4180)" "$(grep '^10,' "$OUT/e.csv")" '10,10,7,10500000,1500000,1572864,1992294,2000000,2000000,1,"a,b""c"'
eq "csv: a name with a newline is one quoted field, one record per row" "$(csv_records <"$OUT/e.csv" | wc -l | tr -d ' ')" "8"
# the names themselves, read back by a CSV reader (#16: the escaped form before)
eq "csv: task names as they are, quoted where needed (#16)" \
	"$(python3 -c 'import csv,sys; r=list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8", errors="surrogateescape"))); print(repr([x["comm"] for x in r if x["pid"] in ("12", "13", "14")]))' "$OUT/e.csv")" \
	"['tab\\tnl\\ncr\\r', 'back\\\\slash', 'café\\udcff']"
eq "csv: a tab, newline or CR in a name is inside quotes (#16)" "$(csv_records <"$OUT/e.csv" | grep '^12,')" '12,12,5,7500000,1500000,1572864,1992294,2000000,2000000,1,"tab	nl\ncr'"$(printf '\r')"'"'
sp -f "$E" -F folded matrix >"$OUT/e.folded"
eq "folded: ';' in a name does not add a frame" "$(grep '^x' "$OUT/e.folded")" 'x\073y;do_nanosleep+0x6e/0x190;sleep 6'
eq "folded: every line is 'frames count' with 3 frames (task, site, kind)" \
	"$(awk '{ c = $NF; $NF = ""; if (c !~ /^[0-9]+$/ || gsub(/;/, ";") != 2) bad++ } END { print bad + 0 }' "$OUT/e.folded")" "0"
sp -f "$E" -F prometheus tasks >"$OUT/e.prom"
eq "prometheus: quote escaped in a label value" \
	"$(grep '^sched_points_calls_total{pid="10"' "$OUT/e.prom")" 'sched_points_calls_total{pid="10",tgid="10",comm="a,b\"c"} 7'
eq "prometheus: backslash escaped in a label value" \
	"$(grep '^sched_points_calls_total{pid="13"' "$OUT/e.prom")" 'sched_points_calls_total{pid="13",tgid="13",comm="back\\134slash"} 4'
eq "prometheus: every line is a comment or 'name{labels} value'" \
	"$(grep -Evc '^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{([a-z_]+="([^"\\]|\\["\\n])*",?)+\})? [0-9.e+-]+)$' "$OUT/e.prom")" "0"
eq "prometheus: HELP and TYPE for each family" \
	"$(grep -c '^# TYPE' "$OUT/e.prom"):$(grep -c '^# HELP' "$OUT/e.prom")" "14:14"
sp -f "$E" -F json tasks >"$OUT/e.json"
eq "json: valid, the names themselves, any byte recoverable (#16)" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1], encoding="utf-8")); print(d["total"], repr([r["comm"] for r in d["rows"]][:3]), repr([r["comm"].encode("utf-8", "surrogateescape") for r in d["rows"] if r["pid"] == 14]))' "$OUT/e.json")" \
	"28 ['a,b\"c', 'x;y', 'tab\\tnl\\ncr\\r'] [b'caf\\xc3\\xa9\\xff']"
sp -f "$B" -F json -p matrix >"$OUT/m.json"
eq "json: matrix cells sum to the total" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["total"], sum(sum(r["cells"]) for r in d["rows"]), len(d["columns"]))' "$OUT/m.json")" \
	"123 123 6"
sp -f "$E" heatmap -o "$OUT/e.svg" >"$OUT/o"
eq "heatmap -o prints the path written" "$?:$(cat "$OUT/o")" "0:$OUT/e.svg"
xmllint --noout "$OUT/e.svg" 2>"$OUT/x"
eq "heatmap: well-formed XML with hostile names" "$?:$(cat "$OUT/x")" "0:"
sp -f "$B" heatmap >"$OUT/b.svg"
eq "heatmap: a rect for each cell that holds a value only, labels, legend (#16)" \
	"$(grep -c '<rect x=.*<title>' "$OUT/b.svg"):$(sp -f "$B" -F csv matrix | csv_records | awk -F, 'NR > 1 { for (i = 5; i <= NF; i++) n += $i != 0 } END { print n }'):$(grep -c 'rotate(-90)' "$OUT/b.svg"):$(grep -c 'linearGradient id' "$OUT/b.svg")" "8:8:6:1"
eq "heatmap: a cell's tooltip holds its count" \
	"$(grep -c '<title>sleeper (123) at sleep:do_nanosleep+0x6e/0x190: count 45, off-CPU time 0ns</title>' "$OUT/b.svg")" "1"
eq "heatmap -n 2: 2 rows, 2 columns" "$(sp -f "$B" heatmap -n 2 | grep -c 'text-anchor="end">[^<]* ([0-9]*)</text>'):$(sp -f "$B" heatmap -n 2 | grep -c 'rotate(-90)')" "2:2"
sp -f "$B" -F csv sites -o "$OUT/s.csv" >"$OUT/o"
eq "-o: file holds the output, path printed" \
	"$(cat "$OUT/o"):$(csv_sum count <"$OUT/s.csv"):$(find "$OUT" -maxdepth 1 -name "*tmp*" | wc -l)" "$OUT/s.csv:123:0"

# -o and what is at PATH (#34 B, C): a FIFO and a character device are
# written through, never replaced, also through a symbolic link;
# /dev/stdout and /dev/fd/N are the descriptors themselves; a link to a
# regular file is refused (replacing its target would let whoever can
# write the link's directory choose the file root overwrites), and so are
# a directory and a dangling link; "-" is standard output.  A replaced
# file keeps its permission bits (never set-id) and owner, a new one gets
# 0666 & ~umask.  (Not /dev/null itself: the code before replaced it, as
# root; a link to it shows the same.)
mkfifo "$OUT/fifo"
timeout 20 cat "$OUT/fifo" >"$OUT/fifo.out" &
reader=$!
sp -f "$B" -F csv sites -o "$OUT/fifo" >"$OUT/o"
rc=$?
[ -p "$OUT/fifo" ] || kill "$reader" 2>/dev/null
wait "$reader"
eq "-o FIFO: written through, still a FIFO, no path printed (#34)" \
	"$rc:$([ -p "$OUT/fifo" ] && echo fifo):$(csv_sum count <"$OUT/fifo.out"):$(cat "$OUT/o")" "0:fifo:123:"
ln -s /dev/null "$OUT/null-link"
sp -f "$B" sites -o "$OUT/null-link" >"$OUT/o"
eq "-o a link to /dev/null: written through to the device, the link kept (#34)" \
	"$?:$(readlink "$OUT/null-link"):$([ -c /dev/null ] && echo chardev):$(cat "$OUT/o")" "0:/dev/null:chardev:"
mkdir -p "$OUT/dash"
(cd "$OUT/dash" && sp -f "$B" -F csv sites -o -) >"$OUT/o"
eq "-o -: standard output, no file named '-' (#34)" \
	"$?:$(csv_sum count <"$OUT/o"):$(find "$OUT/dash" -mindepth 1 | wc -l | tr -d ' ')" "0:123:0"
echo old >"$OUT/target.csv"
chmod 600 "$OUT/target.csv"
ln -s target.csv "$OUT/link.csv"
SP_RC=1
sp -f "$B" -F csv sites -o "$OUT/link.csv" >/dev/null 2>"$OUT/e"
eq "-o a symbolic link to a file: refused, the file and the link untouched (#34)" \
	"$?:$(readlink "$OUT/link.csv"):$(cat "$OUT/target.csv"):$(cat "$OUT/e")" \
	"1:target.csv:old:schedpoints: $OUT/link.csv: a symbolic link; refusing to replace what it points to (name that file itself)"
echo before >"$OUT/stdout.log"
{ sp -f "$B" -F csv sites -o /dev/stdout; rc=$?; echo after; } >>"$OUT/stdout.log"
eq "-o /dev/stdout redirected to a file: written through the descriptor, nothing before it lost (#34)" \
	"$rc:$(head -n 1 "$OUT/stdout.log"):$(tail -n 1 "$OUT/stdout.log"):$(sed '1d;$d' "$OUT/stdout.log" | csv_sum count)" \
	"0:before:after:123"
{ sp -f "$B" -F csv sites -o /dev/fd/3 3>"$OUT/fd3.csv"; } >"$OUT/o"
eq "-o /dev/fd/3: the descriptor, no path printed (#34)" \
	"$?:$(csv_sum count <"$OUT/fd3.csv"):$(cat "$OUT/o")" "0:123:"
# o_refused NAME PATH MESSAGE: -o PATH fails (exit 1), saying MESSAGE.
o_refused() {
	SP_RC=1
	sp -f "$B" sites -o "$2" >/dev/null 2>"$OUT/e"
	eq "$1" "$?:$(cat "$OUT/e")" "1:schedpoints: $2: $3"
}
mkfifo "$OUT/lonely"
o_refused "-o a FIFO with no reader: an error, not a wait (#34)" "$OUT/lonely" \
	"a FIFO with no reader"
echo old >"$OUT/setid.csv"
chmod 4755 "$OUT/setid.csv"
sp -f "$B" -F csv sites -o "$OUT/setid.csv" >/dev/null
eq "-o a set-uid file: replaced without the set-uid bit (#34)" \
	"$?:$(stat -c %a "$OUT/setid.csv")" "0:755"
ln -s no-such-target "$OUT/dangling"
o_refused "-o a dangling link: refused, said (#34)" "$OUT/dangling" \
	"No such file or directory"
o_refused "-o a directory: refused, said (#34)" "$OUT/dash" \
	"not a regular file, character device or FIFO; refusing to replace it"
echo old >"$OUT/private.csv"
chmod 600 "$OUT/private.csv"
sp -f "$B" -F csv sites -o "$OUT/private.csv" >/dev/null
eq "-o an existing file: its mode kept (0600 stays 0600) (#34)" \
	"$?:$(stat -c %a "$OUT/private.csv"):$(csv_sum count <"$OUT/private.csv")" "0:600:123"
rm -f "$OUT/new.csv"
(umask 027 && sp -f "$B" -F csv sites -o "$OUT/new.csv" >/dev/null)
eq "-o a new file: 0666 & ~umask (umask 027: 0640) (#34)" "$?:$(stat -c %a "$OUT/new.csv")" "0:640"
if [ "$(id -u)" = 0 ]; then
	echo old >"$OUT/owned.csv"
	chown nobody "$OUT/owned.csv"
	sp -f "$B" -F csv sites -o "$OUT/owned.csv" >/dev/null
	eq "-o an existing file, as root: its owner kept (#34)" \
		"$?:$(stat -c %U "$OUT/owned.csv")" "0:nobody"
fi

# Names that deceive (#34): a byte order mark and bidi controls (U+202E
# shows "abc" as "cba"; U+2066 isolates) are escaped in the display form and
# written \uXXXX in JSON; CSV names that a spreadsheet would run as a
# formula (= + - @, and ' itself) get a ' before them, quoted (OWASP).
{
	printf 'sched_points version 1\n'
	printf '%s\n' 'pid	tgid	kind	count	total_ns	max_ns	hist	address	symbol	comm'
	printf '%s\n' '1	1	sleep	9	0	0	-	ffffffff81000000	f+0x1/0x2	\357\273\277init'
	printf '%s\n' '2	2	sleep	8	0	0	-	ffffffff81000000	f+0x1/0x2	\342\200\256cba'
	printf '%s\n' '3	3	sleep	7	0	0	-	ffffffff81000000	f+0x1/0x2	\342\201\246x\342\201\251'
	printf '%s\n' '4	4	sleep	6	0	0	-	ffffffff81000000	f+0x1/0x2	=1+2'
	printf '%s\n' '5	5	sleep	5	0	0	-	ffffffff81000000	f+0x1/0x2	-bash'
	printf '%s\n' '6	6	sleep	4	0	0	-	ffffffff81000000	f+0x1/0x2	@SUM(A1)'
	printf '%s\n' "7	7	sleep	3	0	0	-	ffffffff81000000	f+0x1/0x2	'quoted"
	printf '%s\n' '8	8	sleep	2	0	0	-	ffffffff81000000	f+0x1/0x2	caf\303\251'
} >"$OUT/deceive.txt"
sp -f "$OUT/deceive.txt" tasks >"$OUT/deceive.table"
eq "table: a BOM and bidi controls in names are escaped, other UTF-8 kept (#34)" \
	"$(LC_ALL=C grep -c "$(printf '\342\200\256\|\357\273\277\|\342\201\246')" "$OUT/deceive.table"):$(awk '$1 ~ /^[0-9]+$/ && ($1 <= 3 || $1 == 8) { print $NF }' "$OUT/deceive.table" | tr '\n' ' ')" \
	'0:\357\273\277init \342\200\256cba \342\201\246x\342\201\251 café '
sp -f "$OUT/deceive.txt" -F json tasks >"$OUT/deceive.json"
eq "json: a BOM and bidi controls as \\uXXXX, the same code points (#34)" \
	"$(LC_ALL=C grep -c "$(printf '\342\200\256\|\357\273\277')" "$OUT/deceive.json"):$(grep -o '\\u[0-9a-f]\{4\}' "$OUT/deceive.json" | tr '\n' ' '):$(python3 -c 'import json,sys; print(ascii([r["comm"] for r in json.load(open(sys.argv[1], encoding="utf-8"))["rows"]][:3]))' "$OUT/deceive.json")" \
	"0:\\ufeff \\u202e \\u2066 \\u2069 :['\\ufeffinit', '\\u202ecba', '\\u2066x\\u2069']"
sp -f "$OUT/deceive.txt" -F csv tasks >"$OUT/deceive.csv"
eq "csv: names that start a formula get a ' and quotes, and ' itself; others as they are (#34)" \
	"$(grep -E '^[4-8],' "$OUT/deceive.csv" | cut -d, -f8- | tr '\n' ' ')" \
	"\"'=1+2\" \"'-bash\" \"'@SUM(A1)\" \"''quoted\" café "

# ---- minor version, unknown summary, build ids, reused pid (minor.txt) ------
M=$FIX/minor.txt
eq "version 1.x accepted, unknown summary ignored" "$(sp -f "$M" -F json sites | json_num total)" "86"
eq "same symbol at two addresses (module reloaded) is one site" \
	"$(sp -f "$M" -F csv sites | grep ext4_foo)" "75,140000000,1866666,1653523,2621440,4000000,4000000,1,disk_sleep,ext4_foo+0x10/0x40 [ext4 0123456789abcdef]"
eq "module name without build id" "$(sp -f "$M" -F csv sites -g module | sed -n 2p)" "75,140000000,1866666,1653523,2621440,4000000,4000000,1,disk_sleep,[ext4]"
eq "dropped shown as a warning" "$(sp -f "$M" sites | grep -c '^warning: 17 hits were dropped')" "1"
eq "summary in prometheus" "$(sp -f "$M" -F prom sites | grep -E '^sched_points_(dropped_total|capacity) ' | tr '\n' ' ')" \
	"sched_points_capacity 16 sched_points_dropped_total 17 "

# ---- the spec's rules (Documentation/scheduler/sched-points.rst) -----------
# Every symbol form the kernel prints: %pS of core and module text, with a
# build id (CONFIG_STACKTRACE_BUILD_ID), a bare address, the frozen name of an
# unloaded module's site, and "(unloaded module)" when it had no memory for it.
SYMS="sched_points version 1\nentries 5\n$COLS"
SYMS="${SYMS}1\t1\tsleep\t5\t0\t0\t-\tffffffff81000000\tdo_nanosleep+0x65/0x130\tx\n"
SYMS="${SYMS}1\t1\tsleep\t4\t0\t0\t-\tffffffffc0000000\tf+0x1/0x2 [m]\tx\n"
SYMS="${SYMS}1\t1\tsleep\t3\t0\t0\t-\tffffffffc0000000\tg+0x1/0x2 [m 0123456789abcdef]\tx\n"
SYMS="${SYMS}1\t1\tsleep\t2\t0\t0\t-\tffffffff81000000\t0xffffffff81000000\tx\n"
SYMS="${SYMS}1\t1\tsleep\t1\t0\t0\t-\tffffffffc0000000\t(unloaded module)\tx\n"
printf '%b' "$SYMS" >"$OUT/syms.txt"
eq "spec: every symbol form the kernel prints is read, (unloaded module) too" \
	"$(sp -f "$OUT/syms.txt" -F csv sites -g module 2>&1 | tr '\n' ' ')" \
	"count,total_ns,mean_ns,max_ns,tasks,kind,module 7,0,,0,1,sleep,[m] 5,0,,0,1,sleep,[vmlinux] 3,0,,0,1,sleep,[unknown] "
eq "spec: (unloaded module) is one site of its own" \
	"$(sp -f "$OUT/syms.txt" -F csv sites --symbol '(unloaded module)' 2>&1 | sed -n 2p)" \
	"1,0,,0,1,sleep,(unloaded module)"
# A minor version only adds summary names; header and fields stay the major's.
printf '%b' "sched_points version 1.7\nenabled 1\nnew_name 7\nnew_word some_word\nentries 1\n${COLS}1\t1\tsleep\t5\t10\t10\t-\tffffffff81000000\tf+0x1/0x2\tx\n" >"$OUT/minor17.txt"
eq "spec: a minor version (1.7) with new summary names is read" \
	"$(sp -f "$OUT/minor17.txt" -F csv sites 2>&1 | sed -n 2p)" "5,10,2,10,1,sleep,f+0x1/0x2"
printf 'sched_points version 1.1\npid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\thist\taddress\tsymbol\tcomm\tnew\n' >"$OUT/minor11col.txt"
SP_RC=1
sp -f "$OUT/minor11col.txt" sites >/dev/null 2>"$OUT/e"
eq "spec: the column header is exact in every minor version (an extra column is refused)" \
	"$?:$(grep -c 'expected the column header' "$OUT/e")" "1:1"
printf '%b' "sched_points version 1.1\n${COLS}1\t1\tsleep\t5\t10\t10\t-\tffffffff81000000\tf+0x1/0x2\tx\tnew\n" >"$OUT/minor11field.txt"
SP_RC=1
sp -f "$OUT/minor11field.txt" sites >/dev/null 2>"$OUT/e"
eq "spec: a data line of a minor version has the major's ten fields" \
	"$?:$(sed 's/.*: //' "$OUT/e")" "1:expected 10 TAB-separated fields, got 11"
printf 'sched_points version 4.0\n' >"$OUT/major4.txt"
SP_RC=1
sp -f "$OUT/major4.txt" sites >/dev/null 2>"$OUT/e"
eq "spec: an unknown major is refused, whatever its minor" "$?:$(grep -c 'unsupported format version 4 ' "$OUT/e")" "1:1"
# No reader reads a major it does not know: a good snapshot with only its
# version line changed is refused at line 1 (a version 2 one too: exited.txt).
for major in 0 3 3.0; do
	for f in basic exited; do
		sed "1s/.*/sched_points version $major/" "$FIX/$f.txt" >"$OUT/major.txt"
		SP_RC=1
		sp -f "$OUT/major.txt" sites >"$OUT/o" 2>"$OUT/e"
		eq "spec: 'sched_points version $major' is refused ($f.txt), said with its line" "$?:$(cat "$OUT/o"):$(cat "$OUT/e")" \
			"1::schedpoints: $OUT/major.txt:1: unsupported format version ${major%.0} (this schedpoints reads versions 1 and 2)"
	done
done
# Version 2 is version 1 with lines of exited tasks, 'folded' and the split
# of the off-CPU time into the wait and the run delay (six more columns): a
# version 1 snapshot under version 2 (or 2.N), its header and lines given the
# split (all wait, but a yield's: all run delay), reads the same in every
# format but for the version and the split's own columns, fields and series
# (nosplit FMT drops them).
v1_to_v2() {	# v1_to_v2 MAJOR FILE: FILE of version 1 as version MAJOR
	awk -F '\t' -v OFS='\t' -v major="$1" '
		NR == 1 { print "sched_points version " major; next }
		/^pid\ttgid\t/ { print "pid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\twait_ns\twait_max_ns\tdelay_ns\tdelay_max_ns\thist\twait_hist\tdelay_hist\taddress\tsymbol\tcomm"; h = 1; next }
		!h { print; next }
		{ c = 0; n = split($7, b, ","); for (i = 1; i <= n; i++) { split(b[i], kv, ":"); c += kv[2] }
		  z = $7 == "-" ? "-" : "9:" c
		  if ($3 == "yield")	# a yield has no wait: all run delay
			print $1, $2, $3, $4, $5, $6, 0, 0, $5, $6, $7, z, $7, $8, $9, $10
		  else
			print $1, $2, $3, $4, $5, $6, $5, $6, 0, 0, $7, $7, z, $8, $9, $10 }' "$2"
}
nosplit() {	# nosplit FMT: stdin in FMT without the columns of the split
	python3 -c '
import csv, json, re, sys
fmt = sys.argv[1]
split = re.compile(r"^(delta_)?(wait|delay)_|^total_(delta_)?(wait|delay)_ns$|^has_split$")
cols = {"WAIT", "WP50", "WP90", "WP99", "WMAX", "DWAIT",
	"DELAY", "DP50", "DP90", "DP99", "DMAX", "DDELAY"}
def drop(v):
	if isinstance(v, dict):
		return {k: drop(x) for k, x in v.items() if not split.match(k)}
	if isinstance(v, list):
		return [drop(x) for x in v]
	return v
if fmt == "json":
	print(json.dumps(drop(json.load(sys.stdin)), sort_keys=True))
elif fmt == "csv":
	rows = list(csv.reader(sys.stdin))
	keep = [i for i, h in enumerate(rows[0]) if not split.match(h)]
	w = csv.writer(sys.stdout, lineterminator="\n")
	for r in rows:
		w.writerow([r[i] for i in keep])
elif fmt == "table":
	drop_at = None
	for line in sys.stdin:
		f = line.split()
		if drop_at is None and f and f[0] in ("PID", "TGID", "COMM", "COUNT", "TIME"):
			drop_at = {i for i, h in enumerate(f) if h in cols}
		if drop_at is not None:
			line = " ".join(x for i, x in enumerate(f) if i not in drop_at) + "\n"
		sys.stdout.write(line)
elif fmt == "prometheus":
	sys.stdout.writelines(l for l in sys.stdin if not re.search(r"offcpu_(wait|run_delay)_", l))
else:
	sys.stdout.write(sys.stdin.read())
' "$1"
}
for major in 2 2.4; do
	v1_to_v2 "$major" "$FIX/basic.txt" >"$OUT/major.txt"
	same=0
	for fmt in table csv json prometheus folded; do
		sp -f "$FIX/basic.txt" -F "$fmt" tasks | nosplit "$fmt" | sed -e "s|$FIX/basic.txt|F|" -e 's/version[": ]*1"*//' >"$OUT/o1"
		sp -f "$OUT/major.txt" -F "$fmt" tasks | nosplit "$fmt" | sed -e "s|$OUT/major.txt|F|" -e "s/version[\": ]*$major\"*//" >"$OUT/o2"
		cmp -s "$OUT/o1" "$OUT/o2" && same=$((same + 1))
	done
	eq "spec: a version 1 snapshot said to be version $major reads the same, but for the split (5 formats)" "$same" "5"
done

# ---- kinds, off-CPU time (time.txt: the histogram switch off) ----------------
V=$FIX/time.txt
eq "sites: keyed by (site, kind), time, mean over timed hits, max" \
	"$(sp -f "$V" -F csv sites | sed -n 1,2p | tr '\n' ' ')" \
	"count,total_ns,mean_ns,max_ns,tasks,kind,site 65,1312345678,20189933,40123456,2,sleep,do_nanosleep+0x6e/0x190 "
eq "sites: the same site with another kind is another row" \
	"$(sp -f "$V" -F csv sites | grep -c ',do_nanosleep+0x6e/0x190$')" "2"
eq "tasks: kinds summed; a site hit with two kinds counts once" \
	"$(sp -f "$V" -F csv tasks | grep '^123,')" "123,123,62,913545678,16027117,40123456,2,sleeper"
eq "kinds: counts and time per kind" \
	"$(sp -f "$V" -F csv kinds | tr '\n' ' ')" \
	"count,total_ns,mean_ns,max_ns,tasks,kind 98,4762345678,48595364,2000000000,4,sleep 20,0,,0,2,preempt 13,1201500,92423,400000,2,yield 7,0,,0,1,cond_resched "
eq "sites -g kind is kinds" "$(sp -f "$V" -F csv sites -g kind | md5sum)" "$(sp -f "$V" -F csv kinds | md5sum)"
eq "--kind filter (list)" "$(sp -f "$V" -F csv sites --kind preempt,cond_resched | csv_sum count)" "27"
eq "--kind repeated" "$(sp -f "$V" -F csv tasks --kind preempt --kind yield | csv_sum count)" "33"
eq "tasks --kind: a site counted once over the kinds taken" \
	"$(sp -f "$V" -F csv tasks --kind sleep,preempt | grep '^123,' | cut -d, -f3,7):$(sp -f "$V" -F csv tasks --kind preempt,yield | grep '^123,' | cut -d, -f3,7)" \
	"50,1:17,2"
P1="sched_points version 1\n$COLS"
printf '%b' "${P1}9\t9\tsleep\t5\t50\t10\t-\t0000000000000000\tf+0x1/0x2\tx\n9\t9\tpreempt\t1\t0\t0\t-\t0000000000000000\tf+0x1/0x2\tx\n9\t9\tyield\t1\t5\t5\t-\t0000000000000000\tg+0x1/0x2\tx\n" >"$OUT/p1.txt"
printf '%b' "${P1}9\t9\tsleep\t5\t50\t10\t-\t0000000000000000\tf+0x1/0x2\tx\n9\t9\tpreempt\t3\t0\t0\t-\t0000000000000000\tf+0x1/0x2\tx\n9\t9\tyield\t1\t5\t5\t-\t0000000000000000\tg+0x1/0x2\tx\n" >"$OUT/p2.txt"
eq "diff: a site whose first kind did not move counts by the kind that did" \
	"$(sp -F csv diff "$OUT/p1.txt" "$OUT/p2.txt" tasks | sed -n 2p):$(sp -F csv -f "$OUT/p2.txt" tasks | sed -n 2p)" \
	"9,9,2,,9,0,,55,,10,1,x:9,9,9,55,9,10,2,x"
# MEAN line by line (#34): a row of two lines of one key, one timed and one
# counted while time was off, divides by the timed line's calls (1000 ns
# over 10 calls, not over 100); in an interval, the timed calls that came.
printf '%b' "${P1}9\t9\tsleep\t10\t1000\t300\t-\t0000000000000000\tf+0x1/0x2\tx\n9\t9\tsleep\t90\t0\t0\t-\t0000000000000000\tf+0x1/0x2\tx\n" >"$OUT/mean1.txt"
printf '%b' "${P1}9\t9\tsleep\t20\t3000\t300\t-\t0000000000000000\tf+0x1/0x2\tx\n9\t9\tsleep\t180\t0\t0\t-\t0000000000000000\tf+0x1/0x2\tx\n" >"$OUT/mean2.txt"
eq "mean per line: a row of a timed and an untimed line, over the timed calls (#34)" \
	"$(sp -f "$OUT/mean1.txt" -F csv tasks | sed -n 2p):$(sp -F csv diff "$OUT/mean1.txt" "$OUT/mean2.txt" tasks | sed -n 2p | cut -d, -f3,6,9)" \
	"9,9,100,1000,100,300,1,x:100,2000,200"
eq "-T: sorted by off-CPU time, time first" \
	"$(sp -f "$V" -F csv -T sites | sed -n 1,2p | tr '\n' ' ')" \
	"total_ns,mean_ns,max_ns,count,tasks,kind,site 3000000000,1000000000,2000000000,3,1,sleep,schedule_timeout+0x9d/0x160 "
eq "--value time is -T" "$(sp -f "$V" -F csv --value time tasks | md5sum)" "$(sp -f "$V" -F csv -T tasks | md5sum)"
eq "-T -s count: time the value, sorted by count" \
	"$(sp -f "$V" -F csv -T -s count sites | sed -n 2p)" "1312345678,20189933,40123456,65,2,sleep,do_nanosleep+0x6e/0x190"
eq "-s time: count the value, sorted by time" \
	"$(sp -f "$V" -F csv -s time tasks | sed -n 2p)" "1,1,3,3000000000,1000000000,2000000000,1,init"
eq "site FUNCTION: tasks, kinds summed, mean over the timed kind" \
	"$(sp -f "$V" -F csv site do_nanosleep | tr '\n' ' ')" \
	"pid,tgid,count,total_ns,mean_ns,max_ns,sites,comm 123,123,50,912345678,20274348,40123456,1,sleeper 124,124,20,400000000,20000000,25000000,1,sleeper 129,129,7,0,,0,1,my thread "
eq "task PID: one row per (site, kind)" \
	"$(sp -f "$V" -F csv task 123 | tr '\n' ' ')" \
	"pid,tgid,count,total_ns,mean_ns,max_ns,comm,kind,site 123,123,45,912345678,20274348,40123456,sleeper,sleep,do_nanosleep+0x6e/0x190 123,123,12,1200000,100000,400000,sleeper,yield,schedule_timeout+0x9d/0x160 123,123,5,0,,0,sleeper,preempt,do_nanosleep+0x6e/0x190 "
eq "task PID -g kind" "$(sp -f "$V" -F csv task 123 -g kind | cut -d, -f3,8 | tr '\n' ' ')" \
	"count,kind 45,sleep 12,yield 5,preempt "
sp -f "$V" sites >"$OUT/time.table"
eq "table: source line with mode, time, kinds in the spec's order" \
	"$(head -n 1 "$OUT/time.table")" \
	"source $V  version 1  enabled 1  mode caller  time 1  kinds 1  hist 0  cpus 2  capacity 4096  used 12  entries 9  dropped 0"
eq "table: header with time and kind columns" \
	"$(sed -n 3p "$OUT/time.table" | tr -s ' ')" "COUNT % TIME MEAN MAX TASKS KIND SITE"
eq "table: human units (total, mean, max)" \
	"$(awk '$NF == "schedule_timeout+0x9d/0x160" && $(NF - 1) == "sleep" { print $3, $4, $5 }' "$OUT/time.table")" \
	"3.00s 1.00s 2.00s"
eq "table: ms, us, ns and '-' for a mean without timed hits" \
	"$(awk '$NF == "0xffffffffc0009999" || ($NF == "do_nanosleep+0x80/0x190") { print $3, $4, $5 }' "$OUT/time.table" | tr '\n' ' ')" \
	"0ns - 0ns 1.50us 1.50us 1.50us "
eq "table: footer with the time" "$(tail -n 1 "$OUT/time.table")" "total 138  time 4.76s  sites 8"
eq "table: kinds footer" "$(sp -f "$V" kinds | tail -n 1)" "total 138  time 4.76s  kinds 4"
eq "table -T: time column first, percent of time" \
	"$(sp -f "$V" -T tasks | awk '$1 == 1 { print $3, $4 }')" "3.00s 63.0%"
eq "matrix: columns kind:site" \
	"$(sp -f "$V" -F csv -T matrix -n 2 | head -n 1)" \
	"pid,tgid,comm,total_ns,sleep:schedule_timeout+0x9d/0x160,sleep:do_nanosleep+0x6e/0x190"
eq "matrix --value count cells" \
	"$(sp -f "$V" -F csv matrix -n 3 | sed -n 2p)" "123,123,sleeper,62,45,0,0"
eq "matrix table: legend with kinds, time cells" \
	"$(sp -f "$V" -T matrix -n 2 | grep -E '^(S1|S2|  1 )' | tr -s ' ' | tr '\n' '|')" \
	" 1 1 init 3.00s 3.00s .|S1 sleep schedule_timeout+0x9d/0x160|S2 sleep do_nanosleep+0x6e/0x190|"
eq "folded: kind frame after the site" \
	"$(sp -f "$V" -F folded matrix | head -n 2 | tr '\n' '|')" \
	"sleeper;do_nanosleep+0x6e/0x190;sleep 45|my thread;sp_test_sleep_once+0x4a/0x90 [sched_points_test];sleep 30|"
eq "folded -T: off-CPU ns, zero time left out" \
	"$(sp -f "$V" -F folded -T matrix | sed -n '1p;$p' | tr '\n' '|'):$(sp -f "$V" -F folded -T matrix | wc -l | tr -d ' ')" \
	"init;schedule_timeout+0x9d/0x160;sleep 3000000000|wéird;0xffffffffc0009999;yield 1500|:6"
eq "folded kinds" "$(sp -f "$V" -F folded kinds | head -n 1)" "sleep 98"
sp -f "$V" -F prometheus sites >"$OUT/time.prom"
sp -f "$V" -F prometheus matrix >"$OUT/timem.prom"
eq "prometheus: kind label, exact seconds" \
	"$(grep '^sched_points_offcpu_seconds_total{kind="sleep",site="do_nanosleep+0x6e/0x190"}' "$OUT/time.prom")" \
	'sched_points_offcpu_seconds_total{kind="sleep",site="do_nanosleep+0x6e/0x190"} 1.312345678'
eq "prometheus: time, kinds, mode info, max gauge with all labels" \
	"$(grep -E '^sched_points_(offcpu_max_seconds\{pid="123",tgid="123",comm="sleeper",kind="sleep"|mode_info|time |kinds )' "$OUT/timem.prom" | tr '\n' '|')" \
	'sched_points_time 1|sched_points_kinds 1|sched_points_mode_info{mode="caller"} 1|sched_points_offcpu_max_seconds{pid="123",tgid="123",comm="sleeper",kind="sleep",site="do_nanosleep+0x6e/0x190"} 0.040123456|'
eq "prometheus with time: every line is a comment or 'name{labels} value'" \
	"$(cat "$OUT/time.prom" "$OUT/timem.prom" | grep -Evc '^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{([a-z_]+="([^"\\]|\\["\\n])*",?)+\})? [0-9.e+-]+)$')" "0"
eq "prometheus with time: HELP and TYPE for each family, the hist switch too" \
	"$(grep -c '^# TYPE' "$OUT/time.prom"):$(grep -c '^# HELP' "$OUT/time.prom")" "13:13"
sp -f "$V" -F json -p -T sites >"$OUT/time.json"
	eq "json: value, summary mode, rows with kind and times" \
		"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["rows"]; print(d["value"], d["summary"]["mode"], d["summary"]["time"], d["total_ns"], r[0]["kind"], r[0]["total_ns"], r[0]["mean_ns"], r[-1]["mean_ns"], sorted(r[0]))' "$OUT/time.json")" \
		"time caller 1 4763547178 sleep 3000000000 1000000000 None ['count', 'kind', 'max_ns', 'mean_ns', 'site', 'tasks', 'total_ns']"
	sp -f "$V" -F json -T matrix >"$OUT/timem.json"
	eq "json matrix -T: cells in ns sum to total_ns, columns have kind" \
		"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["total_ns"], sum(sum(r["cells"]) for r in d["rows"]), d["columns"][0]["kind"], len(d["columns"]))' "$OUT/timem.json")" \
		"4763547178 4763547178 sleep 8"
	sp -f "$FIX/edge.txt" -F json tasks >"$OUT/edge.json"
	eq "json: numbers above 2^64 exact" \
		"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["total_ns"], max(r["total_ns"] for r in d["rows"]))' "$OUT/edge.json")" \
		"36893488147419104122 18446744073709551615"
sp -f "$V" heatmap >"$OUT/time.svg"
eq "heatmap: kind:site labels, tooltip with count and time" \
	"$(grep -c 'rotate(-90)">sleep:do_nanosleep' "$OUT/time.svg"):$(grep -c '<title>sleeper (123) at sleep:do_nanosleep+0x6e/0x190: count 45, off-CPU time 912ms</title>' "$OUT/time.svg")" "1:1"
sp -f "$V" -T heatmap >"$OUT/timet.svg"
eq "heatmap -T: coloured by time, legend in time units" \
	"$(grep -c '<title>init (1) at sleep:schedule_timeout+0x9d/0x160: off-CPU time 3.00s, count 3</title>' "$OUT/timet.svg"):$(grep -o 'max 3.00s' "$OUT/timet.svg")" "1:max 3.00s"
xmllint --noout "$OUT/time.svg" "$OUT/timet.svg" 2>"$OUT/x"
eq "heatmaps: well-formed XML" "$?:$(cat "$OUT/x")" "0:"

X=$FIX/edge.txt
eq "edge: version 1.1, mode effective, time 0, unknown summary with a word" \
	"$(sp -f "$X" sites | head -n 1)" \
	"source $X  version 1.1  enabled 0  mode effective  time 0  kinds 0  hist 0  cpus 4  capacity 16  used 7  entries 6  dropped 3"
eq "edge: times near 2^64 summed exactly (128 bits)" \
	"$(sp -f "$X" -F csv tasks -b tgid | grep '^500,')" \
	"500,2,36893488147419102615,18446744073709551307,18446744073709551615,2,1,forever"
eq "edge: json total_ns above 2^64" "$(sp -f "$X" -F json sites | json_num total_ns)" "36893488147419104122"
eq "edge: prometheus seconds of 2^64-1 ns" \
	"$(sp -f "$X" -F prom tasks | grep '^sched_points_offcpu_max_seconds{pid="500"')" \
	'sched_points_offcpu_max_seconds{pid="500",tgid="500",comm="forever"} 18446744073.709551615'
eq "edge: table shows days" "$(sp -f "$X" tasks -b tgid | awk '$1 == 500 { print $4, $5, $6 }')" "427008d 213504d 213504d"
eq "edge: one key on two lines is one row (counts and time summed, max kept)" \
	"$(sp -f "$X" -F csv tasks | grep '^504,')" "504,504,15,1500,100,700,1,dup"
eq "edge: one call of almost 2^64 ns, its mean exact" "$(sp -f "$X" -F csv tasks | grep '^50[12],' | tr '\n' ' ')" \
	"501,500,1,18446744073709551000,18446744073709551000,9223372036854775808,1,forever 502,502,1,7,7,7,1,late "

# ---- interval mode -----------------------------------------------------------
cp "$FIX/a.txt" "$OUT/a.txt"
cp "$FIX/b.txt" "$OUT/b.txt"
touch -d '2024-01-01 00:00:00' "$OUT/a.txt"
touch -d '2024-01-01 00:00:10' "$OUT/b.txt"
eq "diff -i: deltas and rates of tasks, kinds summed" \
	"$(sp -F csv diff "$FIX/a.txt" "$FIX/b.txt" -i 4 tasks | tr '\n' ' ')" \
	"pid,tgid,delta,rate,count,delta_ns,time_rate,total_ns,mean_ns,max_ns,sites,comm 123,123,60,15.000,110,1200000000,0.300000,2000000000,20000000,30000000,1,sleeper 150,150,8,2.000,8,4000,0.000001,4000,500,1000,1,kworker/0:1 130,129,0,0.000,10,50000000,0.012500,150000000,,50000000,1,my thread "
eq "diff: rows that did not move are left out" \
	"$(sp -F csv diff "$FIX/a.txt" "$FIX/b.txt" -i 4 sites | grep -c ',preempt,'):$(sp -F csv -f "$FIX/b.txt" sites | grep -c ',preempt,')" "0:1"
eq "diff: interval from file times" \
	"$(sp -F json diff "$OUT/a.txt" "$OUT/b.txt" | sed 's/.*"interval":\([0-9.]*\),.*"total_delta":\([0-9]*\),"rate":\([0-9.]*\).*/\1 \2 \3/')" "10 68 6.8"
eq "diff: the interval taken from the files' times is said: table head, JSON, stderr of CSV (#34)" \
	"$(sp diff "$OUT/a.txt" "$OUT/b.txt" | head -n 1 | sed 's/.*  interval/interval/'):$(sp -F json diff "$OUT/a.txt" "$OUT/b.txt" | python3 -c 'import json,sys; print(json.load(sys.stdin)["interval_from"])'):$(sp -F csv diff "$OUT/a.txt" "$OUT/b.txt" 2>&1 >/dev/null)" \
	"interval 10.00 s (from the files' modification times, -i sets it):mtime:schedpoints: diff: rates over 10.00 s, between the files' modification times (-i SEC sets it)"
eq "diff -i: the interval given is said, and wins over the files' times (#34)" \
	"$(sp diff "$OUT/a.txt" "$OUT/b.txt" -i 5 | head -n 1 | sed 's/.*  interval/interval/'):$(sp -F json diff -i 5 "$OUT/a.txt" "$OUT/b.txt" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["interval"], d["interval_from"])')" \
	"interval 5.00 s (-i):5 option"
eq "diff: sites view sums deltas" "$(sp -F csv diff "$FIX/a.txt" "$FIX/b.txt" sites | csv_sum delta)" "68"
eq "diff: no interval, no rate" "$(sp -F csv diff "$FIX/a.txt" "$FIX/b.txt" sites -g module | sed -n 2p)" \
	"60,,100,1200000000,,2000000000,20000000,30000000,1,sleep,[vmlinux]"
# b.txt with the count of one line gone back (its time has not)
sed 's/^\(123\t123\tsleep\t\)100\t/\15\t/' "$FIX/b.txt" >"$OUT/reset-count.txt"
SP_RC=1
sp diff "$FIX/b.txt" "$OUT/reset-count.txt" >"$OUT/o" 2>"$OUT/e"
eq "diff: a count going back is a reset, refused, said" "$?:$(cat "$OUT/o"):$(cat "$OUT/e")" \
	"1::schedpoints: diff $FIX/b.txt $OUT/reset-count.txt: counters went back between snapshots (pid 123 'sleeper' at do_nanosleep+0x6e/0x190, sleep: count 100 -> 5); no delta can be computed"
SP_RC=1
sp diff "$FIX/b.txt" "$FIX/reset.txt" >"$OUT/o" 2>"$OUT/e"
eq "diff: off-CPU time going back is a reset" "$?:$(cat "$OUT/o"):$(cat "$OUT/e")" \
	"1::schedpoints: diff $FIX/b.txt $FIX/reset.txt: counters went back between snapshots (pid 123 'sleeper' at do_nanosleep+0x6e/0x190, sleep: total_ns 2000000000 -> 1900000000); no delta can be computed"
cat "$FIX/a.txt" "$FIX/b.txt" "$FIX/reset.txt" "$FIX/c.txt" >"$OUT/stream.txt"
sp top -f - -i 2 -c 3 -F csv <"$OUT/stream.txt" >"$OUT/top.csv" 2>"$OUT/top.err"
eq "top on a stream: exit 0" "$?" "0"
eq "top: sample 1 deltas and rates" "$(grep '^1,' "$OUT/top.csv" | tr '\n' ' ')" \
	"1,60,30.000,100,1200000000,0.600000,2000000000,20000000,30000000,1,sleep,do_nanosleep+0x6e/0x190 1,8,4.000,8,4000,0.000002,4000,500,1000,1,yield,schedule_timeout+0x9d/0x160 1,0,0.000,10,50000000,0.025000,150000000,,50000000,1,sleep,sp_test_sleep_once+0x4a/0x90 [sched_points_test] "
eq "top: reset detected, said, not shown as a rate" \
	"$(grep -c '^2,' "$OUT/top.csv"):$(cat "$OUT/top.err")" \
	"0:schedpoints: sample 2: counters went back between snapshots (pid 123 'sleeper' at do_nanosleep+0x6e/0x190, sleep: total_ns 2000000000 -> 1900000000); the interval restarts from this snapshot"
eq "top: the interval restarts from the new snapshot" "$(grep '^3,' "$OUT/top.csv")" \
	"3,4,2.000,104,50000000,0.025000,1950000000,12500000,30000000,1,sleep,do_nanosleep+0x6e/0x190"
eq "top: json reset object" \
	"$(sp top -f - -i 2 -c 3 -F json <"$OUT/stream.txt" 2>/dev/null | grep -c '"sample":2,"delta":true,"reset":true,"message":"counters went back')" "1"
eq "top -c stops after COUNT samples" \
	"$(sp top -f - -i 2 -c 1 -F csv <"$OUT/stream.txt" | cut -d, -f1 | sort -u | tr '\n' ' ')" "1 sample "
eq "top: ends at the end of a stream" \
	"$(sp top -f - -i 2 -F csv tasks <"$OUT/stream.txt" 2>/dev/null | cut -d, -f1 | sort -u | tr '\n' ' ')" "1 3 sample "
SP_RC=1
sed '1s/.*/sched_points version 3/' "$FIX/b.txt" | cat "$FIX/a.txt" - | sp top -f - -c 1 -F csv >"$OUT/o" 2>"$OUT/e"
eq "top: a snapshot of another major in the stream stops it, said with its line" "$?:$(cat "$OUT/o"):$(cat "$OUT/e")" \
	"1::schedpoints: <stdin>:16: unsupported format version 3 (this schedpoints reads versions 1 and 2)"
# a file read anew every interval, replaced in between (halfway: the
# sanitizer build starts slowly while make check builds kernels beside it)
cp "$FIX/a.txt" "$OUT/live.txt"
( sleep 2; cp "$FIX/b.txt" "$OUT/live.tmp"; mv "$OUT/live.tmp" "$OUT/live.txt" ) &
t0=$(date +%s.%N)
sp top -f "$OUT/live.txt" -i 4 -c 1 -F json sites >"$OUT/live.json"
rc=$?
t1=$(date +%s.%N)
wait
eq "top on a file: re-read after -i seconds, deltas" \
	"$rc:$(json_num total_delta <"$OUT/live.json"):$(json_num sample <"$OUT/live.json")" "0:68:1"
rate=$(json_num rate <"$OUT/live.json")
interval=$(json_num interval <"$OUT/live.json")
eq "top on a file: rate from the measured interval, at least -i, within the run" \
	"$(awk -v r="$rate" -v i="$interval" -v w="$t1 - $t0" 'BEGIN { split(w, t, " - "); w = t[1] - t[2]; print (i >= 4 && i <= w && r > 68 / i * 0.999 && r < 68 / i * 1.001) ? "measured" : r " per s over " i " s of a " w " s run" }')" "measured"
eq "diff: deltas of count and time, a row that moved in time only" \
	"$(sp -F csv diff "$FIX/a.txt" "$FIX/b.txt" -i 4 sites | tr '\n' ' ')" \
	"delta,rate,count,delta_ns,time_rate,total_ns,mean_ns,max_ns,tasks,kind,site 60,15.000,100,1200000000,0.300000,2000000000,20000000,30000000,1,sleep,do_nanosleep+0x6e/0x190 8,2.000,8,4000,0.000001,4000,500,1000,1,yield,schedule_timeout+0x9d/0x160 0,0.000,10,50000000,0.012500,150000000,,50000000,1,sleep,sp_test_sleep_once+0x4a/0x90 [sched_points_test] "
eq "diff: sums of deltas" \
	"$(sp -F csv diff "$FIX/a.txt" "$FIX/b.txt" tasks | csv_sum delta):$(sp -F csv diff "$FIX/a.txt" "$FIX/b.txt" tasks | csv_sum delta_ns)" \
	"68:1250004000"
eq "diff -T: sorted by time delta" \
	"$(sp -F csv -T diff "$FIX/a.txt" "$FIX/b.txt" -i 4 tasks | sed -n 1,2p | tr '\n' ' ')" \
	"pid,tgid,delta_ns,time_rate,total_ns,delta,rate,count,mean_ns,max_ns,sites,comm 123,123,1200000000,0.300000,2000000000,60,15.000,110,20000000,30000000,1,sleeper "
eq "diff: json totals" \
	"$(sp -F json diff "$FIX/a.txt" "$FIX/b.txt" -i 4 sites | sed 's/.*"total_delta":\([0-9]*\),"rate":\([0-9.]*\),"total_delta_ns":\([0-9]*\),"time_rate":\([0-9.]*\),.*/\1 \2 \3 \4/')" \
	"68 17 1250004000 0.312501"
eq "diff: prometheus time delta and rate" \
	"$(sp -F prom diff "$FIX/a.txt" "$FIX/b.txt" -i 4 kinds | grep -E '^sched_points_offcpu_seconds_(delta|per_second)\{kind="sleep"' | tr '\n' '|')" \
	'sched_points_offcpu_seconds_delta{kind="sleep"} 1.250000000|sched_points_offcpu_seconds_per_second{kind="sleep"} 0.3125|'
eq "diff: table footer" \
	"$(sp diff "$FIX/a.txt" "$FIX/b.txt" -i 4 tasks | tail -n 1)" \
	"delta 68  rate 17.0/s  total 128  dtime 1.25s  time/s 0.313  time 2.15s  tasks 3"

# ---- bad input: message with file and line, exit 1, no crash ---------------
# HDR (above) is a whole head with 'entries 1': its data line is line 13.
GOOD='1\t1\tsleep\t5\t100\t60\t-\tffffffff81000000\tf+0x1/0x2\tx\n'
# bad NAME PRINTF-INPUT LINE MESSAGE
bad() {
	printf '%b' "$2" >"$OUT/bad.txt"
	SP_RC=1
	sp -f "$OUT/bad.txt" >"$OUT/o" 2>"$OUT/e"
	rc=$?
	want="schedpoints: $OUT/bad.txt:$3: $4"
	[ "$3" = "-" ] && want="schedpoints: $OUT/bad.txt: $4"
	eq "bad input: $1" "$rc:$(cat "$OUT/o"):$(cat "$OUT/e")" "1::$want"
}
bad "9 fields" "${HDR}1\t1\tsleep\t5\t100\t60\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "expected 10 TAB-separated fields, got 9"
bad "11 fields" "${HDR}1\t1\tsleep\t5\t100\t60\t-\tffffffff81000000\tf+0x1/0x2\tx\ty\n" 13 "expected 10 TAB-separated fields, got 11"
bad "empty file" "" - "empty input, expected 'sched_points version 1' or 'sched_points version 2'"
bad "unknown major version" "sched_points version 4\n" 1 "unsupported format version 4 (this schedpoints reads versions 1 and 2)"
bad "major version 0" "sched_points version 0.9\n" 1 "unsupported format version 0 (this schedpoints reads versions 1 and 2)"
bad "major version 3" "sched_points version 3\n" 1 "unsupported format version 3 (this schedpoints reads versions 1 and 2)"
bad "major version 3 with a minor" "sched_points version 3.1\n" 1 "unsupported format version 3 (this schedpoints reads versions 1 and 2)"
bad "unknown major version with minor" "sched_points version 10.1\n" 1 "unsupported format version 10 (this schedpoints reads versions 1 and 2)"
bad "major version 2 is read: a column header follows its version line (its 16 columns)" "sched_points version 2\n" 1 "unexpected end of input, expected the column header 'pid\\ttgid\\tkind\\tcount\\ttotal_ns\\tmax_ns\\twait_ns\\twait_max_ns\\tdelay_ns\\tdelay_max_ns\\thist\\twait_hist\\tdelay_hist\\taddress\\tsymbol\\tcomm'"
bad "bad version line" "sched_points version one\n" 1 "expected 'sched_points version <MAJOR>[.<MINOR>]', got 'sched_points version one'"
bad "not a sched_points file" "hello\n" 1 "expected 'sched_points version 1' or 'sched_points version 2', got 'hello'"
bad "no column header" "sched_points version 1\nenabled 1\n" 2 "unexpected end of input, expected the column header 'pid\\ttgid\\tkind\\tcount\\ttotal_ns\\tmax_ns\\thist\\taddress\\tsymbol\\tcomm'"
bad "wrong column header" "sched_points version 1\npid\ttgid\tcount\n" 2 "expected the column header 'pid\\ttgid\\tkind\\tcount\\ttotal_ns\\tmax_ns\\thist\\taddress\\tsymbol\\tcomm', got 'pid\\011tgid\\011count'"
bad "column header without hist" "sched_points version 1\npid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\taddress\tsymbol\tcomm\n" 2 "expected the column header 'pid\\ttgid\\tkind\\tcount\\ttotal_ns\\tmax_ns\\thist\\taddress\\tsymbol\\tcomm', got 'pid\\011tgid\\011kind\\011count\\011total_ns\\011max_ns\\011addr...'"
bad "columns in another order" "sched_points version 1\npid\ttgid\tcount\tkind\ttotal_ns\tmax_ns\thist\taddress\tsymbol\tcomm\n" 2 "expected the column header 'pid\\ttgid\\tkind\\tcount\\ttotal_ns\\tmax_ns\\thist\\taddress\\tsymbol\\tcomm', got 'pid\\011tgid\\011count\\011kind\\011total_ns\\011max_ns\\011hist...'"
bad "summary not a number" "sched_points version 1\nenabled yes\n" 2 "summary 'enabled': expected an unsigned decimal, got 'yes'"
bad "summary enabled 2" "sched_points version 1\nenabled 2\n" 2 "summary 'enabled': expected 0 or 1, got 2"
bad "summary twice" "sched_points version 1\ncpus 2\ncpus 2\n" 3 "summary 'cpus' given twice"
bad "summary shape" "sched_points version 1\ncpus  2\n" 2 "summary 'cpus': expected an unsigned decimal, got ' 2'"
bad "pid not a number" "${HDR}1a\t1\tsleep\t5\t100\t60\t-\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "pid: expected an unsigned decimal, got '1a'"
bad "negative pid" "${HDR}-1\t1\tsleep\t5\t100\t60\t-\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "pid: expected an unsigned decimal, got '-1'"
bad "pid above 32 bits" "${HDR}4294967296\t1\tsleep\t5\t100\t60\t-\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "pid: expected an unsigned decimal below 2^32, got '4294967296'"
bad "empty tgid" "${HDR}1\t\tsleep\t5\t100\t60\t-\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "tgid: expected an unsigned decimal, got ''"
bad "kind in capitals" "${HDR}1\t1\tSleep\t5\t0\t0\t-\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "kind: expected 'sleep', 'disk_sleep', 'idle', 'yield', 'preempt' or 'cond_resched', got 'Sleep'"
bad "kind '-'" "${HDR}1\t1\t-\t5\t0\t0\t-\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "kind: expected 'sleep', 'disk_sleep', 'idle', 'yield', 'preempt' or 'cond_resched', got '-'"
bad "empty kind" "${HDR}1\t1\t\t5\t0\t0\t-\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "kind: expected 'sleep', 'disk_sleep', 'idle', 'yield', 'preempt' or 'cond_resched', got ''"
bad "bad kind word lists the six" "${HDR}1\t1\tnap\t5\t100\t60\t-\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "kind: expected 'sleep', 'disk_sleep', 'idle', 'yield', 'preempt' or 'cond_resched', got 'nap'"
bad "count above 64 bits" "${HDR}1\t1\tsleep\t18446744073709551616\t100\t60\t-\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "count: expected an unsigned decimal below 2^64, got '18446744073709551616'"
bad "count empty" "${HDR}1\t1\tsleep\t\t100\t60\t-\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "count: expected an unsigned decimal, got ''"
bad "sum of counts above 64 bits" "sched_points version 1\n${COLS}1\t1\tsleep\t18446744073709551615\t0\t0\t-\tffffffff81000000\tf+0x1/0x2\tx\n2\t2\tsleep\t1\t0\t0\t-\tffffffff81000000\tf+0x1/0x2\tx\n" 4 "count: the sum of all counts exceeds 2^64-1"
bad "total_ns above 64 bits" "${HDR}1\t1\tsleep\t5\t18446744073709551616\t0\t-\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "total_ns: expected an unsigned decimal below 2^64, got '18446744073709551616'"
bad "max_ns not a number" "${HDR}1\t1\tsleep\t5\t100\t1e9\t-\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "max_ns: expected an unsigned decimal, got '1e9'"
bad "negative total_ns" "${HDR}1\t1\tsleep\t5\t-5\t0\t-\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "total_ns: expected an unsigned decimal, got '-5'"
HDR2=$(printf '%s' "$HDR" | sed 's/entries 1/entries 2/')
bad "one row's time above 2^64-1" "${HDR2}1\t1\tsleep\t1\t18446744073709551615\t9\t-\tffffffff81000000\tf+0x1/0x2\tx\n1\t1\tsleep\t1\t1\t1\t-\tffffffff81000000\tf+0x1/0x2\tx\n" 14 "total_ns: lines of one row (pid, tgid, comm, symbol, kind) add up to more than 2^64-1"
bad "address uppercase" "${HDR}1\t1\tsleep\t5\t100\t60\t-\tFFFFFFFF81000000\tf+0x1/0x2\tx\n" 13 "address: expected 16 lowercase hex digits, got 'FFFFFFFF81000000'"
bad "address short" "${HDR}1\t1\tsleep\t5\t100\t60\t-\t81000000\tf+0x1/0x2\tx\n" 13 "address: expected 16 lowercase hex digits, got '81000000'"
bad "symbol shape" "${HDR}1\t1\tsleep\t5\t100\t60\t-\tffffffff81000000\tdo_nanosleep\tx\n" 13 "symbol: expected 'func+0xOFF/0xLEN', 'func+0xOFF/0xLEN [module]', '0xADDR' or '(unloaded module)', got 'do_nanosleep'"
bad "comm raw space" "${HDR}1\t1\tsleep\t5\t100\t60\t-\tffffffff81000000\tf+0x1/0x2\tmy thread\n" 13 "comm: byte outside 0x21..0x7e not escaped as \\ooo, got 'my thread'"
bad "comm bad escape: the excerpt shows the backslash as written (#16)" "${HDR}1\t1\tsleep\t5\t100\t60\t-\tffffffff81000000\tf+0x1/0x2\ta\\\\9\n" 13 "comm: expected '\\' and three octal digits (\\000..\\377), got 'a\\9'"
bad "comm NUL escape: the excerpt shows the backslash as written (#16)" "${HDR}1\t1\tsleep\t5\t100\t60\t-\tffffffff81000000\tf+0x1/0x2\ta\\\\000\n" 13 "comm: escaped NUL byte \\000 cannot be part of a task name, got 'a\\000'"
bad "comm CR (CRLF file)" "${HDR}1\t1\tsleep\t5\t100\t60\t-\tffffffff81000000\tf+0x1/0x2\tx\r\n" 13 "comm: byte outside 0x21..0x7e not escaped as \\ooo, got 'x\\015'"
bad "fewer lines than entries" "${HDR}" 12 "unexpected end of input: summary 'entries' says 1 data lines, got 0"
bad "more lines than entries" "${HDR}${GOOD}${GOOD}" 14 "expected end of input after 1 data lines (summary 'entries')"
bad "NUL byte in a field" "${HDR}1\t1\tsleep\t5\t100\t60\t-\tffffffff81000000\tf+0x1/0x2\000\tx\n" 13 "symbol: expected 'func+0xOFF/0xLEN', 'func+0xOFF/0xLEN [module]', '0xADDR' or '(unloaded module)', got 'f+0x1/0x2\\000'"
bad "mode not a mode" "sched_points version 1\nmode fast\n" 2 "summary 'mode': expected 'caller' or 'effective', got 'fast'"
bad "mode a number" "sched_points version 1\nmode 1\n" 2 "summary 'mode': expected 'caller' or 'effective', got '1'"
bad "mode with a trailing space" "sched_points version 1\nmode caller \n" 2 "summary 'mode': expected 'caller' or 'effective', got 'caller '"
bad "mode twice" "sched_points version 1\nmode caller\nmode effective\n" 3 "summary 'mode' given twice"
bad "a minor version checks the names it knows: mode 0 in 1.1" "sched_points version 1.1\nenabled 1\nmode 0\n" 3 "summary 'mode': expected 'caller' or 'effective', got '0'"
bad "time 2" "sched_points version 1\ntime 2\n" 2 "summary 'time': expected 0 or 1, got 2"
bad "kinds a word" "sched_points version 1\nkinds yes\n" 2 "summary 'kinds': expected an unsigned decimal, got 'yes'"
bad "hist twice in the summary" "sched_points version 1\nhist 1\nhist 1\n" 3 "summary 'hist' given twice"
bad "hist 2 in the summary" "sched_points version 1\nhist 2\n" 2 "summary 'hist': expected 0 or 1, got 2"
bad "unknown summary, value not a word" "sched_points version 1\nclock Mono\n" 2 "summary 'clock': expected an unsigned decimal or a word, got 'Mono'"
bad "version with a leading zero (#34)" "sched_points version 01\n" 1 "expected 'sched_points version <MAJOR>[.<MINOR>]', got 'sched_points version 01'"
bad "minor version with a leading zero (#34)" "sched_points version 1.01\n" 1 "expected 'sched_points version <MAJOR>[.<MINOR>]', got 'sched_points version 1.01'"
bad "hist bucket with a leading zero (#34)" "${HDR}1\t1\tsleep\t5\t100\t60\t012:5\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "hist: expected '-' or K:N pairs separated by commas, got '012:5'"
bad "pid with a leading zero (#34)" "${HDR}01\t1\tsleep\t5\t100\t60\t-\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "pid: expected an unsigned decimal, got '01'"
bad "summary value with a leading zero (#34)" "sched_points version 1\ncpus 02\n" 2 "summary 'cpus': expected an unsigned decimal, got '02'"
bad "count 0: the format's lines never have one (#34)" "${HDR}1\t1\tsleep\t0\t100\t60\t-\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "count: expected a count above 0 (a line of the format counts at least one call), got '0'"
bad "summary lines out of the format's order (#34)" "sched_points version 1\nmode caller\nenabled 1\n" 3 "summary 'enabled' after 'mode' (the format's order: enabled, mode, time, kinds, hist, cpus, capacity, used, entries, dropped)"
bad "summary entries before used (#34)" "sched_points version 1\nentries 0\nused 0\n" 3 "summary 'used' after 'entries' (the format's order: enabled, mode, time, kinds, hist, cpus, capacity, used, entries, dropped)"
bad "a file cut mid-line says truncated, not a field count (#16)" "${HDR}1\t1\tsleep\t5" 13 "line is not terminated by a newline (truncated input?)"
bad "a file cut in the address says truncated (#16)" "${HDR}1\t1\tsleep\t5\t100\t60\t-\tffffffff8100" 13 "line is not terminated by a newline (truncated input?)"
bad "a file cut in a summary line says truncated (#16)" "sched_points version 1\nenab" 2 "line is not terminated by a newline (truncated input?)"
bad "a file cut in the version line says truncated (#16)" "sched_points vers" 1 "line is not terminated by a newline (truncated input?)"
bad "last line without newline" "${HDR}1\t1\tsleep\t5\t100\t60\t-\tffffffff81000000\tf+0x1/0x2\tx" 13 "line is not terminated by a newline (truncated input?)"
printf '%b' "sched_points version 1.3\nfuture 18446744073709551616\nbig 9223372036854775808\n$COLS" >"$OUT/unknown-big.txt"
sp -f "$OUT/unknown-big.txt" >/dev/null 2>"$OUT/e"
eq "unknown summary names with values >= 2^63 are ignored, as the format says (#16)" "$?:$(cat "$OUT/e")" "0:"
printf '%b' "${HDR}${GOOD}" | sp -f - -F csv tasks >"$OUT/o" 2>"$OUT/e"
eq "a good line after that header: 'hist 1', no histogram on the line" "$?:$(sed -n 2p "$OUT/o")" "0:1,1,5,100,20,,,,60,1,x"
awk 'BEGIN { printf "sched_points version 1\n"; for (i = 0; i < 70000; i++) printf "x"; printf "\n" }' >"$OUT/long.txt"
SP_RC=1
sp -f "$OUT/long.txt" >/dev/null 2>"$OUT/e"
eq "bad input: line too long" "$?:$(cat "$OUT/e")" "1:schedpoints: $OUT/long.txt:2: line longer than 65536 bytes"
awk 'BEGIN { srand(4); for (i = 0; i < 20000; i++) printf "%c", int(rand() * 256) }' >"$OUT/binary.txt"
SP_RC=1
sp -f "$OUT/binary.txt" >/dev/null 2>"$OUT/e"
eq "bad input: random bytes, exit 1 with a message" "$?:$(grep -c '^schedpoints: .*binary.txt:1: ' "$OUT/e")" "1:1"
SP_RC=1
sp -f "$OUT/no-such-file" >/dev/null 2>"$OUT/e"
eq "missing file: exit 1" "$?:$(cat "$OUT/e")" "1:schedpoints: $OUT/no-such-file: No such file or directory"
printf '%b' "${HDR}${GOOD}" | sp -f - top -i 1 -c 2 >/dev/null 2>"$OUT/e"
eq "top: stream ends after one snapshot: exit 0, no output" "$?" "0"

# ---- histograms, disk_sleep and idle (#15; basic.txt) -----------------------
V3=$FIX/basic.txt
# The reference: Prometheus' histogram_quantile() over the fixture's own
# buckets (bucket K spans [2^K, 2^(K+1)), the first [0, 1024), the last
# [2^34, max_ns]), in exact fractions, rounded down, clamped to max_ns;
# lines grouped by the view's key, read from the file, not from the tool.
PCT_REF='import csv, sys
from fractions import Fraction
fix, view = sys.argv[1], sys.argv[2]
lines = open(fix).read().split("\n")
h = lines.index(next(l for l in lines if l.startswith("pid\t")))
groups = {}
for l in lines[h + 1:]:
    if not l:
        continue
    pid, tgid, kind, count, total, mx, hist, addr, sym, comm = l.split("\t")
    key = {"sites": (kind, sym), "tasks": (pid, tgid), "kinds": (kind,)}[view]
    g = groups.setdefault(key, [dict(), 0])
    g[1] = max(g[1], int(mx))
    if hist != "-":
        for p in hist.split(","):
            k, n = map(int, p.split(":"))
            g[0][k] = g[0].get(k, 0) + n
def pct(b, mx, q):
    calls = sum(b.values())
    if not calls:
        return ""
    rank, below = Fraction(q, 100) * calls, 0
    for k in range(9, 35):
        n = b.get(k, 0)
        if n and below + n >= rank:
            lo = 0 if k == 9 else 2 ** k
            hi = mx if k == 34 else 2 ** (k + 1)
            hi = max(hi, lo)
            v = lo + (hi - lo) * (rank - below) / n
            return str(min(int(v), mx))
        below += n
out = []
for key, (b, mx) in sorted(groups.items()):
    out.append(",".join(key + tuple(pct(b, mx, q) for q in (50, 90, 99))))
print(" ".join(out))'
# The same columns of the tool's CSV, in the same order.
tool_pcts() {	# tool_pcts VIEW KEYCOLS
	sp -f "$V3" -F csv "$1" -n 0 | python3 -c 'import csv, sys
r = list(csv.DictReader(sys.stdin))
keys = sys.argv[1].split(",")
print(" ".join(sorted(",".join([x[k] for k in keys] + [x["p50_ns"], x["p90_ns"], x["p99_ns"]]) for x in r)))' "$2"
}
for view in "sites kind,site" "tasks pid,tgid" "kinds kind"; do
	# shellcheck disable=SC2086 # split on purpose: the view, its keys
	set -- $view
	eq "$1: p50, p90, p99 of every row as histogram_quantile() gives them (reference in the test)" \
		"$(tool_pcts "$1" "$2")" "$(python3 -c "$PCT_REF" "$V3" "$1")"
done
eq "sites: percentile columns between mean and max, in ns" \
	"$(sp -f "$V3" -F csv sites | sed -n 1,2p | tr '\n' ' ')" \
	"count,total_ns,mean_ns,p50_ns,p90_ns,p99_ns,max_ns,tasks,kind,site 150,1118004511,7453363,917504,20310022,20310022,20310022,2,sleep,do_nanosleep+0x6d/0x150 "
eq "table: P50 P90 P99 in human units, '-' without a histogram" \
	"$(sp -f "$V3" sites | sed -n 3p | tr -s ' '):$(sp -f "$V3" sites | awk 'NF > 2 && ($NF == "io_schedule+0x12/0x40" || $(NF - 1) == "preempt") { print $5, $6, $7 }' | tr '\n' '|')" \
	"COUNT % TIME MEAN P50 P90 P99 MAX TASKS KIND SITE:14.7us 28.7us 32.4us|- - -|"
eq "table: the last bucket interpolates up to max_ns" \
	"$(sp -f "$V3" tasks | awk '$1 == 1 { print $7, $8, $9, $10 }')" "22.9s 36.6s 39.7s 40.0s"
eq "lines of one key sum their buckets" \
	"$(sp -f "$V3" -F csv --buckets task 80 | tr '\n' ' ')" \
	"pid,tgid,comm,kind,site,bucket,lower_ns,upper_ns,count 80,80,kworker/1:2,disk_sleep,io_schedule+0x12/0x40,12,4096,8192,1 80,80,kworker/1:2,disk_sleep,io_schedule+0x12/0x40,13,8192,16384,5 80,80,kworker/1:2,disk_sleep,io_schedule+0x12/0x40,14,16384,32768,4 "
eq "kinds: sleep, disk_sleep, idle told apart" \
	"$(sp -f "$V3" -F csv kinds | cut -d, -f1,9 | tr '\n' ' ')" \
	"count,kind 153,sleep 77,idle 37,disk_sleep 12,yield 5,preempt 2,cond_resched "
eq "--kind disk_sleep,idle" "$(sp -f "$V3" -F csv tasks --kind disk_sleep,idle | csv_sum count)" "114"
eq "-s p99: by the 99th percentile, rows without one last" \
	"$(sp -f "$V3" -F csv sites -s p99 | cut -d, -f6 | tr '\n' ' ')" \
	"p99_ns 39657698037 200000000 20310022 1189330 400000 32358 500    "
eq "-s p50 -r: the order of values reversed, rows without one still last (#34)" \
	"$(sp -f "$V3" -F csv tasks -s p50 -r | cut -d, -f1,6 | tr '\n' ' ')" \
	"pid,p50_ns 71,500 80,14745 62,812646 70,1189330 15,1922389 61,20310022 1,22884901888 90, "
eq "-s p99 -r -n 3: the top of the reversed order, without a row that has none (#34)" \
	"$(sp -f "$V3" -F csv sites -s p99 -r -n 3 | cut -d, -f6 | tr '\n' ' ')" "p99_ns 500 32358 400000 "
eq "site X: percentiles of the site's tasks" \
	"$(sp -f "$V3" -F csv site schedule_timeout | cut -d, -f1,6,7,8 | tr '\n' ' ')" \
	"pid,p50_ns,p90_ns,p99_ns 15,1922389,140928614,200000000 61,87381,367001,400000 1,22884901888,36576980377,39657698037 "
# hist: one point's buckets
sp -f "$V3" hist >"$OUT/hist.txt"
eq "hist: the hottest point, its buckets with bars, BCC style, and percentiles" \
	"$(sed -n 3p "$OUT/hist.txt"):$(grep -c ' : 0 *|  *|$' "$OUT/hist.txt"):$(grep -F '524us -> 1.05ms : 100' "$OUT/hist.txt" | sed 's/.*|\(.*\)|/\1/' | tr -d ' ' | wc -c):$(grep -F '16.8ms -> 33.6ms : 50 ' "$OUT/hist.txt" | sed 's/.*|\(.*\)|/\1/' | tr -d ' ' | wc -c):$(tail -n 1 "$OUT/hist.txt")" \
	"point sleep do_nanosleep+0x6d/0x150  tasks 2  (the first of 7 points by count):4:41:21:calls 150  time 1.12s  mean 7.45ms  p50 918us  p90 20.3ms  p99 20.3ms  max 20.3ms"
eq "hist -T: the hottest point by time" "$(sp -f "$V3" -T hist | sed -n 3p)" \
	"point sleep schedule_timeout+0x8b/0x140  tasks 1  (the first of 7 points by time)"
eq "hist -s p99: the point with the highest p99; the last bucket up to max_ns" \
	"$(sp -f "$V3" -s p99 hist | grep -- '->' | tail -n 1 | cut -d: -f1 | tr -s ' ')" "17.2s -> 40.0s "
eq "hist X: what site X selects, summed" \
	"$(sp -f "$V3" hist schedule_timeout | sed -n 3p):$(sp -f "$V3" -F csv hist schedule_timeout | csv_sum count)" \
	"point schedule_timeout  sites 1  tasks 3:91"
eq "hist X -F csv: a row per non-empty bucket" \
	"$(sp -f "$V3" -F csv hist '[sched_points_test]' | tr '\n' ' ')" \
	"bucket,lower_ns,upper_ns,count 9,0,1024,1 19,524288,1048576,2 20,1048576,2097152,23 "
sp -f "$V3" -F json hist do_nanosleep >"$OUT/hist.json"
eq "hist -F json: the point, its percentiles and buckets" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["rows"][0]; print(d["view"], d["site"], d["has_hist"], d["summary"]["hist"], r["count"], r["p50_ns"], r["p99_ns"], r["buckets"])' "$OUT/hist.json")" \
	"hist do_nanosleep True 1 150 917504 20310022 [{'bucket': 19, 'lower_ns': 524288, 'upper_ns': 1048576, 'count': 100}, {'bucket': 24, 'lower_ns': 16777216, 'upper_ns': 33554432, 'count': 50}]"
sp -f "$V3" -F json sites >"$OUT/basic.json"
eq "json: every row's buckets add up to its histogram's calls; the last bucket is open" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(b["count"] for r in d["rows"] for b in r["buckets"]), [b["upper_ns"] for r in d["rows"] for b in r["buckets"] if b["bucket"] == 34])' "$OUT/basic.json")" \
	"$(input_col hist "$V3" | tr ',' '\n' | sed -n 's/.*://p' | bigsum) [None]"
eq "csv --buckets sites: a row per bucket, counts add up" \
	"$(sp -f "$V3" -F csv --buckets sites | csv_sum count):$(sp -f "$V3" -F csv --buckets sites | head -n 1)" \
	"$(input_col hist "$V3" | tr ',' '\n' | sed -n 's/.*://p' | bigsum):kind,site,bucket,lower_ns,upper_ns,count"
SP_RC=1
sp -f "$V3" hist no_such_function >"$OUT/o" 2>"$OUT/e"
eq "hist X with no match: exit 1, said" "$?:$(cat "$OUT/e")" "1:schedpoints: no call site with a histogram matches 'no_such_function'"
for f in "$V" "$B"; do
	for args in "hist" "--buckets -F csv sites" "-s p50 sites"; do
		SP_RC=1
		# shellcheck disable=SC2086 # words of options, split on purpose
		sp -f "$f" $args >"$OUT/o" 2>"$OUT/e"
		eq "$(basename "$f") (no histograms), $args: exit 1, said" \
			"$?:$(cat "$OUT/o"):$(grep -c 'the histograms of off-CPU time' "$OUT/e")" "1::1"
	done
done
printf '%b' "${HDR}1\t1\tsleep\t5\t100\t60\t-\tffffffff81000000\tf+0x1/0x2\tx\n" >"$OUT/hist1-none.txt"
eq "'hist 1', no line with one: percentile columns, empty" \
	"$(sp -f "$OUT/hist1-none.txt" -F csv sites | tr '\n' ' ')" \
	"count,total_ns,mean_ns,p50_ns,p90_ns,p99_ns,max_ns,tasks,kind,site 5,100,20,,,,60,1,sleep,f+0x1/0x2 "
sed 's/^hist 1$/hist 0/' "$OUT/hist1-none.txt" >"$OUT/hist0.txt"
eq "'hist 0': no percentile columns" "$(sp -f "$OUT/hist0.txt" -F csv sites | head -n 1)" "count,total_ns,mean_ns,max_ns,tasks,kind,site"
# the spec's example, as Documentation/scheduler/sched-points.rst shows it
printf 'sched_points version 1\nenabled 1\nmode caller\ntime 1\nkinds 0\nhist 1\ncpus 2\ncapacity 4096\nused 57\nentries 2\ndropped 0\npid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\thist\taddress\tsymbol\tcomm\n61\t61\tsleep\t40\t812004511\t20310022\t24:40\tffffffffb8ad5a4d\tdo_nanosleep+0x6d/0x150\tsleeper\n70\t70\tdisk_sleep\t25\t27510960\t1189330\t19:2,20:23\tffffffffc0201023\tsched_points_test_sleep+0x63/0xb0 [sched_points_test]\tmy\\040task\n' >"$OUT/spec.txt"
eq "the spec's example is read" "$(sp -f "$OUT/spec.txt" -F csv tasks | cut -d, -f1,3,6 | tr '\n' ' ')" "pid,count,p50_ns 61,40,20310022 70,25,1189330 "
# Prometheus: a histogram histogram_quantile() reads
sp -f "$V3" -F prometheus sites >"$OUT/basic.prom"
eq "prometheus: histogram family, 26 cumulative buckets a series, +Inf = _count" \
	"$(grep -c '^# TYPE sched_points_offcpu_seconds histogram$' "$OUT/basic.prom"):$(grep -c '^sched_points_offcpu_seconds_bucket{kind="sleep",site="do_nanosleep+0x6d/0x150",le=' "$OUT/basic.prom"):$(grep -F 'sched_points_offcpu_seconds_bucket{kind="sleep",site="do_nanosleep+0x6d/0x150",le="+Inf"}' "$OUT/basic.prom" | awk '{ print $NF }'):$(grep -F 'sched_points_offcpu_seconds_count{kind="sleep",site="do_nanosleep+0x6d/0x150"}' "$OUT/basic.prom" | awk '{ print $NF }'):$(grep -F 'sched_points_offcpu_seconds_bucket{kind="sleep",site="do_nanosleep+0x6d/0x150",le="0.001048576"}' "$OUT/basic.prom" | awk '{ print $NF }')" \
	"1:26:150:150:100"
eq "prometheus: a histogram series only for the rows that have one, none for preempt or cond_resched (#34)" \
	"$(grep -c '^sched_points_offcpu_seconds_count{' "$OUT/basic.prom"):$(grep -c '^sched_points_offcpu_seconds_\(bucket\|sum\|count\){kind="\(preempt\|cond_resched\)"' "$OUT/basic.prom")" \
	"$(sp -f "$V3" -F csv -n 0 sites | awk -F, 'NR > 1 && $4 != ""' | wc -l | tr -d ' '):0"
eq "prometheus: _sum is total_ns in seconds" \
	"$(grep -F 'sched_points_offcpu_seconds_sum{kind="idle",site="schedule_timeout+0x8b/0x140"}' "$OUT/basic.prom" | awk '{ print $NF }')" "4.804939980"
promtool check metrics <"$OUT/basic.prom" >"$OUT/promtool.log" 2>&1
eq "promtool check metrics: basic.prom with the histogram" "$?:$(cat "$OUT/promtool.log")" "0:"
eq "prometheus with histograms: every line is a comment or 'name{labels} value'" \
	"$(grep -Evc '^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{([a-z_]+="([^"\\]|\\["\\n])*",?)+\})? [0-9.e+-]+|[a-z_]+\{.*le="\+Inf"\} [0-9]+)$' "$OUT/basic.prom")" "0"
# histogram_quantile() as Prometheus computes it, on what was exposed: the
# tool's p50 wherever the rank is below the last bucket (where Prometheus
# gives 2^34 ns, not knowing max_ns), within a nanosecond (floats)
HQ='import re, sys, csv
series = {}
for l in open(sys.argv[1]):
    m = re.match(r"sched_points_offcpu_seconds_bucket\{kind=\"([^\"]*)\",site=\"([^\"]*)\",le=\"([^\"]*)\"\} (\d+)", l)
    if m:
        series.setdefault((m.group(1), m.group(2)), []).append((float(m.group(3)), int(m.group(4))))
tool = {(r["kind"], r["site"]): r for r in csv.DictReader(open(sys.argv[2]))}
bad, n = [], 0
for key, b in series.items():
    total = b[-1][1]
    if not total or key[0] == "other":
        continue
    rank = 0.5 * total
    i = next(i for i, (le, c) in enumerate(b) if c >= rank)
    if i == len(b) - 1:
        continue
    lo, below = (b[i - 1][0], b[i - 1][1]) if i else (0.0, 0)
    q = lo + (b[i][0] - lo) * (rank - below) / (b[i][1] - below)
    want = min(q * 1e9, float(tool[key]["max_ns"]))
    n += 1
    if abs(want - float(tool[key]["p50_ns"])) > 1:
        bad.append((key, want, tool[key]["p50_ns"]))
print(n, bad)'
sp -f "$V3" -F csv -n 0 sites >"$OUT/sites.csv"
eq "prometheus: histogram_quantile(0.5) of the exposition is the tool's p50" \
	"$(python3 -c "$HQ" "$OUT/basic.prom" "$OUT/sites.csv")" "6 []"
eq "prometheus -n 2: the other series sums the rest's buckets" \
	"$(sp -f "$V3" -F prometheus -n 2 sites | grep -F 'sched_points_offcpu_seconds_bucket{kind="other",site="other",le="+Inf"}' | awk '{ print $NF }')" \
	"$(sp -f "$V3" -F csv --buckets -n 0 sites | tail -n +2 | grep -v ',do_nanosleep+0x6d/0x150,\|^idle,schedule_timeout' | cut -d, -f6 | bigsum)"
# heat map of call sites x buckets
sp -f "$V3" heatmap --buckets >"$OUT/buckets.svg"
xmllint --noout "$OUT/buckets.svg" 2>"$OUT/x"
eq "heatmap --buckets: well-formed, a cell per non-empty bucket of each site" \
	"$?:$(cat "$OUT/x"):$(grep -c '<rect x=.*<title>' "$OUT/buckets.svg")" \
	"0::$(sp -f "$V3" -F csv --buckets sites | tail -n +2 | wc -l | tr -d ' ')"
eq "heatmap --buckets: bucket columns from the lowest to the highest held, a tooltip with range and calls" \
	"$(grep -o 'rotate(-90)">[^<]*' "$OUT/buckets.svg" | sed -n '1p;$p' | sed 's/.*">//' | tr '\n' ' '):$(grep -c '<title>sleep:do_nanosleep+0x6d/0x150, 524us to 1.05ms: calls 100 (66.7%), p50 918us, p99 20.3ms</title>' "$OUT/buckets.svg")" \
	"0ns..1.02us 17.2s..inf :1"
eq "heatmap --buckets -n 2: 2 rows" "$(sp -f "$V3" heatmap --buckets -n 2 | grep -c 'text-anchor="end">[a-z_]*:')" "2"
eq "heatmap --buckets -T -n 1: rows by time" "$(sp -f "$V3" heatmap --buckets -T -n 1 | grep -o 'text-anchor="end">[a-z_]*:[^<]*' | sed 's/.*">//')" "sleep:schedule_timeout+0x8b/0x140"
# The demo's capture: most of its sites are preempt sites, which are not
# timed; as rows of the latency picture they were empty (issue 35).
GD=$FIX2/guest-demo-caller.txt
sp -f "$GD" heatmap --buckets >"$OUT/gd-buckets.svg"
sp -f "$GD" -F csv -n 0 sites | csv_records | awk -F, 'NR > 1 { print ($2 == 0 ? "untimed" : "timed"), $(NF - 1) ":" $NF }' >"$OUT/gd-sites"
eq "heatmap --buckets on the demo's capture: a row for each site with off-CPU time, no other" \
	"$(grep -o 'text-anchor="end">[a-z_]*:[^<]*' "$OUT/gd-buckets.svg" | wc -l | tr -d ' '):$(grep -c 'text-anchor="end">preempt:' "$OUT/gd-buckets.svg")" \
	"$(grep -c '^timed' "$OUT/gd-sites"):0"
eq "heatmap --buckets: every row drawn holds a cell" \
	"$(grep -o 'text-anchor="end">[a-z_]*:[^<]*' "$OUT/gd-buckets.svg" | wc -l | tr -d ' ')" \
	"$(grep -o '<title>[a-z_]*:[^,]*,' "$OUT/gd-buckets.svg" | sort -u | wc -l | tr -d ' ')"
eq "heatmap --buckets: the picture says how many sites it left out and why" \
	"$(grep -c '<text x="8" y="44" fill="#555555">left out: 20 sites without off-CPU time, whose rows would be empty (kind preempt)</text>' "$OUT/gd-buckets.svg"):$(grep -c '^untimed preempt:' "$OUT/gd-sites"):$(grep -c '^untimed' "$OUT/gd-sites")" \
	"1:20:20"
eq "heatmap --buckets -n 8: the top 8 sites with off-CPU time (the sixth by count is a preempt site)" \
	"$(sp -f "$GD" heatmap --buckets -n 8 | grep -o '<title>[^,]*,' | sed 's/<title>//; s/,$//' | awk '!seen[$0]++' | tr '\n' ' ')" \
	"$(grep '^timed' "$OUT/gd-sites" | head -n 8 | sed 's/^timed //' | tr '\n' ' ')"
eq "heatmap --buckets --kind preempt: nothing to draw, and why" \
	"$(sp -f "$GD" heatmap --buckets --kind preempt | grep -c 'left out: 20 sites without\|>no site with off-CPU time<')" "2"
eq "heatmap --buckets --split: the wait and run delay rows of timed sites only" \
	"$(sp -f "$GD" heatmap --buckets --split | grep -c 'text-anchor="end">[a-z_]*:'):$(sp -f "$GD" heatmap --buckets --split | grep -c 'left out: 20 sites')" \
	"$(( $(grep -c '^timed' "$OUT/gd-sites") * 3 )):1"
eq "heatmap --buckets --kind sleep: every site timed, no note" \
	"$(sp -f "$GD" heatmap --buckets --kind sleep | grep -c 'left out\|y="44"')" "0"
xmllint --noout "$OUT/gd-buckets.svg" 2>"$OUT/x"
eq "heatmap --buckets on the demo's capture: well-formed" "$?:$(cat "$OUT/x")" "0:"
# interval mode: bucket deltas; a bucket going back is a reset
printf '%b' "${HDR}1\t1\tsleep\t5\t10000\t3000\t10:3,11:2\tffffffff81000000\tf+0x1/0x2\tx\n" >"$OUT/h1.txt"
printf '%b' "${HDR}1\t1\tsleep\t9\t20000\t3000\t10:4,11:5\tffffffff81000000\tf+0x1/0x2\tx\n" >"$OUT/h2.txt"
printf '%b' "${HDR}1\t1\tsleep\t9\t20000\t3000\t10:2,11:7\tffffffff81000000\tf+0x1/0x2\tx\n" >"$OUT/hr.txt"
eq "diff: the interval's buckets and percentiles" \
	"$(sp -F csv diff "$OUT/h1.txt" "$OUT/h2.txt" --buckets sites | tail -n +2 | cut -d, -f3,6 | tr '\n' ' '):$(sp -F csv diff "$OUT/h1.txt" "$OUT/h2.txt" sites | sed -n 2p)" \
	"10,1 11,3 :4,,9,10000,,20000,2500,2730,3000,3000,3000,1,sleep,f+0x1/0x2"
SP_RC=1
sp diff "$OUT/h2.txt" "$OUT/hr.txt" >"$OUT/o" 2>"$OUT/e"
eq "diff: a bucket going back is a reset" "$?:$(cat "$OUT/e")" \
	"1:schedpoints: diff $OUT/h2.txt $OUT/hr.txt: counters went back between snapshots (pid 1 'x' at f+0x1/0x2, sleep: hist bucket 10 4 -> 2); no delta can be computed"
cat "$OUT/h1.txt" "$OUT/h2.txt" | sp -f - -c 1 top hist >"$OUT/o" 2>"$OUT/e"
eq "top hist: the interval's histogram" "$?:$(grep -c -- '->' "$OUT/o"):$(grep '^calls' "$OUT/o")" \
	"0:2:calls 4  dtime 10.0us  mean 2.50us  p50 2.73us  p90 3.00us  p99 3.00us  max 3.00us"
# bad hist fields and kinds: the message and the line number
bad "hist empty" "${HDR}1\t1\tsleep\t5\t100\t60\t\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "hist: expected '-' or K:N pairs separated by commas, got ''"
bad "hist garbage" "${HDR}1\t1\tsleep\t5\t100\t60\tlots\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "hist: expected '-' or K:N pairs separated by commas, got 'lots'"
bad "hist pair without count" "${HDR}1\t1\tsleep\t5\t100\t60\t19:\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "hist: expected '-' or K:N pairs separated by commas, got '19:'"
bad "hist trailing comma" "${HDR}1\t1\tsleep\t5\t100\t60\t19:5,\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "hist: expected '-' or K:N pairs separated by commas, got '19:5,'"
bad "hist space after comma" "${HDR}1\t1\tsleep\t5\t100\t60\t19:4, 20:1\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "hist: expected '-' or K:N pairs separated by commas, got '19:4, 20:1'"
bad "hist negative count" "${HDR}1\t1\tsleep\t5\t100\t60\t19:-5\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "hist: expected '-' or K:N pairs separated by commas, got '19:-5'"
bad "hist unsorted" "${HDR}1\t1\tsleep\t5\t100\t60\t20:1,19:4\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "hist: bucket 19 after bucket 20 (buckets ascending, each once), got '20:1,19:4'"
bad "hist duplicate bucket" "${HDR}1\t1\tsleep\t5\t100\t60\t19:1,19:4\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "hist: bucket 19 after bucket 19 (buckets ascending, each once), got '19:1,19:4'"
bad "hist bucket below 9" "${HDR}1\t1\tsleep\t5\t100\t60\t8:5\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "hist: bucket 8 out of range 9 to 34, got '8:5'"
bad "hist bucket above 34" "${HDR}1\t1\tsleep\t5\t100\t60\t19:4,35:1\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "hist: bucket 35 out of range 9 to 34, got '19:4,35:1'"
bad "hist count 0" "${HDR}1\t1\tsleep\t5\t100\t60\t19:5,20:0\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "hist: bucket 20 with count 0 (only non-zero counts are listed), got '19:5,20:0'"
bad "hist count above 2^64-1" "${HDR}1\t1\tsleep\t5\t100\t60\t19:18446744073709551616\tffffffff81000000\tf+0x1/0x2\tx\n" 13 "hist: bucket 19: count above 2^64-1, got '19:18446744073709551616'"
bad "the calls of all histograms above 2^64-1" "${HDR2}1\t1\tsleep\t5\t100\t60\t19:18446744073709551615\tffffffff81000000\tf+0x1/0x2\tx\n2\t2\tsleep\t5\t100\t60\t9:1\tffffffff81000000\tf+0x1/0x2\tx\n" 14 "hist: the calls of all histograms add up to more than 2^64-1"
for args in "hist -n 3" "hist do_nanosleep -s p99" "hist do_nanosleep -g function" "-F prometheus hist" "-F folded hist" \
	"--buckets matrix" "--buckets -F json sites" "--buckets -F csv matrix" "heatmap --buckets --columns 3" "-s p50 matrix"; do
	SP_RC=2
	# shellcheck disable=SC2086 # words of options, split on purpose
	sp -f "$V3" $args >/dev/null 2>"$OUT/e"
	eq "an option that does not apply is a usage error: $args (#15)" \
		"$?:$(head -n 1 "$OUT/e" | grep -c '^schedpoints: ')" "2:1"
done

# ---- exited tasks (format 2: exited.txt, fold-a.txt, fold-b.txt) ------------
# To survive fork storms the kernel folds the entries of exited tasks into
# lines of pid 0, one per (comm, call site, kind), whose tgid field is the
# number of tasks folded in; the summary's 'folded' is their sum.  Views by
# call site count them as any line (site totals stay exact: the totals of
# every fixture, above, include them); views by task show them as rows of
# exited tasks: PID 'exited' and a TASKS column in the table, pid 0 and tgid
# N in CSV (its columns as for any input), pid and tgid null with
# "exited": true and "tasks": N in JSON.
XT=$FIX2/exited.txt
eq "version 2: 'folded' in the table's source line, after dropped" \
	"$(sp -f "$XT" tasks | head -n 1)" \
	"source $XT  version 2  enabled 1  mode caller  time 1  kinds 1  hist 1  cpus 2  capacity 4096  used 14  entries 11  dropped 0  folded 666"
eq "version 2: 'folded' in the JSON summary and as a Prometheus counter; absent from a version 1 input's" \
	"$(sp -f "$XT" -F json sites | python3 -c 'import json,sys; print(json.load(sys.stdin)["summary"]["folded"])'):$(sp -f "$XT" -F prometheus sites | grep -c '^sched_points_folded_total 666$'):$(sp -f "$FIX/basic.txt" -F json sites | python3 -c 'import json,sys; print("folded" in json.load(sys.stdin)["summary"])'):$(sp -f "$FIX/basic.txt" -F prometheus sites | grep -c folded)" \
	"666:1:False:0"
eq "version 2 sites: every line of a site counted, exited ones too; TASKS the tasks plus the exited ones" \
	"$(sp -f "$XT" -F csv sites | csv_pick count,total_ns,mean_ns,p50_ns,p90_ns,p99_ns,max_ns,tasks,kind,site | sed -n 1,3p | tr '\n' ' ')" \
	"count,total_ns,mean_ns,p50_ns,p90_ns,p99_ns,max_ns,tasks,kind,site 2004,4008000000,2000000,874512,6707530,8220500,9000000,501,sleep,do_wait+0x1a2/0x300 510,1506000000,2952941,858521,25775904,30000000,30000000,41,sleep,do_nanosleep+0x6d/0x150 "
eq "version 2 sites: a site's calls and time are those of its lines in the input" \
	"$(sp -f "$XT" -F csv sites -g function | grep ',sleep,do_nanosleep$' | cut -d, -f1,2)" \
	"$(awk -F '\t' '/^pid\ttgid\t/ { for (i = 1; i <= NF; i++) at[$i] = i; next }
		at["symbol"] && $3 == "sleep" && $at["symbol"] ~ /^do_nanosleep\+/ { c += $4; t += $5 } END { print c "," t }' "$XT")"
sp -f "$XT" tasks >"$OUT/exited.table"
eq "version 2 tasks table: PID 'exited', TGID '-', a TASKS column (1 a task), the name" \
	"$(sed -n 3p "$OUT/exited.table" | tr -s ' '):$(awk '$1 == "exited" || $1 == 62 { print $1, $2, $3, $(NF - 2), $(NF - 1), $NF }' "$OUT/exited.table" | tr '\n' '|')" \
	" PID TGID COUNT % TIME MEAN P50 P90 P99 MAX WAIT DELAY DMAX TASKS SITES COMM:exited - 2030 620 1 sh|exited - 413 45 2 sleeper|62 62 110 1 1 sleeper|exited - 7 1 my task|"
eq "version 2 tasks: the TASKS of the rows of exited tasks add up to the summary's folded" \
	"$(sp -f "$XT" -F json tasks | python3 -c 'import json,sys; print(sum(r["tasks"] for r in json.load(sys.stdin)["rows"] if r["exited"]))')" "666"
eq "version 2 tasks CSV: the columns of any input; a row of exited tasks has pid 0 and tgid the tasks, as in the file" \
	"$(sp -f "$XT" -F csv tasks | csv_pick pid,tgid,count,total_ns,mean_ns,p50_ns,p90_ns,p99_ns,max_ns,sites,comm | sed -n '1,3p;5p' | tr '\n' ' ')" \
	"pid,tgid,count,total_ns,mean_ns,p50_ns,p90_ns,p99_ns,max_ns,sites,comm 0,620,2030,4000000000,2000000,873813,6710886,8220835,9000000,1,sh 0,45,413,1200900000,2936185,865949,26692550,30000000,30000000,2,sleeper 70,70,25,27510960,1100438,1189330,1189330,1189330,1189330,1,my task "
sp -f "$XT" -F json tasks >"$OUT/exited.json"
eq "version 2 tasks JSON: a row of exited tasks has no pid or tgid (null), \"exited\": true and \"tasks\"; a task \"exited\": false, \"tasks\": 1" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print([(r["pid"], r["tgid"], r["exited"], r["tasks"], r["comm"]) for r in d["rows"]][:3])' "$OUT/exited.json")" \
	"[(None, None, True, 620, 'sh'), (None, None, True, 45, 'sleeper'), (62, 62, False, 1, 'sleeper')]"
eq "version 1 input: no TASKS column in tasks, no exited key in JSON (output as before version 2)" \
	"$(sp -f "$FIX/basic.txt" tasks | sed -n 3p | tr -s ' '):$(sp -f "$FIX/basic.txt" -F json tasks | python3 -c 'import json,sys; print(sorted(set(k for r in json.load(sys.stdin)["rows"] for k in r)))')" \
	"PID TGID COUNT % TIME MEAN P50 P90 P99 MAX SITES COMM:['buckets', 'comm', 'count', 'max_ns', 'mean_ns', 'p50_ns', 'p90_ns', 'p99_ns', 'pid', 'sites', 'tgid', 'total_ns']"
eq "version 2 task 0: the lines of exited tasks, a row per (name, site, kind), TASKS the line's tasks" \
	"$(sp -f "$XT" -F csv task 0 | csv_pick pid,tgid,count,comm,kind,site | tr '\n' ' '):$(sp -f "$XT" task 0 | awk '$1 == "exited" { print $1, $2, $3, $(NF - 3) }' | head -n 2 | tr '\n' '|')" \
	"pid,tgid,count,comm,kind,site 0,500,2000,sh,sleep,do_wait+0x1a2/0x300 0,40,400,sleeper,sleep,do_nanosleep+0x6d/0x150 0,120,30,sh,cond_resched,do_wait+0x1a2/0x300 0,3,9,sleeper,yield,schedule_timeout+0x8b/0x140 0,1,7,my task,disk_sleep,sched_points_test_sleep+0x63/0xb0 [sched_points_test] 0,2,4,sleeper,preempt,do_nanosleep+0x6d/0x150 :exited - 2000 500|exited - 400 40|"
SP_RC=1
sp -f "$FIX/basic.txt" task 0 >"$OUT/o" 2>"$OUT/e"
eq "task 0 on input without exited tasks: exit 1, said" "$?:$(cat "$OUT/e")" \
	"1:schedpoints: no entry for pid 0 (no line of exited tasks)"
eq "version 2 site X: the exited tasks of the site by name, beside its tasks (table, CSV, JSON)" \
	"$(sp -f "$XT" site do_nanosleep | awk '$1 == "exited" || $1 == 62 { print $1, $2, $3, $(NF - 2), $NF }' | tr '\n' '|'):$(sp -f "$XT" -F csv site do_nanosleep | sed -n 2p | cut -d, -f1-3):$(sp -f "$XT" -F json site do_nanosleep | python3 -c 'import json,sys; print([(r["pid"], r["tasks"], r["exited"]) for r in json.load(sys.stdin)["rows"]])')" \
	"exited - 404 42 sleeper|62 62 110 1 sleeper|:0,42,404:[(None, 42, True), (62, 1, False)]"
eq "version 2 tasks -b tgid: exited tasks apart, by name (TGID 'exited'; CSV tgid 0, tasks N)" \
	"$(sp -f "$XT" tasks -b tgid | awk '$1 == "exited" { print $1, $2, $(NF - 2), $NF }' | tr '\n' '|'):$(sp -f "$XT" -F csv tasks -b tgid | csv_pick tgid,count,tasks,comm | grep ',sh$' | cut -d, -f1-3 | tr '\n' ' ')" \
	"exited 2030 620 sh|exited 413 45 sleeper|exited 7 1 task|:0,2030,620 900,4,1 "
eq "version 2 tasks -b comm: the tasks of a name, exited ones merged in (TASKS: both)" \
	"$(sp -f "$XT" -F csv tasks -b comm | csv_pick count,tasks,sites,comm | tr '\n' ' ')" \
	"count,tasks,sites,comm 2034,621,1,sh 523,46,2,sleeper 37,3,1,my task 3,1,1,init "
eq "version 2 --pid 0 takes the lines of exited tasks, --tgid none of them" \
	"$(sp -f "$XT" -F csv sites --pid 0 | csv_sum count):$(sp -f "$XT" -F csv tasks --tgid 70 | cut -d, -f1 | tr '\n' ' ')" \
	"2450:pid 70 71 "
eq "version 2 -s pid: the rows of exited tasks (pid 0) first, by the value" \
	"$(sp -f "$XT" -F csv tasks -s pid | csv_pick pid,comm | sed -n 2,5p | tr '\n' ' ')" \
	"0,sh 0,sleeper 0,my task 1,init "
eq "version 2 matrix: rows of exited tasks (table: TASKS before COMM; CSV: pid 0, tgid N; JSON: exited, tasks)" \
	"$(sp -f "$XT" matrix -n 2 --columns 2 | sed -n '3,5p' | tr -s ' ' | tr '\n' '|'):$(sp -f "$XT" -F csv matrix -n 2 --columns 2 | sed -n 2,3p | tr '\n' ' '):$(sp -f "$XT" -F json matrix -n 1 | python3 -c 'import json,sys; print([(r["pid"], r["exited"], r["tasks"], r["cells"]) for r in json.load(sys.stdin)["rows"]])')" \
	" PID TGID TASKS COMM TOTAL S1 S2|exited - 620 sh 2030 2000 .|exited - 45 sleeper 413 . 400|:0,620,sh,2030,2000,0 0,45,sleeper,413,0,400 :[(None, True, 620, [2000])]"
sp -f "$XT" heatmap >"$OUT/exited.svg"
xmllint --noout "$OUT/exited.svg" 2>"$OUT/x"
eq "version 2 heatmap: a row of exited tasks is 'comm (N exited)'" \
	"$?:$(cat "$OUT/x"):$(grep -c 'text-anchor="end">sh (620 exited)</text>' "$OUT/exited.svg"):$(grep -c '<title>sleeper (45 exited) at sleep:do_nanosleep+0x6d/0x150: count 400, ' "$OUT/exited.svg")" "0::1:1"
sp -f "$XT" -F prometheus tasks >"$OUT/exited.prom"
eq "version 2 prometheus: a row of exited tasks is labelled pid=\"exited\", tgid=\"-\"" \
	"$(grep '^sched_points_calls_total{pid="exited"' "$OUT/exited.prom" | tr '\n' '|')" \
	'sched_points_calls_total{pid="exited",tgid="-",comm="sh"} 2030|sched_points_calls_total{pid="exited",tgid="-",comm="sleeper"} 413|sched_points_calls_total{pid="exited",tgid="-",comm="my task"} 7|'
promtool check metrics <"$OUT/exited.prom" >"$OUT/promtool.log" 2>&1
eq "promtool check metrics: exited.prom" "$?:$(cat "$OUT/promtool.log")" "0:"
eq "version 2 folded: exited tasks are frames of their name, as tasks of that name" \
	"$(sp -f "$XT" -F folded matrix | grep '^sh;' | tr '\n' '|')" \
	"sh;do_wait+0x1a2/0x300;sleep 2000|sh;do_wait+0x1a2/0x300;cond_resched 30|sh;do_wait+0x1a2/0x300;sleep 4|"
eq "version 2 hist X: the tasks of the point's lines with a histogram, exited ones counted" \
	"$(sp -f "$XT" hist do_wait | sed -n 3p)" "point do_wait  sites 1  tasks 501"
# the parser: two lines of one exited key (a module reloaded) add up their tasks
H2="sched_points version 2\nfolded 5\n$H16"
printf '%b' "${H2}0\t2\tsleep\t5\t0\t0\t0\t0\t0\t0\t-\t-\t-\tffffffffc0000000\tf+0x1/0x2 [m]\tsh\n0\t3\tsleep\t4\t0\t0\t0\t0\t0\t0\t-\t-\t-\tffffffffc0100000\tf+0x1/0x2 [m]\tsh\n" >"$OUT/exited2.txt"
eq "version 2: two lines of exited tasks of one (comm, symbol, kind) are one row, their tasks summed" \
	"$(sp -f "$OUT/exited2.txt" -F csv tasks | tr '\n' ' ')" \
	"pid,tgid,count,total_ns,mean_ns,max_ns,wait_ns,wait_max_ns,delay_ns,delay_max_ns,sites,comm 0,5,9,0,,0,0,0,0,0,1,sh "
bad "a line of exited tasks of 0 tasks" "${H2}0\t0\tsleep\t5\t0\t0\t0\t0\t0\t0\t-\t-\t-\tffffffff81000000\tf+0x1/0x2\tsh\n" 4 \
	"tgid: a line of exited tasks (pid 0) has the number of tasks folded into it, at least 1, got '0'"
bad "folded before dropped" "sched_points version 2\nfolded 5\ndropped 0\n" 3 \
	"summary 'dropped' after 'folded' (the format's order: enabled, mode, time, kinds, hist, cpus, capacity, used, entries, dropped, folded)"
printf '%b' "sched_points version 1\nfolded x\ndropped 0\n${COLS}1\t1\tsleep\t5\t0\t0\t-\tffffffff81000000\tf+0x1/0x2\tx\n" >"$OUT/folded10.txt"
eq "version 1: 'folded' is a name it does not know, ignored wherever it is" \
	"$(sp -f "$OUT/folded10.txt" sites 2>&1 | head -n 1)" "source $OUT/folded10.txt  version 1  dropped 0"
# Version 1 (any minor) has no line of exited tasks: a version 1 kernel never
# writes pid 0 (the idle task is not counted), and a reader of version 1
# would take the tgid of such a line, a number of tasks, for a thread group.
# So a pid 0 line says the file is not what its version line says: refused.
P0="0\t7\tsleep\t5\t0\t0\t-\tffffffff81000000\tf+0x1/0x2\tsh\n"
bad "version 1: a line of pid 0 is refused" "sched_points version 1\n${COLS}1\t1\tsleep\t5\t0\t0\t-\tffffffff81000000\tf+0x1/0x2\tx\n$P0" 4 \
	"pid: expected a task's pid, above 0, in format version 1 (lines of exited tasks, pid 0, are version 2's), got '0'"
bad "version 1.1: a line of pid 0 is refused (exited tasks are version 2's)" "sched_points version 1.1\nfolded 7\n${COLS}$P0" 4 \
	"pid: expected a task's pid, above 0, in format version 1 (lines of exited tasks, pid 0, are version 2's), got '0'"
awk -F '\t' -v OFS='\t' 'NR == 1 { print "sched_points version 1.1"; next }
	/^pid\ttgid\t/ { h = 1 } !h { print; next }
	{ print $1, $2, $3, $4, $5, $6, $11, $14, $15, $16 }' "$XT" >"$OUT/exited11.txt"
SP_RC=1
sp -f "$OUT/exited11.txt" tasks >"$OUT/o" 2>"$OUT/e"
eq "exited.txt said to be version 1.1: refused at its first line of exited tasks (line 15)" "$?:$(cat "$OUT/o"):$(cat "$OUT/e")" \
	"1::schedpoints: $OUT/exited11.txt:15: pid: expected a task's pid, above 0, in format version 1 (lines of exited tasks, pid 0, are version 2's), got '0'"
printf '%b' "sched_points version 1.1\nfolded 5\ndropped 0\n${COLS}1\t1\tsleep\t5\t0\t0\t-\tffffffff81000000\tf+0x1/0x2\tx\n" >"$OUT/folded11.txt"
eq "version 1.1: 'folded' is a name it does not know either (no order check, not shown)" \
	"$(sp -f "$OUT/folded11.txt" sites 2>&1 | head -n 1)" "source $OUT/folded11.txt  version 1.1  dropped 0"
# A minor of version 2 may add summary names as one of version 1 could.
P0S="0\t7\tsleep\t5\t0\t0\t0\t0\t0\t0\t-\t-\t-\tffffffff81000000\tf+0x1/0x2\tsh\n"
printf '%b' "sched_points version 2.3\nenabled 1\nnew_name 7\nentries 2\ndropped 0\nfolded 7\nnew_word some_word\n${H16}${P0S}1\t1\tsleep\t5\t10\t10\t6\t6\t4\t4\t-\t-\t-\tffffffff81000000\tf+0x1/0x2\tx\n" >"$OUT/minor23.txt"
eq "version 2.3: unknown summary names ignored, 'folded' and a line of exited tasks read" \
	"$(sp -f "$OUT/minor23.txt" tasks 2>&1 | head -n 1):$(sp -f "$OUT/minor23.txt" -F csv tasks 2>&1 | tail -n +2 | tr '\n' ' ')" \
	"source $OUT/minor23.txt  version 2.3  enabled 1  entries 2  dropped 0  folded 7:1,1,5,10,2,10,6,6,4,4,1,x 0,7,5,0,,0,0,0,0,0,1,sh "
sed '1s/.*/sched_points version 2.9/' "$XT" >"$OUT/exited29.txt"
eq "exited.txt said to be version 2.9: every view reads as version 2's (but the version)" \
	"$(for v in sites tasks "task 0" matrix; do
		# shellcheck disable=SC2086 # split on purpose: the view, its keys
		sp -f "$OUT/exited29.txt" -F csv $v; done | cksum)" \
	"$(for v in sites tasks "task 0" matrix; do
		# shellcheck disable=SC2086 # split on purpose: the view, its keys
		sp -f "$XT" -F csv $v; done | cksum)"
# interval mode: between fold-a.txt and fold-b.txt task 63 exited (after 5
# more calls) and was folded; task 64 exited after 3 more calls on CPU 0,
# whose entry was folded, its entry on CPU 1 (5 calls) not yet; a task born
# and gone in between made 7 calls; 62 made 20.  Not a reset: the line of
# exited tasks gained what the rows lost and the 15 calls of the interval.
FA=$FIX2/fold-a.txt
FB=$FIX2/fold-b.txt
eq "diff across folds: no reset; each row its own calls, the exited tasks' line the interval's calls of the tasks gone" \
	"$(sp -F csv diff "$FA" "$FB" tasks | cut -d, -f1-3,5,6 | tr '\n' ' ')" \
	"pid,tgid,delta,count,delta_ns 62,62,20,130,40000000 0,43,15,480,15000000 "
eq "diff across folds: the sum of deltas is the difference of the totals; the interval's buckets" \
	"$(sp -F csv diff "$FA" "$FB" sites | csv_sum delta):$(( $(input_total "$FB") - $(input_total "$FA") )):$(sp -F csv diff "$FA" "$FB" --buckets sites | tail -n +2 | tr '\n' ' ')" \
	"35:35:sleep,do_nanosleep+0x6d/0x150,16,65536,131072,0,0,35 sleep,do_nanosleep+0x6d/0x150,19,524288,1048576,35,35,0 "
eq "diff across folds: TASKS of the exited tasks' row, the tasks folded in the interval (table, JSON)" \
	"$(sp diff "$FA" "$FB" tasks | awk '$1 == "exited" { print $1, $3, $(NF - 2) }'):$(sp -F json diff "$FA" "$FB" tasks | python3 -c 'import json,sys; print([(r["pid"], r["delta"], r["tasks"]) for r in json.load(sys.stdin)["rows"]])')" \
	"exited 15 3:[(62, 20, 1), (None, 15, 3)]"
SP_RC=1
sp diff "$FB" "$FA" >"$OUT/o" 2>"$OUT/e"
eq "diff: 'folded' going back is a reset" "$?:$(cat "$OUT/e")" \
	"1:schedpoints: diff $FB $FA: counters went back between snapshots ('folded' 43 -> 40); no delta can be computed"
sed 's/^0\t43\tsleep\t480\t1345000000\t30000000\t1176875000/0\t43\tsleep\t480\t1245000000\t30000000\t1076875000/' "$FB" >"$OUT/fold-short.txt"
SP_RC=1
sp diff "$FA" "$OUT/fold-short.txt" >"$OUT/o" 2>"$OUT/e"
eq "diff: a task gone whose calls are not in its line of exited tasks is a reset" "$?:$(cat "$OUT/e")" \
	"1:schedpoints: diff $FA $OUT/fold-short.txt: counters went back between snapshots (pid 63 'sleeper' at do_nanosleep+0x6d/0x150, sleep: count 50, now gone; its line of exited tasks gained less total_ns than the rows folded into it lost); no delta can be computed"
sed 's/^folded 40/folded 43/' "$FA" >"$OUT/fold-back.txt"
SP_RC=1
sp diff "$FB" "$OUT/fold-back.txt" >"$OUT/o" 2>"$OUT/e"
eq "diff: a line of exited tasks going back is a reset" "$?:$(cat "$OUT/e")" \
	"1:schedpoints: diff $FB $OUT/fold-back.txt: counters went back between snapshots (exited tasks 'sleeper' at do_nanosleep+0x6d/0x150, sleep: count 480 -> 400); no delta can be computed"
cat "$FA" "$FB" | sp top -f - -c 1 -F csv tasks >"$OUT/o" 2>"$OUT/e"
eq "top across folds: sample 1, no reset" "$?:$(cat "$OUT/e"):$(cut -d, -f1-4 "$OUT/o" | tr '\n' ' ')" \
	"0::sample,pid,tgid,delta 1,62,62,20 1,0,43,15 "

# ---- usage errors: exit 2 ---------------------------------------------------
usage() {
	SP_RC=2
	sp "$@" -f "$B" >/dev/null 2>"$OUT/e"
	rc=$?
	eq "usage error exits 2: $*" "$rc:$(head -n 1 "$OUT/e" | grep -c '^schedpoints: ')" "2:1"
}
usage --no-such-option
usage -F xml sites
usage -g line sites
usage -b uid tasks
usage -s size sites
usage -n many sites
usage --pid 1,x sites
usage --pid 1,,2 sites
usage --pid 1, sites
usage --tgid ,1 sites
usage task abc
usage site
usage sites extra
usage frobnicate
usage -c 3 sites
usage -i 1 sites
usage -i 0 top
usage -F svg sites
usage -F json heatmap
usage diff only-one
usage --kind nap sites
usage --kind sleep, sites
usage --value size sites
usage -s speed sites
usage -g function kinds
sp --help >"$OUT/help"
eq "--help: exit 0, usage on stdout" "$?:$(head -n 1 "$OUT/help")" "0:Usage: schedpoints [OPTIONS] [COMMAND [ARGS]]"
eq "--version" "$(sp --version)" "schedpoints 1.0 (reads /proc/sched_points format versions 1 and 2)"

# ---- issue 16: the tool at scale --------------------------------------------
# Each test below failed before the change that fixed what its name says.
G=$OUT/gen2000.txt
sh "$T/gen-scale.sh" 2000 >"$G"
want=$(input_total "$G")
sp -f "$G" -F csv matrix >"$OUT/gm.csv"
eq "matrix without -n: the top 40 rows and 40 columns (#16)" \
	"$(csv_records <"$OUT/gm.csv" | wc -l | tr -d ' '):$(head -n 1 "$OUT/gm.csv" | awk -F, '{ print NF }')" "41:44"
sp -f "$G" -F folded matrix >"$OUT/gm.folded"
eq "folded matrix without -n: the cells of the top 40 rows and 40 columns, as the CSV matrix shows them (#34)" \
	"$(wc -l <"$OUT/gm.folded" | tr -d ' '):$(awk '{ print $NF }' "$OUT/gm.folded" | bigsum)" \
	"$(csv_records <"$OUT/gm.csv" | awk -F, 'NR > 1 { for (i = 5; i <= NF; i++) n += $i != 0 } END { print n }'):$(csv_cells <"$OUT/gm.csv")"
eq "folded matrix -n 0: every cell, the input total" \
	"$(sp -f "$G" -F folded -n 0 matrix | awk '{ print $NF }' | bigsum)" "$want"
sp -f "$G" matrix >"$OUT/gm.table"
eq "matrix table without -n says how many rows and columns it shows (#16)" \
	"$(grep -c '  tasks 100 (top 40 shown)$' "$OUT/gm.table"):$(grep -c '^[0-9]* sites, top 40 shown (--columns)$' "$OUT/gm.table")" "1:1"
eq "matrix -n 3 --columns 2: rows and columns limited apart (#16)" \
	"$(sp -f "$G" -F csv matrix -n 3 --columns 2 | awk -F, 'END { print NR ":" NF }')" "4:6"
eq "matrix -n 0: every row and column, cells sum to the input total" \
	"$(sp -f "$G" -F csv matrix -n 0 | csv_cells)" "$want"
# a matrix of 10,000 tasks x 12,000 columns: the table used to copy every
# cell (the 1M-line capture of the issue took 23.7 GB); bounded now, and
# run under a 1 GB limit so that a regression fails instead of swapping
# (the sanitizer build cannot run under ulimit -v: the static build of the
# same sources does; SCALE_BIN=BINARY runs these on another, such as the
# code before a fix). The time bounds are CPU time (user + system), not
# wall time: make check runs these niced beside kernel builds and guests.
S=${SCALE_BIN:-$TOP/schedpoints-static}
sh "$T/gen-scale.sh" 200000 >"$OUT/gen200k.txt"
for args in "matrix" "-F csv matrix" "-F json matrix" "heatmap" "matrix -n 0 --columns 20" "-F json -n 0 tasks"; do
	# shellcheck disable=SC2086 # words of options, split on purpose
	# shellcheck disable=SC3045 # dash (Debian's sh) has ulimit -v
	( ulimit -v 1000000; /usr/bin/time -o "$OUT/time" -f '%M %U %S' "$S" -f "$OUT/gen200k.txt" $args >/dev/null 2>"$OUT/err" )
	rc=$?
	# shellcheck disable=SC2046 # the fields of one line, split on purpose
	set -- $(tail -n 1 "$OUT/time") x x x
	case $args in matrix|*--columns*) tag=" (#16)" ;; *) tag="" ;; esac	# the others were bounded before
	eq "200,000 lines, $args: exit 0 within 100 MB and 5 s of CPU$tag" \
		"$rc:$(awk -v k="$1" -v s="$2" -v y="$3" 'BEGIN { s += y; print (k < 100000 && s < 5) ? "bounded" : k " KiB " s " s" }')" "0:bounded"
done

# the whole heat map draws its 200,000 cells, looked up one by one among
# 10,000 x 12,000 (row, column) pairs before: 3.5 s, 0.5 s now
# shellcheck disable=SC3045 # dash (Debian's sh) has ulimit -v
( ulimit -v 1000000; /usr/bin/time -o "$OUT/time" -f '%M %U %S' "$S" -f "$OUT/gen200k.txt" heatmap -n 0 --columns 0 >"$OUT/whole.svg" 2>"$OUT/err" )
rc=$?
# shellcheck disable=SC2046 # the fields of one line, split on purpose
set -- $(tail -n 1 "$OUT/time") x x x
eq "200,000 lines, heatmap -n 0 --columns 0: every cell within 100 MB and 2 s of CPU (#16)" \
	"$rc:$(awk -v k="$1" -v s="$2" -v y="$3" 'BEGIN { s += y; print (k < 100000 && s < 2) ? "bounded" : k " KiB " s " s" }'):$(grep -c '^<rect x=.*<title>' "$OUT/whole.svg")" "0:bounded:200000"
# ---- issue 34: no input can hurt ---------------------------------------------
# Hash flooding: 100,000 lines whose keys all collide in the hashes the tool
# had before (unkeyed: the row hash ends in MurmurHash3's finalizer, which
# is inverted here; the string pool's FNV-style hash is inverted the same
# way for 16-byte task names) parse within twice the CPU time of 50,000
# ordinary lines of the same size (plus 50 ms: the clock ticks in 10 ms).
# Before, every key went to one probe chain: quadratic (100,000 lines,
# 17.9 s of CPU instead of 0.08 s).
FLOOD='import random, sys
M = 2 ** 64
G = 0x9e3779b97f4a7c15
def fmix(x):
    x ^= x >> 33; x = x * 0xff51afd7ed558ccd % M; x ^= x >> 33
    x = x * 0xc4ceb9fe1a85ec53 % M; return x ^ (x >> 33)
def unfmix(x):
    x ^= x >> 33; x = x * pow(0xc4ceb9fe1a85ec53, -1, M) % M; x ^= x >> 33
    x = x * pow(0xff51afd7ed558ccd, -1, M) % M; return x ^ (x >> 33)
def unxs29(x):
    return x ^ (x >> 29) ^ (x >> 58)
P, B = 0x100000001b3, 0xcbf29ce484222325
def esc(b):
    return "".join(chr(c) if 0x21 <= c <= 0x7e and c != 0x5c else "\\%03o" % c for c in b)
what, collide, n = sys.argv[1], sys.argv[2] == "1", int(sys.argv[3])
rnd = random.Random(34)
C = fmix(G)	# comm id 0, symbol id 0, kind sleep: the second word
print("sched_points version 1\nentries %d" % n)
print("pid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\thist\taddress\tsymbol\tcomm")
seen = set()
while len(seen) < n:
    if what == "rows":
        z = rnd.getrandbits(32) << 32 | 0x5eed
        x = unfmix(z) ^ C if collide else rnd.getrandbits(64)
        if x in seen:
            continue
        seen.add(x)
        print("%d\t%d\tsleep\t1\t0\t0\t-\tffffffff81000000\tf+0x1/0x2\tx" % (x >> 32, x & 0xffffffff))
        continue
    w1 = rnd.getrandbits(64)
    if collide:
        h = (B ^ w1) * P % M; h ^= h >> 29
        f = unxs29(rnd.getrandbits(32) << 32 | 0x5eed) * pow(G, -1, M) % M
        f ^= f >> 32
        w2 = (unxs29(f) * pow(P, -1, M) % M) ^ h
    else:
        w2 = rnd.getrandbits(64)
    b = w1.to_bytes(8, "little") + w2.to_bytes(8, "little")
    if 0 in b or b in seen:
        continue
    seen.add(b)
    print("1\t1\tsleep\t1\t0\t0\t-\tffffffff81000000\tf+0x1/0x2\t" + esc(b))'
cpu_of() {	# cpu_of BINARY FILE: CPU seconds of a parse, the best of three
	for _i in 1 2 3; do
		# shellcheck disable=SC3045 # dash (Debian's sh) has ulimit -t
		( ulimit -t 20; /usr/bin/time -o "$OUT/time" -f '%U %S' "$1" -f "$2" -F csv kinds >/dev/null 2>&1 ) ||
			echo "exit status $?: $1 -f $2" >>"$FAULTS"
		tail -n 1 "$OUT/time" | awk '{ print $1 + $2 }'
	done | sort -n | head -n 1
}
for what in rows comms; do
	python3 -c "$FLOOD" "$what" 1 100000 >"$OUT/flood-$what.txt"
	python3 -c "$FLOOD" "$what" 0 100000 >"$OUT/plain-$what.txt"
	c=$(cpu_of "$S" "$OUT/flood-$what.txt")
	p=$(cpu_of "$S" "$OUT/plain-$what.txt")
	eq "hash flooding: 100,000 keys that collided in the old $what hash parse within 2x the CPU of ordinary ones (#34)" \
		"$(awk -v c="$c" -v p="$p" -v fc="$(wc -c <"$OUT/flood-$what.txt")" -v fp="$(wc -c <"$OUT/plain-$what.txt")" \
			'BEGIN { print (fc > 0.98 * fp && fc < 1.02 * fp) ? "same size" : "sizes " fc " " fp,
				(c <= 2 * p + 0.05) ? "within" : c " s vs " p " s" }')" "same size within"
done

# Histograms out of line (#34 D): 200,000 lines, half of them with
# buckets, in two snapshots; diff and top keep the buckets of the rows that
# have them only, sparse (155 MB each before: 208 bytes every row, every
# snapshot and the interval's; about 42 MB now).
sh "$T/gen-scale.sh" 200000 0 1 >"$OUT/hist200k-a.txt"
sh "$T/gen-scale.sh" 200000 1 1 >"$OUT/hist200k-b.txt"
cat "$OUT/hist200k-a.txt" "$OUT/hist200k-b.txt" >"$OUT/hist200k-ab.txt"
for args in "diff $OUT/hist200k-a.txt $OUT/hist200k-b.txt sites" "-f - top -c 1 tasks"; do
	# shellcheck disable=SC2086 # words of options, split on purpose
	/usr/bin/time -o "$OUT/time" -f '%M' "$S" $args <"$OUT/hist200k-ab.txt" >"$OUT/o" 2>"$OUT/e"
	rc=$?
	eq "200,000 lines with histograms, $(echo "$args" | sed "s|$OUT/||g"): exit 0, the interval's calls, under 80 MB (#34)" \
		"$rc:$(grep '^delta' "$OUT/o" | sed 's/  rate.*//'):$(tail -n 1 "$OUT/time" | awk '{ print ($1 < 80000) ? "small" : $1 " KiB" }')" \
		"0:delta 400000:small"
done

# Memory amplification: a 159-byte file whose summary claims 2^22 entries
# (one line follows, with time and a histogram) fails at its end without
# touching more than a few MB; before, tables were sized from the claim
# (460 MB touched).  From a file and from a pipe.
printf '%b' "sched_points version 1\nhist 1\nentries 4194304\n${COLS}1\t1\tsleep\t5\t100\t60\t9:5\tffffffff81000000\tf+0x1/0x2\tx\n" >"$OUT/claim.txt"
for how in file pipe; do
	if [ $how = file ]; then
		/usr/bin/time -o "$OUT/time" -f '%M' "$S" -f "$OUT/claim.txt" >/dev/null 2>"$OUT/e"
	else
		/usr/bin/time -o "$OUT/time" -f '%M' "$S" -f - <"$OUT/claim.txt" >/dev/null 2>"$OUT/e"
	fi
	rc=$?
	eq "a claimed count of 2^22 entries in a tiny $how: exit 1, said, under 20 MB touched (#34)" \
		"$rc:$(grep -c "claim.txt:5: unexpected end of input: summary 'entries' says 4194304 data lines, got 1\|<stdin>:5: unexpected end of input" "$OUT/e"):$(tail -n 1 "$OUT/time" | awk '{ print ($1 < 20000) ? "small" : $1 " KiB" }')" \
		"1:1:small"
done

# --sort: a list of keys, max and mean among them
V=$FIX/time.txt
eq "--sort max: by the longest stretch (#16)" "$(sp -f "$V" -F csv tasks -s max | sed -n 2p | cut -d, -f1,6)" "1,2000000000"
eq "--sort mean: by the mean, rows without one last (#16)" \
	"$(sp -f "$V" -F csv sites -s mean | cut -d, -f3 | tr '\n' ' ')" \
	"mean_ns 1000000000 20189933 15000000 100000 1500    "
eq "--sort sites,pid: the second key breaks ties of the first (#16)" \
	"$(sp -f "$V" -F csv tasks -s sites,pid | cut -d, -f1,7 | tr '\n' ' ')" \
	"pid,sites 123,2 1,1 124,1 129,1 130,1 200,1 "
eq "--sort mean -r: means reversed, rows without one still last (#34)" \
	"$(sp -f "$V" -F csv sites -s mean -r | cut -d, -f3 | tr '\n' ' ')" \
	"mean_ns 1500 100000 15000000 20189933 1000000000    "
eq "--sort mean -r -n 2 tasks: the top two have a mean (#34)" \
	"$(sp -f "$V" -F csv tasks -s mean -r -n 2 | cut -d, -f5 | tr '\n' ' ')" "mean_ns 1500 15000000 "
eq "--sort count -r: reversed" "$(sp -f "$V" -F csv tasks -s count -r | sed -n 2p | cut -d, -f1)" "200"
# the whole order of 100 rows, ties included (every task has 20 sites): a
# radix sort of the first key (a name by its rank), runs of equal keys by
# the tie-breakers
sp -f "$G" -F csv -n 0 -s sites tasks | tail -n +2 >"$OUT/sorted.csv"
eq "-n 0 -s sites tasks: ties by the value, the time, then pid" \
	"$(md5sum <"$OUT/sorted.csv")" "$(sort -t, -k7,7nr -k3,3nr -k4,4nr -k1,1n "$OUT/sorted.csv" | md5sum)"
sp -f "$G" -F csv -n 0 -r tasks | tail -n +2 >"$OUT/sorted.csv"
eq "-n 0 -r tasks: the first key reversed, the tie-breakers not" \
	"$(md5sum <"$OUT/sorted.csv")" "$(sort -t, -k3,3n -k4,4nr -k1,1n "$OUT/sorted.csv" | md5sum)"
sp -f "$G" -F csv -n 0 -s comm,pid tasks | tail -n +2 >"$OUT/sorted.csv"
eq "-n 0 -s comm,pid tasks: names in byte order, then pids" \
	"$(md5sum <"$OUT/sorted.csv")" "$(sort -t, -k8,8 -k1,1n "$OUT/sorted.csv" | md5sum)"
usage -s count,speed tasks
usage -s mean,,max tasks

# options that would be ignored are usage errors that say why
for args in "-s comm sites" "-s pid sites" "-s tgid sites" "-s pid tasks -b tgid" \
	"-s tgid tasks -b comm" "-p sites" "-p -F csv tasks" \
	"-g function tasks" "-g module site do_nanosleep" "-b tgid sites" "-b comm kinds" \
	"-b tgid task 123"; do
	SP_RC=2
	# shellcheck disable=SC2086 # words of options, split on purpose
	sp -f "$V" $args >/dev/null 2>"$OUT/e"
	eq "an option that does not apply is a usage error: $args (#16)" \
		"$?:$(head -n 1 "$OUT/e" | grep -c '^schedpoints: .*\(--\|sort\|pretty\|group\|by\|columns\)')" "2:1"
done
# not_applies FILE TITLE PATTERN ARGS...: each ARGS (words of options and a
# view) on FILE is a usage error whose message's first line matches PATTERN
not_applies() {
	_f=$1 _t=$2 _p=$3
	shift 3
	for args in "$@"; do
		SP_RC=2
		# shellcheck disable=SC2086 # words of options, split on purpose
		sp -f "$_f" $args >/dev/null 2>"$OUT/e"
		eq "$_t: $args" "$?:$(head -n 1 "$OUT/e" | grep -c "$_p")" "2:1"
	done
}
not_applies "$V" "an option that does not apply is a usage error" '^schedpoints: .*\(--\|sort\|columns\)' \
	"-s tasks task 123" "-s pid task 123" "-s count,pid task 123" "--columns 3 sites" "--columns 3 -F folded matrix" "-F table heatmap"
SP_RC=2
sp help extra >/dev/null 2>"$OUT/e"
eq "help with an argument: a usage error, not ignored (#16)" "$?:$(head -n 1 "$OUT/e")" "2:schedpoints: help takes no argument, got 'extra'"
SP_RC=2
sp -F json help >/dev/null 2>"$OUT/e"
eq "help with an option: a usage error, not ignored (#16)" "$?:$(head -n 1 "$OUT/e")" "2:schedpoints: help takes no option: it prints this text only"
# into a file: head closing the pipe early could kill the tool with SIGPIPE
sp help >"$OUT/help.alone"
eq "help alone: the usage text" "$(head -n 1 "$OUT/help.alone")" "Usage: schedpoints [OPTIONS] [COMMAND [ARGS]]"
for args in "-F folded -i 3" "-F csv -i 3 matrix" "-i 3 heatmap"; do
	SP_RC=2
	# shellcheck disable=SC2086 # words of options, split on purpose
	sp diff "$FIX/a.txt" "$FIX/b.txt" $args >/dev/null 2>"$OUT/e"
	eq "diff $args: -i sets rates that the format does not show, a usage error (#16)" \
		"$?:$(head -n 1 "$OUT/e" | grep -c '^schedpoints: --interval only sets the rates of diff, and .* shows none$')" "2:1"
done
SP_RC=2
cat "$FIX/a.txt" "$FIX/b.txt" | sp -f - -F folded -i 2 top >/dev/null 2>"$OUT/e"
eq "top on a stream, -F folded -i 2: a usage error (#16)" \
	"$?:$(head -n 1 "$OUT/e")" "2:schedpoints: --interval only sets the rates of top on a stream, and --format folded shows none"
eq "top on a file, -F folded -i: the time between reads, no error" \
	"$(sp -f "$FIX/a.txt" -F folded -i 0.01 -c 1 top >/dev/null 2>&1; echo $?)" "0"
for args in "top -c 2 -i 0.01 heatmap" "top -F prometheus -c 2 -i 0.01 sites"; do
	SP_RC=2
	# shellcheck disable=SC2086 # words of options, split on purpose
	sp -f "$V" $args >/dev/null 2>"$OUT/e"
	eq "$args: whole documents one after the other on stdout is a usage error (#16)" \
		"$?:$(head -n 1 "$OUT/e" | grep -c '^schedpoints: top writes a whole .* document per sample: give -o FILE')" "2:1"
done
sp -f "$V" -F prometheus -c 1 -i 0.01 top sites >"$OUT/top1.prom" 2>"$OUT/e"
eq "top -F prometheus -c 1: one document, which promtool accepts" \
	"$?:$(promtool check metrics <"$OUT/top1.prom" 2>&1):$(grep -c '^sched_points_calls_delta{' "$OUT/top1.prom")" "0::0"
eq "-b tgid matrix: rows by thread group (#16)" \
	"$(sp -f "$B" -F csv matrix -b tgid -n 2 --columns 2 | tr '\n' ' ')" \
	"tgid,comm,count,sleep:do_nanosleep+0x6e/0x190,sleep:sp_test_sleep_once+0x4a/0x90 [sched_points_test] 123,sleeper,57,45,0 129,my thread,42,0,30 "
eq "-b comm matrix: rows by task name (#16)" \
	"$(sp -f "$B" -F csv matrix -b comm -n 1 --columns 1 | tr '\n' ' ')" "comm,count,sleep:do_nanosleep+0x6e/0x190 sleeper,77,65 "
eq "-b comm site X: the site's tasks by name (#16)" \
	"$(sp -f "$B" -F csv site do_nanosleep -b comm | tr '\n' ' ')" "count,total_ns,mean_ns,max_ns,tasks,sites,comm 65,0,,0,2,1,sleeper 7,0,,0,1,1,my thread "

# output correctness
printf 'sched_points version 1\npid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\thist\taddress\tsymbol\tcomm\n7\t7\tsleep\t3\t0\t0\t-\tffffffff81000000\tf+0x1/0x2\t\n' >"$OUT/empty-comm.txt"
eq "folded: an empty task name is the frame \\000, not an empty frame (#16)" \
	"$(sp -f "$OUT/empty-comm.txt" -F folded matrix)" '\000;f+0x1/0x2;sleep 3'
eq "folded site X: the site frame is kept (#16)" \
	"$(sp -f "$B" -F folded site do_nanosleep | head -n 1)" "sleeper;do_nanosleep 45"
SP_RC=1
sp -f "$B" -F json site "$(printf 'do_\377\n')" >"$OUT/site.json" 2>/dev/null
eq "json: the site argument is escaped, the document valid UTF-8 (#16)" \
	"$?:$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1], encoding="utf-8")); print(repr(d["site"].encode("utf-8", "surrogateescape")))' "$OUT/site.json")" \
	"1:b'do_\\xff'"
eq "prometheus HELP names every kind (#16)" \
	"$(sp -f "$V" -F prom sites | grep -c '^# HELP sched_points_calls_total .*preempt_schedule().*cond_resched()')" "1"

# heat map
sp -f "$V" -T heatmap >"$OUT/h.svg"
eq "heatmap: colours from the smallest to the largest cell (#16)" \
	"$(grep -c 'fill="#440154" stroke="#ffffff"><title>wéird (200) at yield:0xffffffffc0009999: off-CPU time 1.50us' "$OUT/h.svg"):$(grep -c 'fill="#fde725" stroke="#ffffff"><title>init (1)' "$OUT/h.svg")" "1:1"
# no text is cut at the left or right edge (6.7 px a glyph at font-size 11)
NOCLIP='import re,sys
d=open(sys.argv[1], encoding="utf-8").read()
w=float(re.search(r"<svg [^>]*width=\"([0-9.]+)\"", d).group(1))
bad=[]
for m in re.finditer(r"<text x=\"([0-9.-]+)\" y=\"[0-9.-]+\" text-anchor=\"(start|end|middle)\">([^<]*)</text>", d):
    x, a, t = float(m.group(1)), m.group(2), m.group(3)
    t = re.sub(r"&[a-z]+;", "_", t)
    n = len(t) * 6.7
    lo, hi = {"start": (x, x + n), "end": (x - n, x), "middle": (x - n / 2, x + n / 2)}[a]
    if lo < 0 or hi > w: bad.append(t)
print(bad)'
eq "heatmap -T: the legend title and every label fit in the picture (#16)" \
	"$(python3 -c "$NOCLIP" "$OUT/h.svg")" "[]"
sp -f "$G" heatmap -n 3 --columns 5 >"$OUT/h2.svg"
eq "heatmap -n 3 --columns 5: row and column limits apart (#16)" \
	"$(grep -c 'text-anchor="end">task-[0-9]* ([0-9]*)</text>' "$OUT/h2.svg"):$(grep -c 'rotate(-90)' "$OUT/h2.svg")" "3:5"
eq "heatmap -b tgid: rows by thread group (#16)" \
	"$(sp -f "$B" heatmap -b tgid | grep -c '>my thread (tgid 129)</text>')" "1"
LONG=a_function_name_long_enough_to_be_cut_in_a_heat_map_label
printf 'sched_points version 1\npid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\thist\taddress\tsymbol\tcomm\n7\t7\tsleep\t3\t0\t0\t-\tffffffff81000000\t%s+0x1/0x2 [mymod]\tx\n' "$LONG" >"$OUT/long-sym.txt"
eq "heatmap: a cut label keeps its [module] (#16)" \
	"$(sp -f "$OUT/long-sym.txt" heatmap | grep -o 'rotate(-90)">[^<]*' | sed 's/.*">//')" \
	"sleep:a_function_name_long_enough_to_... [mymod]"

printf 'sched_points version 1\npid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\thist\taddress\tsymbol\tcomm\n7\t7\tsleep\t3\t0\t0\t-\tffffffff81000000\tf+0x1/0x2\t\\001\\002\\003\\004\\005\\006\\007\\010\\011\\012\\013\\014\\015\\016\\017\n' >"$OUT/long-comm.txt"
eq "heatmap: a cut task label keeps its (pid), (tgid N) (#16)" \
	"$(sp -f "$OUT/long-comm.txt" heatmap | grep -c '>\\001\\002.*\.\.\. (7)</text>'):$(sp -f "$OUT/long-comm.txt" heatmap -b tgid | grep -c '\.\.\. (tgid 7)</text>')" "1:1"
# code shape (item 7); SRC_DIR=DIR reads another tree's sources (such as
# the code before a fix)
SRC=${SRC_DIR:-$TOP}
eq "one column writer: the per-column switch is in column.c only (#16)" \
	"$(grep -l 'case SP_COL_' "$SRC"/*.c | xargs -n 1 basename | tr '\n' ' ')" "column.c "
eq "one value formatter: no fmt_value in table.c (#16)" "$(grep -c 'fmt_value' "$SRC/table.c")" "0"
eq "the table's footer through the column writer: no rate formatter of its own" \
	"$(grep -cE 'fmt_(time_)?rate|sp_fmt_duration' "$SRC/table.c")" "0"
eq "main.c: a command table, no magic indices or counts (#16)" \
	"$(grep -c 'cmd_select' "$SRC/main.c"):$(grep -cE 'v == [0-9]|pick\([^)]*, [0-9]+\)' "$SRC/main.c")" "3:0"
eq "delta.c: the delta algorithm only, top and diff in interval.c (#16)" \
	"$(grep -cE 'nanosleep|isatty|sp_cmd_top|sp_cmd_diff' "$SRC/delta.c"):$(grep -c '^int sp_cmd_' "$SRC/interval.c")" "0:2"

# Prometheus: bounded cardinality, exact totals
sp -f "$G" -F prometheus matrix >"$OUT/g.prom"
eq "prometheus: at most 100 series a family plus one 'other', totals exact (#16)" \
	"$(grep -c '^sched_points_calls_total{' "$OUT/g.prom"):$(grep -c '^sched_points_calls_total{pid="other",tgid="other",comm="other",kind="other",site="other"}' "$OUT/g.prom"):$(awk '/^sched_points_calls_total\{/ { print $NF }' "$OUT/g.prom" | bigsum)" \
	"101:1:$want"
sp -f "$G" -F prometheus -n 5 sites >"$OUT/g5.prom"
eq "prometheus: the other series of the max gauge is the longest of the rest (#16)" \
	"$(secs_to_ns "$(grep '^sched_points_offcpu_max_seconds{kind="other",site="other"}' "$OUT/g5.prom" | awk '{ print $NF }')")" \
	"$(sp -f "$G" -F csv -n 0 sites | tail -n +7 | cut -d, -f4 | sort -n | tail -n 1)"
eq "prometheus -n 5: 5 series and other (#16)" "$(sp -f "$G" -F prometheus -n 5 sites | grep -c '^sched_points_calls_total{')" "6"
# a task named "other" is not the rest series: node_exporter drops a
# second series with the same labels ("collected before") and serves a short total
printf 'sched_points version 1\npid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\thist\taddress\tsymbol\tcomm\n7\t7\tsleep\t3\t0\t0\t-\tffffffff81000000\tf+0x1/0x2\tother\n8\t8\tsleep\t5\t0\t0\t-\tffffffff81000000\tf+0x1/0x2\tx\n9\t9\tsleep\t1\t0\t0\t-\tffffffff81000000\tf+0x1/0x2\ty\n' >"$OUT/other.txt"
sp -f "$OUT/other.txt" -F prometheus -b comm -n 2 tasks >"$OUT/other.prom"
eq "prometheus: a task named other is a series of its own, not a second 'other' (#16)" \
	"$(grep -v '^#' "$OUT/other.prom" | sed 's/ [^ ]*$//' | sort | uniq -d | wc -l | tr -d ' '):$(grep -c '^sched_points_calls_total{comm="\\\\157ther"} 3$' "$OUT/other.prom"):$(grep -c '^sched_points_calls_total{comm="other"} 1$' "$OUT/other.prom")" \
	"0:1:1"

# ---- Prometheus, as a fleet scrapes it (#16 item 8) ---------------------------
# The tool writes the textfile atomically (-o), Debian's node_exporter serves
# it over HTTP from 127.0.0.1 on a free port, and promtool checks what was
# served.  The server runs under timeout(1) and is killed at the end.
# node_exporter writes values as floats (9.7e+07) and labels sorted by name.
TF=$OUT/textfile
mkdir -p "$TF"
sp -f "$G" -F prometheus -n 20 matrix -o "$TF/sched_points.prom" >/dev/null
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
scrape() {	# scrape PORT FILE: 0 when /metrics was read
	python3 -c 'import sys, urllib.request
sys.stdout.write(urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=5).read().decode())' "$1" >"$2" 2>/dev/null
}
served=""
for _attempt in 1 2 3; do
	port=$(free_port)
	timeout 60 prometheus-node-exporter --web.listen-address="127.0.0.1:$port" \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$TF" >"$OUT/node_exporter.log" 2>&1 &
	ne_pid=$!
	for _try in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		if scrape "$port" "$OUT/scrape1.txt"; then served=$port; break; fi
		kill -0 "$ne_pid" 2>/dev/null || break
		sleep 0.5
	done
	[ -n "$served" ] && break
	kill "$ne_pid" 2>/dev/null
	wait "$ne_pid" 2>/dev/null
done
if [ -n "$served" ]; then
	pass "node_exporter serves the textfile directory on 127.0.0.1:$served"
	# the file replaced while it is served: the next scrape sees the new one whole
	sp -f "$V" -F prometheus sites -o "$TF/sched_points.prom" >/dev/null
	scrape "$served" "$OUT/scrape2.txt"
	eq "node_exporter: the textfile read without error, twice" \
		"$(grep -c '^node_textfile_scrape_error 0$' "$OUT/scrape1.txt"):$(grep -c '^node_textfile_scrape_error 0$' "$OUT/scrape2.txt")" "1:1"
	eq "node_exporter: the calls served sum to the input total (top 20 and other) (#16)" \
		"$(awk '/^sched_points_calls_total\{/ { s += $NF } END { printf "%.0f\n", s }' "$OUT/scrape1.txt"):$(grep -c '^sched_points_calls_total{.*pid="other"' "$OUT/scrape1.txt")" "$want:1"
	eq "node_exporter: after the file was replaced, the new one is served whole" \
		"$(awk '/^sched_points_calls_total\{/ { s += $NF } END { printf "%.0f\n", s }' "$OUT/scrape2.txt"):$(grep -c '^sched_points_offcpu_seconds_total{' "$OUT/scrape2.txt")" \
		"$(input_total "$V"):$(grep -c '^sched_points_offcpu_seconds_total{' "$OUT/time.prom")"
	promtool check metrics <"$OUT/scrape1.txt" >"$OUT/promtool.log" 2>&1
	eq "promtool check metrics: what node_exporter served is clean" "$?:$(cat "$OUT/promtool.log")" "0:"
else
	fail "node_exporter serves the textfile directory on 127.0.0.1" "$(tail -n 3 "$OUT/node_exporter.log")"
fi
kill "$ne_pid" 2>/dev/null
wait "$ne_pid" 2>/dev/null
eq "node_exporter: stopped at the end of the test" "$(kill -0 "$ne_pid" 2>/dev/null && echo running || echo stopped)" "stopped"
for f in "$OUT/e.prom" "$OUT/time.prom" "$OUT/timem.prom" "$OUT/g.prom"; do
	promtool check metrics <"$f" >"$OUT/promtool.log" 2>&1
	eq "promtool check metrics: $(basename "$f")" "$?:$(cat "$OUT/promtool.log")" "0:"
done

# ---- the wait and run delay split of format 2 (issue 30 item 2) ------------
S2=$FIX2/basic.txt
S2HDR="sched_points version 2\nenabled 0\nmode caller\ntime 1\nkinds 0\nhist 1\n$H16"
eq "split: every row's wait_ns + delay_ns is its total_ns (sites, tasks, kinds)" \
	"$(for v in sites tasks kinds; do sp -f "$S2" -F csv -n 0 $v | csv_records | python3 -c 'import csv,sys; r=list(csv.DictReader(sys.stdin)); print(all(int(x["wait_ns"])+int(x["delay_ns"])==int(x["total_ns"]) for x in r), len(r) > 0)'; done | sort -u)" "True True"
eq "split: the wait and run delay of sites add up to the input's columns" \
	"$(sp -f "$S2" -F csv -n 0 sites | csv_sum wait_ns):$(sp -f "$S2" -F csv -n 0 tasks | csv_sum delay_ns)" \
	"$(input_col wait_ns "$S2" | bigsum):$(input_col delay_ns "$S2" | bigsum)"
eq "split: JSON has_split, total_wait_ns + total_delay_ns = total_ns, wait and delay buckets add up to the histograms'" \
	"$(sp -f "$S2" -F json sites | python3 -c 'import json,sys; d=json.load(sys.stdin); t=d["totals"] if "totals" in d else d; print(t["has_split"], t["total_wait_ns"]+t["total_delay_ns"]==t["total_ns"], all(sum(b["count"] for b in r["wait_buckets"])==sum(b["count"] for b in r["buckets"])==sum(b["count"] for b in r["delay_buckets"]) for r in d["rows"]))')" \
	"True True True"
eq "split: a version 1 input has none (JSON has_split false, no wait_ns)" \
	"$(sp -f "$FIX/basic.txt" -F json sites | python3 -c 'import json,sys; d=json.load(sys.stdin); t=d["totals"] if "totals" in d else d; print(t["has_split"], any("wait_ns" in r for r in d["rows"]))')" "False False"
eq "split: the table's columns WAIT DELAY DMAX after MAX; --split: all, percentiles and WMAX too" \
	"$(sp -f "$S2" sites | sed -n 3p | tr -s ' ' | cut -d' ' -f8-):$(sp -f "$S2" --split sites | sed -n 3p | tr -s ' ' | cut -d' ' -f8-19)" \
	"MAX WAIT DELAY DMAX TASKS KIND SITE:MAX WAIT WP50 WP90 WP99 WMAX DELAY DP50 DP90 DP99 DMAX TASKS"
eq "split: the compact columns are cells of --split's, the same values (sites, every row)" \
	"$(sp -f "$S2" -n 0 sites | awk 'NR > 3 && NF > 11 { print $9, $10, $11 }' | cksum)" \
	"$(sp -f "$S2" -n 0 --split sites | awk 'NR > 3 && NF > 11 { print $9, $14, $18 }' | cksum)"
eq "split: interval mode: DWAIT DDELAY DMAX; --split adds WAIT DELAY beside them" \
	"$(sp diff "$FIX2/a.txt" "$FIX2/b.txt" sites | sed -n 3p | tr -s ' '):$(sp diff "$FIX2/a.txt" "$FIX2/b.txt" --split sites | sed -n 3p | tr -s ' ')" \
	"DELTA % RATE/s COUNT DTIME TIME/s TIME MEAN MAX DWAIT DDELAY DMAX TASKS KIND SITE:DELTA % RATE/s COUNT DTIME TIME/s TIME MEAN MAX DWAIT WAIT WMAX DDELAY DELAY DMAX TASKS KIND SITE"
eq "split: a version 1 input: no split column, with --split neither" \
	"$(sp -f "$FIX/basic.txt" sites | sed -n 3p | tr -s ' '):$(sp -f "$FIX/basic.txt" --split sites | sed -n 3p | tr -s ' ')" \
	"COUNT % TIME MEAN P50 P90 P99 MAX TASKS KIND SITE:COUNT % TIME MEAN P50 P90 P99 MAX TASKS KIND SITE"
not_applies "$S2" "split: --split where it does not apply is a usage error" '^schedpoints: --split shows every column' \
	"-F csv --split sites" "-F json --split tasks" "--split matrix" "--split hist" "--split heatmap" "-F prometheus --split sites"
sp -f "$S2" hist >"$OUT/hist.split"
eq "split: hist shows the wait's and the run delay's distributions after the off-CPU time's, each with its figures" \
	"$(grep -c ' : count ' "$OUT/hist.split"):$(grep ' : count ' "$OUT/hist.split" | awk '{ $1 = $1; print }' | tr '\n' '|'):$(grep -c '^calls 150  wait ' "$OUT/hist.split"):$(grep -c '^calls 150  delay ' "$OUT/hist.split")" \
	"3:off-CPU time : count distribution|wait : count distribution|run delay : count distribution|:1:1"
eq "split: hist's wait and run delay sums and maxima are the table's of the point" \
	"$(awk '/^calls 150  wait / { print $4, $NF } /^calls 150  delay / { print $4, $NF }' "$OUT/hist.split" | tr '\n' ' ')" \
	"$(sp -f "$S2" --split sites | awk 'NR == 4 { print $9, $13; print $14, $18 }' | tr '\n' ' ')"
eq "split: a version 1 input's hist has the off-CPU distribution only" \
	"$(sp -f "$FIX/basic.txt" hist | grep -c ' : count ')" "1"
eq "split: --buckets CSV: wait_count and delay_count, each column summing to the calls (sites)" \
	"$(sp -f "$S2" -F csv --buckets -n 0 sites | head -n 1):$(sp -f "$S2" -F csv --buckets -n 0 sites | csv_sum count):$(sp -f "$S2" -F csv --buckets -n 0 sites | csv_sum wait_count):$(sp -f "$S2" -F csv --buckets -n 0 sites | csv_sum delay_count)" \
	"kind,site,bucket,lower_ns,upper_ns,count,wait_count,delay_count:$(input_col hist "$S2" | tr ',' '\n' | grep : | cut -d: -f2 | bigsum):$(input_col wait_hist "$S2" | tr ',' '\n' | grep : | cut -d: -f2 | bigsum):$(input_col delay_hist "$S2" | tr ',' '\n' | grep : | cut -d: -f2 | bigsum)"
eq "split: --buckets CSV of a version 1 input: as before, no wait_count" \
	"$(sp -f "$FIX/basic.txt" -F csv --buckets sites | head -n 1)" "kind,site,bucket,lower_ns,upper_ns,count"
sp -f "$S2" heatmap --buckets --split -n 0 >"$OUT/split.svg"
xmllint --noout "$OUT/split.svg" 2>"$OUT/x"
eq "split: heatmap --buckets --split: three rows a site (off-CPU time, wait, run delay), a cell per non-empty bucket of each" \
	"$?:$(cat "$OUT/x"):$(grep -c '<title>[^<]* wait, ' "$OUT/split.svg"):$(grep -c '<title>[^<]* run delay, ' "$OUT/split.svg"):$(grep -c '<rect[^>]*><title>' "$OUT/split.svg")" \
	"0::$(sp -f "$S2" -F csv --buckets -n 0 sites | csv_pick count,wait_count,delay_count >"$OUT/split.b"
		awk -F, 'NR > 1 && $2 > 0' "$OUT/split.b" | wc -l | tr -d ' '):$(awk -F, 'NR > 1 && $3 > 0' "$OUT/split.b" | wc -l | tr -d ' '):$(awk -F, 'NR > 1 { n += ($1 > 0) + ($2 > 0) + ($3 > 0) } END { print n }' "$OUT/split.b")"
eq "split: heatmap --buckets without --split is the off-CPU time's alone" \
	"$(sp -f "$S2" heatmap --buckets -n 0 | grep -c ' \(wait\|run delay\), ')" "0"
eq "split: a yield's time is all run delay" \
	"$(sp -f "$S2" -F csv --kind yield kinds | csv_records | python3 -c 'import csv,sys; r=list(csv.DictReader(sys.stdin))[0]; print(r["wait_ns"], r["wait_max_ns"], r["delay_ns"]==r["total_ns"], r["delay_max_ns"]==r["max_ns"])')" "0 0 True True"
sp -f "$S2" -F prometheus sites >"$OUT/split.prom"
eq "split: prometheus wait and run delay counters, gauges and histograms; _sum of the two is the off-CPU time" \
	"$(grep -c '^# TYPE sched_points_offcpu_\(wait\|run_delay\)_\(seconds_total counter\|max_seconds gauge\|seconds histogram\)$' "$OUT/split.prom"):$(grep -F 'sched_points_offcpu_wait_seconds_sum{kind="idle",site="schedule_timeout+0x8b/0x140"}' "$OUT/split.prom" | awk '{ print $NF }'):$(grep -F 'sched_points_offcpu_run_delay_seconds_sum{kind="idle",site="schedule_timeout+0x8b/0x140"}' "$OUT/split.prom" | awk '{ print $NF }')" \
	"6:4.204322483:0.600617497"
promtool check metrics <"$OUT/split.prom" >"$OUT/promtool.log" 2>&1
eq "split: promtool check metrics" "$?:$(cat "$OUT/promtool.log")" "0:"
eq "split: diff sums the interval's wait and run delay (CSV, JSON)" \
	"$(sp -F csv diff "$FIX2/a.txt" "$FIX2/b.txt" -n 0 sites | csv_sum delta_wait_ns):$(sp -F json diff "$FIX2/a.txt" "$FIX2/b.txt" sites | python3 -c 'import json,sys; d=json.load(sys.stdin); t=d["totals"] if "totals" in d else d; print(t["total_delta_wait_ns"], t["total_delta_delay_ns"]+t["total_delta_wait_ns"]==t["total_delta_ns"])')" \
	"$(echo "$(input_col wait_ns "$FIX2/b.txt" | bigsum) - $(input_col wait_ns "$FIX2/a.txt" | bigsum)" | bc):$(echo "$(input_col wait_ns "$FIX2/b.txt" | bigsum) - $(input_col wait_ns "$FIX2/a.txt" | bigsum)" | bc) True"
eq "split: diff across folds keeps the wait exact (fold-a -> fold-b)" \
	"$(sp -F csv diff "$FA" "$FB" -n 0 sites | csv_sum delta_wait_ns)" \
	"$(echo "$(input_col wait_ns "$FB" | bigsum) - $(input_col wait_ns "$FA" | bigsum)" | bc)"
sed 's/^\(123\t123\tsleep\t[0-9]*\t[0-9]*\t[0-9]*\t\)[0-9]*/\10/' "$FIX2/b.txt" >"$OUT/wait-back.txt"
SP_RC=1
sp diff "$FIX2/b.txt" "$OUT/wait-back.txt" >"$OUT/o" 2>"$OUT/e"
eq "split: a wait that went back is a reset" "$?:$(grep -c 'wait_ns [0-9]* -> 0' "$OUT/e")" "1:1"
# sort keys of the split (-s wait ... dp99): each key's column of CSV comes
# out highest first, rows without a value (a percentile with no
# histogram) last, and with -r lowest first, those rows still last.  So
# that a key sorting by another field fails, the fixtures must tell the
# keys apart: for every other key (of the split or of off-CPU time), the
# order it gives is, on one of them, out of order in this key's column.
SK=$OUT/sortkeys
mkdir -p "$SK"
SORTCOLS="wait:wait_ns delay:delay_ns wmax:wait_max_ns dmax:delay_max_ns wp50:wait_p50_ns wp90:wait_p90_ns wp99:wait_p99_ns dp50:delay_p50_ns dp90:delay_p90_ns dp99:delay_p99_ns count:count time:total_ns mean:mean_ns max:max_ns p50:p50_ns p90:p90_ns p99:p99_ns"
for f in basic exited guest-demo-caller; do
	for v in sites tasks; do
		for kc in $SORTCOLS; do
			sp -f "$FIX2/$f.txt" -F csv -n 0 -s "${kc%%:*}" $v | csv_records >"$SK/$f.$v.${kc%%:*}"
			sp -f "$FIX2/$f.txt" -F csv -n 0 -s "${kc%%:*}" -r $v | csv_records >"$SK/$f.$v.${kc%%:*}.r"
		done
	done
done
sortkeys_check() {	# sortkeys_check SUFFIX: the keys of the split whose order is wrong
	python3 -c '
import csv, glob, os, sys
d, sfx, cols = sys.argv[1], sys.argv[2], dict(x.split(":") for x in sys.argv[3].split())
def ordered(vals, rev):
    n = [int(v) for v in vals if v != ""]
    return "" not in vals[:len(n)] and n == sorted(n, reverse=not rev)
def col(path, c):
    return [r[c] for r in csv.DictReader(open(path))]
bad = []
for k in list(cols)[:10]:
    outs = [p for p in glob.glob(os.path.join(d, "*." + k + sfx)) if p.endswith("." + k + sfx)]
    if len(outs) != 6 or not all(ordered(col(p, cols[k]), sfx == ".r") and col(p, cols[k]) for p in outs):
        bad.append(k)
print(" ".join(bad) or "none")' "$SK" "$1" "$SORTCOLS"
}
eq "split: -s wait, delay, wmax, dmax, wp50 ... dp99: highest first by the column of the key, rows without one last (sites, tasks; 3 fixtures)" \
	"$(sortkeys_check '')" "none"
eq "split: the same keys with -r: lowest first, rows without one still last" \
	"$(sortkeys_check .r)" "none"
eq "split: the fixtures tell the sort keys apart: every other key's order is out of order in each key's column on one of them" \
	"$(python3 -c '
import csv, sys
d, cols = sys.argv[1], dict(x.split(":") for x in sys.argv[2].split())
def desc(vals):
    n = [int(v) for v in vals if v != ""]
    return "" not in vals[:len(n)] and n == sorted(n, reverse=True)
runs = [(f, v) for f in ("basic", "exited", "guest-demo-caller") for v in ("sites", "tasks")]
same = [k + "~" + o for k in list(cols)[:10] for o in cols if o != k and
        all(desc([r[cols[k]] for r in csv.DictReader(open("%s/%s.%s.%s" % (d, f, v, o)))]) for f, v in runs)]
print(" ".join(same) or "none")' "$SK" "$SORTCOLS")" "none"
eq "split: interval mode: -s wait and -s delay by the interval's (DWAIT, DDELAY), -s dmax by the longest (diff a -> b)" \
	"$(for k in wait:delta_wait_ns delay:delta_delay_ns dmax:delay_max_ns; do sp -F csv diff "$FIX2/a.txt" "$FIX2/b.txt" -n 0 -s "${k%%:*}" sites | csv_pick "${k#*:}" | tail -n +2 | tr '\n' ' '; echo; done)" \
	"1050000000 43750000 0 
150000000 6250000 4000 
6250000 3750000 1000 "
eq "split: hist -s dp99: the point first in sites -s dp99 (the highest p99 of the run delay)" \
	"$(sp -f "$S2" -s dp99 hist | sed -n 3p | sed 's/  tasks .*(the first of [0-9]* points by / /; s/)$//')" \
	"point $(sp -f "$S2" -F csv -n 1 -s dp99 sites | csv_pick kind,site | tail -n 1 | tr , ' ') dp99"
# without the split: exit 1, said, as -s p99 without histograms
for k in wait delay wmax dmax wp50 wp90 wp99 dp50 dp90 dp99; do
	SP_RC=1
	sp -f "$FIX/basic.txt" -s "$k" sites >"$OUT/o" 2>"$OUT/e"
	eq "split: -s $k on a version 1 input: exit 1, said" "$?:$(cat "$OUT/o"):$(cat "$OUT/e")" \
		"1::schedpoints: $FIX/basic.txt: --sort $k needs the wait and run delay of off-CPU time (format version 2, 'time 1'); the input has none"
done
for args in "-f $FIX/a.txt -s count,dmax tasks" "-f $FIX/a.txt -s wait -F folded sites" \
	"diff $FIX/a.txt $FIX/b.txt -s delay sites" "-f $FIX2/switches-off.txt -s wmax sites"; do
	SP_RC=1
	# shellcheck disable=SC2086 # words of options, split on purpose
	sp $args >"$OUT/o" 2>"$OUT/e"
	eq "split: no split, $args: exit 1, said" "$?:$(cat "$OUT/o"):$(grep -c '^schedpoints: .*: --sort [a-z]* needs the wait and run delay' "$OUT/e")" "1::1"
done
SP_RC=1
sp -f "$FIX2/a.txt" -s wp99 sites >"$OUT/o" 2>"$OUT/e"
eq "split: -s wp99 on a version 2 input without histograms: exit 1, as -s p99" "$?:$(cat "$OUT/o"):$(cat "$OUT/e")" \
	"1::schedpoints: $FIX2/a.txt: --sort wp99 needs the histograms of off-CPU time ('hist 1'); the input has none"
not_applies "$S2" "split: a sort key of the split in the matrix is a usage error" '^schedpoints: --sort [a-z0-9]*: the matrix view has no' \
	"-s wait matrix" "-s dmax heatmap" "-s count,wp50 -F folded matrix"
# refusals, each with its line
refuse() {	# refuse NAME INPUT WANT: the input is refused with WANT
	printf '%b' "$2" >"$OUT/refuse.txt"
	SP_RC=1
	sp -f "$OUT/refuse.txt" sites >"$OUT/o" 2>"$OUT/e"
	eq "split: refused: $1" "$?:$(cat "$OUT/e")" "1:schedpoints: $OUT/refuse.txt:$3"
}
L='ffffffff81000000\tf+0x1/0x2\tx\n'
refuse "version 2 with the 10-column header (a kernel before the split)" \
	"sched_points version 2\nenabled 0\npid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\thist\taddress\tsymbol\tcomm\n" \
	"3: column header of 10 fields: the kernel predates the wait/run-delay split of format version 2 (extended before it was posted), expected the column header 'pid\\ttgid\\tkind\\tcount\\ttotal_ns\\tmax_ns\\twait_ns\\twait_max_ns\\tdelay_ns\\tdelay_max_ns\\thist\\twait_hist\\tdelay_hist\\taddress\\tsymbol\\tcomm'"
refuse "version 1 with the 16-column header" \
	"sched_points version 1\n$H16" \
	"2: expected the column header 'pid\\ttgid\\tkind\\tcount\\ttotal_ns\\tmax_ns\\thist\\taddress\\tsymbol\\tcomm', got 'pid\\011tgid\\011kind\\011count\\011total_ns\\011max_ns\\011wait...'"
refuse "a version 2 line of 10 fields" \
	"${S2HDR}1\t1\tsleep\t5\t100\t60\t-\t$L" "8: expected 16 TAB-separated fields, got 10"
refuse "wait_ns + delay_ns is not total_ns" \
	"${S2HDR}1\t1\tsleep\t5\t100\t60\t50\t40\t49\t20\t-\t-\t-\t$L" \
	"8: wait_ns + delay_ns: expected total_ns 100 (each call's off-CPU time is its wait and its run delay), got 50 + 49"
refuse "wait_max_ns above max_ns" \
	"${S2HDR}1\t1\tsleep\t5\t100\t60\t50\t61\t50\t20\t-\t-\t-\t$L" \
	"8: wait_max_ns, delay_max_ns: expected each at most max_ns 60 and together at least it, got 61 and 20"
refuse "the two maxima below max_ns together" \
	"${S2HDR}1\t1\tsleep\t5\t100\t60\t50\t30\t50\t20\t-\t-\t-\t$L" \
	"8: wait_max_ns, delay_max_ns: expected each at most max_ns 60 and together at least it, got 30 and 20"
refuse "wait_hist '-' with hist" \
	"${S2HDR}1\t1\tsleep\t5\t100\t60\t50\t40\t50\t20\t9:5\t-\t9:5\t$L" \
	"8: wait_hist, delay_hist: expected '-' exactly when hist is '-', got hist buckets, wait_hist '-', delay_hist buckets"
refuse "delay_hist with fewer calls than hist" \
	"${S2HDR}1\t1\tsleep\t5\t100\t60\t50\t40\t50\t20\t9:5\t9:5\t9:4\t$L" \
	"8: wait_hist, delay_hist: expected as many calls as hist, 5, got 5 and 4"
refuse "a yield with a wait" \
	"${S2HDR}1\t1\tyield\t5\t100\t60\t1\t1\t99\t60\t-\t-\t-\t$L" \
	"8: wait_ns, wait_max_ns: a line of kind yield has no wait (its time is run delay), got 1 and 1"
refuse "a bad wait_hist, its name said" \
	"${S2HDR}1\t1\tsleep\t5\t100\t60\t50\t40\t50\t20\t9:5\t8:5\t9:5\t$L" \
	"8: wait_hist: bucket 8 out of range 9 to 34, got '8:5'"
printf '%b' "$S2HDR" | sed 's/^enabled 0$/enabled 1/' >"$OUT/live.txt"
printf '%b' "1\t1\tsleep\t5\t100\t60\t50\t40\t49\t20\t9:5\t9:5\t9:4\t$L" >>"$OUT/live.txt"
eq "split: accounting on, a torn copy is read (not refused)" "$(sp -f "$OUT/live.txt" -F csv sites | csv_sum wait_ns)" "50"

# ---- blocked: /proc/sched_points_blocked (issue 30 item 5) --------------------
# Golden outputs of the spec's example and of many.txt (several tasks a site,
# a module, a bare address, names to escape, every kind, states R and T),
# read from stdin so the source line is the same wherever the tree is.
BF=$FIX2/blocked
golden() {	# golden NAME FILE ARGS...: output of ARGS on stdin FILE = NAME
	_g=$1 _in=$2
	shift 2
	sp -f - "$@" <"$BF/$_in" >"$OUT/golden.out" 2>"$OUT/golden.err"
	if cmp -s "$OUT/golden.out" "$BF/$_g" && [ ! -s "$OUT/golden.err" ]; then
		pass "blocked: $* = $_g"
	else
		fail "blocked: $* = $_g" "$(diff "$BF/$_g" "$OUT/golden.out" | head -n 8 | tr '\n' '|')" "$(cat "$OUT/golden.err")"
	fi
}
golden spec.table spec.txt blocked
golden many.table many.txt blocked
golden many-min.table many.txt blocked --min 1.5s
golden many.csv many.txt -F csv blocked
golden many.json many.txt -F json blocked
golden many.prom many.txt -F prometheus blocked
eq "blocked: the spec's example, as Documentation/scheduler/sched-points.rst shows it" \
	"$(awk '/^\tsched_points_blocked version 1/ { f = 1 } f && /^\t/ { sub(/^\t/, ""); print; next } f { exit }' "${TREE:-$TOP/../../build/linux}/Documentation/scheduler/sched-points.rst" | cmp - "$BF/spec.txt" && echo same)" "same"
eq "blocked: -f FILE reads a file, its name on the source line" \
	"$(sp -f "$BF/spec.txt" blocked | head -n 1)" \
	"source $BF/spec.txt  version 1  enabled 1  mode effective  time 1  entries 3"
# --min: the tasks that waited at least that long; exact at the boundary
for m in 0ns:9 999ns:8 1000ns:7 1499999ns:7 1.5ms:6 1.5s:6 1500000001ns:4 9s:4 9.000000001s:1 3min:1 4min:0 1h:0; do
	eq "blocked --min ${m%%:*}: ${m##*:} tasks" \
		"$(sp -f "$BF/many.txt" -F csv blocked --min "${m%%:*}" | csv_records | tail -n +2 | wc -l | tr -d ' ')" "${m##*:}"
done
eq "blocked --min: sites and their counts after the filter (CSV)" \
	"$(sp -f "$BF/many.txt" -F csv blocked --min 2s | cut -d, -f1,2,4 | tr '\n' ' ')" \
	"site,tasks,pid sp_test_sleep+0x63/0xb0 [sched_points_test],2,812 sp_test_sleep+0x63/0xb0 [sched_points_test],2,813 do_nanosleep+0x6d/0x150,2,90 do_nanosleep+0x6d/0x150,2,91 "
eq "blocked --min: JSON says the filter and what is left" \
	"$(sp -f "$BF/many.txt" -F json blocked --min 2s | python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["min_ns"], d["tasks"], d["sites_total"], d["summary"]["entries"], [s["tasks"] for s in d["sites"]])')" \
	"2000000000 4 2 9 [2, 2]"
eq "blocked: JSON reads back: names as the kernel had them, every task once" \
	"$(sp -f "$BF/many.txt" -F json -p blocked | python3 -c 'import json, sys; d = json.load(sys.stdin); t = [b for s in d["sites"] for b in s["blocked"]]; print(len(t), sorted(b["pid"] for b in t)[:3], [b["comm"] for b in t if b["pid"] in (55, 91)])')" \
	"9 [16, 55, 56] ['=cmd,\"q\"', 'x\\\\y\\nz']"
eq "blocked: CSV reads back with a CSV reader (quoted names, formula guard)" \
	"$(sp -f "$BF/many.txt" -F csv blocked | python3 -c 'import csv, json, sys; r = list(csv.DictReader(sys.stdin)); print(len(r), json.dumps([x["comm"] for x in r if x["pid"] in ("55", "91")]), r[0]["site"])')" \
	"9 [\"'=cmd,\\\"q\\\"\", \"x\\\\y\\nz\"] sp_test_sleep+0x63/0xb0 [sched_points_test]"
sp -f "$BF/many.txt" -F prometheus blocked >"$OUT/blocked.prom"
promtool check metrics <"$OUT/blocked.prom" >"$OUT/promtool.log" 2>&1
eq "promtool check metrics: blocked" "$?:$(cat "$OUT/promtool.log")" "0:"
eq "blocked: prometheus, one waiting series a task, the tasks a site add up" \
	"$(grep -c '^sched_points_blocked_waiting_seconds{' "$OUT/blocked.prom"):$(awk '/^sched_points_blocked_tasks\{/ { s += $NF } END { print s }' "$OUT/blocked.prom")" "9:9"
printf 'sched_points_blocked version 1\nenabled 0\nmode caller\ntime 1\nentries 0\npid\ttgid\tkind\tstate\twaiting_ns\taddress\tsymbol\tcomm\n' >"$OUT/blocked-off.txt"
eq "blocked: accounting off, no task: a note, exit 0" \
	"$(sp -f "$OUT/blocked-off.txt" blocked | tr '\n' '|')" \
	"source $OUT/blocked-off.txt  version 1  enabled 0  mode caller  time 1  entries 0|note: accounting is off: no task is shown (only timed calls since the last enable are)||tasks 0  sites 0|"

# bad input: FILE:LINE: message, exit 1, no crash
BH='sched_points_blocked version 1\nenabled 1\nmode caller\ntime 1\nentries 1\npid\ttgid\tkind\tstate\twaiting_ns\taddress\tsymbol\tcomm\n'
BL='5\t5\tsleep\tS\t100\tffffffff81000000\tf+0x1/0x2\tx\n'
bbad() {	# bbad NAME PRINTF-INPUT LINE MESSAGE
	printf '%b' "$2" >"$OUT/bbad.txt"
	SP_RC=1
	sp -f "$OUT/bbad.txt" blocked >"$OUT/o" 2>"$OUT/e"
	rc=$?
	want="schedpoints: $OUT/bbad.txt:$3: $4"
	[ "$3" = "-" ] && want="schedpoints: $OUT/bbad.txt: $4"
	eq "blocked: bad input: $1" "$rc:$(cat "$OUT/o"):$(cat "$OUT/e")" "1::$want"
}
bbad "empty file" "" - "empty input, expected 'sched_points_blocked version 1'"
bbad "wrong version" "sched_points_blocked version 2\n" 1 "expected 'sched_points_blocked version 1' (the only version of the format), got 'sched_points_blocked version 2'"
bbad "a minor version" "sched_points_blocked version 1.1\n" 1 "expected 'sched_points_blocked version 1' (the only version of the format), got 'sched_points_blocked version 1.1'"
bbad "/proc/sched_points given to blocked" "sched_points version 2\n" 1 "expected 'sched_points_blocked version 1' (the only version of the format), got 'sched_points version 2'"
bbad "version line cut" "sched_points_blocked vers" 1 "line is not terminated by a newline (truncated input?)"
bbad "summary out of order" "sched_points_blocked version 1\nenabled 1\ntime 1\nmode caller\n" 3 "expected the summary line 'mode <value>' (the format's order: enabled, mode, time, entries), got 'time 1'"
bbad "summary name missing" "sched_points_blocked version 1\nenabled 1\nmode caller\nentries 0\n" 4 "expected the summary line 'time <value>' (the format's order: enabled, mode, time, entries), got 'entries 0'"
bbad "an unknown summary name" "sched_points_blocked version 1\nenabled 1\nmode caller\ntime 1\nused 3\n" 5 "expected the summary line 'entries <value>' (the format's order: enabled, mode, time, entries), got 'used 3'"
bbad "enabled 2" "sched_points_blocked version 1\nenabled 2\n" 2 "summary 'enabled': expected 0 or 1, got '2'"
bbad "mode not a mode" "sched_points_blocked version 1\nenabled 1\nmode fast\n" 3 "summary 'mode': expected 'caller' or 'effective', got 'fast'"
bbad "entries not a number" "sched_points_blocked version 1\nenabled 1\nmode caller\ntime 1\nentries -1\n" 5 "summary 'entries': expected an unsigned decimal, got '-1'"
bbad "summary ends early" "sched_points_blocked version 1\nenabled 1\n" 2 "unexpected end of input, expected the summary line 'mode <value>'"
bbad "the header of /proc/sched_points" "sched_points_blocked version 1\nenabled 1\nmode caller\ntime 1\nentries 0\npid\ttgid\tkind\tcount\ttotal_ns\tmax_ns\thist\taddress\tsymbol\tcomm\n" 6 "expected the column header 'pid\\ttgid\\tkind\\tstate\\twaiting_ns\\taddress\\tsymbol\\tcomm', got 'pid\\011tgid\\011kind\\011count\\011total_ns\\011max_ns\\011hist...'"
bbad "no header" "sched_points_blocked version 1\nenabled 1\nmode caller\ntime 1\nentries 0\n" 5 "unexpected end of input, expected the column header 'pid\\ttgid\\tkind\\tstate\\twaiting_ns\\taddress\\tsymbol\\tcomm'"
bbad "7 fields" "${BH}5\t5\tsleep\tS\t100\tffffffff81000000\tf+0x1/0x2\n" 7 "expected 8 TAB-separated fields, got 7"
bbad "pid 0" "${BH}0\t5\tsleep\tS\t100\tffffffff81000000\tf+0x1/0x2\tx\n" 7 "pid: expected a task's pid, above 0, got '0'"
bbad "tgid 0" "${BH}5\t0\tsleep\tS\t100\tffffffff81000000\tf+0x1/0x2\tx\n" 7 "tgid: expected a task's tgid, above 0, got '0'"
bbad "pid above 32 bits" "${BH}4294967296\t5\tsleep\tS\t100\tffffffff81000000\tf+0x1/0x2\tx\n" 7 "pid: expected an unsigned decimal below 2^32, got '4294967296'"
bbad "kind preempt (never timed)" "${BH}5\t5\tpreempt\tR\t100\tffffffff81000000\tf+0x1/0x2\tx\n" 7 "kind: expected 'sleep', 'disk_sleep', 'idle' or 'yield' (the calls of schedule() that are timed), got 'preempt'"
bbad "bad state letter" "${BH}5\t5\tsleep\tQ\t100\tffffffff81000000\tf+0x1/0x2\tx\n" 7 "state: expected one letter of /proc/PID/stat (R, S, D, T, t, X, Z, P or I), got 'Q'"
bbad "state two letters" "${BH}5\t5\tsleep\tSD\t100\tffffffff81000000\tf+0x1/0x2\tx\n" 7 "state: expected one letter of /proc/PID/stat (R, S, D, T, t, X, Z, P or I), got 'SD'"
bbad "empty state" "${BH}5\t5\tsleep\t\t100\tffffffff81000000\tf+0x1/0x2\tx\n" 7 "state: expected one letter of /proc/PID/stat (R, S, D, T, t, X, Z, P or I), got ''"
bbad "waiting_ns above 64 bits" "${BH}5\t5\tsleep\tS\t18446744073709551616\tffffffff81000000\tf+0x1/0x2\tx\n" 7 "waiting_ns: expected an unsigned decimal below 2^64, got '18446744073709551616'"
bbad "waiting_ns negative" "${BH}5\t5\tsleep\tS\t-1\tffffffff81000000\tf+0x1/0x2\tx\n" 7 "waiting_ns: expected an unsigned decimal, got '-1'"
bbad "address uppercase" "${BH}5\t5\tsleep\tS\t100\tFFFFFFFF81000000\tf+0x1/0x2\tx\n" 7 "address: expected 16 lowercase hex digits, got 'FFFFFFFF81000000'"
bbad "symbol shape" "${BH}5\t5\tsleep\tS\t100\tffffffff81000000\tdo_nanosleep\tx\n" 7 "symbol: expected 'func+0xOFF/0xLEN', 'func+0xOFF/0xLEN [module]', '0xADDR' or '(unloaded module)', got 'do_nanosleep'"
bbad "comm raw space" "${BH}5\t5\tsleep\tS\t100\tffffffff81000000\tf+0x1/0x2\tmy thread\n" 7 "comm: byte outside 0x21..0x7e not escaped as \\ooo, got 'my thread'"
BH2=$(printf '%s' "$BH" | sed 's/entries 1/entries 2/')
bbad "unsorted: a longer wait after a shorter" "${BH2}5\t5\tsleep\tS\t100\tffffffff81000000\tf+0x1/0x2\tx\n6\t6\tsleep\tS\t200\tffffffff81000000\tf+0x1/0x2\tx\n" 8 "not sorted by waiting_ns (descending), then pid: pid 6 waiting 200 ns after pid 5 waiting 100 ns"
bbad "unsorted: equal waits, pids descending" "${BH2}6\t6\tsleep\tS\t100\tffffffff81000000\tf+0x1/0x2\tx\n5\t5\tsleep\tS\t100\tffffffff81000000\tf+0x1/0x2\tx\n" 8 "not sorted by waiting_ns (descending), then pid: pid 5 waiting 100 ns after pid 6 waiting 100 ns"
bbad "a pid twice" "${BH2}5\t5\tsleep\tS\t200\tffffffff81000000\tf+0x1/0x2\tx\n5\t5\tsleep\tS\t100\tffffffff81000000\tf+0x1/0x2\tx\n" 8 "pid 5 listed twice (a task is shown once)"
bbad "entries says more" "${BH2}${BL}" 7 "unexpected end of input: summary 'entries' says 2 data lines, got 1"
bbad "entries says fewer" "${BH}${BL}${BL}" 8 "expected end of input after 1 data lines (summary 'entries')"
bbad "a task listed with accounting off" "$(printf '%s' "$BH" | sed 's/enabled 1/enabled 0/')${BL}" 7 "a task is listed while summary 'enabled' is 0 (no task is shown while accounting or the time switch is off)"
bbad "a task listed with time off" "$(printf '%s' "$BH" | sed 's/time 1/time 0/')${BL}" 7 "a task is listed while summary 'time' is 0 (no task is shown while accounting or the time switch is off)"
bbad "last line without newline" "${BH}5\t5\tsleep\tS\t100\tffffffff81000000\tf+0x1/0x2\tx" 7 "line is not terminated by a newline (truncated input?)"
SP_RC=1
sp -f "$OUT/binary.txt" blocked >/dev/null 2>"$OUT/e"
eq "blocked: bad input: random bytes, exit 1 with a message" "$?:$(grep -c '^schedpoints: .*binary.txt:1: ' "$OUT/e")" "1:1"
SP_RC=1
sp -f "$FIX/basic.txt" blocked >/dev/null 2>"$OUT/e"
eq "blocked: bad input: a /proc/sched_points capture" "$?:$(cat "$OUT/e")" \
	"1:schedpoints: $FIX/basic.txt:1: expected 'sched_points_blocked version 1' (the only version of the format), got 'sched_points version 1'"

# usage: --min's durations, options that do not apply
ubad() {	# ubad NAME MESSAGE ARGS...
	_name=$1 _msg=$2
	shift 2
	SP_RC=2
	sp -f "$BF/spec.txt" "$@" >"$OUT/o" 2>"$OUT/e"
	eq "blocked: usage: $_name" "$?:$(head -n 1 "$OUT/e")" "2:schedpoints: $_msg"
}
for d in 5 5sec -1s 1.s .5s 1e3ms 2S '' 1.0000000001s 18446744073709551616ns 6000000h; do
	case $d in
	1.0000000001s) why="a duration in whole nanoseconds was expected" ;;
	18446744073709551616ns|6000000h) why="a duration below 2^64 ns (584 years) was expected" ;;
	*) why="expected a number and a unit (ns, us, ms, s, min, h), such as 500ms, 2s or 1500us" ;;
	esac
	ubad "--min '$d'" "--min: $why, got '$d'" blocked --min "$d"
done
ubad "--min with another view" "--min is only for blocked" --min 1s sites
ubad "--sort does not apply" "blocked takes -f, -F, -o, -p and --min only: --sort does not apply" -s count blocked
ubad "--pid does not apply" "blocked takes -f, -F, -o, -p and --min only: --pid does not apply" blocked --pid 5
ubad "folded" "blocked writes table, csv, json or prometheus: --format folded does not go with it" -F folded blocked
ubad "an argument" "blocked takes no argument, got 'do_nanosleep' (--min DURATION filters)" blocked do_nanosleep
ubad "--pretty without json" "--pretty indents JSON: it needs --format json" -p blocked
eq "blocked: -o FILE writes the file and prints its path" \
	"$(sp -f "$BF/many.txt" -F csv -o "$OUT/blocked-o.csv" blocked):$(cmp -s "$OUT/blocked-o.csv" "$BF/many.csv" && echo same)" "$OUT/blocked-o.csv:same"

# ---- wakers, wakes, chain: /proc/sched_points_wakers (issue 30 item 5) ------
# One run's two files (tests/fixtures/wakers/gen.py writes them, accounting
# off): a pipe ping-pong, a futex handoff whose wakers go round three tasks,
# a nanosleep ended by its timer, a read ended in hardirq and softirq, the
# exited shells of a build, and a wait without a waker.  Golden outputs are
# made in that directory, so the source lines name the files alone.
WF=$FIX2/wakers
wgolden() {	# wgolden NAME ARGS...: output of ARGS in $WF = NAME
	_g=$1
	shift
	(cd "$WF" && sp "$@") >"$OUT/golden.out" 2>"$OUT/golden.err"
	if cmp -s "$OUT/golden.out" "$WF/$_g" && [ ! -s "$OUT/golden.err" ]; then
		pass "wakers: $* = $_g"
	else
		fail "wakers: $* = $_g" "$(diff "$WF/$_g" "$OUT/golden.out" | head -n 8 | tr '\n' '|')" "$(cat "$OUT/golden.err")"
	fi
}
wgolden wakers-pipe_read.table -W wakers.txt wakers pipe_read
wgolden wakers-pipe_read-v.table -W wakers.txt -v wakers pipe_read
wgolden wakes-pipe_write.table -W wakers.txt wakes pipe_write
wgolden wakers-vmlinux.csv -W wakers.txt -F csv wakers '[vmlinux]'
wgolden wakes-bio-v.json -W wakers.txt -F json -p -v wakes submit_bio_wait_endio
wgolden wakers-ep_poll.prom -W wakers.txt -F prometheus wakers ep_poll
wgolden chain-90.table -f sched_points.txt -W wakers.txt chain 90
wgolden chain-90.csv -f sched_points.txt -W wakers.txt -F csv chain 90
wgolden chain-90.json -f sched_points.txt -W wakers.txt -F json -p chain 90
wgolden chain-90.prom -f sched_points.txt -W wakers.txt -F prometheus chain 90
wgolden chain-do_wait.table -f sched_points.txt -W wakers.txt chain do_wait
eq "wakers: the two fixtures parse as their formats (sites, and gen.py wrote them)" \
	"$(sp -f "$WF/sched_points.txt" -F csv sites | csv_sum count):$(cd "$OUT" && python3 "$WF/gen.py" && cmp sched_points.txt "$WF/sched_points.txt" && cmp wakers.txt "$WF/wakers.txt" && echo same)" "22074:same"
# The spec's example, as Documentation/scheduler/sched-points.rst shows it
# (its literal block, the leading TAB off), read as the tool reads the
# kernel's file, with no copy to go stale: every line read, and the rows of
# its call sites adding up to its count column.  An rst literal block loses
# a line's trailing TABs, so a line whose last field (waker_comm) is empty
# cannot be shown there: it has 15 fields, which the parser rightly
# refuses; such a line is named as the example's fault, not the tool's.
awk '/^\tsched_points_wakers version 1/ { f = 1 } f && /^\t/ { sub(/^\t/, ""); print; next } f { exit }' \
	"${TREE:-$TOP/../../build/linux}/Documentation/scheduler/sched-points.rst" >"$OUT/wspec.txt"
wshort=$(awk -F '\t' -v at="$(grep -n '^	sched_points_wakers version 1' "${TREE:-$TOP/../../build/linux}/Documentation/scheduler/sched-points.rst" | head -n 1 | cut -d: -f1)" '
	h && NF != 16 { printf "%s%d (%d fields)", s, at + NR - 1, NF; s = ", " }
	/^pid\t/ { h = 1 }' "$OUT/wspec.txt")
if [ ! -s "$OUT/wspec.txt" ]; then
	fail "wakers: the spec's example is read" "no literal block 'sched_points_wakers version 1' in ${TREE:-$TOP/../../build/linux}/Documentation/scheduler/sched-points.rst"
elif [ -n "$wshort" ]; then
	SP_RC=1
	sp -W "$OUT/wspec.txt" wakers x >/dev/null 2>"$OUT/e"
	fail "wakers: the spec's example is read" \
		"sched-points.rst line $wshort: not the 16 fields of a data line" \
		"an rst literal block drops trailing TABs, so a line whose waker_comm is empty cannot be shown;" \
		"the spec's example needs a non-empty waker_comm on every line (the parser is right to refuse it):" \
		"$(head -n 1 "$OUT/e")"
else
	wspec_sum=$(awk -F '\t' 'h { print $12 } /^pid\t/ { h = 1 }' "$OUT/wspec.txt" | sort -u | while IFS= read -r s; do
		sp -W "$OUT/wspec.txt" -F csv wakers "$s" | csv_sum count
	done | bigsum)
	eq "wakers: the spec's example is read, its call sites' rows add up to its count column" \
		"$wspec_sum" "$(awk -F '\t' 'h { print $6 } /^pid\t/ { h = 1 }' "$OUT/wspec.txt" | bigsum)"
fi
wk() { sp -W "$WF/wakers.txt" "$@"; }
wsp() { sp -f "$WF/sched_points.txt" -W "$WF/wakers.txt" "$@"; }
eq "wakers pipe_read: each side's pipe_read is ended by the other's pipe_write (-v, CSV)" \
	"$(wk -F csv -v wakers pipe_read+0x2ae/0x4f0 | csv_records | tail -n +2 | cut -d, -f1,9- | tr '\n' ' ')" \
	"10000,task,81,pong,pipe_write+0x3b5/0x6c0 9999,task,80,ping,pipe_write+0x3b5/0x6c0 309,task,90,worker,pipe_write+0x3b5/0x6c0 30,task,92,netrx,pipe_write+0x3b5/0x6c0 "
wk -F csv wakes pipe_write >"$OUT/wakes-pipe_write.csv"
wk -F csv wakers '[vmlinux]' >"$OUT/wakers-all.csv"
wk -F csv wakes '[vmlinux]' >"$OUT/wakes-all.csv"
eq "wakers, wakes: the rows of every site add up to the file's lines (count, total_ns, wait_ns + delay_ns)" \
	"$(for c in count total_ns wait_ns delay_ns; do csv_sum $c <"$OUT/wakers-all.csv"; csv_sum $c <"$OUT/wakes-all.csv"; done | tr '\n' ' ')" \
	"$(awk -F'\t' 'NR > 8 { c += $6; t += $7; w += $8; d += $9 } END { printf "%.0f %.0f %.0f %.0f %.0f %.0f %.0f %.0f ", c, c, t, t, w, w, d, d }' "$WF/wakers.txt")"
eq "wakers: a nanosleep is ended by its timer at __hrtimer_run_queues (context timer)" \
	"$(wk -F csv wakers hrtimer_nanosleep | csv_records | tail -n +2 | cut -d, -f1-5,9-)" \
	"20,20612280,1030614,20401200,211080,timer,__hrtimer_run_queues+0x13b/0x2a0"
eq "wakers: a disk read is ended by the disk's interrupt (hardirq) and in softirq, no waker task" \
	"$(wk -F csv -v wakers submit_bio_wait | csv_records | tail -n +2 | cut -d, -f1,9- | tr '\n' ' ')" \
	"750,hardirq,,,submit_bio_wait_endio+0x1d/0x30 60,softirq,,,submit_bio_wait_endio+0x1d/0x30 "
eq "wakes do_notify_parent: the exited shells (pid null, exited) and their exited wakers (waker_comm null)" \
	"$(wk -F json -v wakes do_notify_parent | python3 -c 'import json, sys; d = json.load(sys.stdin); print([(r["pid"], r["exited"], r["comm"], r["count"], r["waker_pid"], r["waker_comm"]) for r in d["rows"]])')" \
	"[(None, True, 'sh', 37, 1207, None), (None, True, 'sh', 2, 1188, 'make')]"
eq "wakers: share (%) of the site's woken calls, in the table" \
	"$(wk wakers futex_wait_queue | awk '/^ *[0-9]/ { print $1, $2 }' | tr '\n' ' ')" "440 99.3% 3 0.7% "
eq "wakers -s time, -r, -n 1" \
	"$(wk -F csv -s time wakers pipe_read -v | csv_records | sed -n 2p | cut -d, -f1):$(wk -F csv -r wakers '[vmlinux]' | csv_records | sed -n 2p | cut -d, -f1):$(wk -F csv -n 1 wakers '[vmlinux]' | csv_records | wc -l | tr -d ' ')" \
	"309:3:2"
eq "wakers: p50, p90, p99 from the summed histogram (bucket 21 of 12 calls: linear within it)" \
	"$(wk -F csv wakers ep_poll | csv_records | sed -n 3p | cut -d, -f6-8)" "3145728,3984588,4173332"
eq "wakers: without histograms no percentile column" \
	"$(sed 's/^hist 1$/hist 0/; s/\t[0-9:,]*\tffff/\t-\tffff/' "$WF/wakers.txt" | sp -W - -F csv wakers pipe_read | head -n 1)" \
	"count,total_ns,mean_ns,wait_ns,delay_ns,context,waker_site"
SP_RC=1
eq "wakers: a site no line has: exit 1, said" \
	"$(wk wakers nothing 2>&1 >/dev/null)" \
	"schedpoints: no call site with a line in $WF/wakers.txt matches 'nothing'"
sp -W "$WF/wakers.txt" -F prometheus -v wakes '[vmlinux]' >"$OUT/wakes.prom"
promtool check metrics <"$OUT/wakes.prom" >"$OUT/promtool.log" 2>&1
eq "promtool check metrics: wakes -v" "$?:$(cat "$OUT/promtool.log")" "0:"
for f in wakers-ep_poll chain-90; do
	promtool check metrics <"$WF/$f.prom" >"$OUT/promtool.log" 2>&1
	eq "promtool check metrics: $f" "$?:$(cat "$OUT/promtool.log")" "0:"
done
eq "wakers: prometheus -n 2: two series and 'other' hold every call" \
	"$(sp -W "$WF/wakers.txt" -F prometheus -n 2 wakers '[vmlinux]' | awk '/^sched_points_wakers_calls_total\{/ { n++; s += $NF } END { print n, s }')" "3 22070"

# chain: the futex handoff goes round three tasks (3 hops, then a loop);
# the ping-pong stops after 2; a timer, a hardirq, --hops, an exited waker
chain_of() {	# the hops' pid>waker_pid and why it stopped
	wsp -F json chain "$@" | python3 -c 'import json, sys; d = json.load(sys.stdin); print(" ".join("%s>%s" % (h["pid"], h["waker_pid"]) for h in d["hops"]), d["stop"], d["stop_pid"], d["stop_hop"])'
}
eq "chain 90: 3 hops, then a loop back to hop 1's sleeper" "$(chain_of 90)" "90>91 91>92 92>90 loop 90 1"
eq "chain worker (a task name): the same" "$(wsp -F json chain worker | python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["from"], len(d["hops"]), d["stop"])')" "comm 3 loop"
eq "chain futex_wait_queue (a call site): the same" "$(chain_of futex_wait_queue)" "90>91 91>92 92>90 loop 90 1"
eq "chain 92: starts at netrx's heaviest wait (pipe_read, not its timer)" "$(chain_of 92)" "92>90 90>91 91>92 loop 92 1"
eq "chain 80: the ping-pong, 2 hops and a loop" "$(chain_of 80)" "80>81 81>80 loop 80 1"
eq "chain 90 --hops 2: stops at the limit" "$(chain_of 90 --hops 2)" "90>91 91>92 hops 92 None"
eq "chain 82: a timer ends the nanosleep: 1 hop, not a task" "$(chain_of 82)" "82>None context None None"
eq "chain 95: the disk's interrupt: 1 hop, not a task" "$(chain_of 95)" "95>None context None None"
eq "chain do_wait: exited shells, their waker exited too: no wait of it" "$(chain_of do_wait)" "None>1207 no_wait 1207 None"
eq "chain lonely: no waker of its wait, no hop, said" \
	"$(wsp chain lonely | tail -n 1)" \
	"hops 0  stop: no waker in $WF/wakers.txt of the heaviest wait of pid 16, idle at rcu_gp_kthread+0xfc/0x170"
eq "chain -s time picks each hop's waker by time (95: hardirq by count and time alike; 90 by count 440)" \
	"$(wsp -F csv -s time chain 95 | csv_records | sed -n 2p | cut -d, -f7,12)" "750,hardirq"
SP_RC=1
eq "chain: a name that is no pid, site or task: exit 1, said" \
	"$(wsp chain nobody 2>&1 >/dev/null)" \
	"schedpoints: chain: 'nobody' is no pid, no call site with a waker in $WF/wakers.txt and no task name with a wait in $WF/sched_points.txt"
SP_RC=1
eq "chain: a pid in neither file: exit 1, said" \
	"$(wsp chain 4242 2>&1 >/dev/null)" \
	"schedpoints: chain: no wait of pid 4242 in $WF/sched_points.txt or $WF/wakers.txt"
eq "chain: -f - reads /proc/sched_points from stdin, -W the wakers file" \
	"$(sp -f - -W "$WF/wakers.txt" -F csv chain 80 <"$WF/sched_points.txt" | csv_records | wc -l | tr -d ' ')" "3"

# bad input: FILE:LINE: message, exit 1, no crash
WH='sched_points_wakers version 1\nenabled 1\nmode effective\nwakers 1\nhist 1\nentries 1\nunlisted 0\npid\ttgid\tkind\twaker\twaker_pid\tcount\ttotal_ns\twait_ns\tdelay_ns\thist\taddress\tsymbol\tcomm\twaker_address\twaker_symbol\twaker_comm\n'
WA='ffffffff81230c1e\tpipe_read+0x2ae/0x4f0'
WB='ffffffff812314c5\tpipe_write+0x3b5/0x6c0'
wbad() {	# wbad NAME PRINTF-INPUT LINE MESSAGE
	printf '%b' "$2" >"$OUT/wbad.txt"
	SP_RC=1
	sp -W "$OUT/wbad.txt" wakers pipe_read >"$OUT/o" 2>"$OUT/e"
	rc=$?
	want="schedpoints: $OUT/wbad.txt:$3: $4"
	[ "$3" = "-" ] && want="schedpoints: $OUT/wbad.txt: $4"
	eq "wakers: bad input: $1" "$rc:$(cat "$OUT/o"):$(cat "$OUT/e")" "1::$want"
}
wline() {	# a data line: the fields before address, then after symbol
	printf '%s\\t%s\\t%s\\t%s\\t%s\\n' "$1" "$WA" "$2" "$WB" "${3-}"
}
wbad "empty file" "" - "empty input, expected 'sched_points_wakers version 1'"
wbad "another version" "sched_points_wakers version 2\n" 1 "expected 'sched_points_wakers version 1' (the only version of the format), got 'sched_points_wakers version 2'"
wbad "a minor version" "sched_points_wakers version 1.1\n" 1 "expected 'sched_points_wakers version 1' (the only version of the format), got 'sched_points_wakers version 1.1'"
wbad "/proc/sched_points given as the wakers file" "sched_points version 2\n" 1 "expected 'sched_points_wakers version 1' (the only version of the format), got 'sched_points version 2'"
wbad "version line cut" "sched_points_wakers vers" 1 "line is not terminated by a newline (truncated input?)"
wbad "summary out of order" "sched_points_wakers version 1\nenabled 1\nwakers 1\n" 3 "expected the summary line 'mode <value>' (the format's order: enabled, mode, wakers, hist, entries, unlisted), got 'wakers 1'"
wbad "summary name missing" "sched_points_wakers version 1\nenabled 1\nmode caller\nwakers 1\nhist 1\nentries 0\npid\n" 7 "expected the summary line 'unlisted <value>' (the format's order: enabled, mode, wakers, hist, entries, unlisted), got 'pid'"
wbad "wakers 2" "sched_points_wakers version 1\nenabled 1\nmode caller\nwakers 2\n" 4 "summary 'wakers': expected 0 or 1, got '2'"
wbad "unlisted not a number" "sched_points_wakers version 1\nenabled 1\nmode caller\nwakers 1\nhist 0\nentries 0\nunlisted x\n" 7 "summary 'unlisted': expected an unsigned decimal, got 'x'"
wbad "the header of /proc/sched_points_blocked" "sched_points_wakers version 1\nenabled 1\nmode caller\nwakers 1\nhist 0\nentries 0\nunlisted 0\npid\ttgid\tkind\tstate\twaiting_ns\taddress\tsymbol\tcomm\n" 8 "expected the column header 'pid\\ttgid\\tkind\\twaker\\twaker_pid\\tcount\\ttotal_ns\\twait_ns\\tdelay_ns\\thist\\taddress\\tsymbol\\tcomm\\twaker_address\\twaker_symbol\\twaker_comm', got 'pid\\011tgid\\011kind\\011state\\011waiting_ns\\011address\\011s...'"
wbad "15 fields" "$WH$(wline '5\t5\tsleep\ttask\t6\t1\t10\t6\t4' x y)" 9 "expected 16 TAB-separated fields, got 15"
wbad "exited tasks with a tgid" "$WH$(wline '0\t3\tsleep\ttask\t6\t1\t10\t6\t4\t9:1' x y)" 9 "tgid: a line of exited tasks (pid 0) has tgid 0 in this file, got '3'"
wbad "a yield (never woken)" "$WH$(wline '5\t5\tyield\ttask\t6\t1\t10\t6\t4\t9:1' x y)" 9 "kind: expected 'sleep', 'disk_sleep' or 'idle' (the calls a wakeup ends), got 'yield'"
wbad "an unknown context" "$WH$(wline '5\t5\tsleep\tirq\t0\t1\t10\t6\t4\t9:1' x '')" 9 "waker: expected 'task', 'softirq', 'hardirq' or 'timer', got 'irq'"
wbad "nmi (no context: try_to_wake_up() is never called from NMI)" "$WH$(wline '5\t5\tsleep\tnmi\t0\t1\t10\t6\t4\t9:1' x '')" 9 "waker: expected 'task', 'softirq', 'hardirq' or 'timer', got 'nmi'"
wbad "timer in the caller mode" "$(printf '%s' "$WH" | sed 's/mode effective/mode caller/')$(wline '5\t5\tsleep\ttimer\t0\t1\t10\t6\t4\t9:1' x '')" 9 "waker: 'timer' is a context of the effective mode only (summary 'mode' is caller)"
wbad "a pid for a hardirq waker" "$WH$(wline '5\t5\tsleep\thardirq\t7\t1\t10\t6\t4\t9:1' x '')" 9 "waker_pid: expected 0 for the context hardirq (only a task has a pid), got '7'"
wbad "count 0" "$WH$(wline '5\t5\tsleep\ttask\t6\t0\t10\t6\t4\t9:1' x y)" 9 "count: expected a count above 0 (a line counts at least one call), got '0'"
wbad "wait + delay is not total" "$WH$(wline '5\t5\tsleep\ttask\t6\t1\t10\t6\t5\t9:1' x y)" 9 "wait_ns + delay_ns: expected total_ns 10 (each call's off-CPU time is its wait and its run delay), got 6 + 5"
wbad "a histogram while hist is 0" "$(printf '%s' "$WH" | sed 's/hist 1/hist 0/')$(wline '5\t5\tsleep\ttask\t6\t1\t10\t6\t4\t9:1' x y)" 9 "hist: expected '-' while summary 'hist' is 0, got '9:1'"
wbad "a histogram out of range" "$WH$(wline '5\t5\tsleep\ttask\t6\t1\t10\t6\t4\t35:1' x y)" 9 "hist: bucket 35 out of range 9 to 34, got '35:1'"
wbad "a waker address" "$WH"'5\t5\tsleep\ttask\t6\t1\t10\t6\t4\t9:1\t'"$WA"'\tx\tFFFF\tpipe_write+0x3b5/0x6c0\ty\n' 9 "waker_address: expected 16 lowercase hex digits, got 'FFFF'"
wbad "a waker symbol" "$WH"'5\t5\tsleep\ttask\t6\t1\t10\t6\t4\t9:1\t'"$WA"'\tx\tffffffff812314c5\tpipe_write\ty\n' 9 "waker_symbol: expected 'func+0xOFF/0xLEN', 'func+0xOFF/0xLEN [module]', '0xADDR' or '(unloaded module)', got 'pipe_write'"
wbad "a name for a softirq waker" "$WH$(wline '5\t5\tsleep\tsoftirq\t0\t1\t10\t6\t4\t9:1' x ksoftirqd)" 9 "waker_comm: expected an empty field for the context softirq (only a task has a name), got 'ksoftirqd'"
wbad "a waker name not escaped" "$WH$(wline '5\t5\tsleep\ttask\t6\t1\t10\t6\t4\t9:1' x 'a\\9')" 9 "comm: expected '\\' and three octal digits (\\000..\\377), got 'a\\9'"
wbad "not sorted by count" "$(printf '%s' "$WH" | sed 's/entries 1/entries 2/')$(wline '5\t5\tsleep\ttask\t6\t1\t10\t6\t4\t9:1' x y)$(wline '7\t7\tsleep\ttask\t6\t2\t10\t6\t4\t9:2' x y)" 10 "not sorted by count (descending), then pid: pid 7 count 2 after pid 5 count 1"
wbad "fewer lines than entries" "$(printf '%s' "$WH" | sed 's/entries 1/entries 3/')$(wline '5\t5\tsleep\ttask\t6\t1\t10\t6\t4\t9:1' x y)" 9 "unexpected end of input: summary 'entries' says 3 data lines, got 1"
wbad "a line after entries" "$WH$(wline '5\t5\tsleep\ttask\t6\t1\t10\t6\t4\t9:1' x y)$(wline '5\t5\tsleep\ttask\t6\t1\t10\t6\t4\t9:1' x y)" 10 "expected end of input after 1 data lines (summary 'entries')"
wbad "last line cut" "$WH"'5\t5\tsleep\ttask\t6\t1\t10' 9 "line is not terminated by a newline (truncated input?)"
printf '%b' "$WH$(wline '0\t0\tidle\ttask\t0\t1\t10\t6\t4\t-' '' '')" >"$OUT/wok.txt"
eq "wakers: exited tasks, empty names, an empty histogram, the idle task as waker: read" \
	"$(sp -W "$OUT/wok.txt" -F csv -v wakes pipe_write | csv_records | tail -n 1)" "1,10,10,6,4,,,,0,0,,idle,task,0,,pipe_read+0x2ae/0x4f0"
SP_RC=1
sp -W "$OUT/binary.txt" wakers x >/dev/null 2>"$OUT/e"
eq "wakers: bad input: random bytes, exit 1 with a message" "$?:$(grep -c '^schedpoints: .*binary.txt:1: ' "$OUT/e")" "1:1"

# usage: what applies to wakers, wakes and chain
wubad() {	# wubad NAME MESSAGE ARGS...
	_name=$1 _msg=$2
	shift 2
	SP_RC=2
	sp "$@" >"$OUT/o" 2>"$OUT/e"
	eq "wakers: usage: $_name" "$?:$(head -n 1 "$OUT/e")" "2:schedpoints: $_msg"
}
wubad "no SITE" "'wakers' needs an argument: a call site (SITE)" wakers
wubad "two SITEs" "unexpected argument 'b'" wakes a b
wubad "-f and -W for wakers" "wakers reads one file, /proc/sched_points_wakers: give -f FILE or -W FILE, not both" -f "$WF/wakers.txt" -W "$WF/wakers.txt" wakers pipe_read
eq "wakers -f FILE reads the wakers file as -W does (as blocked's -f)" \
	"$(sp -f "$WF/wakers.txt" -F csv wakes pipe_write | cmp - "$OUT/wakes-pipe_write.csv" && echo same)" "same"
wubad "--hops for wakes" "wakes takes -f or -W, -F, -o, -p, -n, -s, -r and -v only: --hops does not apply" --hops 2 wakes pipe_write
wubad "-v for chain" "chain takes -f, -W, -F, -o, -p, -s and --hops only: --verbose does not apply" -v chain 90
wubad "--pid for wakers" "wakers takes -f or -W, -F, -o, -p, -n, -s, -r and -v only: --pid does not apply" --pid 5 wakers pipe_read
wubad "--sort max for wakers" "wakers: --sort key 'max' does not apply (count, time, mean, wait, delay, p50, p90, p99)" -s max wakers pipe_read
wubad "--sort mean for chain" "chain: --sort takes one key, count or time (how each hop's waker is picked), got 'mean'" -s mean chain 90
wubad "--hops 0" "--hops: expected a number from 1 to 1000, got '0'" --hops 0 chain 90
wubad "folded" "wakes writes table, csv, json or prometheus: --format folded does not go with it" -F folded wakes pipe_write
wubad "-W for sites" "--wakers-file is only for wakers, wakes and chain" -W "$WF/wakers.txt" sites
wubad "--hops for sites" "--hops is only for chain" --hops 3 sites
wubad "-v for blocked" "blocked takes -f, -F, -o, -p and --min only: --verbose does not apply" -v blocked
wubad "both on stdin" "chain: -f - and -W - cannot both read standard input" -f - -W - chain 90

# ---- documentation ----------------------------------------------------------
missing=$(grep -o -- '--[a-z][a-z-]*' "$OUT/help" | sort -u | while IFS= read -r opt; do
	o=$(echo "$opt" | sed 's/-/\\\\-/g')
	grep -q -- "$o" "$TOP/schedpoints.8" || printf ' %s' "$opt"
done)
eq "every long option in --help is in schedpoints.8" "${missing:-none}" "none"
missing=$(grep -o -- '^ *-[a-zA-Z],' "$OUT/help" | tr -d ' ,' | while IFS= read -r opt; do
	o=$(echo "$opt" | sed 's/-/\\\\-/g')
	grep -q -- "$o" "$TOP/schedpoints.8" || printf ' %s' "$opt"
done)
eq "every short option in --help is in schedpoints.8" "${missing:-none}" "none"
eq "no stale references (.spec/, shared/design, rows[].delta) in sources and docs (#16)" \
	"$(grep -lE '\.spec/|shared/design|rows\[\]\.delta' "$SRC"/*.c "$SRC"/*.h "$SRC"/README.md "$SRC"/schedpoints.8 | tr '\n' ' ')" ""
missing=$(grep -ohE 'Documentation/[A-Za-z0-9_/.-]+\.rst' "$TOP"/*.c "$TOP"/*.h "$TOP"/README.md "$TOP"/schedpoints.8 | sort -u | while IFS= read -r doc; do
	grep -q "^+++ b/$doc\$" "$TOP"/../../patches/*.patch || printf ' %s' "$doc"
done)
eq "every Documentation/*.rst the tool names is in the series" "${missing:-none}" "none"
w=$(groff -man -ww -z "$TOP/schedpoints.8" 2>&1)
eq "schedpoints.8 formats without warnings" "${w:-clean}" "clean"

# ---- build: static binary for the guest, linters ------------------------------
if [ -x "$TOP/schedpoints-static" ]; then
	dyn=$(readelf -d "$TOP/schedpoints-static" 2>/dev/null | grep -c NEEDED)
	eq "static binary: no shared library needed, reads a snapshot" \
		"$dyn:$(run_checked 0 "$TOP/schedpoints-static" -f "$B" -F csv sites | csv_sum count)" "0:123"
else
	fail "static binary schedpoints-static is built"
fi
for tool in cppcheck clang-tidy; do
	target=lint-$(echo $tool | sed 's/clang-//')
	make -C "$TOP" --no-print-directory "$target" >"$OUT/$target.log" 2>&1
	rc=$?
	eq "$tool clean (make $target)" "$rc" "0"
	[ $rc -eq 0 ] || grep -E 'error|warning|style' "$OUT/$target.log" | head -n 5 | sed 's/^/#   /'
done

# ---- fuzzing (bounded): always built and run ---------------------------------
case $FUZZ_SHORT in
''|*[!0-9]*|0) fail "fuzz: FUZZ_SHORT is a number of seconds above 0" "got '$FUZZ_SHORT'" ;;
*)
	if [ -x "$TOP/fuzz/fuzz_parse" ]; then
		mkdir -p "$OUT/corpus"
		cp "$FIX"/*.txt "$OUT/corpus/"
		for f in "$FIX2"/blocked/*.txt; do cp "$f" "$OUT/corpus/blocked-$(basename "$f")"; done
		for f in "$FIX2"/wakers/*.txt; do cp "$f" "$OUT/corpus/wakers-$(basename "$f")"; done
		(cd "$OUT" && "$TOP/fuzz/fuzz_parse" -max_total_time="$FUZZ_SHORT" \
			-max_len=4096 -dict="$TOP/fuzz/sched_points.dict" \
			-print_final_stats=1 corpus) >"$OUT/fuzz.log" 2>&1
		rc=$?
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$OUT/fuzz.log")
		eq "fuzz: ${FUZZ_SHORT}s libFuzzer run of the parser, no crash (${runs:-?} runs)" \
			"$rc" "0"
		[ $rc -eq 0 ] || grep -E 'ERROR|SUMMARY|runtime error' "$OUT/fuzz.log" | head -n 5 | sed 's/^/#   /'
	else
		fail "fuzz: fuzz/fuzz_parse is built (make fuzz-build; needs clang and libclang-rt-14-dev)"
	fi
	;;
esac

# The summary is a comment; the plan ends the stream and counts every result.
echo "# $((n - failed)) passed, $failed failed"
echo "1..$n"
[ $failed -eq 0 ]
