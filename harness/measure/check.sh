#!/bin/sh
# check.sh - the measurement harness's own tests: the SP 800-90B estimators
# of the user-space tool against known sources (test-ea.sh) and against NIST's
# reference implementation's output (test-nist.sh); the kernel's own runtime
# estimate (crypto/jitter_tsc_estimate.c, compiled in user space) against
# NIST's output (test-core-nist.sh); check-cutoffs.py against its fixture and
# a fixture with one wrong cutoff (must be caught), then against the credit
# ladder of crypto/jitter_tsc_core.c; the margin of the runtime estimate
# against every measurement recorded and every boot window (check-margin.py);
# and the core's state machine driven in user space (core-test.c).
# Exits 1 if any fails.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
m=$top/harness/measure; t=$m/testdata; fails=0
"$m/test-ea.sh" || fails=$((fails + 1))
"$m/test-nist.sh" || fails=$((fails + 1))
"$m/test-core-nist.sh" || fails=$((fails + 1))
python3 "$m/check-cutoffs.py" --source "$t/cutoffs-good.c" > /dev/null ||
	{ echo "check-cutoffs: the good fixture failed"; fails=$((fails + 1)); }
bad=$(mktemp); sed "s/.apt_cutoff = 325,/.apt_cutoff = 324,/" "$t/cutoffs-good.c" > "$bad"
python3 "$m/check-cutoffs.py" --source "$bad" | grep -q 'apt_cutoff .*MISMATCH' ||
	{ echo "check-cutoffs: a wrong APT cutoff went unnoticed"; fails=$((fails + 1)); }
rm -f "$bad"
echo "check-cutoffs: fixtures behave (good passes, wrong cutoff fails)"
python3 "$m/check-cutoffs.py" || fails=$((fails + 1))
"$m/check-margin.sh" || fails=$((fails + 1))
# shellcheck disable=SC1091
(. "$m/lib.sh" && build_core_test && "$M/core-test") || fails=$((fails + 1))
[ "$fails" = 0 ] || { echo "measure/check: $fails failure(s)"; exit 1; }
echo "measure/check: all pass"
