#!/bin/bash
# measure.sh - `make measure`: this CPU's figures, in a few minutes, with no
# kernel build. The speculative loop (arch/x86/include/asm/tsc_jitter.h,
# compiled in user space as host-spec) is run for 10^6 samples: ns per
# pass, the kernel's own runtime estimate (crypto/jitter_tsc_estimate.c,
# ea-core) over all of them and over each startup-sized window, the DRAM
# bound of the walk and the cross-run check; then jitter_tsc's core and
# block path beside Linux 6.12's jitterentropy, alternating in one run on
# one CPU (peer). Ends with peer's line
#   jitter_tsc / jitterentropy credited bits per microsecond: R
# Needs only the base tree unpacked (build/base, as make tree does) for
# hweight.S and jitterentropy.c.
# Env: MEASURE_ROUNDS (default 7), MEASURE_BLOCKS (default 64).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
PROG=measure
. "$top/harness/lib.sh"
base_ensure
. "$top/harness/measure/lib.sh"
build_tools host-spec ea-core peer
d=$top/out/measure; mkdir -p "$d"
cpu=$(host_cpu)
echo "jitter_tsc measure, $(date -u '+%Y-%m-%d %H:%M UTC'), series $(git -C "$top" describe --always --dirty 2>/dev/null || echo '?')"
echo "CPU: $cpu"
echo
"$M/host-spec" -n 1000000 "$d/measure-spec.bin" > "$d/measure-spec.txt"
val() { awk -v k="$1" '$1 == k { print $2 }' "$d/measure-spec.txt"; }
"$M/ea-core" "$d/measure-spec.bin" > "$d/measure-spec.ea"
w=$(o=0; while [ $((o + RT_WINDOW)) -le 1000000 ]; do
	"$M/ea-core" -o "$o" -n "$RT_WINDOW" "$d/measure-spec.bin" | awk '/^H_min/ { print $2 }'
	o=$((o + RT_WINDOW)); done | sort -g)
printf 'The speculative loop (%s, 10^6 samples, this process)\n' "${HDR#"$top"/}"
printf '  ns per pass                                 %8.1f\n' "$(val ns_per_sample)"
printf '  runtime estimate, all 10^6 samples, bit     %8.3f  (%s)\n' \
	"$(awk '/^H_min/ { print $2 }' "$d/measure-spec.ea")" "$(awk '/^estimator/ { print $2 }' "$d/measure-spec.ea")"
echo "$w" | awk '{ a[n++] = $1 } END { printf "  startup-sized windows (%d of %d), bit      min %.3f  median %.3f  max %.3f\n", n, 12288, a[0], a[int(n / 2)], a[n - 1] }'
printf '  DRAM loads per 64 ms on any 8 KiB           %8s  (at this rate; %s at one pass per 62.5 ns; bound 1000)\n' \
	"$(val dram_8k_per_64ms)" "$(val dram_8k_per_64ms_at_62.5ns)"
"$top/harness/measure/cross-run.sh" | awk '/^same_pass|^slow_pass/ { printf "  cross-run, %-9s same %s, chance %s, ratio %s\n", $1, $2, $4, $6 }'
echo
echo "jitter_tsc (core and block path) beside jitterentropy 6.12, alternating on CPU 0"
"$M/peer" -r "${MEASURE_ROUNDS:-7}" -b "${MEASURE_BLOCKS:-64}" -c 0 | tee "$d/peer.txt"
