#!/bin/bash
# boot-windows.sh [N] - boot the guest kernel N times (default 10) on each
# collector under QEMU TCG with dump-init as /init, and keep the boot window
# of each: the first JTSC_STARTUP_SAMPLES raw samples the boot's estimate
# took (the first of its three windows; debugfs
# jitter_tsc/boot_spec_raw on a default boot, boot_timer_raw with
# jitter_tsc.collectors=timer). check-margin.py reads them.
# Writes harness/measure/results-boot/CPU.COMMIT/COLLECTOR-NN.u8 (NN the
# next free number) and one line per window in its `windows` file: the
# kernel's own log line of the generation's estimate (the median of its three
# windows, the first of them this one: estimate, estimator, credit) and
# the host's load. CPU is the host's model name, family and model; COMMIT the
# last commit of the kernel code (as make bench names it; -dirty if it is
# not committed). The kernel is copied first (a build may replace it).
# Env: KERNEL (default the guest bzImage), COMMIT (what built it), LOAD=1
# (boot beside lib.sh's load, two CPU-bound xz; LOADAVG then says "+2xz").
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/harness/measure/lib.sh"
n=${1:-10}
d=$(mktemp -d); trap 'load_stop; rm -rf "$d"' EXIT
cp "${KERNEL:-$top/build/obj-guest/arch/x86/boot/bzImage}" "$d/bzImage"

rev=${COMMIT:-$(git -C "$top" log -1 --format=%h -- arch crypto drivers include lib)}
[ -n "${COMMIT:-}" ] || git -C "$top" diff --quiet HEAD -- arch crypto drivers include lib || rev=$rev-dirty
cpu=$(awk -F': ' '/^model name/{n=$2} /^cpu family/{f=$2} /^model\t/{m=$2} END{n = tolower(n)
	gsub(/\((r|tm)\)|cpu|@.*/, "", n); gsub(/[^a-z0-9]+/, "-", n); sub(/-$/, "", n)
	printf "%s-f%s-m%s", n, f, m}' /proc/cpuinfo)
out=$top/harness/measure/results-boot/$cpu.$rev
mkdir -p "$out"
[ -f "$out/windows" ] || printf '%s\n' \
	"# Boot windows (boot-windows.sh): $(file -b "$d/bzImage" | sed -n 's/.*version \([^,]*\),.*/\1/p'), series $rev," \
	"# QEMU $(qemu-system-x86_64 --version | head -1 | awk '{print $4}') TCG, -cpu qemu64,-rdrand,-rdseed -smp 2, on $(host_cpu), $cpu." \
	"# FILE DATE KERNEL_ESTIMATE ESTIMATOR CREDIT(/256, 0 refused) LOADAVG(+2xz: LOAD=1)" > "$out/windows"

# initramfs: the guest's, with dump-init as /init (later entries win)
"$top/harness/guest/mkinitramfs.sh" "$top/out/measure/base.cpio"
# shellcheck disable=SC2086 # CFLAGS_TOOLS: words
gcc -static $CFLAGS_TOOLS -I "$top/harness/guest" -o "$d/init" \
	"$top/harness/measure/dump-init.c" "$top/harness/guest/afalg.c"
(cd "$d" && echo init | cpio -o -H newc -R 0:0 --quiet) > "$d/extra.cpio"
cat "$top/out/measure/base.cpio" "$d/extra.cpio" > "$d/initramfs.cpio"

load=
[ "${LOAD:-0}" != 1 ] || { load_start; load=+2xz; }
for i in $(seq "$n"); do
	for c in spec timer; do
		# one sample of each 10^6-sample dump: only the boot windows are wanted
		words="jtsc.dump=raw jtsc.spec_samples=1 jtsc.timer_samples=1 jtsc.dump_dev=/dev/vda"
		name=speculative
		[ "$c" = spec ] || { words="$words jitter_tsc.collectors=timer"; name=timer; }
		rm -rf "$d/dump"
		truncate -s 0 "$d/dump.img"; truncate -s 4M "$d/dump.img"
		# shellcheck disable=SC2086 # words
		JTSC_QEMU_ARGS="-drive file=$d/dump.img,format=raw,if=virtio" \
			"$top/harness/guest/boot.sh" "$d/bzImage" "$d/initramfs.cpio" "$d/guest.log" $words ||
			{ echo "boot-windows: boot $i ($c) failed" >&2; continue; }
		python3 "$top/harness/measure/undump.py" "$d/dump.img" "$d/dump" > /dev/null
		w=$d/dump/boot_${c}_raw.bin
		# "NAME collector: E bit per sample (ESTIMATOR, median of 3 x N samples), credit
		# C/256 bit", or "..., under M times the floor ..." when refused: E is the
		# median of the generation's three estimate windows, the first of which is w
		log=$(grep -a -m1 "jitter_tsc: $name collector: .* bit per sample" "$d/dump/dmesg.bin" || true)
		if [ -z "$log" ] || [ "$(tr -d '\0' < "$w" | wc -c)" = 0 ]; then
			echo "boot-windows: boot $i ($c) captured no window: ${log:-no estimate logged}" >&2
			continue
		fi
		k=1; while [ -e "$(printf '%s/%s-%02d.u8' "$out" "$c" "$k")" ]; do k=$((k + 1)); done
		f=$(printf '%s-%02d.u8' "$c" "$k")
		cp "$w" "$out/$f"
		echo "$log" | sed 's/.*collector: //' | awk -v f="$f" -v t="$(date -u +%Y-%m-%dT%H:%MZ)" \
			-v l="$(cut -d' ' -f1 /proc/loadavg)$load" '{
			e = $1; est = $5; sub(/^\(/, "", est); sub(/[,)]$/, "", est); c = 0
			for (i = 6; i < NF; i++) if ($i == "credit") { c = $(i + 1); sub(/\/256$/, "", c) }
			print f, t, e, est, c, l }' | tee -a "$out/windows"
	done
done
echo "boot-windows: $out"
