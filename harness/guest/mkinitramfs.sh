#!/bin/bash
# mkinitramfs.sh OUT [MODULE.ko...] - build the test guest's initramfs (newc
# cpio) at OUT; each MODULE.ko given goes to /lib/modules/ in it.
# Contents: /init (harness/guest/init.c, static), busybox-static with its
# applet links (for jtsc.mode=shell), and kcapi-rng with the shared libraries
# and dynamic loader it needs (if kcapi-tools is installed). Rebuilds only
# when an input changed (a stamp of input checksums sits beside OUT).
# Env: JTSC_NO_KCAPI=1 leaves kcapi-rng out. JTSC_ARCH=arm64: /init built
# with Debian's aarch64-linux-gnu cross compiler, without busybox or kcapi-rng
# (no shell mode), for boot.sh's arm64 guest.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: mkinitramfs.sh OUT [MODULE.ko...]}
shift
kos=("$@")
for ko in "${kos[@]}"; do [ -f "$ko" ] || { echo "mkinitramfs: no $ko" >&2; exit 1; }; done
mkdir -p "$(dirname "$out")"
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")

apt=(apt-get -o DPkg::Lock::Timeout=600)	# wait for another install
install_pkg() {
	echo "mkinitramfs: installing $1" >&2
	"${apt[@]}" install -y -q "$1" >/dev/null || {
		"${apt[@]}" update -q >/dev/null && "${apt[@]}" install -y -q "$1" >/dev/null; }
}
need() {	# need CMD PACKAGE: install PACKAGE when CMD is missing
	command -v "$1" >/dev/null 2>&1 || install_pkg "$2"
}
arch=${JTSC_ARCH:-x86_64}
case $arch in
x86_64)	cc=gcc strip=strip ;;
arm64)	cc=aarch64-linux-gnu-gcc strip=aarch64-linux-gnu-strip JTSC_NO_KCAPI=1 ;;
*)	echo "mkinitramfs: unknown JTSC_ARCH $arch" >&2; exit 1 ;;
esac
need cpio cpio
busybox=
if [ "$arch" = x86_64 ]; then
	need gcc gcc
	[ -f "$(gcc -print-file-name=libc.a)" ] || install_pkg libc6-dev	# static libc
	need busybox busybox-static
	[ -n "${JTSC_NO_KCAPI:-}" ] || need kcapi-rng kcapi-tools || true
	busybox=$(command -v busybox)
	if ldd "$busybox" >/dev/null 2>&1; then	# dynamic: swap in busybox-static
		install_pkg busybox-static
		busybox=$(command -v busybox)
	fi
else
	need $cc gcc-aarch64-linux-gnu
	[ -f "$($cc -print-file-name=libc.a)" ] || install_pkg libc6-dev-arm64-cross
fi
kcapi=
if [ -z "${JTSC_NO_KCAPI:-}" ] && command -v kcapi-rng >/dev/null; then
	kcapi=$(command -v kcapi-rng)
fi
libs=
[ -z "$kcapi" ] || libs=$(ldd "$kcapi" | awk '/=> \//{print $3} /^\t\//{print $1}')

# Stamp: checksums of everything that goes in, plus this script.
srcs="$here/init.c $here/afalg.c $here/afalg.h $0"
# shellcheck disable=SC2086 # lists of paths without spaces
stamp=$( { sha256sum $srcs $busybox $kcapi $libs "${kos[@]}"; echo "root=$(id -u) arch=$arch"; } |
	sha256sum | cut -d' ' -f1)
if [ -f "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/jtsc-initramfs.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,root,etc,lib/modules}
for ko in "${kos[@]}"; do cp "$ko" "$root/lib/modules/"; done

$cc -static -O2 -Wall -Wextra -Werror -o "$root/init" \
	"$here/init.c" "$here/afalg.c"
$strip "$root/init"

if [ -n "$busybox" ]; then
	cp "$busybox" "$root/bin/busybox"
	"$busybox" --list-full | while read -r applet; do
		case $applet in */init|bin/busybox) continue ;; esac
		[ -e "$root/$applet" ] || ln -s /bin/busybox "$root/$applet"
	done
fi

if [ -n "$kcapi" ]; then
	cp "$kcapi" "$root/usr/bin/kcapi-rng"
	for lib in $libs; do	# keep the paths ldd resolved (loader included)
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
fi

# The kernel opens /dev/console for init's stdio before devtmpfs is mounted.
# mknod needs root; without it init opens /dev/console itself.
[ "$(id -u)" != 0 ] || mknod -m 600 "$root/dev/console" c 5 1

(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
	cpio -o -H newc -R 0:0 --quiet) >"$work/initramfs.cpio"
mv "$work/initramfs.cpio" "$out"
echo "$stamp" >"$out.stamp"
echo "mkinitramfs: $out ($(du -k "$out" | cut -f1) KiB)" >&2
