#!/usr/bin/env bash
# Build what is missing, boot the guest, run a workload with schedule-point
# accounting on, and print what the project has to show: the pivot tool's
# views of /proc/sched_points. The heat map is written under build/.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,4s/^# \{0,1\}//p' "$0"
	exit 0
fi
source "$(dirname "$0")/env.sh"
"$REPO/scripts/install-deps.sh" demo
"$REPO/scripts/build-kernel.sh"
"$REPO/scripts/build-selftests.sh"
"$REPO/scripts/build-initramfs.sh"
rc=0
"$REPO/scripts/run-guest.sh" demo || rc=$?
share=$BUILD/guest-demo/share
[ -f "$share/demo.txt" ] && cat "$share/demo.txt"
if [ -f "$share/heatmap.svg" ]; then
	cp "$share/heatmap.svg" "$BUILD/heatmap.svg"
	echo "heat map: $BUILD/heatmap.svg"
fi
if [ -f "$share/heatmap-latency.svg" ]; then
	cp "$share/heatmap-latency.svg" "$BUILD/heatmap-latency.svg"
	echo "latency heat map (call sites x off-CPU time buckets): $BUILD/heatmap-latency.svg"
fi
[ -f "$share/sched_points.txt" ] && cp "$share/sched_points.txt" "$BUILD/sched_points-demo.txt" &&
	echo "raw capture: $BUILD/sched_points-demo.txt"
exit $rc
