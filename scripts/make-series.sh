#!/usr/bin/env bash
# Write the series as one would send it: build/series/ with the patches of
# patches/ and a cover letter (0000-cover-letter.patch) that says what the
# series is for, its design, its measured cost and how it was tested.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,4s/^# \{0,1\}//p' "$0"
	exit 0
fi
source "$(dirname "$0")/env.sh"
"$REPO/scripts/prepare-tree.sh" >&2
out=$BUILD/series
rm -rf "$out"
git -C "$TREE" format-patch --quiet --cover-letter --no-signature \
	--subject-prefix="PATCH" -o "$out" pristine..HEAD
cover=$out/0000-cover-letter.patch
blurb=$(mktemp)
trap 'rm -f "$blurb"' EXIT
cat "$REPO/Documentation/cover-letter.txt" >"$blurb"
if [ -f "$REPO/Documentation/performance.md" ]; then
	printf '\nMeasured cost (Documentation/performance.md of the project):\n\n' >>"$blurb"
	sed -n '/^|/p' "$REPO/Documentation/performance.md" | head -30 >>"$blurb"
fi
python3 - "$cover" "$blurb" <<'PY'
import sys
cover, blurb = sys.argv[1], open(sys.argv[2]).read()
s = open(cover).read()
s = s.replace("*** SUBJECT HERE ***", "sched: schedule-point accounting")
s = s.replace("*** BLURB HERE ***", blurb.rstrip("\n"))
open(cover, "w").write(s)
PY
ls "$out"
