#!/usr/bin/env python3
"""check-docs.py - the figures the prose quotes agree with the code.

Reads the credit ladder (credits, samples per word, cutoffs) of
crypto/jitter_tsc_core.c and the margin from its header (check-cutoffs.py's
parser) and JITTER_TSC_PULL_MAX from include/crypto/jitter_tsc.h, then
checks the documentation, the changelogs, the cover letter, the Kconfig
help and the code comments:

  credit    every "N/256" is a step of the ladder, unless its line or the
            one before says "earlier" or "previous" (history) or it is the
            unit ("in 1/256 bit"); "N/256 = X bit" has X = N/256 to the
            digits shown;
  margin    every "margin of N" and "JTSC_EST_MARGIN`` (N)" is the code's;
  ladder    the rst's ladder table has one row per step, every column
            (samples and bits per word, each cutoff pair) the code's;
  pull      "JITTER_TSC_PULL_MAX`` (N)" gives the header's value, and every
            "N bits credited" in the prose is what one full pull carries
            at some step of the ladder.

Prints one line per check; exits 1 naming every mismatch.

usage: check-docs.py [ROOT]
"""
import importlib.util
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), "..", ".."))
HERE = os.path.dirname(os.path.abspath(__file__))
PROSE = ["Documentation/crypto/jitter_tsc.rst", "series/cover-letter.txt",
         "crypto/Kconfig.patch", "crypto/jitter_tsc_kcapi.c", "crypto/jitter_tsc_core.c",
         "crypto/jitter_tsc_estimate.c", "include/crypto/internal/jitter_tsc_core.h",
         "drivers/char/random.c.patch"]
SERIES = os.path.join(ROOT, "series")
PROSE += sorted("series/" + f for f in os.listdir(SERIES)
                if re.match(r"\d\d-.*\.txt$", f))

spec = importlib.util.spec_from_file_location("cc", os.path.join(HERE, "check-cutoffs.py"))
cc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cc)
rows, ev = cc.parse_params(os.path.join(ROOT, "crypto/jitter_tsc_core.c"))
margins = {ev.env.get("JTSC_EST_MARGIN"), ev.env.get("JTSC_EST_MARGIN_TIMER")}
margin = "/".join(str(m) for m in sorted(margins))
credits = {p["credit"] for p in rows}
for p in rows:
    for pre, alog in cc.ALPHA_LOG2.items():
        p["rct_%scutoff" % pre] = cc.rct_cutoff(p["credit"], alog)
        p["run_%scutoff" % pre] = cc.rct_cutoff(p["credit"], alog + cc.PRED_EXTRA_LOG2)

hdr = open(os.path.join(ROOT, "include/crypto/jitter_tsc.h")).read()
m = re.search(r"#define\s+JITTER_TSC_PULL_MAX\s+(\d+)", hdr)
if not m:
    sys.exit("check-docs: no JITTER_TSC_PULL_MAX in include/crypto/jitter_tsc.h")
pull_max = int(m.group(1))
# bits one full pull carries, per collector (whole bits, as jitter_tsc_pull())
pull_bits = {(pull_max // 8) * p["credit"] * p["samples_per_word"] // 256 for p in rows}

bad = []
checked = 0


def ok(what, cond, where):
    global checked
    checked += 1
    if not cond:
        bad.append("%s: %s" % (where, what))


def decimals(x):
    return len(x.split(".")[1]) if "." in x else 0


for rel in PROSE:
    path = os.path.join(ROOT, rel)
    if not os.path.exists(path):
        continue
    lines = open(path).read().split("\n")
    for i, line in enumerate(lines):
        where = "%s:%d" % (rel, i + 1)
        history = re.search(r"earlier|previous", line + " " + (lines[i - 1] if i else ""), re.I)
        for m in re.finditer(r"(?<![\d.])(\d+)/256(?:\s*=\s*([\d.]+)\s*bit)?", line):
            n = int(m.group(1))
            unit = n == 1 and line[:m.start()].rstrip().endswith(" in")    # "in 1/256 bit"
            if not history and not unit:
                ok("credit %d/256 is not a current credit (%s)" %
                   (n, ", ".join("%d/256" % c for c in sorted(credits))), n in credits, where)
            if m.group(2):
                x = m.group(2).rstrip(".")
                ok("%d/256 = %s bit, not %.*f" % (n, x, decimals(x), n / 256),
                   abs(float(x) - n / 256) <= 0.5 * 10 ** -decimals(x) + 1e-12, where)
        for m in re.finditer(r"(?:margin of|JTSC_EST_MARGIN``?\s*\()\s*(\d+)", line):
            ok("margin %s, the code's are %s" % (m.group(1), margin),
               int(m.group(1)) in margins or history, where)
        for m in re.finditer(r"JITTER_TSC_PULL_MAX``?\s*\((\d+)\)", line):
            ok("JITTER_TSC_PULL_MAX is %d, not %s" % (pull_max, m.group(1)),
               int(m.group(1)) == pull_max, where)
        for m in re.finditer(r"(?<![\d.])(\d+) bits credited", line):
            ok("%s bits credited is not a full pull of any collector (%s)" %
               (m.group(1), ", ".join(map(str, sorted(pull_bits)))),
               int(m.group(1)) in pull_bits or history, where)

# the rst's ladder table, one row per step
rst = "Documentation/crypto/jitter_tsc.rst"
text = open(os.path.join(ROOT, rst)).read()
for p in rows:
    c = p["credit"]
    per_word = c * p["samples_per_word"] / 256
    row = re.search(r"^%d/256 = ([\d.]+)\s+(\d+) samples, ([\d.]+) bits\s+(\d+) / (\d+)\s+(\d+) / (\d+)"
                    r"\s+(\d+) / (\d+)\s+(\d+) / (\d+)\s*$" % c, text, re.M)
    ok("ladder table row for %d/256 missing" % c, row is not None, rst)
    if not row:
        continue
    h = row.group(1)
    ok("%d/256: %s bit in the table" % (c, h),
       abs(float(h) - c / 256) <= 0.5 * 10 ** -decimals(h) + 1e-12, rst)
    ok("%d/256: %s samples per word in the table, %d in the code" %
       (c, row.group(2), p["samples_per_word"]), int(row.group(2)) == p["samples_per_word"], rst)
    ok("%d/256: %s bits per word in the table, %g in the code" % (c, row.group(3), per_word),
       abs(float(row.group(3)) - per_word) < 1e-9, rst)
    want = [p[k] for k in ("rct_cutoff", "rct_perm_cutoff", "apt_cutoff", "apt_perm_cutoff",
                           "run_cutoff", "run_perm_cutoff", "hits_cutoff", "hits_perm_cutoff")]
    got = [int(x) for x in row.groups()[3:]]
    ok("%d/256: cutoffs %s in the table, %s in the code" % (c, got, want), got == want, rst)

for b in bad:
    print("check-docs: MISMATCH " + b)
print("check-docs: %d checks on %d files, %d mismatches (ladder %s, margin %s, pull %d bytes = %s bits)" %
      (checked, len(PROSE), len(bad), ", ".join("%d/256" % c for c in sorted(credits)), margin,
       pull_max, "/".join(map(str, sorted(pull_bits)))))
sys.exit(1 if bad else 0)
