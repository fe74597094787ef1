#!/bin/bash
# quality.sh [FILE] - statistical tests of jitter_tsc's conditioned output.
# Without FILE, reads JTSC_DUMP_BYTES (default 64 MiB) of jitter_tsc output
# through AF_ALG in a TCG guest (guest.sh afalg) and tests that. Runs
# rngtest (FIPS 140-2, rng-tools5) over the whole file and a dieharder subset,
# each test on the file from its start with as many p-samples as the file
# holds without rewinding (a rewound file fails good generators). Prints
# counts, and writes them to out/measure/quality.txt.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/out/measure; mkdir -p "$out"
for p in rngtest:rng-tools5 dieharder:dieharder; do
	command -v "${p%%:*}" >/dev/null || apt-get install -y -q "${p#*:}" >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null 2>&1 && apt-get install -y -q "${p#*:}" >/dev/null 2>&1; }
done
file=${1:-}
if [ -z "$file" ]; then
	JTSC_DUMP_BYTES=${JTSC_DUMP_BYTES:-67108864} "$top/harness/measure/guest.sh" afalg || exit 1
	file=$out/guest-afalg/afalg_jitter_tsc.bin
fi
[ -s "$file" ] || { echo "quality: $file is missing or empty" >&2; exit 1; }
size=$(stat -c %s "$file")
res=$out/quality.txt
{
echo "Conditioned output: $(basename "$file"), $size bytes (${2:-jitter_tsc via AF_ALG})"
rt=$(rngtest < "$file" 2>&1)
ok=$(echo "$rt" | sed -n 's/.*FIPS 140-2 successes: //p'); bad=$(echo "$rt" | sed -n 's/.*FIPS 140-2 failures: //p')
printf '  %-28s %6s blocks passed, %s failed (a perfect source fails ~0.1%%)\n' "rngtest FIPS 140-2" "$ok" "$bad"
# test:bytes per p-sample:tsamples (measured with dieharder 3.31 file_input_raw;
# -t 10000 shrinks a p-sample so that 8 MiB give 100 of them)
P=0; W=0; F=0; n=0
for t in 15:84000:10000 100:84000:10000 101:84000:10000 102:84000:10000 0:4300000: 4:6100000:; do
	IFS=: read -r d per ts <<< "$t"
	p=$(( size / per )); [ "$p" -gt 100 ] && p=100
	if [ "$p" -lt 5 ]; then printf '  %-28s %s\n' "dieharder -d $d" "skipped: needs $(( per * 5 / 1048576 + 1 )) MiB"; continue; fi
	o=$(dieharder -g 201 -f "$file" -d "$d" -p "$p" ${ts:+-t "$ts"} 2>&1)
	name=$(echo "$o" | awk -F'|' '/PASSED|WEAK|FAILED/{gsub(/ /,"",$1); print $1; exit}')
	pa=$(echo "$o" | grep -c 'PASSED'); we=$(echo "$o" | grep -c 'WEAK'); fa=$(echo "$o" | grep -c 'FAILED')
	rw=$(echo "$o" | sed -n 's/.*rewound \([0-9]*\) times.*/\1/p' | head -1)
	P=$((P + pa)); W=$((W + we)); F=$((F + fa)); n=$((n + 1))
	printf '  %-28s p=%-3s PASSED %2d  WEAK %2d  FAILED %2d%s\n' "dieharder $name" "$p" "$pa" "$we" "$fa" \
		"${rw:+  (file rewound $rw times: not valid)}"
done
printf '  %-28s %d tests: PASSED %d  WEAK %d  FAILED %d\n' "dieharder total" "$n" "$P" "$W" "$F"
} | tee "$res"
