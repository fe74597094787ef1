#!/bin/sh
# cross-run.sh - the same walk run twice must not predict itself: runs the
# kernel's loop (host-spec, the header's own code) twice from a new buffer,
# N samples each (default 300000), and compares the runs with cross-run.py
# (agreement at the same pass, and where run 1 is not its most common
# value, each against chance); fails if either is over MAX_RATIO (default
# 1.5). Then checks the walk's DRAM bound in the first run's output: at
# most 1000 loads per 64 ms on any aligned 8 KiB at that run's rate.
# usage: harness/measure/cross-run.sh [N]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/harness/measure/lib.sh"
n=${1:-300000}
build_tools host-spec
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
"$M/host-spec" -n "$n" "$d/1.bin" > "$d/1.txt"
"$M/host-spec" -n "$n" "$d/2.bin" > "$d/2.txt"
echo "host: $(host_cpu); the loop of ${HDR#"$top"/}, twice, $n samples each"
awk '/^(ns_per_sample|dram_)/' "$d/1.txt"
python3 "$top/harness/measure/cross-run.py" --max-ratio "${MAX_RATIO:-1.5}" "$d/1.bin" "$d/2.bin"
r=$(awk '$1 == "dram_8k_per_64ms" { print $2 }' "$d/1.txt")
[ "${r:-99999}" -le 1000 ] || { echo "cross-run: $r loads per 64 ms on one 8 KiB, over 1000"; exit 1; }
echo "cross-run: no prediction beyond chance; DRAM bound held ($r loads per 64 ms per 8 KiB)"
