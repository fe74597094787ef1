#!/usr/bin/env python3
# Prints the LFSR known-answer table of crypto/jitter_tsc_kunit.c.
#
# An independent, bit-by-bit model of jtsc_lfsr_fold(): a Fibonacci LFSR for
# x^64 + x^61 + x^56 + x^31 + x^28 + x^23 + 1 shifting left, with taps at
# bits 63, 60, 55, 30, 27 and 22. Step i computes the feedback as the parity
# of the tapped bits, XORs bit i of the input word into it and shifts the
# result in at bit 0. The output is pasted between the BEGIN/END markers in
# the test; harness/kunit/check-lfsr-vectors.sh re-runs this and diffs.

MASK = (1 << 64) - 1
TAPS = (63, 60, 55, 30, 27, 22)


def fold(state, word, nbits):
    for i in range(nbits):
        fb = 0
        for t in TAPS:
            fb ^= (state >> t) & 1
        fb ^= (word >> i) & 1
        state = ((state << 1) & MASK) | fb
    return state


SEED = 0x0123456789abcdef

# (state, input, nbits, description)
rows = [
    (0, 0, 64, "zero state, zero input"),
    (SEED, 0, 64, "seed, zero input"),
    (SEED, 0, 0, "seed, no bits"),
    (0, 1, 1, "zero state, one bit"),
    (1 << 63, 0, 1, "top bit feeds back"),
    (SEED, MASK, 64, "seed, all-ones input"),
    (SEED, 0xfedcba9876543210, 64, "seed, pattern"),
    (SEED, 0xfedcba9876543210, 32, "seed, pattern, 32 bits"),
    (SEED, 0xfedcba9876543210, 7, "seed, pattern, 7 bits"),
    (MASK, 0x5555555555555555, 64, "all-ones state, 0x55 input"),
    (0x8000000000400001, 0xaaaaaaaaaaaaaaaa, 63, "sparse state, 0xaa, 63 bits"),
]
# Step counts around multiples of 23: an implementation may fold 23 bits at
# once, as the lowest tap (bit 22) sees a new bit only from the 24th step.
for n in (22, 23, 24, 45, 46, 47, 48, 62, 64):
    rows.append((0xdeadbeefcafef00d, 0x0f1e2d3c4b5a6978, n,
                 "pattern, %d bits" % n))
for pos in (0, 22, 23, 63):
    rows.append((SEED, 1 << pos, 64, "seed, only bit %d set" % pos))

print("/* BEGIN lfsr-vectors.py output */")
for state, word, nbits, desc in rows:
    print("\t{ 0x%016xULL, 0x%016xULL, %d," % (state, word, nbits))
    print("\t  0x%016xULL, \"%s\" }," % (fold(state, word, nbits), desc))
print("/* END lfsr-vectors.py output */")
