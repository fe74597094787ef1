#!/bin/bash
# pictures.sh OUTDIR RAWDIR CONDFILE HOSTDIR - the bench's pictures, as PNG:
#   OUTDIR/bitmaps.png     512x512 bitmap of raw speculative bits (RAWDIR/spec_raw.bin,
#                          a TCG guest; else HOSTDIR/host-spec.bin, the host CPU) beside
#                          512x512 of conditioned output (CONDFILE), each labelled
#   OUTDIR/timer-hist.png  histograms of timer-collector deltas: TCG guest kernel
#                          (RAWDIR/timer_raw.bin) and host user-space analogue
#                          (HOSTDIR/host-timer.bin)
# Uses netpbm (pbmtext, pnmcat, pnmtopng) and gnuplot.
set -euo pipefail
out=$1 raw=$2 cond=$3 host=$4
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/harness/measure/lib.sh"
cpu=$(host_cpu)
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT

# pbm FILE LSBFIRST OUT: the first 32 KiB of FILE as a 512x512 P4 bitmap;
# with LSBFIRST=1 the bits of each byte are reversed so that pixels follow
# sample order (spec_raw: sample 8k+j is bit j of byte k)
pbm() {
	python3 - "$1" "$2" "$3" <<'PY'
import sys
data = open(sys.argv[1], "rb").read(32768)
if len(data) < 32768:
    sys.exit("pictures: %s has fewer than 32768 bytes" % sys.argv[1])
if sys.argv[2] == "1":
    data = bytes(int("{:08b}".format(b)[::-1], 2) for b in data)
open(sys.argv[3], "wb").write(b"P4\n512 512\n" + data)
PY
}
# labelled PBM TEXT: IMG with a caption above it
label() { pbmtext -builtin fixed "$2" | pnmpad -white -left 4 -top 4 -bottom 4 > "$w/t.pbm"
	pnmcat -white -tb -jleft "$w/t.pbm" "$1"; }

if [ -s "$raw/spec_raw.bin" ]; then src=$raw/spec_raw.bin; where="TCG guest"
else src=$host/host-spec.bin; where="host: $cpu"; fi
pbm "$src" 1 "$w/raw.pbm"
label "$w/raw.pbm" "raw speculative bits, $where" > "$w/a.pbm"
if [ -s "$cond" ]; then
	pbm "$cond" 0 "$w/cond.pbm"
	label "$w/cond.pbm" "jitter_tsc output (AF_ALG), TCG guest" > "$w/b.pbm"
	pnmpad -white -right 16 "$w/a.pbm" > "$w/a2.pbm"
	pnmcat -white -lr -jtop "$w/a2.pbm" "$w/b.pbm" | pnmtopng > "$out/bitmaps.png"
else
	pnmtopng < "$w/a.pbm" > "$out/bitmaps.png"
fi
echo "pictures: $out/bitmaps.png"

# hist FILE OUT: histogram of u64 deltas between the 0.5th and 99th percentile
hist() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
v = sorted(struct.unpack("<%dQ" % (len(d) // 8), d[: len(d) // 8 * 8]))
import math
lo, hi = v[len(v) // 200], v[len(v) * 99 // 100]
g = 0                           # the counter's step: bins are multiples of it
for x in v:
    g = math.gcd(g, x - v[0])
    if g == 1:
        break
g = max(g, 1)
nb = 150
width = max(g, -(-(hi - lo + 1) // nb // g) * g)
counts = {}
for x in v:
    if lo <= x <= hi:
        b = lo + (x - lo) // width * width
        counts[b] = counts.get(b, 0) + 1
with open(sys.argv[2], "w") as f:
    f.write("# n=%d lo=%d hi=%d width=%d\n" % (len(v), lo, hi, width))
    for b in sorted(counts):
        f.write("%d %d\n" % (b, counts[b]))
PY
}
plots=()
if [ -s "$raw/timer_raw.bin" ]; then
	hist "$raw/timer_raw.bin" "$w/g.dat"
	plots+=("$w/g.dat|TCG guest: kernel timer collector (timer_raw)")
fi
if [ -s "$host/host-timer.bin" ]; then
	hist "$host/host-timer.bin" "$w/h.dat"
	plots+=("$w/h.dat|host ($cpu): user-space analogue")
fi
[ ${#plots[@]} -gt 0 ] || { echo "pictures: no timer deltas"; exit 0; }
{
	echo "set terminal pngcairo size $((640 * ${#plots[@]})),480 font ',10'"
	echo "set output '$out/timer-hist.png'"
	echo "set multiplot layout 1,${#plots[@]}"
	echo "set style fill solid 0.8 noborder; set xlabel 'delta (cycle-counter ticks)'; set ylabel 'samples'"
	for p in "${plots[@]}"; do
		f=${p%%|*}; t=${p#*|}
		n=$(sed -n 's/^# n=\([0-9]*\).*/\1/p' "$f")
		echo "set title \"$t\\n$n deltas, 0.5th-99th percentile\" noenhanced"
		echo "plot '$f' using 1:2 with boxes notitle"
	done
	echo "unset multiplot"
} > "$w/plot.gp"
gnuplot "$w/plot.gp"
echo "pictures: $out/timer-hist.png"
