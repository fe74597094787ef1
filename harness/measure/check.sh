#!/bin/sh
# check.sh - the measurement harness's own tests: the SP 800-90B estimators
# against known sources (test-ea.sh) and against NIST's reference
# implementation's output (test-nist.sh), check-cutoffs.py against its fixture,
# a fixture with one wrong cutoff (must be caught), and then the real
# crypto/jitter_tsc.c. Exits 1 if any fails.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
m=$top/harness/measure; t=$m/testdata; fails=0
"$m/test-ea.sh" || fails=$((fails + 1))
"$m/test-nist.sh" || fails=$((fails + 1))
python3 "$m/check-cutoffs.py" --source "$t/cutoffs-good.c" --results "$t/results-fixture" > /dev/null ||
	{ echo "check-cutoffs: the good fixture failed"; fails=$((fails + 1)); }
bad=$(mktemp); sed 's/\.apt_cutoff = 325/.apt_cutoff = 324/' "$t/cutoffs-good.c" > "$bad"
python3 "$m/check-cutoffs.py" --source "$bad" --results /dev/null > /dev/null &&
	{ echo "check-cutoffs: a wrong APT cutoff went unnoticed"; fails=$((fails + 1)); }
sed 's/^guest.fixture-low.h_min .*/guest.fixture-low.h_min 0.24/' "$t/results-fixture" > "$bad.r"
python3 "$m/check-cutoffs.py" --source "$t/cutoffs-good.c" --results "$bad.r" > /dev/null &&
	{ echo "check-cutoffs: a credit above half the measurement went unnoticed"; fails=$((fails + 1)); }
rm -f "$bad" "$bad.r"
echo "check-cutoffs: fixtures behave (good passes, wrong cutoff and high credit fail)"
if [ -f "$top/crypto/jitter_tsc.c" ]; then
	python3 "$m/check-cutoffs.py" || fails=$((fails + 1))
fi
[ "$fails" = 0 ] || { echo "measure/check: $fails failure(s)"; exit 1; }
echo "measure/check: all pass"
