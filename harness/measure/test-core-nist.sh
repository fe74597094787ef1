#!/bin/sh
# test-core-nist.sh - check the kernel's integer SP 800-90B estimators
# (crypto/jitter_tsc_estimate.c, built in user space as ea-core) against NIST's
# reference implementation (ea_non_iid 1.1.7): for every FILE.u8 in the
# reference folder, each of ea-core's five literal estimates (MCV, t-tuple,
# LRS, MultiMCW, lag) must equal NIST's "Literal ... Estimate: min entropy"
# in FILE.nist.txt to 1e-5; its MultiMMC orders, literal and over the bits,
# are not NIST's ensemble and are shown beside it; ea-core's H_min must be
# at most the least of NIST's five and at most 1.15 times NIST's whole
# assessment, min(H_original, 8 x H_bitstring).
# Prints one aligned line per value; exits 1 on a failure.
# The folder is $top/harness/measure/nist-reference (carried in the repo, see
# its README.md) unless NIST_REF=DIR says otherwise.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
M=$top/build/measure
ref=${NIST_REF:-$top/harness/measure/nist-reference}
[ -d "$ref" ] || { echo "test-core-nist: no reference folder $ref (set NIST_REF=DIR)"; exit 1; }
set -- "$ref"/*.u8
[ -f "$1" ] || { echo "test-core-nist: no *.u8 sample file in $ref"; exit 1; }
mkdir -p "$M"
gcc -O2 -Wall -Wextra -Werror -Wno-unused-parameter -I "$top/harness/measure/include" -I "$top/crypto" \
	-o "$M/ea-core" "$top/harness/measure/ea-core.c" "$top/crypto/jitter_tsc_estimate.c" ||
	{ echo "test-core-nist: cannot build ea-core"; exit 1; }
d=$top/out/measure/test-core-nist; mkdir -p "$d"
fails=0

echo "ea-core against NIST ea_non_iid 1.1.7 ($ref; |diff| <= 1e-5)"
for f in "$@"; do
	b=$(basename "$f" .u8)
	if [ ! -f "$ref/$b.nist.txt" ]; then
		echo "$b: no $b.nist.txt next to it  FAIL"; fails=$((fails + 1)); continue
	fi
	# NIST's literal estimates, as "ID VALUE" in ea-core's names
	awk '/^Literal .* Estimate: min entropy = / {
		s = $0; sub(/^Literal /, "", s); sub(/ Estimate: min entropy = .*/, "", s)
		if (s == "Most Common Value") s = "MCV"
		else if (s == "t-Tuple") s = "t-tuple"
		else if (s == "MultiMCW Prediction") s = "MultiMCW"
		else if (s == "Lag Prediction") s = "lag"
		else if (s == "MultiMMC Prediction") s = "MultiMMC"
		else if (s != "LRS") next
		print s, $NF
	}
	/^Bitstring MultiMMC Prediction Estimate: min entropy = / { print "bitstring", 8 * $NF }
	/^H_original = / { o = $NF }
	/^H_bitstring = / { bs = 8 * $NF }
	END { print "assessed", (bs != "" && bs < o) ? bs : o }' "$ref/$b.nist.txt" > "$d/$b.nist"
	if ! "$M/ea-core" "$f" > "$d/$b.out"; then
		echo "$b: ea-core failed  FAIL"; fails=$((fails + 1)); continue
	fi
	echo "$b ($(awk '$1 == "samples" {print $2}' "$d/$b.out") samples," \
		"$(awk '$1 == "ms" {print $2}' "$d/$b.out") ms)"
	awk -v tol=1e-5 '
		function abs(x) { return x < 0 ? -x : x }
		function num(v) { return v ~ /^[-+]?[0-9]/ }
		function col(v) { return num(v) ? sprintf("%16.12f", v) : sprintf("%16s", v) }
		function line(name, n, o,   dv, r) {
			if (!num(n) || !num(o)) {
				dv = "-"; r = "FAIL (" (num(n) ? "ours" : "NIST") " has none)"
			} else {
				dv = sprintf("%.1e", abs(n - o)); r = abs(n - o) <= tol ? "ok" : "FAIL"
			}
			printf "  %-9s nist %s  ours %s  diff %7s  %s\n", name, col(n), col(o), dv, r
		}
		FNR == NR { nist[$1] = $2; next }
		$1 == "literal" { ours[$2] = $2 == "bitstring" ? $4 : $3 }
		$1 == "H_min" { hmin = $2 }
		END {
			split("MCV t-tuple LRS MultiMCW lag", id, " ")
			m = ""
			for (i = 1; i <= 5; i++) {
				n = id[i] in nist ? nist[id[i]] : "-"
				line(id[i], n, id[i] in ours ? ours[id[i]] : "-")
				if (num(n) && (m == "" || n + 0 < m + 0)) m = n
			}
			printf "  %-9s nist %s  ours %s  (not NIST'"'"'s ensemble)\n", "MultiMMC",
				col(nist["MultiMMC"]), col(ours["MultiMMC"])
			printf "  %-9s nist %s  ours %s  (8 x per bit; not NIST'"'"'s ensemble)\n",
				"bits MMC", col(nist["bitstring"]), col(ours["bitstring"])
			r = (num(hmin) && num(m) && hmin <= m + tol) ? "ok" : "FAIL"
			printf "  %-9s nist %s  ours %s  at most the five: %s\n", "H_min", col(m), col(hmin), r
			a = nist["assessed"]
			r = (num(hmin) && num(a) && hmin <= 1.15 * a) ? "ok" : "FAIL"
			printf "  %-9s nist %s  ratio %14.4f  at most 1.15: %s\n", "assessed", col(a),
				(num(a) && a > 0) ? hmin / a : 0, r
		}' "$d/$b.nist" "$d/$b.out" > "$d/$b.cmp" || echo "awk failed  FAIL" >> "$d/$b.cmp"
	cat "$d/$b.cmp"
	fails=$((fails + $(grep -c 'FAIL' "$d/$b.cmp")))
done
[ "$fails" = 0 ] && echo "test-core-nist: all values agree" && exit 0
echo "test-core-nist: $fails failure(s)"; exit 1
