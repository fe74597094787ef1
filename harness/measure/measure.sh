#!/bin/bash
# measure.sh - `make measure`: this CPU's figures, in a few minutes, with no
# kernel build. The speculative loop (arch/x86/include/asm/tsc_jitter.h,
# compiled in user space as host-spec) is run for 10^6 samples: ns per
# pass, the kernel's own runtime estimate (crypto/jitter_tsc_estimate.c,
# ea-core) over all of them and over each startup-sized window of a new
# buffer's first cycle and of the steady state after it, ea_noniid's minimum
# over all of SP 800-90B beside the credit the kernel would take, the DRAM
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
build_tools host-spec ea-core ea_noniid peer
d=$top/out/measure; mkdir -p "$d"
cpu=$(host_cpu)
echo "jitter_tsc measure, $(date -u '+%Y-%m-%d %H:%M UTC'), series $(git -C "$top" describe --always --dirty 2>/dev/null || echo '?')"
echo "CPU: $cpu"
echo
# one cycle of the walk visits every line of the buffer once: a new buffer's
# first cycle, then 10^6 samples of the steady state that output is made of
cycle=$(awk '$2 == "TSC_JITTER_MEM_ORDER" { print 2 ^ ($3 - 6) }' "$HDR")
"$M/host-spec" -n $((cycle + 1000000)) "$d/measure-all.bin" > "$d/measure-spec.txt"
head -c "$cycle" "$d/measure-all.bin" > "$d/measure-first.bin"
tail -c 1000000 "$d/measure-all.bin" > "$d/measure-spec.bin"
val() { awk -v k="$1" '$1 == k { print $2 }' "$d/measure-spec.txt"; }
"$M/ea-core" "$d/measure-spec.bin" > "$d/measure-spec.ea"
# windows FILE N: the kernel's estimate of each startup-sized window of its first N samples
windows() {
	o=0; while [ $((o + RT_WINDOW)) -le "$2" ]; do
		"$M/ea-core" -o "$o" -n "$RT_WINDOW" "$1" | awk '/^H_min/ { print $2 }'
		o=$((o + RT_WINDOW)); done
}
range() { sort -g | awk '{ a[n++] = $1 } END { printf "min %.3f  median %.3f  max %.3f  (%d)", a[0], a[int(n / 2)], a[n - 1], n }'; }
w=$(windows "$d/measure-spec.bin" 1000000)
w1=$(windows "$d/measure-first.bin" "$cycle")
full=$("$M/ea_noniid" -q -t u8 "$d/measure-spec.bin" | awk '/^H_min/ { print $2 }')
params=$("$top/harness/measure/check-cutoffs.py" --params)
margin=$(echo "$params" | awk '$1 == "margin" { print $2 }')
# the step the kernel takes: the median of a new buffer's first three windows over the margin
credits=$(echo "$params" | awk '$1 == "step" { printf "%s ", $4 }')
credit=$(echo "$w1" | head -3 | sort -g | sed -n 2p | awk -v m="$margin" -v l="$credits" '
	{ k = split(l, c, " "); for (i = k; i >= 1 && c[i] * m / 256 > $1; i--) ; print i < 1 ? 0 : c[i] }')
printf 'The speculative loop (%s, this process; %d first-cycle passes, then 10^6)\n' "${HDR#"$top"/}" "$cycle"
printf '  ns per pass                                 %8.1f\n' "$(val ns_per_sample)"
printf '  runtime estimate, steady 10^6 samples, bit  %8.3f  (%s)\n' \
	"$(awk '/^H_min/ { print $2 }' "$d/measure-spec.ea")" "$(awk '/^estimator/ { print $2 }' "$d/measure-spec.ea")"
printf '  startup-sized windows, first cycle, bit     %s\n' "$(echo "$w1" | range)"
printf '  startup-sized windows, steady state, bit    %s\n' "$(echo "$w" | range)"
printf '  ea_noniid (all of SP 800-90B), steady, bit  %8.3f\n' "$full"
# the kernel's estimate over ea_noniid's minimum of the same window, for the first 8
ratio=$(o=0; while [ $o -lt $((8 * RT_WINDOW)) ]; do
	head -c $((o + RT_WINDOW)) "$d/measure-spec.bin" | tail -c "$RT_WINDOW" > "$d/measure-win.bin"
	k=$("$M/ea-core" "$d/measure-win.bin" | awk '/^H_min/ { print $2 }')
	"$M/ea_noniid" -q -t u8 "$d/measure-win.bin" | awk -v k="$k" '/^H_min/ { print k / $2 }'
	o=$((o + RT_WINDOW)); done | sort -g | tail -1)
printf '  kernel / ea_noniid, same window, highest    %8.3f  (8 windows; at most 1.15)\n' "$ratio"
printf '  credit, from a new buffer: 3 windows       %5s/256 bit (median over margin %s)\n' "$credit" "$margin"
awk -v f="$full" -v c="$credit" 'BEGIN { r = c ? f / (c / 256) : 0
	printf "  full minimum / credit                       %8.2f  (%s: at least 2)\n", r, c && r < 2 ? "TOO LOW" : "ok" }'
printf '  DRAM loads per 64 ms on any 8 KiB           %8s  (at this rate; %s at one pass per 62.5 ns; bound 1000)\n' \
	"$(val dram_8k_per_64ms)" "$(val dram_8k_per_64ms_at_62.5ns)"
"$top/harness/measure/cross-run.sh" | awk '/^same_pass|^slow_pass/ { printf "  cross-run, %-9s same %s, chance %s, ratio %s\n", $1, $2, $4, $6 }'
echo
echo "jitter_tsc (core and block path) beside jitterentropy 6.12, alternating on CPU 0"
"$M/peer" -r "${MEASURE_ROUNDS:-7}" -b "${MEASURE_BLOCKS:-64}" -c 0 | tee "$d/peer.txt"
