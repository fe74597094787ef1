#!/usr/bin/env python3
# Prints the binomial cutoff table of crypto/jitter_tsc_kunit.c.
#
# SP 800-90B 4.4.2: for a claimed min-entropy H per sample, a window of W
# samples and a false-alarm probability alpha, the cutoff is
# C = 1 + CRITBINOM(W, 2^-H, 1 - alpha): one more than the smallest k whose
# binomial CDF reaches 1 - alpha. jitter_tsc uses it twice: the Adaptive
# Proportion Test (W = 512, alpha = 2^-30 and 2^-60) and the hits of each
# determinism predictor in a window (W = 4096, alpha = 2^-37 and 2^-67, the
# APT's alphas over 128 for the RCT and 70 predictors). H in 1/256 bit, twice
# a credit of struct jtsc_health_params. Computed with 100-digit decimal arithmetic,
# each binomial term from the one above it, independently of
# crypto/jitter_tsc_core.c. The output is pasted between the BEGIN/END markers
# in the test; harness/kunit/check-lfsr-vectors.sh re-runs this and diffs.
from decimal import Decimal, getcontext

getcontext().prec = 100

# Min-entropies in 1/256 bit the test can look up: twice each credit of the
# ladder (the tests guard twice the credit), and the ones a remeasurement
# may pick.
CREDITS = (4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384)
# (window, log2 of alpha, log2 of the permanent alpha)
TESTS = ((512, 30, 60), (4096, 37, 67))


def cutoff(credit, window, log2_alpha):
    p = Decimal(2) ** (Decimal(-credit) / 256)
    q = 1 - p
    alpha = Decimal(2) ** -log2_alpha
    tail = Decimal(0)            # P(X > k), for k going down from W
    pk = p ** window             # P(X = k)
    for k in range(window, -1, -1):
        # tail holds P(X > k); CRITBINOM is the smallest such k with
        # P(X > k) <= alpha
        if tail + pk > alpha:
            return 1 + k
        tail += pk
        # P(X = k - 1) = P(X = k) * k / (W - k + 1) * q / p
        pk = pk * k / (window - k + 1) * q / p
    return 1


print("/* BEGIN apt-cutoffs.py output */")
for window, a, perm_a in TESTS:
    for credit in CREDITS:
        print("\t{ %d, %d, %d, %d, %d, %d }," %
              (credit, window, a, perm_a, cutoff(credit, window, a),
               cutoff(credit, window, perm_a)))
print("/* END apt-cutoffs.py output */")
