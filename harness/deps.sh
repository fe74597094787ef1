#!/bin/bash
# harness/deps.sh TARGET... - apt-get install the Debian packages a make target needs,
# only those missing (apt-get update runs once, before the first install).
set -eu
PROG=deps
. "$(dirname "$0")/lib.sh"

pkgs=
for t in "$@"; do
	case $t in
	tree|sync)	pkgs="$pkgs $BASE_PKG xz-utils patch diffutils git" ;;
	series)		pkgs="$pkgs $BASE_PKG xz-utils patch git" ;;
	kernel)		pkgs="$pkgs build-essential bc bison flex libelf-dev libssl-dev cpio kmod ccache" ;;
	run|bench)	pkgs="$pkgs qemu-system-x86 qemu-system-data busybox-static cpio" ;;
	check)		pkgs="$pkgs perl sparse python3 qemu-system-x86 qemu-system-data python3-sphinx
			      python3-yaml busybox-static kcapi-tools" ;;
	*)		die "unknown target $t" ;;
	esac
done
# shellcheck disable=SC2086
ensure_pkgs $pkgs
