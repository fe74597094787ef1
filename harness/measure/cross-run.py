#!/usr/bin/env python3
"""cross-run.py - does one run of the walk predict another? Two files of raw
samples (one byte each) taken by the same loop over the same walk from its
start: an estimator of one window cannot see what the walk itself fixes,
but a second run of the walk can.

Chance is taken segment by segment (SEG passes, the same segment of both
runs), so that what both runs share only because their distributions move
together over time (the first cycle over a new buffer, say) is not counted
as prediction. Prints:
  same pass   the share of passes where both runs gave the same sample,
              against chance (sum over v of p1(v) p2(v) in the segment);
  slow pass   among the passes where run 1 is not its segment's most
              common value, the share where run 2 equals run 1, against
              chance (the same sum over the other values, over their share);
  guess       the most-common-value min-entropy of run 1,
              -log2 of the rate at which a guess learnt on the even passes
              hits the odd ones:
              alone (guess the mode), and given run 2's sample at the same
              pass (guess the value most often seen with it), and their
              difference, the bits per sample that the walk fixes.
Exits 1 if a ratio is over --max-ratio R (default 1.25) or the difference
over --max-loss B bits (default 0.25). On the Intel Xeon host, the kernel's
loop gives 1.01 to 1.06 and no gain; an unflushed loop over a cached 8 MiB
buffer 3.3 to 4.0 and 0.96 to 1.7 bit.

usage: cross-run.py [--max-ratio R] [--max-loss B] RUN1 RUN2
"""
import math
import sys
from collections import Counter, defaultdict

SEG = 4096


def agreement(a, b):
    """Same-pass and slow-pass shares, and their chance, segment by segment."""
    same = chance = slow = slow_same = slow_chance = 0.0
    for lo in range(0, len(a) - SEG + 1, SEG):
        sa, sb = a[lo:lo + SEG], b[lo:lo + SEG]
        pa, pb = Counter(sa), Counter(sb)
        mode = pa.most_common(1)[0][0]
        same += sum(1 for x, y in zip(sa, sb) if x == y)
        chance += sum(pa[v] * pb[v] for v in pa) / SEG
        k = SEG - pa[mode]
        slow += k
        slow_same += sum(1 for x, y in zip(sa, sb) if x == y and x != mode)
        slow_chance += sum(pa[v] * pb[v] for v in pa if v != mode) / SEG
    return same, chance, slow, slow_same, slow_chance


def guess(a, b):
    """Hit rates of a guess at run 1's samples: alone, and given run 2's.
    Learnt on the even passes, tried on the odd ones."""
    mode = Counter(a[0::2]).most_common(1)[0][0]
    seen = defaultdict(Counter)
    for x, y in zip(a[0::2], b[0::2]):
        seen[y][x] += 1
    best = {y: c.most_common(1)[0][0] for y, c in seen.items()}
    odd = list(zip(a[1::2], b[1::2]))
    alone = sum(1 for x, _ in odd if x == mode) / len(odd)
    given = sum(1 for x, y in odd if best.get(y, mode) == x) / len(odd)
    return alone, given


def main(argv):
    max_ratio, max_loss, files = 1.25, 0.25, []
    i = 1
    while i < len(argv):
        if argv[i] in ("--max-ratio", "--max-loss") and i + 1 < len(argv):
            if argv[i] == "--max-ratio":
                max_ratio = float(argv[i + 1])
            else:
                max_loss = float(argv[i + 1])
            i += 2
        else:
            files.append(argv[i])
            i += 1
    if len(files) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    a, b = (open(f, "rb").read() for f in files)
    n = min(len(a), len(b)) // SEG * SEG
    if n < 2 * SEG:
        sys.exit("cross-run: too few samples")
    a, b = a[:n], b[:n]
    same, chance, slow, slow_same, slow_chance = agreement(a, b)
    r1 = same / chance
    r2 = slow_same / slow_chance if slow_chance else 1.0
    alone, given = guess(a, b)
    h_alone, h_given = -math.log2(alone), -math.log2(max(given, 1e-9))
    loss = h_alone - h_given
    print(f"samples {n}")
    print(f"same_pass {same / n:.4f} chance {chance / n:.4f} ratio {r1:.2f}")
    print(f"slow_pass {slow_same / slow:.4f} chance {slow_chance / slow:.4f} ratio {r2:.2f}")
    print(f"guess alone {h_alone:.3f} given_other_run {h_given:.3f} loss {loss:.3f}")
    bad = []
    if max(r1, r2) > max_ratio:
        bad.append(f"a ratio over {max_ratio}")
    if loss > max_loss:
        bad.append(f"the other run fixes {loss:.3f} bit per sample, over {max_loss}")
    if bad:
        print("cross-run: the walk predicts itself: " + "; ".join(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
