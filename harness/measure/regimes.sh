#!/bin/bash
# regimes.sh - a new speculative buffer's first cycle against the steady
# state after it, in the kernel: a TCG guest (guest.sh raw) reads one cycle
# (2^17 samples, every line of a new 8 MiB buffer once) and then 10^6 more
# from debugfs spec_raw (a new instance and buffer at each open), booted
# with init_on_alloc=0 and with init_on_alloc=1 (a zeroed buffer whose
# lines are all dirty in the first cycle). For each regime: the kernel's
# estimator (ea-core) over every startup-sized window (min, median, max),
# the step the kernel would take from the first three windows, and
# ea_noniid over the whole regime. A TCG guest times the emulator (QEMU
# decodes CLFLUSH as a no-op): these figures say whether the first cycle
# reads differently from the steady state in the kernel's own code path,
# not what DRAM gives; they justify no credit. Rows go to harness/measure/
# results as guest_regime.<host>.init_on_alloc<N>.* (host: this CPU).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/harness/measure/lib.sh"
build_tools ea-core ea_noniid
cycle=$(awk '$2 == "TSC_JITTER_MEM_ORDER" { print 2 ^ ($3 - 6) }' "$HDR")
host=$(host_cpu | tr -c 'A-Za-z0-9\n' '_' | sed 's/__*/_/g; s/_$//')
params=$("$top/harness/measure/check-cutoffs.py" --params)
margin=$(echo "$params" | awk '$1 == "margin" { print $2 }')
credits=$(echo "$params" | awk '$1 == "step" { printf "%s ", $4 }')
range() { sort -g | awk '{ a[n++] = $1 } END { printf "%.3f %.3f %.3f %d", a[0], a[int(n / 2)], a[n - 1], n }'; }
windows() {	# FILE: the kernel's estimate of each startup-sized window
	sz=$(stat -c %s "$1") o=0
	while [ $((o + RT_WINDOW)) -le "$sz" ]; do
		"$M/ea-core" -o "$o" -n "$RT_WINDOW" "$1" | awk '/^H_min/ { print $2 }'
		o=$((o + RT_WINDOW)); done
}
out=$top/out/measure/guest-raw
for ioa in 0 1; do
	echo "regimes: init_on_alloc=$ioa"
	JTSC_SPEC_SAMPLES=$((cycle + 1000000)) JTSC_TIMER_SAMPLES=512 JTSC_TIMER_MS=1000 \
		JTSC_GUEST_WORDS="init_on_alloc=$ioa" GUEST_RESULTS=0 "$top/harness/measure/guest.sh" raw
	d=$top/out/measure/regimes-$ioa; mkdir -p "$d"
	head -c "$cycle" "$out/spec_raw.bin" > "$d/first.bin"
	tail -c +$((cycle + 1)) "$out/spec_raw.bin" > "$d/steady.bin"
	k=guest_regime.$host.init_on_alloc$ioa
	for r in first steady; do
		w=$(windows "$d/$r.bin")
		full=$("$M/ea_noniid" -q -t u8 "$d/$r.bin" | awk '/^H_min/ { print $2 }')
		step=$(echo "$w" | head -3 | sort -g | sed -n 2p | awk -v m="$margin" -v l="$credits" '
			{ k = split(l, c, " "); for (i = k; i >= 1 && c[i] * m / 256 > $1; i--) ; print i < 1 ? 0 : c[i] }')
		set_results "$k.$r.samples" "$(stat -c %s "$d/$r.bin")"
		set_results "$k.$r.windows_min_median_max_n" "$(echo "$w" | range)"
		set_results "$k.$r.ea_noniid" "$full"
		set_results "$k.$r.step_from_3_windows" "$step/256"
	done
	set_results "$k.where" "QEMU TCG guest (-cpu qemu64 -smp 2) on $(host_cpu), $(date -u +%Y-%m-%dT%H:%MZ)"
	grep "^$k\\." "$RESULTS"
done
