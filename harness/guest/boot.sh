#!/bin/bash
# boot.sh KERNEL INITRD LOG [extra cmdline words...] - boot the test guest
# once under QEMU (TCG; no RDRAND/RDSEED, no virtio-rng) and write its serial
# console to LOG. Exit 0 only if the guest printed "JTSC done=1". On a hang
# (timeout) or a kernel panic print one line saying which, the log's last 20
# lines and the log's path, and exit non-zero.
# Env: JTSC_BOOT_TIMEOUT (s, default 120), JTSC_KVM=1 (use KVM if /dev/kvm),
#      JTSC_ARCH=arm64 (boot an arm64 Image on QEMU's virt machine, cortex-a57:
#      no RNDR, and no random dtb nodes),
#      JTSC_QEMU_ARGS (more qemu arguments, word-split),
#      JTSC_INTERACTIVE=1 (no timeout, console on the terminal too: shell mode),
#      JTSC_STDIN=PATH (the console's input, e.g. a FIFO the caller holds
#      open, instead of /dev/null: clone.sh types into the guest).
# While QEMU runs, the console goes to LOG.raw as it comes (CRs included),
# where a caller can wait for a line; LOG is written when QEMU has exited.
set -uo pipefail

kernel=${1:?usage: boot.sh KERNEL INITRD LOG [cmdline words...]}
initrd=${2:?usage: boot.sh KERNEL INITRD LOG [cmdline words...]}
log=${3:?usage: boot.sh KERNEL INITRD LOG [cmdline words...]}
shift 3
tmo=${JTSC_BOOT_TIMEOUT:-120}

for f in "$kernel" "$initrd"; do
	[ -r "$f" ] || { echo "boot: cannot read $f" >&2; exit 2; }
done
arch=${JTSC_ARCH:-x86_64}
case $arch in
x86_64)	qbin=qemu-system-x86_64 qpkg=qemu-system-x86 con=ttyS0 ;;
arm64)	qbin=qemu-system-aarch64 qpkg=qemu-system-arm con=ttyAMA0 ;;
*)	echo "boot: unknown JTSC_ARCH $arch" >&2; exit 2 ;;
esac
apt=(apt-get -o DPkg::Lock::Timeout=600)	# wait for another install
command -v $qbin >/dev/null ||
	"${apt[@]}" install -y -q $qpkg >/dev/null ||
	{ "${apt[@]}" update -q >/dev/null && "${apt[@]}" install -y -q $qpkg >/dev/null; } ||
	{ echo "boot: $qbin missing" >&2; exit 2; }
mkdir -p "$(dirname "$log")"

accel=tcg
if [ "${JTSC_KVM:-}" = 1 ] && [ -w /dev/kvm ] && [ "$arch" = x86_64 ]; then
	accel=kvm
fi
# jtsc.accel only tells the report how the timings were taken
append="console=$con random.trust_cpu=off random.trust_bootloader=off panic=-1 jtsc.accel=$accel $*"

# shellcheck disable=SC2054 # commas are qemu syntax
case $arch in
x86_64)	machine=(-M pc -accel "$accel" -cpu qemu64,-rdrand,-rdseed) ;;
arm64)	machine=(-M virt,dtb-randomness=off -accel tcg -cpu cortex-a57) ;;
esac
# shellcheck disable=SC2206 # JTSC_QEMU_ARGS is word-split
qemu=($qbin "${machine[@]}"
	-smp 2 -m 512 -nographic -no-reboot -nic none
	-kernel "$kernel" -initrd "$initrd" -append "$append"
	${JTSC_QEMU_ARGS:-})

start=$(date +%s.%N)
if [ "${JTSC_INTERACTIVE:-}" = 1 ]; then
	"${qemu[@]}" | tee "$log.raw"
	rc=${PIPESTATUS[0]}
else
	timeout --foreground -k 5 "$tmo" "${qemu[@]}" <"${JTSC_STDIN:-/dev/null}" >"$log.raw" 2>&1
	rc=$?
fi
tr -d '\r' <"$log.raw" >"$log" && rm -f "$log.raw"
secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')

if grep -q '^JTSC done=1' "$log" || grep -q 'JTSC done=1$' "$log"; then
	echo "boot: ok in $secs s ($accel, $log)" >&2
	exit 0
fi

if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	why="hang: no 'JTSC done=1' within ${tmo} s"
elif grep -q 'Kernel panic' "$log"; then
	why="kernel panic: $(grep -m1 'Kernel panic' "$log" | sed 's/^\[[^]]*\] //')"
else
	why="guest stopped without 'JTSC done=1' (qemu exit $rc)"
fi
echo "boot: FAILED: $why" >&2
echo "---- last 20 lines of $log ----" >&2
tail -n 20 "$log" >&2
echo "---- full log: $log" >&2
exit 1
