#!/bin/bash
# harness/kernel.sh - `make kernel`: build the guest bzImage from build/linux in
# build/obj-guest: allnoconfig + harness/config/guest.config (merge_config.sh), then
# olddefconfig; fails naming any fragment option Kconfig dropped. Prints the bzImage path.
set -eu
PROG=kernel
. "$(dirname "$0")/lib.sh"

deps kernel
[ -f "$LINUX/.jtsc-base" ] || die "no build/linux: run 'make tree' first"
OBJ=$BUILD/obj-guest
build() {
	msg=$(guest_config "$LINUX" "$OBJ" 1) || die "build/obj-guest/.config: $msg"
	kmake "$LINUX" "$OBJ" bzImage || die "bzImage build failed in build/obj-guest"
}
locked build
echo "$OBJ/arch/x86/boot/bzImage"
