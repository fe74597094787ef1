#!/bin/bash
# pictures.sh OUTDIR RAWDIR CONDFILE HOSTDIR - the bench's pictures, as PNG:
#   OUTDIR/bitmaps.png     512x512 raw speculative samples, one byte a pixel
#                          (RAWDIR/spec_raw.bin, a TCG guest; else
#                          HOSTDIR/host-spec.bin, the host CPU) beside 512x512
#                          bytes of conditioned output (CONDFILE), each labelled
#   OUTDIR/timer-hist.png  histograms of the timer collector's raw samples (the
#                          low byte of each counter delta): TCG guest kernel
#                          (RAWDIR/timer_raw.bin) and host user-space analogue
#                          (HOSTDIR/host-timer.bin)
#   OUTDIR/spec-hist.png   the same for the speculative collector: TCG guest
#                          kernel (RAWDIR/spec_raw.bin) and the kernel's loop
#                          on the host (HOSTDIR/host-spec.bin)
# Uses netpbm (pnmcat, pnmtopng, pbmtext) and gnuplot.
set -euo pipefail
out=$1 raw=$2 cond=$3 host=$4
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/harness/measure/lib.sh"
cpu=$(host_cpu)
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT

# pgm FILE OUT: the first 256 KiB of FILE as a 512x512 P5 greymap, one byte
# a pixel, in sample order
pgm() {
	python3 - "$1" "$2" <<'PY'
import sys
data = open(sys.argv[1], "rb").read(262144)
if len(data) < 262144:
    sys.exit("pictures: %s has fewer than 262144 bytes" % sys.argv[1])
open(sys.argv[2], "wb").write(b"P5\n512 512\n255\n" + data)
PY
}
# labelled IMG TEXT: IMG with a caption above it
label() { pbmtext -builtin fixed "$2" | pnmpad -white -left 4 -top 4 -bottom 4 > "$w/t.pbm"
	pnmcat -white -tb -jleft "$w/t.pbm" "$1"; }

if [ -s "$raw/spec_raw.bin" ]; then src=$raw/spec_raw.bin; where="TCG guest"
else src=$host/host-spec.bin; where="host: $cpu"; fi
pgm "$src" "$w/raw.pgm"
label "$w/raw.pgm" "raw speculative samples (a byte a pixel), $where" > "$w/a.pgm"
if [ -s "$cond" ]; then
	pgm "$cond" "$w/cond.pgm"
	label "$w/cond.pgm" "jitter_tsc output (AF_ALG, a byte a pixel), TCG guest" > "$w/b.pgm"
	pnmpad -white -right 16 "$w/a.pgm" > "$w/a2.pgm"
	pnmcat -white -lr -jtop "$w/a2.pgm" "$w/b.pgm" | pnmtopng > "$out/bitmaps.png"
else
	pnmtopng < "$w/a.pgm" > "$out/bitmaps.png"
fi
echo "pictures: $out/bitmaps.png"

# hist FILE OUT: how often each byte value occurs among FILE's samples
hist() {
	python3 - "$1" "$2" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
c = [0] * 256
for b in d:
    c[b] += 1
with open(sys.argv[2], "w") as f:
    f.write("# n=%d distinct=%d\n" % (len(d), sum(1 for x in c if x)))
    for v in range(256):
        f.write("%d %d\n" % (v, c[v]))
PY
}
# histograms OUT "FILE|TITLE"...: one panel per FILE present, side by side
histograms() {
	local o=$1 p f t n k
	shift
	plots=()
	for p in "$@"; do
		f=${p%%|*}
		[ -s "$f" ] || continue
		hist "$f" "$w/h${#plots[@]}.dat"
		plots+=("$w/h${#plots[@]}.dat|${p#*|}")
	done
	[ ${#plots[@]} -gt 0 ] || { echo "pictures: no samples for $o"; return 0; }
	{
		echo "set terminal pngcairo size $((640 * ${#plots[@]})),480 font ',10'"
		echo "set output '$o'"
		echo "set multiplot layout 1,${#plots[@]}"
		echo "set style fill solid 0.8 noborder; set xrange [-1:256]"
		echo "set xlabel 'raw sample (low byte of the counter delta)'; set ylabel 'samples'"
		for p in "${plots[@]}"; do
			f=${p%%|*}; t=${p#*|}
			n=$(sed -n 's/^# n=\([0-9]*\).*/\1/p' "$f"); k=$(sed -n 's/.*distinct=\([0-9]*\).*/\1/p' "$f")
			echo "set title \"$t\\n$n samples, $k distinct values\" noenhanced"
			echo "plot '$f' using 1:2 with boxes notitle"
		done
		echo "unset multiplot"
	} > "$w/plot.gp"
	gnuplot "$w/plot.gp"
	echo "pictures: $o"
}
histograms "$out/timer-hist.png" "$raw/timer_raw.bin|TCG guest: kernel timer collector (timer_raw)" \
	"$host/host-timer.bin|host ($cpu): user-space timer analogue"
histograms "$out/spec-hist.png" "$raw/spec_raw.bin|TCG guest: kernel speculative collector (spec_raw)" \
	"$host/host-spec.bin|host ($cpu): the kernel's speculative loop"
