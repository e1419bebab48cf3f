#!/usr/bin/env bash
# Test scripts/deb-tool.sh: build the tool's Debian package and check it
# as a user's machine would take it. TAP on stdout, the plan last, exit 1
# on a failure:
#  - the control fields (dpkg-deb -I): Package, a valid Version made of
#    the tool's SP_TOOL_VERSION and the last commit, the machine's
#    Architecture, the project's Maintainer, Depends naming the package of
#    every library the binary needs (its NEEDED entries, found with ldd and
#    dpkg -S), Section admin, Priority optional, a Description; the file's
#    name schedpoints_VERSION_ARCH.deb;
#  - the files (dpkg-deb -c): exactly the binary in /usr/sbin, the man
#    page gzipped -9n in /usr/share/man/man8, copyright (the sources' SPDX
#    license) and changelog.Debian.gz (its version is the package's), all
#    owned by root, none newer than the last commit; md5sums that match;
#  - built again elsewhere, the same bytes (reproducible);
#  - lintian's errors when lintian is installed (its warnings as comments);
#  - apt-get install --simulate accepts it, removing nothing (nothing is
#    installed: the package's state is the same after);
#  - unpacked (dpkg-deb -x): schedpoints --help and --version run, and
#    man -l renders the page (when man is there), as lintian runs it.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '2,21s/^# \{0,1\}//p' "$0"
	exit 0
fi
source "$(dirname "$0")/env.sh"
export LC_ALL=C
n=0 rc=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# result DESCRIPTION PROBLEMS: ok when PROBLEMS is empty, else not ok with
# them as a comment (on one line, as the description).
result() {
	[ -z "$2" ] || echo "#${2//$'\n'/ }"
	tap_result "$([ -z "$2" ] && echo 0 || echo 1)" "${1//$'\n'/ }"
}

built=0
deb=$("$REPO/scripts/deb-tool.sh" 2>"$tmp/build.log") && [ -f "$deb" ] || built=1
[ "$built" = 0 ] || tap_comment <"$tmp/build.log"
tap_result "$built" "scripts/deb-tool.sh builds a package in build/deb/"
if [ "$built" != 0 ]; then
	echo "1..$n"
	exit 1
fi
echo "# $deb"

# The control fields.
field() { dpkg-deb -f "$deb" "$1"; }
arch=$(dpkg --print-architecture)
version=$(field Version)
problem=
dpkg-deb -I "$deb" >"$tmp/info" || problem+=" dpkg-deb -I failed;"
[ "$(field Package)" = schedpoints ] || problem+=" Package '$(field Package)';"
[ "$(field Architecture)" = "$arch" ] || problem+=" Architecture '$(field Architecture)', not $arch;"
[ "$(field Maintainer)" = 'Seed d117f1ee maintainers <maintainers@users.noreply.a-seed-d117f1ee.example>' ] ||
	problem+=" Maintainer '$(field Maintainer)';"
[ "$(field Section)" = admin ] || problem+=" Section '$(field Section)';"
[ "$(field Priority)" = optional ] || problem+=" Priority '$(field Priority)';"
[ "$(field Description | wc -l)" -ge 2 ] || problem+=" no long Description;"
[[ $(field Installed-Size) =~ ^[1-9][0-9]*$ ]] || problem+=" Installed-Size '$(field Installed-Size)';"
result "dpkg-deb -I: Package schedpoints, Architecture $arch, the project's Maintainer, Section admin, Priority optional, a Description" "$problem"

tool=$(sed -n 's/^#define[[:space:]]*SP_TOOL_VERSION[[:space:]]*"\(.*\)"/\1/p' \
	"$REPO/tools/schedpoints/schedpoints.h")
head=$(git -C "$REPO" describe --always --abbrev=7)
problem=
dpkg --validate-version "$version" 2>/dev/null || problem+=" '$version' is not a Debian version;"
[[ $version == "$tool+git"*".$head"* ]] || problem+=" '$version' lacks '$tool' (SP_TOOL_VERSION) or $head (the last commit);"
[ "$(basename "$deb")" = "schedpoints_${version}_$arch.deb" ] || problem+=" named $(basename "$deb");"
result "Version $version: valid, from SP_TOOL_VERSION and the commit; the file is schedpoints_VERSION_ARCH.deb" "$problem"

# Depends: the package of each library the binary needs.
dpkg-deb -x "$deb" "$tmp/root"
dpkg-deb -e "$deb" "$tmp/root/DEBIAN"
bin=$tmp/root/usr/sbin/schedpoints
depends=$(field Depends)
# (the names of Depends, alternatives included)
names=$(printf '%s\n' "${depends//[,|]/$'\n'}" | sed 's/^ *//; s/[ (:].*//')
problem='' needed=''
[ -x "$bin" ] || problem+=" no executable usr/sbin/schedpoints;"
while read -r lib path; do
	needed+=" $lib"
	pkg=$({ dpkg -S "$path" || dpkg -S "${path#/usr}" || dpkg -S "/usr$path"; } 2>/dev/null |
		head -1 | cut -d: -f1) || true
	[ -n "$pkg" ] && grep -qxF -- "$pkg" <<<"$names" ||
		problem+=" $lib ($path, package '$pkg') not in Depends;"
done < <([ ! -x "$bin" ] || ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }')
[ -n "$needed" ] || problem+=" ldd found no library;"
[ -n "$(objdump -p "$bin" 2>/dev/null | awk '$1 == "NEEDED"')" ] || problem+=" no NEEDED entry;"
result "Depends '$depends' names the package of every library the binary needs:$needed" "$problem"

# The files.
dpkg-deb -c "$deb" >"$tmp/contents"
awk '{ print $1, $2, $6 }' "$tmp/contents" | grep -v '^d' | sort -k3 >"$tmp/files"
sort -k3 >"$tmp/want" <<EOF
-rwxr-xr-x root/root ./usr/sbin/schedpoints
-rw-r--r-- root/root ./usr/share/man/man8/schedpoints.8.gz
-rw-r--r-- root/root ./usr/share/doc/schedpoints/copyright
-rw-r--r-- root/root ./usr/share/doc/schedpoints/changelog.Debian.gz
EOF
problem=$(diff "$tmp/want" "$tmp/files" | sed -n 's/^\([<>]\) /\1/p' | tr '\n' ' ' |
	sed 's/./ want (<) and got (>): &/') || true
grep -v ' root/root ' "$tmp/contents" | grep -q . && problem+=" entries not owned by root;"
result "dpkg-deb -c: exactly the binary (0755), the man page, copyright and changelog.Debian.gz (0644), owned by root" "$problem"

epoch=$(git -C "$REPO" log -1 --format=%ct)
newer=$(find "$tmp/root" -mindepth 1 -newermt "@$epoch" -not -path "$tmp/root/DEBIAN*" -printf ' %P')
[ -n "$newer" ] && newer=" newer than the last commit:$newer"
result "every file dated at the last commit (SOURCE_DATE_EPOCH $epoch), none newer" "$newer"
problem=$(cd "$tmp/root" && md5sum --quiet -c DEBIAN/md5sums 2>&1 | tr '\n' ' ') || true
result "DEBIAN/md5sums matches the files" "${problem:+ $problem}"

# The man page and the changelog: gzip -9n (no name, no time, max
# compression: header flags 0, mtime 0, extra flags 2).
problem=
for f in usr/share/man/man8/schedpoints.8.gz usr/share/doc/schedpoints/changelog.Debian.gz; do
	hdr=$(od -An -tx1 -j3 -N6 "$tmp/root/$f" 2>/dev/null | tr -d ' ') || hdr=missing
	[ "$hdr" = 000000000002 ] || problem+=" $f: gzip header '$hdr', not -9n's;"
done
gzip -dc "$tmp/root/usr/share/man/man8/schedpoints.8.gz" 2>/dev/null |
	cmp -s - "$REPO/tools/schedpoints/schedpoints.8" ||
	problem+=" the man page is not tools/schedpoints/schedpoints.8;"
result "the man page and changelog.Debian.gz are gzip -9n, the page is the tool's schedpoints.8" "$problem"

spdx=$(sed -n 's/.*SPDX-License-Identifier: *\([^ *]*\).*/\1/p' \
	"$REPO"/tools/schedpoints/*.[ch] | sort -u)
copyright=$tmp/root/usr/share/doc/schedpoints/copyright
problem=
[ "$(wc -l <<<"$spdx")" = 1 ] || problem+=" the sources name several licenses: $spdx;"
grep -qF "SPDX-License-Identifier: $spdx" "$copyright" || problem+=" no '$spdx' in it;"
license=$(sed -n 's/^License: *//p' "$copyright" 2>/dev/null) || problem+=" no copyright file;"
[ -n "$license" ] && [ -f "/usr/share/common-licenses/$license" ] ||
	problem+=" License '$license' is not in /usr/share/common-licenses;"
grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' "$copyright" ||
	problem+=" not in the machine-readable format;"
result "copyright: the sources' $spdx, as Debian's $license" "$problem"

gzip -dc "$tmp/root/usr/share/doc/schedpoints/changelog.Debian.gz" >"$tmp/changelog" 2>/dev/null || true
got=$(dpkg-parsechangelog -l "$tmp/changelog" -S Version 2>&1) || true
result "changelog.Debian.gz parses, its version is the package's" \
	"$([ "$got" = "$version" ] || echo " dpkg-parsechangelog says '$got'")"

# Reproducible: another build, in another directory, gives the same bytes.
again=$(BUILD=$tmp/again "$REPO/scripts/deb-tool.sh" 2>"$tmp/again.log") || again=
problem=
[ -n "$again" ] || { problem=" the second build failed"; tap_comment <"$tmp/again.log"; }
[ -z "$again" ] || cmp -s "$deb" "$again" || problem=" $again differs"
result "built again in another directory: the same bytes" "$problem"

if command -v lintian >/dev/null; then
	lintian --no-cfg "$deb" >"$tmp/lintian" 2>&1 || true
	grep -v '^E: ' "$tmp/lintian" | tap_comment
	result "lintian: no error" "$(grep '^E: ' "$tmp/lintian" | sed 's/^/ /' | tr '\n' ';')"
else
	echo "# lintian is not installed: not run (scripts/install-deps.sh does not install it)"
fi

# apt takes it: simulated only, nothing is installed.
state() { dpkg-query -W -f='${Status} ${Version}' schedpoints 2>/dev/null || true; }
before=$(state)
problem=
(cd "$(dirname "$deb")" && apt-get install --simulate "./$(basename "$deb")") >"$tmp/apt" 2>&1 ||
	problem+=" apt-get exited $?;"
grep -qF -e "Inst schedpoints ($version " -e "schedpoints is already the newest version ($version)" "$tmp/apt" ||
	problem+=" no 'Inst schedpoints ($version';"
! grep -q '^Remv ' "$tmp/apt" || problem+=" it would remove: $(grep '^Remv ' "$tmp/apt" | tr '\n' ' ');"
[ "$(state)" = "$before" ] || problem+=" the package's state changed: '$before' -> '$(state)';"
[ -z "$problem" ] || tap_comment <"$tmp/apt"
result "apt-get install --simulate ./$(basename "$deb"): installs it, removes nothing" "$problem"

# Unpacked: the binary runs, the man page renders.
problem=
"$bin" --help >"$tmp/help" 2>&1 || problem+=" exited $?;"
grep -q '^Usage: schedpoints ' "$tmp/help" || problem+=" no 'Usage: schedpoints' line;"
[ "$("$bin" --version | awk '{ print $2 }')" = "$tool" ] || problem+=" --version is not $tool;"
result "the unpacked usr/sbin/schedpoints --help and --version run" "$problem"

if command -v man >/dev/null; then
	page=$tmp/root/usr/share/man/man8/schedpoints.8.gz
	problem=
	# lintian's invocation (its groff-message warnings: a comment here)
	LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=120 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" \
		>"$tmp/man.out" 2>"$tmp/man.err" || problem+=" man exited $?;"
	LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$page" 2>/dev/null | grep -q '^NAME' ||
		problem+=" no NAME section in man -l's output;"
	[ -s "$tmp/man.out" ] || problem+=" man -l printed nothing;"
	tap_comment <"$tmp/man.err"
	what=$(lexgrog "$page" 2>&1) || problem+=" lexgrog: $what;"
	tap_comment <<<"whatis: ${what#*: }"
	result "man -l renders the unpacked page, lexgrog reads its whatis entry" "$problem"
else
	echo "# man is not installed: the page is not rendered"
fi

echo "1..$n"
exit $rc
