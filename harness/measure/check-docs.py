#!/usr/bin/env python3
"""check-docs.py - the figures the prose quotes agree with the code.

Reads the credits, samples per word and cutoffs from the jtsc_params[]
initialisers of crypto/jitter_tsc.c (check-cutoffs.py's parser) and
JITTER_TSC_PULL_MAX from include/crypto/jitter_tsc.h, then checks the
documentation, the changelogs, the cover letter, the Kconfig help and the
code comments:

  credit    every "N/256" is a current credit, unless its line or the one
            before says "earlier" or "previous" (history) or it is the unit
            ("in 1/256 bit"); "N/256 = X bit" has X = N/256 to the digits
            shown;
  per word  "S samples, B bits" in the rst's credit table, per collector;
  cutoffs   the rst's cutoff table, every column, per collector;
  pull      "JITTER_TSC_PULL_MAX`` (N)" gives the header's value, and every
            "N bits credited" in the prose is what one full pull carries
            from one of the collectors.

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
         "crypto/Kconfig.patch", "crypto/jitter_tsc.c", "drivers/char/random.c.patch"]
SERIES = os.path.join(ROOT, "series")
PROSE += sorted("series/" + f for f in os.listdir(SERIES)
                if re.match(r"\d\d-.*\.txt$", f))

spec = importlib.util.spec_from_file_location("cc", os.path.join(HERE, "check-cutoffs.py"))
cc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cc)
params = {p["name"]: p for p in cc.parse_params(os.path.join(ROOT, "crypto/jitter_tsc.c"))}
credits = {p["credit"] for p in params.values()}

hdr = open(os.path.join(ROOT, "include/crypto/jitter_tsc.h")).read()
m = re.search(r"#define\s+JITTER_TSC_PULL_MAX\s+(\d+)", hdr)
if not m:
    sys.exit("check-docs: no JITTER_TSC_PULL_MAX in include/crypto/jitter_tsc.h")
pull_max = int(m.group(1))
# bits one full pull carries, per collector (whole bits, as jitter_tsc_pull())
pull_bits = {(pull_max // 8) * p["credit"] * p["samples_per_word"] // 256
             for p in params.values()}

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
        for m in re.finditer(r"JITTER_TSC_PULL_MAX``?\s*\((\d+)\)", line):
            ok("JITTER_TSC_PULL_MAX is %d, not %s" % (pull_max, m.group(1)),
               int(m.group(1)) == pull_max, where)
        for m in re.finditer(r"(?<![\d.])(\d+) bits credited", line):
            ok("%s bits credited is not a full pull of any collector (%s)" %
               (m.group(1), ", ".join(map(str, sorted(pull_bits)))),
               int(m.group(1)) in pull_bits or history, where)

# the rst's tables, one row per collector
rst = "Documentation/crypto/jitter_tsc.rst"
text = open(os.path.join(ROOT, rst)).read()
for name, p in params.items():
    per_word = p["credit"] * p["samples_per_word"] / 256
    row = re.search(r"^%s\s+\d+/256 = [\d.]+ bit per sample\s+(\d+) samples, ([\d.]+) bits$"
                    % re.escape(name), text, re.M)
    ok("credit table row for %s missing" % name, row is not None, rst)
    if row:
        ok("%s: %s samples per word in the table, %d in the code" %
           (name, row.group(1), p["samples_per_word"]), int(row.group(1)) == p["samples_per_word"], rst)
        ok("%s: %s bits per word in the table, %g in the code" % (name, row.group(2), per_word),
           abs(float(row.group(2)) - per_word) < 1e-9, rst)
    row = re.search(r"^%s\s+([\d.]+)\s+(\d+) / (\d+)\s+(\d+) / (\d+)\s+(\d+) / (\d+)\s+(\d+) / (\d+)$"
                    % re.escape(name), text, re.M)
    ok("cutoff table row for %s missing" % name, row is not None, rst)
    if row:
        want = [p[k] for k in ("rct_cutoff", "rct_perm_cutoff", "apt_cutoff", "apt_perm_cutoff",
                               "run_cutoff", "run_perm_cutoff", "hits_cutoff", "hits_perm_cutoff")]
        got = [int(x) for x in row.groups()[1:]]
        ok("%s: cutoffs %s in the table, %s in the code" % (name, got, want), got == want, rst)
        h = row.group(1)
        ok("%s: H %s in the table, credit %d/256" % (name, h, p["credit"]),
           abs(float(h) - p["credit"] / 256) <= 0.5 * 10 ** -decimals(h) + 1e-12, rst)

for b in bad:
    print("check-docs: MISMATCH " + b)
print("check-docs: %d checks on %d files, %d mismatches (credits %s, pull %d bytes = %s bits)" %
      (checked, len(PROSE), len(bad), ", ".join("%d/256" % c for c in sorted(credits)),
       pull_max, "/".join(map(str, sorted(pull_bits)))))
sys.exit(1 if bad else 0)
