#!/bin/sh
# cross-run.sh - the same walk run twice must not predict itself: runs a loop
# twice from a new buffer, N samples each (default 300000), and compares the
# runs with cross-run.py (agreement at the same pass and where run 1 is not
# its most common value, each against chance; how much a guess at run 1's
# sample gains from run 2's); fails past its limits. For the kernel's loop,
# also checks the walk's DRAM bound in the first run's output: at most 1000
# loads per 64 ms on any aligned 8 KiB at that run's rate.
# LOOP: kernel (default: host-spec, the header's own code), huge (the same
# with its buffer in transparent huge pages), cached (explore-loops' cached
# loop of 8 MiB, the loop before the DRAM walk; expected to fail).
# -r records the figures as crossrun.LOOP.* in harness/measure/results.
# usage: harness/measure/cross-run.sh [-r] [-l LOOP] [N]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/harness/measure/lib.sh"
rec= loop=kernel
while getopts rl: o; do
	case $o in r) rec=1 ;; l) loop=$OPTARG ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
n=${1:-300000}
build_tools host-spec
case $loop in
kernel) run() { "$M/host-spec" -n "$n" "$1"; } ;;
huge) run() { "$M/host-spec" -w huge -n "$n" "$1"; } ;;
cached)
	gcc $CFLAGS_TOOLS -mno-popcnt -o "$M/explore-loops" "$top/harness/measure/explore-loops.c" "$M/hweight.o"
	run() { "$M/explore-loops" -l cached -o 23 -n "$n" "$1"; } ;;
*) echo "cross-run: no loop $loop" >&2; exit 2 ;;
esac
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
run "$d/1.bin" > "$d/1.txt"
run "$d/2.bin" > "$d/2.txt"
echo "host: $(host_cpu); loop $loop, twice, $n samples each"
awk '/^(ns_per_sample|dram_)/' "$d/1.txt"
rc=0
python3 "$top/harness/measure/cross-run.py" "$d/1.bin" "$d/2.bin" > "$d/x.txt" || rc=1
cat "$d/x.txt"
if [ -n "$rec" ]; then
	set_results "crossrun.$loop.cpu" "$(host_cpu)"
	set_results "crossrun.$loop.date" "$(date -u +%Y-%m-%dT%H:%MZ)"
	set_results "crossrun.$loop.samples" "$n x 2 runs, $(awk '$1 == "ns_per_sample" { print $2 }' "$d/1.txt") ns per pass"
	set_results "crossrun.$loop.result" "$(awk '/^same_pass/ { printf "same pass %s vs %s (x%s); ", $2, $4, $6 }
		/^slow_pass/ { printf "slow pass %s vs %s (x%s); ", $2, $4, $6 }
		/^guess/ { printf "guess %s bit alone, %s given the other run", $3, $5 }' "$d/x.txt")"
fi
[ "$rc" = 0 ] || exit 1
[ "$loop" != kernel ] && exit 0
r=$(awk '$1 == "dram_8k_per_64ms" { print $2 }' "$d/1.txt")
[ "${r:-99999}" -le 1000 ] || { echo "cross-run: $r loads per 64 ms on one 8 KiB, over 1000"; exit 1; }
echo "cross-run: no prediction beyond the limits; DRAM bound held ($r loads per 64 ms per 8 KiB)"
