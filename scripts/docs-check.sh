#!/usr/bin/env bash
# Every block of shown output in README.md, Documentation/user-guide.md and
# tools/schedpoints/README.md is the output of the tool of this checkout on
# a committed capture, every committed picture they show (the README's
# latency heat map, Documentation/images/) is the tool's SVG of one, and
# every shown command runs (scripts/docs.py says how blocks and pictures
# are marked); and facts with one source are stated as that
# source has them, in README.md, the user guide, developing.md, the man
# page (tools/schedpoints/schedpoints.8) and selftests/sched_points/README:
# the Kconfig dependencies, debugfs controls and boot parameters of the
# series (patches/), the manifest's counts, and more (scripts/docs.py).
# TAP on stdout, the plan last; exits 1 on any failure. --update (make
# docs) rewrites the output blocks and pictures instead; --import DIR
# first takes a new demo capture (DIR/sched_points.txt and
# DIR/sched_points-effective.txt from the guest's share directory) as the
# fixtures the docs show.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,16s/^# \{0,1\}//p' "$0"
	exit 0
fi
source "$(dirname "$0")/env.sh"
fix=$REPO/tools/schedpoints/tests/fixtures
if [ "${1:-}" = --import ]; then
	dir=${2:?usage: $0 --import DIR}
	cp "$dir/sched_points.txt" "$fix/guest-demo-caller.txt"
	cp "$dir/sched_points-effective.txt" "$fix/guest-demo-effective.txt"
	cp "$dir/sched_points_wakers-effective.txt" "$fix/guest-demo-wakers-effective.txt"
	shift 2
	set -- --update
fi
make -s -C "$REPO/tools/schedpoints" schedpoints >&2
exec python3 "$REPO/scripts/docs.py" "${1:---check}"
