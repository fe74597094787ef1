#!/bin/sh
# sum-bits.sh - how many low bits of each sum the speculative loop should take.
# Builds host-spec from copies of arch/x86/include/asm/tsc_jitter.h that
# differ only in TSC_JITTER_BITS_PER_SUM, runs each RUNS times on the host
# CPU (10^6 raw bits a run) and prints, per variant, the median time per raw
# bit, the lowest SP 800-90B estimate per bit (ea_noniid) and what half of
# it credits per sum. Writes explore.spec.bits_per_sum.N lines to
# harness/measure/results (check-cutoffs.py does not read them: the credit
# rests on the loop as it is, measured by host.sh and guest.sh).
# Takes about 10 s per run: 4 variants x 20 runs, 13 minutes.
# usage: harness/measure/sum-bits.sh [RUNS [BITS...]]   (default 20, 1 2 4 8)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/harness/measure/lib.sh"
build_tools
runs=${1:-20}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- 1 2 4 8
out=$top/out/measure/sum-bits; mkdir -p "$out/asm"
hdr=$top/arch/x86/include/asm/tsc_jitter.h
grep -q '^#define TSC_JITTER_BITS_PER_SUM' "$hdr" ||
	{ echo "sum-bits: no TSC_JITTER_BITS_PER_SUM in $hdr" >&2; exit 1; }
printf '%-12s %10s %16s %-12s %14s\n' "bits a sum" "ns/bit" "lowest H/bit" "(estimator)" "half, per sum"
for n in "$@"; do
	sed "s/^#define TSC_JITTER_BITS_PER_SUM.*/#define TSC_JITTER_BITS_PER_SUM $n/" "$hdr" > "$out/asm/tsc_jitter.h"
	gcc $CFLAGS_TOOLS -mno-popcnt -idirafter "$out" -o "$out/host-spec-$n" "$top/harness/measure/host-spec.c"
	: > "$out/runs-$n.txt"
	for i in $(seq 1 "$runs"); do
		"$out/host-spec-$n" -n 1000000 "$out/bits.bin" > "$out/run.txt"
		"$M/ea_noniid" -t bits "$out/bits.bin" > "$out/run.ea"
		echo "$(awk '/^ns_per_bit/{print $2}' "$out/run.txt") $(ea_min "$out/run.ea") $(ea_which "$out/run.ea")" >> "$out/runs-$n.txt"
	done
	ns=$(awk '{print $1}' "$out/runs-$n.txt" | median)
	read -r h est <<-EOT
	$(sort -k2,2g "$out/runs-$n.txt" | head -1 | awk '{print $2, $3}')
	EOT
	half=$(awk -v h="$h" -v n="$n" 'BEGIN{printf "%.3f", h * n / 2}')
	printf '%-12s %10s %16s %-12s %14s\n' "$n" "$ns" "$h" "($est)" "$half"
	set_results "explore.spec.bits_per_sum.$n" \
		"lowest $h bit per bit ($est) of $runs runs, median $ns ns/bit, $(date -u +%Y-%m-%d), sum-bits.sh"
done
