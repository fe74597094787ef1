#!/bin/bash
# run.sh [--shell] BZIMAGE [cmdline words...] - what `make run` calls once the
# guest kernel is built: build the initramfs, boot the guest once under QEMU,
# print the report. Files go to out/run/ (guest.log, report.txt).
# --shell (or JTSC_SHELL=1): boot with jtsc.mode=shell and hand the console
# to the person at the terminal (exit the shell, or Ctrl-A x, to quit).
# JTSC_CMDLINE: more kernel command-line words, so that from make:
#   JTSC_SHELL=1 make run;  JTSC_CMDLINE=jitter_tsc.collectors=timer make run
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
shell=${JTSC_SHELL:-}
[ "${1:-}" != --shell ] || { shell=1; shift; }
kernel=${1:?usage: run.sh [--shell] BZIMAGE [cmdline words...]}
shift
# shellcheck disable=SC2086 # JTSC_CMDLINE is a list of words
set -- ${JTSC_CMDLINE:-} "$@"
out=$top/out/run
mkdir -p "$out"

"$here/mkinitramfs.sh" "$out/initramfs.cpio" || exit 1
if [ "$shell" = 1 ]; then
	JTSC_INTERACTIVE=1 "$here/boot.sh" "$kernel" "$out/initramfs.cpio" \
		"$out/guest.log" jtsc.mode=shell "$@"
	exit
fi
rm -f "$out/guest.log" "$out/report.txt"
"$here/boot.sh" "$kernel" "$out/initramfs.cpio" "$out/guest.log" "$@"
rc=$?
[ -s "$out/guest.log" ] || exit 1	# QEMU never ran: boot.sh said why
series=${JTSC_SERIES_VERSION:-$(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)}
"$here/report.sh" "$out/guest.log" "$series" "$(cd "$(dirname "$kernel")" && pwd)/$(basename "$kernel")" |
	tee "$out/report.txt"
[ "${PIPESTATUS[0]}" = 0 ] && exit "$rc"
exit 1
