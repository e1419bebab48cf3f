#!/usr/bin/env bash
# make field (issue 31): every field application in its own guest
# (scripts/field-run.sh: pgbench, make, fio, nginx, stressng, or those
# named in FIELD_APPS), each checked against its kprobe+hist oracle, then
# the report (scripts/field-report.sh, Documentation/field-report.md).
# The image and the kernel must be built (make field-rootfs,
# make field-kernel; make field does both first). A passing run is kept:
# while the kernel, the image and the scripts that make and judge the run
# are unchanged (the key in build/field/APP/pass.key), the application is
# not run again and its captures are reused ("cached"). Exit status 1
# when any application failed; the report is written either way, with
# the applications that passed.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,13s/^# \{0,1\}//p' "$0"
	echo "usage: [FIELD_APPS='pgbench make ...'] $0"
	exit 0
fi
source "$(dirname "$0")/env.sh"
source "$REPO/scripts/result-cache.sh"
[ $# = 0 ] || die "no arguments (see --help)"
key_of() {
	{ echo "field-run $1"; cat "$TREE/obj-field/field-kernel.key" "$BUILD/field/rootfs.key"
		script_id "$REPO/scripts/field-run.sh" "$REPO/scripts/field-boot.sh" "$REPO/scripts/field-scratch.sh" "$REPO/scripts/field-oracle.sh" \
			"$REPO/scripts/guest/field-init" "$REPO/scripts/guest/field-apps" \
			"$REPO/scripts/scan-splats.sh" "$REPO/scripts/env.sh"
		qemu-system-x86_64 --version | head -1
		env | grep -E '^FIELD_' | LC_ALL=C sort || true; } | result_key
}
[ -f "$TREE/obj-field/field-kernel.key" ] || die "no field kernel: run make field-kernel"
[ -f "$BUILD/field/rootfs.key" ] || die "no field image: run make field-rootfs"
failed=()
start=$SECONDS
for app in ${FIELD_APPS:-pgbench make fio nginx stressng}; do
	key=$(key_of "$app")
	if [ "$(cat "$BUILD/field/$app/pass.key" 2>/dev/null)" = "$key" ]; then
		note "field: $app passed with this kernel, image and scripts (cached): $(grep -E '^ok' "$BUILD/field/$app/share/out/oracle.txt")"
		continue
	fi
	t=$SECONDS
	if "$REPO/scripts/field-run.sh" "$app"; then
		echo "$key" >"$BUILD/field/$app/pass.key"
	else
		failed+=("$app")
	fi
	note "field: $app took $((SECONDS - t)) s"
done
"$REPO/scripts/field-report.sh"
note "field: $((SECONDS - start)) s; ${#failed[@]} failed${failed[*]:+: ${failed[*]}}"
[ ${#failed[@]} = 0 ]
