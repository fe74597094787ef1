#!/usr/bin/env python3
"""check-cutoffs.py - recompute every step of jitter_tsc's credit ladder from SP 800-90B.

Parses the jtsc_ladder[] initialiser of crypto/jitter_tsc_core.c (credit in
1/256 bit, samples per word, every cutoff) and the enum constants of
crypto/jitter_tsc_internal.h (windows, alphas, the word
limits), recomputes
  RCT   C = 1 + ceil(-log2(alpha) / H), at alpha / 128   (90B 4.4.1)
  APT   C = 1 + CRITBINOM(W, 2^-H, 1 - alpha), W = 512   (90B 4.4.2)
  run   a predictor's run of hits: the RCT formula at alpha / 128
  hits  a predictor's hits in its window: the APT formula at alpha / 128
with H = JTSC_GUARD x credit / 256 bit per raw sample (the tests guard twice
the credit), alpha = 2^-30 (intermittent) and 2^-60 (permanent); the RCT is
the previous sample's predictor, one of the 128 tests that share alpha. Exactly (integers and 120-digit decimals, never 1 - 2^-60
in doubles), and checks that each step's samples
per word is the largest power of two up to JTSC_MAX_SAMPLES_PER_WORD that
keeps a word within JTSC_MAX_WORD_CREDIT, and that credits ascend.
Prints one aligned line per check; exits 1 naming every mismatch. Whether a
credit is justified is not this script's question: that is the runtime
estimate's, and check-margin.sh checks its margin against the measurements.

usage: check-cutoffs.py [--source FILE] [--params]
"""
import argparse
import math
import os
import re
import sys
from decimal import Decimal, getcontext

getcontext().prec = 120
ALPHA_LOG2 = {"": 30, "perm_": 60}   # intermittent, permanent
PRED_EXTRA_LOG2 = 7                   # the RCT and 69 predictors, each at alpha / 128
GUARD = 2                             # the tests are sized for twice the credit
ENTROPY_SHIFT = 8                     # credit is in 1/256 bit


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def c_to_py(expr):
    """A C integer constant expression as Python (integer division)."""
    expr = re.sub(r"(\d+)[uUlL]+\b", r"\1", expr)
    expr = expr.replace("/", "//")
    expr = re.sub(r"\(\s*(?:unsigned\s+)?(?:int|long|u8|u16|u32|u64)\s*\)", "", expr)
    return expr


def split_top(text):
    """Split at the commas that are not inside parentheses or braces."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return out


class Evaluator:
    """Evaluates enum constants and function-like #defines of one C file."""

    def __init__(self, text):
        self.env = {
            "DIV_ROUND_UP": lambda a, b: (a + b - 1) // b,
            "BIT": lambda n: 1 << n,
            "BLAKE2S_HASH_SIZE": 32,
            "SHA256_DIGEST_SIZE": 32,
            "JITTER_TSC_PULL_MAX": 256,
            "U16_MAX": 65535,
            "SMP_CACHE_BYTES": 64,
        }
        self.text = strip_comments(text.replace("\\\n", " "))
        for m in re.finditer(r"^\s*#\s*define\s+(\w+)\(([^)]*)\)\s+(.+)$", self.text, re.M):
            name, args, body = m.group(1), m.group(2), m.group(3)
            try:
                self.env[name] = eval("lambda %s: %s" % (args, c_to_py(body)), self.env)
            except Exception:
                pass
        for m in re.finditer(r"^\s*#\s*define\s+(\w+)\s+([^\n]+)$", self.text, re.M):
            self.define(m.group(1), m.group(2))
        for m in re.finditer(r"\benum\b[^{;]*\{(.*?)\}", self.text, re.S):
            value = -1
            for item in split_top(m.group(1)):
                item = item.strip()
                if not item:
                    continue
                if "=" in item:
                    name, expr = item.split("=", 1)
                    value = self.value(expr)
                else:
                    name, value = item, (value + 1 if value is not None else None)
                if value is not None:
                    self.env[name.strip()] = value

    def define(self, name, expr):
        v = self.value(expr)
        if v is not None:
            self.env[name] = v

    def value(self, expr):
        try:
            v = eval(c_to_py(expr.strip()), self.env)
        except Exception:
            return None
        return v if isinstance(v, int) else None


def parse_params(path, header=None):
    """The ladder rows of @path (its jtsc_ladder[] initialiser), each a dict, and
    the evaluator of its constants and those of @header (default: the core's
    header, when @path is the core itself)."""
    text = open(path).read()
    if header is None and os.path.basename(path) == "jitter_tsc_core.c":
        header = os.path.join(os.path.dirname(path), "jitter_tsc_internal.h")
    if header:
        text = open(header).read() + "\n" + text
    ev = Evaluator(text)
    body = strip_comments(text)
    m = re.search(r"jtsc_ladder\s*\[[^\]]*\]\s*=\s*\{(.*?)\n\};", body, re.S)
    if not m:
        sys.exit("check-cutoffs: no jtsc_ladder[] initialiser in %s" % path)
    # a row's values are ".field = value" or, positional, in the field order
    # of struct jtsc_health_params
    st = re.search(r"struct jtsc_health_params\s*\{(.*?)\};", body, re.S)
    order = re.findall(r"(\w+)\s*(?=[,;])", st.group(1)) if st else []
    rows = []
    for blk in re.finditer(r"\{(.*?)\}", m.group(1), re.S):
        fields = {}
        items = [a.strip() for a in blk.group(1).split(",") if a.strip()]
        for i, item in enumerate(items):
            d = re.match(r"\.(\w+)\s*=\s*(.+)$", item, re.S)
            name, a = d.groups() if d else (order[i] if i < len(order) else "#%d" % i, item)
            fields[name] = ev.value(a)
            if fields[name] is None:
                sys.exit("check-cutoffs: cannot evaluate .%s = %s" % (name, a))
        rows.append(fields)
    if not rows:
        sys.exit("check-cutoffs: jtsc_ladder[] has no rows")
    return rows, ev


def rct_cutoff(credit, alpha_log2):
    # 1 + ceil(alpha_log2 / (credit / 64)), exact in integers
    return 1 + -(-(alpha_log2 << ENTROPY_SHIFT) // credit)


def apt_cutoff(window, credit, alpha_log2):
    """1 + CRITBINOM(W, p, 1 - alpha): 1 + the smallest k with P(X <= k) >= 1 - alpha,
    i.e. with P(X > k) <= alpha, X ~ Binomial(W, p), p = 2^-H."""
    p = (-(Decimal(credit) / (1 << ENTROPY_SHIFT)) * Decimal(2).ln()).exp()
    q = 1 - p
    alpha = Decimal(2) ** -alpha_log2
    tail = Decimal(0)             # P(X > k), summed from k = W down
    for k in range(window, -1, -1):
        # tail now is P(X > k); if it exceeds alpha, k is too small: answer is k + 1
        if tail > alpha:
            return 1 + (k + 1)
        tail += math.comb(window, k) * p ** k * q ** (window - k)
    return 1 + 0


def main():
    top = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap = argparse.ArgumentParser(description="recompute jitter_tsc's credit ladder")
    ap.add_argument("--source", default=os.path.join(top, "crypto", "jitter_tsc_core.c"))
    ap.add_argument("--params", action="store_true",
                    help="only print 'step N credit C spw S' lines and 'oversample N', "
                         "'margin M' (for bench.sh and soak.sh)")
    args = ap.parse_args()
    if not os.path.exists(args.source):
        sys.exit("check-cutoffs: %s does not exist" % args.source)
    rows, ev = parse_params(args.source)
    if args.params:
        for i, r in enumerate(rows):
            print("step %d credit %d spw %d" % (i, r["credit"], r["samples_per_word"]))
        kcapi = os.path.join(top, "crypto", "jitter_tsc_kcapi.c")
        # credited bits per output bit: JTSC_BLOCK_CREDIT = (N * JTSC_BLOCK_SIZE * 8) << ...
        m = re.search(r"JTSC_BLOCK_CREDIT\s*=\s*\((\d+)\s*\*\s*JTSC_BLOCK_SIZE\s*\*\s*8\)",
                      open(kcapi).read()) if os.path.exists(kcapi) else None
        print("oversample %s" % (m.group(1) if m else "?"))
        print("margin %s" % ev.env.get("JTSC_EST_MARGIN", "?"))
        print("margin_timer %s" % ev.env.get("JTSC_EST_MARGIN_TIMER", "?"))
        return
    env = ev.env
    need = ("JTSC_APT_WINDOW", "JTSC_PRED_WINDOW", "JTSC_ALPHA_LOG2", "JTSC_PERM_ALPHA_LOG2",
            "JTSC_MAX_WORD_CREDIT", "JTSC_MAX_SAMPLES_PER_WORD", "JTSC_GUARD")
    missing = [n for n in need if not isinstance(env.get(n), int)]
    if missing:
        sys.exit("check-cutoffs: %s lacks %s" % (args.source, ", ".join(missing)))
    if (env["JTSC_ALPHA_LOG2"], env["JTSC_PERM_ALPHA_LOG2"]) != (30, 60):
        sys.exit("check-cutoffs: the alphas are not 2^-30 and 2^-60")
    if env["JTSC_GUARD"] != 2:
        sys.exit("check-cutoffs: the health tests guard %s times the credit, not twice" %
                 env["JTSC_GUARD"])
    bad = []
    print("%-8s %-18s %8s %8s  %s" % ("credit", "constant", "in code", "90B", "result"))

    def check(who, what, have, want):
        ok = have == want
        print("%-8s %-18s %8s %8s  %s" % (who, what, have, want, "ok" if ok else "MISMATCH"))
        if not ok:
            bad.append("credit %s: %s is %s, SP 800-90B gives %s" % (who, what, have, want))

    last = 0
    for r in rows:
        credit = r["credit"]
        who = "%d/256" % credit
        if not last < credit <= 8 << ENTROPY_SHIFT:
            bad.append("%s: credits must ascend and stay below 8 bits" % who)
            continue
        last = credit
        guard = GUARD * credit
        spw = env["JTSC_MAX_SAMPLES_PER_WORD"]
        while credit * spw > env["JTSC_MAX_WORD_CREDIT"]:
            spw //= 2
        check(who, "samples_per_word", r["samples_per_word"], spw)
        for pre, alog in ALPHA_LOG2.items():
            plog = alog + PRED_EXTRA_LOG2
            for name in ("rct", "run", "apt", "hits"):
                if not isinstance(r.get("%s_%scutoff" % (name, pre)), int):
                    bad.append("%s: no %s_%scutoff" % (who, name, pre))
            check(who, "rct_%scutoff" % pre, r.get("rct_%scutoff" % pre), rct_cutoff(guard, plog))
            check(who, "run_%scutoff" % pre, r.get("run_%scutoff" % pre), rct_cutoff(guard, plog))
            check(who, "apt_%scutoff" % pre, r.get("apt_%scutoff" % pre),
                  apt_cutoff(env["JTSC_APT_WINDOW"], guard, alog))
            check(who, "hits_%scutoff" % pre, r.get("hits_%scutoff" % pre),
                  apt_cutoff(env["JTSC_PRED_WINDOW"], guard, plog))
    if bad:
        for b in bad:
            print("check-cutoffs: " + b)
        sys.exit(1)
    print("check-cutoffs: %d ladder steps, all cutoffs match SP 800-90B" % len(rows))


if __name__ == "__main__":
    main()
