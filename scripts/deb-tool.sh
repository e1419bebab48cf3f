#!/usr/bin/env bash
# Build the Debian package of the tool, build/deb/schedpoints_VERSION_ARCH.deb,
# with dpkg-deb from the tracked files of tools/schedpoints as they are in
# the checkout, and print its path. Inside: /usr/sbin/schedpoints (built
# with dpkg-buildflags' hardening flags, stripped), its man page
# (gzip -9n), /usr/share/doc/schedpoints/copyright (the license of the
# sources' SPDX lines) and changelog.Debian.gz. VERSION is what
# `schedpoints --version` says, then +gitDATE.TIME.COMMIT of the last
# commit (".dirty" when tools/schedpoints has uncommitted changes) and the
# revision -1; Depends is dpkg-shlibdeps' answer for the binary.
# Reproducible: SOURCE_DATE_EPOCH is the last commit's date, every file
# has that time and root's owner (dpkg-deb --root-owner-group).
# Installs nothing: `sudo apt install ./build/deb/schedpoints_*.deb`.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,13s/^# \{0,1\}//p' "$0"
	echo "usage: $0    (needs gcc, make, dpkg-dev: scripts/install-deps.sh deb; BUILD=DIR for build/)"
	exit 0
fi
source "$(dirname "$0")/env.sh"
[ $# = 0 ] || die "no arguments (see --help)"
for c in make strip dpkg-deb dpkg-shlibdeps dpkg-buildflags; do
	command -v "$c" >/dev/null || die "$c is missing: run scripts/install-deps.sh deb"
done
export LC_ALL=C TZ=UTC
umask 022
maintainer='Seed d117f1ee maintainers <maintainers@users.noreply.a-seed-d117f1ee.example>'
out=$BUILD/deb src=$BUILD/deb/src root=$BUILD/deb/root
rm -rf "$src" "$root" "$out"/schedpoints_*.deb
mkdir -p "$src" "$root"

# The tool's own files (not its tests): what `make install` installs is
# built from these.
git -C "$REPO" ls-files -z -- ':(glob)tools/schedpoints/*' |
	(cd "$REPO" && xargs -0 cp -t "$src" --)
export SOURCE_DATE_EPOCH
SOURCE_DATE_EPOCH=$(git -C "$REPO" log -1 --format=%ct)
commit=$(git -C "$REPO" describe --always --abbrev=7)
[ -z "$(git -C "$REPO" status --porcelain --untracked-files=no -- tools/schedpoints)" ] ||
	commit+=.dirty

# Debian's flags for a package (hardening, -ffile-prefix-map of the
# source directory: the binary does not depend on where it was built).
(
	cd "$src"
	make -s schedpoints CFLAGS="$(dpkg-buildflags --get CFLAGS) $(dpkg-buildflags --get CPPFLAGS)" \
		LDFLAGS="$(dpkg-buildflags --get LDFLAGS)"
) >&2
read -r name upstream _ < <("$src/schedpoints" --version)
if [ "$name" != schedpoints ] || ! [[ $upstream =~ ^[0-9][A-Za-z0-9.+~]*$ ]]; then
	die "schedpoints --version says '$name $upstream', not 'schedpoints VERSION'"
fi
version=$upstream+git$(date -d "@$SOURCE_DATE_EPOCH" +%Y%m%d.%H%M%S).$commit-1
dpkg --validate-version "$version" || die "not a Debian version: $version"
arch=$(dpkg --print-architecture)

# The tree: the binary stripped as dh_strip strips an executable.
doc=$root/usr/share/doc/schedpoints
install -d "$root/DEBIAN" "$root/usr/sbin" "$root/usr/share/man/man8" "$doc"
install -m 0755 "$src/schedpoints" "$root/usr/sbin/schedpoints"
strip --remove-section=.comment --remove-section=.note "$root/usr/sbin/schedpoints"
gzip -9n <"$src/schedpoints.8" >"$root/usr/share/man/man8/schedpoints.8.gz"

# The license: the one SPDX identifier of every source file.
mapfile -t spdx < <(sed -n 's/.*SPDX-License-Identifier: *\([^ *]*\).*/\1/p' \
	"$src"/*.c "$src"/*.h "$src/Makefile" "$src/schedpoints.8" | sort -u)
[ ${#spdx[@]} = 1 ] || die "the sources name ${#spdx[@]} licenses (${spdx[*]}), not one"
case ${spdx[0]} in
GPL-2.0-only) license=GPL-2 ;;
*) die "no Debian license name for SPDX '${spdx[0]}': add it here" ;;
esac
years=$(git -C "$REPO" log --format=%ad --date=format:%Y -- tools/schedpoints | sort -u |
	sed -n '1h; $ { x; G; s/\n/-/; s/^\(.*\)-\1$/\1/; p }')
holders=$(git -C "$REPO" log --format='%an <%ae>' -- tools/schedpoints | sort -u |
	sed '2,$s/^/ /')
cat >"$doc/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: schedpoints
Upstream-Contact: $maintainer

Files: *
Copyright: $years $holders
License: $license
 Every source file of schedpoints says "SPDX-License-Identifier: ${spdx[0]}".
 .
 On Debian systems, the complete text of the GNU General Public License
 version 2 can be found in "/usr/share/common-licenses/$license".
EOF
{
	echo "schedpoints ($version) unstable; urgency=medium"
	echo
	echo "  * Built from sched-points commit $commit (tools/schedpoints)."
	echo
	echo " -- $maintainer  $(date -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n >"$doc/changelog.Debian.gz"

# Depends: the packages of the libraries the binary needs (dpkg-shlibdeps
# wants a debian/control to read; a minimal one, outside the tree).
mkdir -p "$src/debian"
printf 'Source: schedpoints\n\nPackage: schedpoints\nArchitecture: any\n' >"$src/debian/control"
depends=$(cd "$src" && dpkg-shlibdeps -O -e"$root/usr/sbin/schedpoints" |
	sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || die "dpkg-shlibdeps found no dependency of usr/sbin/schedpoints"
# Installed-Size as dpkg-gencontrol counts it: KiB per file, rounded up.
size=$(cd "$root" && find usr -printf '%y %s\n' |
	awk '{ k += ($1 == "f") ? int(($2 + 1023) / 1024) : 1 } END { print k }')
cat >"$root/DEBIAN/control" <<EOF
Package: schedpoints
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends
Section: admin
Priority: optional
Description: pivot tables of the kernel's schedule-point accounting
 schedpoints reads /proc/sched_points, the per-task, per-call-site counts
 of schedule() calls and off-CPU time that the sched-points Linux patch
 series keeps, or a saved copy of it, and shows which call sites are hit,
 by which tasks, how often and for how long: tables, CSV, JSON, folded
 lines for FlameGraph, Prometheus text exposition and SVG heat maps.
 .
 Live counts need a kernel with the series (CONFIG_SCHED_POINTS); saved
 copies can be read anywhere.
EOF
(cd "$root" && find usr -type f | sort | xargs md5sum) >"$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 0755 {} +
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
deb=$out/schedpoints_${version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >&2
echo "$deb"
