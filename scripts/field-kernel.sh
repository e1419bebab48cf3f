#!/usr/bin/env bash
# Build the field guest's kernel (issue 31, item 1): Debian's own
# configuration of Linux 6.12 (linux-config-6.12's config.amd64_none_amd64,
# or DISTRO_CONFIG) plus CONFIG_SCHED_POINTS=y, reduced with
# `make localyesconfig` against kernel-config/field/modules (virtio disk
# and network, ext4, 9p, virtio-rng): those modules are built in, every
# other module is left out, and what Debian builds in stays (kprobe
# events, hist triggers, BPF with BTF, lockdown, PREEMPT_DYNAMIC), so
# QEMU boots it with -kernel and no module initrd. Then
# kernel-config/field/field.config on top; every line of it must take
# effect. Out of tree in build/linux/obj-field (OBJ), with ccache
# (CCACHE_DIR), niced, under the build lock like every kernel build
# (held from the configuration to the end of the build). A warning at a file the series touches fails the build.
# Cached: with a bzImage built from the same tree content, configuration
# inputs, toolchain and this script (the key in obj-field/field-kernel.key)
# it says so and builds nothing. The log is build/field/kernel-build.log.
# Prints the bzImage's path. The tree must exist (make tree).
# --vanilla: the same without the series, for the macro bench
# (scripts/field-bench.sh): from the vanilla tree (build/linux-vanilla,
# FIELD_VANILLA_TREE; a git worktree of the kernel tree at tag pristine,
# made here as scripts/bench.sh makes it), without the series' options
# (field.config less its lines of the symbols patches/ adds), into
# build/linux-vanilla/obj-field, log build/field/kernel-build-vanilla.log,
# cached the same way. Either build's configuration is checked against
# the other's, when that one is there: they may differ only in the
# series' options (scripts/field-config-check.sh), else this fails.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,26s/^# \{0,1\}//p' "$0"
	echo "usage: [DISTRO_CONFIG=FILE[.xz]] [OBJ=DIR] [FIELD_VANILLA_TREE=DIR] $0 [--vanilla]"
	exit 0
fi
obj=${OBJ:-}
source "$(dirname "$0")/env.sh"
source "$REPO/scripts/result-cache.sh"
vanilla=0
if [ "${1:-}" = --vanilla ]; then
	vanilla=1
	shift
fi
[ $# = 0 ] || die "no arguments but --vanilla (see --help)"
series_tree=$TREE
vtree=${FIELD_VANILLA_TREE:-$BUILD/linux-vanilla}
cfg=${DISTRO_CONFIG:-/usr/src/linux-config-6.12/config.amd64_none_amd64.xz}
[ -r "$cfg" ] || die "no $cfg: apt-get install linux-config-6.12"
[ -e "$TREE/.git" ] || die "no kernel tree in $TREE: run make tree"
command -v pahole >/dev/null || die "pahole is missing (BTF): run scripts/install-deps.sh field"
fielddir=$REPO/kernel-config/field
modules=$fielddir/modules fragment=$fielddir/field.config
out=$BUILD/field
log=$out/kernel-build.log
if [ $vanilla = 1 ]; then
	# The vanilla tree, as scripts/bench.sh makes it.
	if [ ! -e "$vtree/Makefile" ]; then
		git -C "$TREE" worktree prune
		git -C "$TREE" worktree add -q --detach "$vtree" pristine
	fi
	TREE=$vtree
	log=$out/kernel-build-vanilla.log
fi
OBJ=${obj:-$TREE/obj-field}
OBJ=$(mkdir -p "$OBJ" && cd "$OBJ" && pwd)
# The other build's configuration, compared with this one's.
if [ $vanilla = 1 ]; then
	twin=$series_tree/obj-field/.config
else
	twin=$vtree/obj-field/.config
fi
if [ $vanilla = 1 ]; then
	# The fragment less the lines of the series' own symbols.
	mapfile -t own < <(sed -n 's/^+\(menu\)\{0,1\}config \([A-Za-z0-9_]*\)$/\2/p' "$REPO"/patches/*.patch | sort -u)
	[ ${#own[@]} != 0 ] || die "no Kconfig symbol in $REPO/patches/*.patch"
	mkdir -p "$out"
	grep -vE "^(# )?CONFIG_($(IFS='|'; echo "${own[*]}"))[= ]" "$fragment" >"$out/field-vanilla.config"
	fragment=$out/field-vanilla.config
fi
mkdir -p "$out" "$CCACHE_DIR"
read_config() { case $cfg in *.xz) xz -dc "$cfg" ;; *) cat "$cfg" ;; esac; }
# Kernel builds run niced: the machine's other work goes first.
renice -n 10 -p $$ >/dev/null

# check_twin: this configuration against the other build's, when there.
check_twin() {
	if [ ! -f "$twin" ]; then
		note "field kernel: no $twin: the two configurations are compared once both are made"
		return 0
	fi
	if [ $vanilla = 1 ]; then
		"$REPO/scripts/field-config-check.sh" "$twin" "$OBJ/.config" >&2
	else
		"$REPO/scripts/field-config-check.sh" "$OBJ/.config" "$twin" >&2
	fi || die "the field kernels' configurations differ beyond the series' options"
}

key=$({ echo field-kernel; [ $vanilla = 0 ] || echo vanilla; tree_id "$TREE"; toolchain_id; build_env_id
	pahole --version; read_config; cat "$modules" "$fragment"; script_id "$0" "$REPO/scripts/env.sh"; } | result_key)
image=$OBJ/arch/x86/boot/bzImage
if [ -f "$image" ] && [ "$(cat "$OBJ/field-kernel.key" 2>/dev/null)" = "$key" ]; then
	note "field kernel: $image is built from this tree and configuration (key $key; cached, not rebuilt)"
	check_twin
	echo "$image"
	exit 0
fi
rm -f "$OBJ/field-kernel.key"
# The build lock (env.sh's kmake takes it per make) is held here for the
# configuration and the build together: other sessions' builds wait for
# this one, not between its steps.
exec 8>"$BUILD_LOCK"
note "field kernel: waiting for the build lock $BUILD_LOCK"
flock 8
fmake() { make -C "$TREE" O="$OBJ" CC="ccache gcc" -j"$JOBS" "$@" 8>&-; }

# The configuration: Debian's, the feature on and Debian's signing keys
# (files of its packaging tree) cleared, then reduced to the modules'
# list, then the fragment.
read_config >"$OBJ/.config.field-new"
[ $vanilla = 1 ] || "$TREE/scripts/config" --file "$OBJ/.config.field-new" --enable SCHED_POINTS
"$TREE/scripts/config" --file "$OBJ/.config.field-new" \
	--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" \
	--set-str MODULE_SIG_KEY ""
lsmod=$OBJ/field-modules.lsmod
{ echo "Module Size Used by"; sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e 's/[[:space:]]*$/ 0 0/' "$modules"; } >"$lsmod"
cp "$OBJ/.config.field-new" "$OBJ/.config"
rm "$OBJ/.config.field-new"
note "field kernel: Debian's $(basename "$cfg") reduced to $(grep -c ' 0 0$' "$lsmod") modules (localyesconfig)"
fmake -s olddefconfig >"$log" 2>&1 || { cat "$log" >&2; die "olddefconfig failed"; }
LSMOD=$lsmod fmake -s localyesconfig >>"$log" 2>&1 || { cat "$log" >&2; die "localyesconfig failed"; }
"$TREE/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" "$fragment" >>"$log" 2>&1 ||
	{ cat "$log" >&2; die "merging $fragment failed"; }
fmake -s olddefconfig >>"$log" 2>&1 || { cat "$log" >&2; die "olddefconfig failed"; }

# Every line of the fragment took effect ("# CONFIG_X is not set" too).
missing=$(sed -n -e 's/^\(CONFIG_[A-Z0-9_]*=.*\)$/\1/p' -e 's/^\(# CONFIG_[A-Z0-9_]* is not set\)$/\1/p' "$fragment" |
	while IFS= read -r line; do
		grep -qxF -- "$line" "$OBJ/.config" || echo "$line"
	done)
[ -z "$missing" ] || die "lines of $fragment did not take effect (a missing dependency?):
$missing"
check_twin
# Every module of the list is built in: its CONFIG_ symbol is y.
nmod=$(grep -c '=m$' "$OBJ/.config" || true)
[ "$nmod" = 0 ] || note "field kernel: $nmod options are still =m (not built: the guest loads no module): $(grep '=m$' "$OBJ/.config" | head -5 | paste -sd' ')"
note "field kernel: $(grep -c '=y$' "$OBJ/.config") options =y; building bzImage in $OBJ (log $log)"

mapfile -t touched < <(git -C "$TREE" diff --name-only pristine HEAD)
start=$SECONDS
if ! fmake -s bzImage >>"$log" 2>&1; then
	grep -E 'error|Error' -A3 "$log" | head -40 >&2
	die "field kernel build failed (log: $log)"
fi
# A warning at a file of the series fails the build, as build-kernel.sh
# does; other warnings of Debian's configuration are only counted (the
# vanilla tree has no file of the series).
warned=
[ ${#touched[@]} = 0 ] || warned=$(series_warnings "$log" "${touched[@]}")
if [ -n "$warned" ]; then
	echo "$warned" >&2
	forget_warned "$TREE" "$OBJ" <<<"$warned"
	die "warnings in the series' files (log: $log)"
fi
# The link's intermediate images (about 800 MB with debug info) are
# made again by the next link: the disk gets them back.
rm -f "$OBJ"/.tmp_vmlinux*
other=$(grep -caE ': warning: ' "$log" || true)
echo "$key" >"$OBJ/field-kernel.key"
note "field kernel$([ $vanilla = 0 ] || echo ' (vanilla)'): built in $((SECONDS - start)) s, $(du -h "$image" | cut -f1) bzImage, $other other warnings in the log ($(ccache -s 2>/dev/null | grep -iE 'hits' | head -1 | xargs))"
echo "$image"
