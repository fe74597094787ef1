#!/bin/sh
# test-nist.sh - check ea_noniid against NIST's reference implementation
# (ea_non_iid 1.1.7): for every FILE.u8 in the reference folder, FILE.nist.txt
# is NIST's output of "ea_non_iid -i -a -v -v FILE 8". Every literal and
# bitstring "min entropy = X" there, H_original, H_bitstring, H_bitstring Per
# Symbol and the assessed min-entropy must equal ea_noniid's to 1e-5.
# A value only one side gives fails too. Prints one aligned line per value;
# exits 1 on a failure.
# The folder is $top/harness/measure/nist-reference (carried in the repo, see
# its README.md) unless NIST_REF=DIR says otherwise.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/harness/measure/lib.sh"
ref=${NIST_REF:-$top/harness/measure/nist-reference}
[ -d "$ref" ] || { echo "test-nist: no reference folder $ref (set NIST_REF=DIR)"; exit 1; }
set -- "$ref"/*.u8
[ -f "$1" ] || { echo "test-nist: no *.u8 sample file in $ref"; exit 1; }
build_tools ea_noniid || { echo "test-nist: cannot build ea_noniid"; exit 1; }
d=$top/out/measure/test-nist; mkdir -p "$d"
fails=0

# nist_values FILE.nist.txt: "KIND ID VALUE" lines, in ea_noniid -m's names
nist_values() {
	awk '
	function id(s) {
		sub(/ Prediction$/, "", s)
		if (s == "Most Common Value") return "MCV"
		if (s == "t-Tuple") return "t-tuple"
		if (s == "Lag") return "lag"
		if (s == "Collision" || s == "Compression") return tolower(s)
		return s
	}
	/^(Literal|Bitstring) .* Estimate: min entropy = / {
		k = tolower($1); s = $0
		sub(/^[A-Za-z]+ /, "", s); sub(/ Estimate: min entropy = .*/, "", s)
		print k, id(s), $NF; next
	}
	/^H_bitstring Per Symbol = / { print "total", "H_bitstring_per_symbol", $NF; next }
	/^H_bitstring = / { print "total", "H_bitstring", $NF; next }
	/^H_original = / { print "total", "H_original", $NF; next }
	/^Assessed min entropy: / { print "total", "assessed", $NF }' "$1"
}

echo "ea_noniid against NIST ea_non_iid 1.1.7 ($ref; |diff| <= 1e-5)"
for f in "$@"; do
	b=$(basename "$f" .u8)
	if [ ! -f "$ref/$b.nist.txt" ]; then
		echo "$b: no $b.nist.txt next to it  FAIL"; fails=$((fails + 1)); continue
	fi
	nist_values "$ref/$b.nist.txt" > "$d/$b.nist"
	if ! grep -q '^total assessed ' "$d/$b.nist"; then
		echo "$b: $b.nist.txt has no \"Assessed min entropy\" (not ea_non_iid -v -v output?)  FAIL"
		fails=$((fails + 1)); continue
	fi
	t0=$(date +%s)
	if ! "$M/ea_noniid" -m -t u8 "$f" > "$d/$b.ea"; then
		echo "$b: ea_noniid failed  FAIL"; fails=$((fails + 1)); continue
	fi
	echo "$b ($(($(date +%s) - t0)) s)"
	# ours: "literal|bitstring ID V" and "H_original V" ... "assessed V"
	awk 'NF == 3 && ($1 == "literal" || $1 == "bitstring") {print; next}
	     NF == 2 && $1 ~ /^(H_original|H_bitstring|H_bitstring_per_symbol|assessed)$/ {print "total", $1, $2}' \
		"$d/$b.ea" > "$d/$b.ours"
	awk -v tol=1e-5 '
		function abs(x) { return x < 0 ? -x : x }
		function line(v) { return v ~ /[0-9]/ ? sprintf("%20.12f", v) : sprintf("%20s", v) }
		FNR == NR { k = $1 " " $2; nist[k] = $3; order[++nk] = k; next }
		{ k = $1 " " $2; ours[k] = $3; if (!(k in nist)) order[++nk] = k }
		END {
			for (i = 1; i <= nk; i++) {
				k = order[i]; split(k, p, " ")
				if (!(k in nist)) {
					if (ours[k] == "n/a") continue
					r = "FAIL (NIST has none)"; dv = "-"
				} else if (!(k in ours) || ours[k] !~ /^[-+]?[0-9]/) {
					r = "FAIL (ours is missing)"; dv = "-"
				} else {
					dv = sprintf("%.1e", abs(nist[k] - ours[k]))
					r = abs(nist[k] - ours[k]) <= tol ? "ok" : "FAIL"
				}
				printf "  %-9s %-22s nist %s  ours %s  diff %7s  %s\n", p[1], p[2],
					line(k in nist ? nist[k] : "-"), line(k in ours ? ours[k] : "-"), dv, r
			}
		}' "$d/$b.nist" "$d/$b.ours" > "$d/$b.cmp"
	cat "$d/$b.cmp"
	[ -s "$d/$b.cmp" ] || { echo "  no values compared  FAIL"; fails=$((fails + 1)); }
	fails=$((fails + $(grep -c 'FAIL' "$d/$b.cmp")))
done
[ "$fails" = 0 ] && echo "test-nist: all values agree" && exit 0
echo "test-nist: $fails failure(s)"; exit 1
