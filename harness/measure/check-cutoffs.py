#!/usr/bin/env python3
"""check-cutoffs.py - recompute every jitter_tsc health-test cutoff from SP 800-90B.

Parses the jtsc_params[] initialisers of crypto/jitter_tsc.c (credit, cutoffs;
enum constants and simple macros are evaluated; the windows are the enum
constants JTSC_APT_WINDOW and JTSC_PRED_WINDOW), recomputes
  RCT   C = 1 + ceil(-log2(alpha) / H)                   (90B 4.4.1)
  APT   C = 1 + CRITBINOM(W, 2^-H, 1 - alpha), W = 512   (90B 4.4.2)
  run   a predictor's run of hits: the RCT formula at alpha / 128
  hits  a predictor's hits in its window: the APT formula at alpha / 128
with H = credit / 256 bit per raw sample, alpha = 2^-30 (intermittent) and
2^-60 (permanent), exactly (integers and 120-digit decimals, never 1 - 2^-60
in doubles), and checks that each credit is at most half of the lowest
min-entropy per sample recorded in harness/measure/results (if present).
Prints one aligned line per check; exits 1 naming every mismatch.

usage: check-cutoffs.py [--source FILE] [--results FILE] [--params]
"""
import argparse
import math
import os
import re
import sys
from decimal import Decimal, getcontext

getcontext().prec = 120
ALPHA_LOG2 = {"": 30, "perm_": 60}   # intermittent, permanent
PRED_EXTRA_LOG2 = 7                   # 65 predictors, each at alpha / 128
ENTROPY_SHIFT = 8                     # credit is in 1/256 bit
# debugfs/collector name in jtsc_params[].name -> key in harness/measure/results
RESULT_KEY = {"speculative": "spec", "spec": "spec", "timer": "timer"}


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
            except SyntaxError:
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


def parse_params(path):
    text = open(path).read()
    ev = Evaluator(text)
    body = strip_comments(text)
    m = re.search(r"jtsc_params\s*\[[^\]]*\]\s*=\s*\{(.*?)\n\};", body, re.S)
    if not m:
        sys.exit("check-cutoffs: no jtsc_params[] initialiser in %s" % path)
    params = []
    for blk in re.finditer(r"\[\s*(\w+)\s*\]\s*=\s*\{(.*?)\}", m.group(1), re.S):
        fields = {"index": blk.group(1)}
        for f in re.finditer(r"\.(\w+)\s*=\s*([^,]+?)\s*(?:,|$)", blk.group(2), re.S):
            name, expr = f.group(1), f.group(2).strip()
            if expr.startswith('"'):
                fields[name] = expr.strip('"')
            elif re.fullmatch(r"[a-z_]\w*", expr):
                fields[name] = expr     # a function, such as .collect
            else:
                v = ev.value(expr)
                if v is None:
                    sys.exit("check-cutoffs: cannot evaluate .%s = %s" % (name, expr))
                fields[name] = v
        params.append(fields)
    if not params:
        sys.exit("check-cutoffs: jtsc_params[] has no entries")
    for p in params:
        p["apt_window"] = ev.env.get("JTSC_APT_WINDOW")
        p["pred_window"] = ev.env.get("JTSC_PRED_WINDOW")
    return params


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


def read_results(path):
    res = {}
    if not os.path.exists(path):
        return res
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, val = line.partition(" ")
        res[key] = val.strip()
    return res


def main():
    top = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap = argparse.ArgumentParser(description="recompute jitter_tsc health-test cutoffs")
    ap.add_argument("--source", default=os.path.join(top, "crypto", "jitter_tsc.c"))
    ap.add_argument("--results", default=os.path.join(top, "harness", "measure", "results"))
    ap.add_argument("--params", action="store_true",
                    help="only print 'NAME credit CREDIT' lines and 'oversample N' (for bench.sh)")
    args = ap.parse_args()
    if not os.path.exists(args.source):
        sys.exit("check-cutoffs: %s does not exist" % args.source)
    params = parse_params(args.source)
    if args.params:
        for p in params:
            print("%s credit %d" % (RESULT_KEY.get(p.get("name"), p.get("name")), p.get("credit", 0)))
        ov = Evaluator(open(args.source).read()).env.get("JTSC_OVERSAMPLE")
        print("oversample %s" % (ov if isinstance(ov, int) else "?"))
        return
    results = read_results(args.results)
    # The real credits must rest on all three conditions (the fixtures need not).
    default_results = os.path.join(top, "harness", "measure", "results")
    required = ("host", "host_loaded", "guest") \
        if os.path.abspath(args.results) == default_results else ()
    bad = []
    print("%-12s %-16s %8s %8s  %s" % ("collector", "constant", "in code", "90B", "result"))

    def check(who, what, have, want):
        ok = have == want
        print("%-12s %-16s %8s %8s  %s" % (who, what, have, want, "ok" if ok else "MISMATCH"))
        if not ok:
            bad.append("%s %s is %s, SP 800-90B gives %s" % (who, what, have, want))

    for p in params:
        who = p.get("name", p["index"])
        need = ("credit", "apt_window", "pred_window", "rct_cutoff", "rct_perm_cutoff",
                "apt_cutoff", "apt_perm_cutoff", "run_cutoff", "run_perm_cutoff",
                "hits_cutoff", "hits_perm_cutoff")
        missing = [f for f in need if not isinstance(p.get(f), int)]
        if missing:
            bad.append("%s: jtsc_params[] or its windows lack %s" % (who, ", ".join(missing)))
            continue
        credit = p["credit"]
        if not 0 < credit <= 8 << ENTROPY_SHIFT:
            bad.append("%s: credit %d/256 is not a plausible min-entropy" % (who, credit))
            continue
        for pre, alog in ALPHA_LOG2.items():
            plog = alog + PRED_EXTRA_LOG2
            check(who, "rct_%scutoff" % pre, p["rct_%scutoff" % pre], rct_cutoff(credit, alog))
            check(who, "apt_%scutoff" % pre, p["apt_%scutoff" % pre],
                  apt_cutoff(p["apt_window"], credit, alog))
            check(who, "run_%scutoff" % pre, p["run_%scutoff" % pre], rct_cutoff(credit, plog))
            check(who, "hits_%scutoff" % pre, p["hits_%scutoff" % pre],
                  apt_cutoff(p["pred_window"], credit, plog))
        # credit at most half of the lowest measured min-entropy (per sample)
        key = RESULT_KEY.get(who, who)
        meas = []
        for k, v in results.items():
            m = re.match(r"(\w+)\.%s\.h_min(_lowest)?$" % re.escape(key), k)
            if m:
                try:
                    meas.append((float(v.split()[0]), m.group(1) + (", lowest run" if m.group(2) else "")))
                except ValueError:
                    pass
        h = credit / float(1 << ENTROPY_SHIFT)
        for cond in required:
            if not any(w.split(",")[0] == cond for _, w in meas):
                bad.append("%s: no %s.%s.h_min in the results: the credit must rest on "
                           "the host quiet, the host loaded and the TCG guest" % (who, cond, key))
        if not meas:
            print("%-12s %-16s %8.4f %8s  %s" % (who, "credit (bits)", h, "-", "no measurement recorded"))
            continue
        low, where = min(meas)
        ok = h <= low / 2
        print("%-12s %-16s %8.4f %8.4f  %s (half of %.4f measured, %s)" %
              (who, "credit (bits)", h, low / 2, "ok" if ok else "TOO HIGH", low, where))
        if not ok:
            bad.append("%s credit %.4f bit exceeds half of the lowest measured min-entropy "
                       "%.4f (%s)" % (who, h, low, where))
    if bad:
        for b in bad:
            print("check-cutoffs: " + b)
        sys.exit(1)
    print("check-cutoffs: %d collectors, all cutoffs match SP 800-90B" % len(params))


if __name__ == "__main__":
    main()
