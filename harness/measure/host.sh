#!/bin/sh
# host.sh - measure both collector loops on the host CPU and estimate their
# min-entropy with ea_noniid; writes the host.* lines of harness/measure/results.
# The speculative loop is the kernel's own (arch/x86/include/asm/tsc_jitter.h);
# the timer loop is a user-space analogue (host-timer.c).
# usage: harness/measure/host.sh [SAMPLES]   (default 1000000)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
n=${1:-1000000}
. "$top/harness/measure/lib.sh"
build_tools
out=$top/out/measure; mkdir -p "$out"
cpu=$(host_cpu)

echo "host: speculative loop, $n raw bits ($cpu)"
"$M/host-spec" -n "$n" "$out/host-spec.bin" | tee "$out/host-spec.txt" | head -1
"$M/ea_noniid" -t bits "$out/host-spec.bin" > "$out/host-spec.ea"
echo "host: timer-loop analogue, $n deltas"
"$M/host-timer" -n "$n" "$out/host-timer.bin" | tee "$out/host-timer.txt" | head -1
"$M/ea_noniid" -t u64 "$out/host-timer.bin" > "$out/host-timer.ea"

spec_ns=$(awk '/^ns_per_bit/{print $2}' "$out/host-spec.txt")
timer_ns=$(awk '/^ns_per_sample/{print $2}' "$out/host-timer.txt")
set_results host.cpu "$cpu"
set_results host.date "$(date -u +%Y-%m-%dT%H:%MZ)"
set_results host.loadavg "$(cut -d' ' -f1 /proc/loadavg) (other work on the 2 CPUs lowers the figures)"
set_results host.spec.samples "$n"
set_results host.spec.ns_per_sample "$spec_ns"
set_hmin host.spec "$out/host-spec.ea"
set_results host.timer.samples "$n"
set_results host.timer.ns_per_sample "$timer_ns"
set_hmin host.timer "$out/host-timer.ea"
set_results host.timer.note "user-space analogue (host-timer.c), low 8 bits of each delta"
grep '^host\.' "$RESULTS"
