#!/usr/bin/env bash
# Install the Debian packages the build, the guest and the tests need,
# when any is missing. Needs root (or sudo) only when something is missing.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	echo "usage: $0    install missing Debian packages (needs root if any is missing)"
	exit 0
fi
source "$(dirname "$0")/env.sh"

pkgs=(build-essential bc bison flex libelf-dev libssl-dev cpio xz-utils
      rsync kmod ccache git busybox-static qemu-system-x86 clang
      sparse codespell shellcheck python3 python3-ply python3-git file bpftrace
      dwarves)
[ -n "${KERNEL_SRC:-}" ] || pkgs+=(linux-source-6.12)
for f in "$REPO"/tools/*/debian-packages; do
	[ -f "$f" ] && mapfile -t -O "${#pkgs[@]}" pkgs < <(grep -v '^#' "$f")
done

missing=()
for p in "${pkgs[@]}"; do
	[ -n "$p" ] || continue
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

note "installing Debian packages: ${missing[*]}"
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y \
	--no-install-recommends "${missing[@]}" ||
	{ $sudo apt-get update && $sudo env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y --no-install-recommends "${missing[@]}"; }
