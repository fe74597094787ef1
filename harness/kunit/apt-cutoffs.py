#!/usr/bin/env python3
# Prints the APT cutoff table of lib/kunit-tests/jitter_tsc_kunit.c.
#
# SP 800-90B 4.4.2: for a claimed min-entropy H per sample and a window W,
# the cutoff is C = 1 + CRITBINOM(W, 2^-H, 1 - alpha), the smallest k whose
# binomial CDF reaches 1 - alpha, plus one. H = credit / 64 bit, as in
# struct jtsc_health_params. Computed with 100-digit decimal arithmetic and
# exact binomial coefficients, independently of crypto/jitter_tsc.c. The
# output is pasted between the BEGIN/END markers in the test;
# harness/kunit/check-lfsr-vectors.sh re-runs this and diffs.
from decimal import Decimal, getcontext
from math import comb

getcontext().prec = 100

# (credit in 1/64 bit, window): the rows the test can look up.
ROWS = [(c, 1024) for c in (5, 8, 12, 16, 24, 32, 48, 64)] + \
       [(c, 512) for c in (32, 64, 96, 128, 192, 256)]


def cutoff(credit, window, log2_alpha):
    p = Decimal(2) ** (Decimal(-credit) / 64)
    q = 1 - p
    alpha = Decimal(2) ** -log2_alpha
    tail = Decimal(0)            # P(X > k), for k going down from W
    for k in range(window, -1, -1):
        # tail holds P(X > k); CRITBINOM is the smallest such k with
        # P(X > k) <= alpha
        pk = comb(window, k) * p ** k * q ** (window - k)
        if tail + pk > alpha:
            return 1 + k
        tail += pk
    return 1


print("/* BEGIN apt-cutoffs.py output */")
for credit, window in ROWS:
    print("\t{ %d, %d, %d, %d }," % (credit, window, cutoff(credit, window, 30),
                                   cutoff(credit, window, 60)))
print("/* END apt-cutoffs.py output */")
