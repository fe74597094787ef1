#!/bin/bash
# guest.sh [raw|afalg] - boot the guest kernel once with dump-init as /init and
# a raw virtio disk, and copy out what it dumped (harness/measure/dump-init.c):
#   raw    raw samples of both collectors from debugfs (jitter_tsc/*_raw,
#          one byte per sample: the low byte of a cycle-counter delta),
#          estimated with ea_noniid -t u8; writes the guest.* lines of
#          harness/measure/results (a QEMU TCG guest: emulated CPU, host
#          TSC). The boot holds the shared build lock, so that no build
#          competes with the emulator while it samples, and waits for the
#          CPUs to be idle (GUEST_LOCK=0: neither).
#   afalg  conditioned jitter_tsc output read through AF_ALG (for quality.sh)
# Files go to out/measure/guest-MODE/. The dump leaves the guest on a raw
# virtio disk when the kernel's .config has VIRTIO_BLK, else on a second
# serial port (ttyS1, captured to a file); JTSC_DUMP_VIA=disk|serial forces.
# Env: KERNEL (default the guest bzImage), JTSC_SPEC_SAMPLES, JTSC_TIMER_SAMPLES
# (default 10^6 each), JTSC_TIMER_MS, JTSC_DUMP_BYTES, JTSC_GUEST_WORDS (more
# kernel command-line words), GUEST_RESULTS=0 (raw: the samples only, no
# estimate and nothing written to results; regimes.sh).
# JTSC_ARCH=arm64: the arm64 guest instead (build/obj-arm64, QEMU virt,
# cortex-a57; dump-init cross compiled), raw mode only, results under
# guest_arm64.* (the timer collector alone: no speculative one there).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/harness/measure/lib.sh"
mode=${1:-raw}
arch=${JTSC_ARCH:-x86_64}
case $arch in
x86_64)	kernel=${KERNEL:-$top/build/obj-guest/arch/x86/boot/bzImage}
	key=guest cc=gcc strip=strip out=$top/out/measure/guest-$mode
	qemu=qemu-system-x86_64 machine="-cpu qemu64,-rdrand,-rdseed -smp 2" ;;
arm64)	kernel=${KERNEL:-$top/build/obj-arm64/arch/arm64/boot/Image}
	key=guest_arm64 cc=aarch64-linux-gnu-gcc strip=aarch64-linux-gnu-strip
	out=$top/out/measure/guest-arm64-$mode
	qemu=qemu-system-aarch64 machine="-M virt -cpu cortex-a57 -smp 2"
	[ "$mode" = raw ] || { echo "guest: JTSC_ARCH=arm64 takes raw mode only" >&2; exit 2; } ;;
*)	echo "guest: unknown JTSC_ARCH $arch" >&2; exit 2 ;;
esac
export JTSC_ARCH=$arch
[ -r "$kernel" ] || { echo "guest: no kernel at $kernel (make kernel)" >&2; exit 2; }
mkdir -p "$out"
build_tools ea_noniid ea-core

# initramfs: the guest one (harness/guest/mkinitramfs.sh) + a newc archive
# whose /init is dump-init (later entries override earlier ones)
base=$top/out/measure/base.cpio
[ "$arch" = x86_64 ] || base=$top/out/measure/base-$arch.cpio
"$top/harness/guest/mkinitramfs.sh" "$base"
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
# shellcheck disable=SC2086 # CFLAGS_TOOLS: words
$cc -static $CFLAGS_TOOLS -I "$top/harness/guest" -o "$d/init" \
	"$top/harness/measure/dump-init.c" "$top/harness/guest/afalg.c"
$strip "$d/init"
(cd "$d" && echo init | cpio -o -H newc -R 0:0 --quiet) > "$d/extra.cpio"
cat "$base" "$d/extra.cpio" > "$out/initramfs.cpio"

img=$out/dump.bin
rm -f "$img" "$out"/*.bin "$out"/*.ea "$out/meta"	# no stale sections from an earlier run
via=${JTSC_DUMP_VIA:-}
if [ -z "$via" ]; then
	via=serial
	[ "$arch" = x86_64 ] || via=disk	# no ISA serial port to add on virt
	grep -qs '^CONFIG_VIRTIO_BLK=y' "$(dirname "$kernel")/../../../.config" && via=disk
fi
case $mode in
raw)
	words="jtsc.dump=raw jtsc.spec_samples=${JTSC_SPEC_SAMPLES:-1000000}"
	words="$words jtsc.timer_samples=${JTSC_TIMER_SAMPLES:-1000000} jtsc.timer_ms=${JTSC_TIMER_MS:-240000}"
	words="$words ${JTSC_GUEST_WORDS:-}"
	# the arm64 guest has the KUnit suite built in: not for this boot
	[ "$arch" = x86_64 ] || words="$words kunit.enable=0"
	size=$(( 64 << 20 ))
	tmo=$(( ${JTSC_TIMER_MS:-240000} / 1000 + 180 ))
	;;
afalg)
	bytes=${JTSC_DUMP_BYTES:-4194304}
	words="jtsc.dump=afalg jtsc.dump_bytes=$bytes"
	size=$(( bytes + (16 << 20) ))
	tmo=${JTSC_AFALG_TIMEOUT:-900}
	;;
*) echo "usage: guest.sh [raw|afalg]" >&2; exit 2 ;;
esac
if [ "$via" = disk ]; then
	truncate -s "$size" "$img"
	qargs="-drive file=$img,format=raw,if=virtio"
	words="$words jtsc.dump_dev=/dev/vda"
else
	# ttyS0 stays the console; the extra 16550 becomes ttyS1
	qargs="-serial mon:stdio -chardev file,id=jtscdump,path=$img -device isa-serial,chardev=jtscdump"
	words="$words jtsc.dump_dev=/dev/ttyS1"
fi
if [ "$mode" = raw ] && [ "${GUEST_LOCK:-1}" != 0 ]; then
	echo "guest: waiting for the build lock (no build while the guest samples)"
	exec 9> "$BUILD_LOCK"
	flock 9
	idle_wait
fi
echo "guest: booting (TCG) for a $mode dump via $via; progress lines from the guest follow"
# shellcheck disable=SC2086
JTSC_BOOT_TIMEOUT=$tmo JTSC_QEMU_ARGS="$qargs" \
	"$top/harness/guest/boot.sh" "$kernel" "$out/initramfs.cpio" "$out/guest.log" $words &
pid=$!
# echo the guest's progress lines while it runs
last=
while kill -0 "$pid" 2>/dev/null; do
	sleep 3
	l=$({ grep -h 'JTSC progress' "$out/guest.log.raw" 2>/dev/null | tr -d '\r' | tail -1; } || true)
	[ -z "$l" ] || [ "$l" = "$last" ] || echo "  $l"
	last=$l
done
wait "$pid"
exec 9>&-	# the lock, if taken
{ grep 'JTSC dump\.' "$out/guest.log" | sed 's/^.*JTSC /  /'; } || true
python3 "$top/harness/measure/undump.py" "$img" "$out"
rm -f "$img"
if [ "$mode" = afalg ]; then
	ls "$out"/afalg_*.bin > /dev/null 2>&1 && exit 0
	echo "guest: no AF_ALG output came out: $(grep -m1 -o 'jitter_tsc: .*' "$out/guest.log" || echo 'see guest.log')" >&2
	exit 1
fi

where="QEMU $($qemu --version | head -1 | awk '{print $4}') TCG guest, $machine, on $(host_cpu)"
ns() { awk -v n="$1" '$1==n{ if ($4) printf "%.2f", $3/$4 }' "$out/meta"; }
cnt() { awk -v n="$1" '$1==n{print $4}' "$out/meta"; }
if [ ! -s "$out/spec_raw.bin" ] && [ ! -s "$out/timer_raw.bin" ]; then
	echo "guest: no raw samples came out: $(grep -m1 -o 'jitter_tsc: .*' "$out/guest.log" || echo 'see guest.log')" >&2
	exit 1
fi
[ "${GUEST_RESULTS:-1}" != 0 ] || exit 0
for c in spec timer; do
	[ -s "$out/${c}_raw.bin" ] || continue
	echo "guest: estimating ${c}_raw ($(cnt ${c}_raw) samples$([ $c = spec ] && echo ', about a minute'))"
	"$M/ea_noniid" -t u8 "$out/${c}_raw.bin" > "$out/${c}_raw.ea"
	set_results $key.$c.samples "$(cnt ${c}_raw)"
	set_results $key.$c.ns_per_sample "$(ns ${c}_raw)"
	set_hmin $key.$c "$out/${c}_raw.ea" "$where"
	set_margin $key.$c "$out/${c}_raw.bin" "$out/${c}_raw.ea" "$where"
done
set_results $key.where "$where"
set_results $key.date "$(date -u +%Y-%m-%dT%H:%MZ)"
kver=$(file -b "$kernel" 2>/dev/null | sed -n 's/.*version \([^,]*\),.*/\1/p')
set_results $key.kernel "${kver:-$kernel} ($kernel)"
set_results $key.transport "$via"
set_results $key.loadavg "$(cut -d' ' -f1 /proc/loadavg) at the end of the run (TCG rates slow down under host load)"
grep "^$key\\." "$RESULTS"
