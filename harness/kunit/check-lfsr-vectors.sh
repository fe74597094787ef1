#!/bin/sh
# Checks that the generated tables in crypto/jitter_tsc_kunit.c are
# exactly what their independent models print: the LFSR known answers
# (harness/kunit/lfsr-vectors.py) and the binomial cutoffs of the APT and
# of the predictor hits (harness/kunit/apt-cutoffs.py).
# Usage: check-lfsr-vectors.sh [repo-root]; exits non-zero on any difference.
set -eu

root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
test_c=$root/crypto/jitter_tsc_kunit.c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

for model in lfsr-vectors.py apt-cutoffs.py; do
	python3 "$root/harness/kunit/$model" >"$tmp/model"
	sed -n "/BEGIN $model output/,/END $model output/p" \
		"$test_c" >"$tmp/test"
	if [ ! -s "$tmp/test" ]; then
		echo "check-lfsr-vectors: no $model table in $test_c" >&2
		status=1
	elif ! diff -u "$tmp/model" "$tmp/test"; then
		echo "check-lfsr-vectors: $model table differs; rerun it" >&2
		status=1
	else
		echo "check-lfsr-vectors: $model:" \
			"$(($(wc -l <"$tmp/test") - 2)) lines match"
	fi
done
exit $status
