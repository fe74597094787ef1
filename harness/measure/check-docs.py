#!/usr/bin/env python3
"""check-docs.py - what the prose says is what the code does.

Reads the credit ladder (credits, samples per word, cutoffs) of
crypto/jitter_tsc_core.c and the margin from its header (check-cutoffs.py's
parser), the constants of the series' headers and glue, its Kconfig
entries, module parameters, debugfs files and function bodies (random.c
as the series patches it, when the pristine base tree is there), then
checks the documentation, the changelogs, the cover letter, the Kconfig
help and the code comments:

  credit    every "N/256" is a step of the ladder, unless its line or the
            one before says "earlier" or "previous", or it is in the cover
            letter's "Changes and findings since earlier revisions"
            (history), or it is the unit ("in 1/256 bit"); "N/256 = X bit"
            has X = N/256 to the digits shown;
  margin    every "margin of N" and "JTSC_EST_MARGIN`` (N)" is the code's;
  ladder    the rst's ladder table has one row per step, every column
            (samples and bits per word, each cutoff pair) the code's;
  pull      "JITTER_TSC_PULL_MAX`` (N)" gives the header's value, and every
            "N bits credited" in the prose is what one full pull carries
            at some step of the ladder;
  functions every name() of the rst, the changelogs and the cover letter
            (not its history section) is called or defined in the series'
            code or in the base tree (user-space calls excepted);
  kconfig   every CONFIG_ symbol named exists (the series' Kconfig or the
            base's); "CONFIG_X (default y|n, depends on/needs Y)" agrees
            with the series' Kconfig entry of X;
  params    the rst's "Boot and module parameters" are exactly the
            module_param()s of the glue plus random.c's early_param(); each
            one's "(CONFIG_X only)" is the #if around it; every
            jitter_tsc.X / random.X named, and every parameter of
            kernel-parameters.txt.patch, exists;
  debugfs   the files the rst lists are exactly the debugfs_create_file(),
            _file_unsafe() and _blob() calls, with the same "(CONFIG_X
            only)" conditions and mode;
  errno     the rst's reader-visible error codes are jtsc_rng_generate()'s
            Return: codes, plus -EAGAIN where its retries are bounded,
            less -EAGAIN where the crypto_rng retries it without bound
            (in jtsc_kcapi_generate() or jtsc_rng_generate_wait()),
            plus -ENOENT (crypto API lookup); its code examples' comments
            name the same;
  counts    counts and sizes quoted: startup test samples, batch, samples
            per word, buffer size, the walk's cycle and loads per page, idle seconds, fresh and
            block credit, shards, startup tests at boot, counter check reads,
            the estimate's windows, failures per call, the backoff, how often
            the startup health test yields, how long a request waits for a
            collector;
  calls     "X calls Y"-style claims, extracted from the prose and a fixed
            list: Y appears in the body of X; random.c's exports that the
            glue calls are the ones the cover letter lists; drbg is named
            nowhere as a caller;
  columns   series/*.txt lines are at most 75 columns;
  paths     every repository path named in the rst, the changelogs and the
            cover letter (not its history section) exists, in the series
            or in the base tree;
  claims    sentences the code refutes, in the rst, the changelogs, the
            cover letter (not its history), the Kconfig help and the code
            comments of the series (crypto/, include/, the x86 header,
            random.c's patch): that init is not delayed, while random.c
            defines JITTER_TSC_BOOT_BUDGET; a count of predictor windows
            for the first pull other than the ladder's (1 to 5, five at
            the steps whose words fold 512 samples); a credit "at most
            half the lowest estimate"; output that stops "the moment" the
            source stops being random; a reader that cannot hold up
            random.c's instance; a most-common-value bound under the one
            SP 800-90B 6.3.1 gives a flat histogram of the startup test's
            samples (recomputed); "O(n log n)" said of anything but the
            suffix sort (the estimate is O(n k) at worst); estimates "of
            another machine" dropped on a fork (they are per machine
            generation); a startup test that estimates, or a refused step
            estimated again before a new generation (the group's estimate
            work sets each step once); a startup test that "never" retires
            a collector (the one after an intermittent failure does); a
            killable wait, or a crypto_rng reader that never sees -EAGAIN,
            where jtsc_rng_generate() waits interruptibly and gives up; a
            timer callback that does something, or a timer collector
            credited per expiry; a collector dead for every instance; the
            timer collector under migration disabled; a step "estimated at
            each startup test"; "no reader can raise or lower a credit"
            (a reader triggers a generation's first estimate); a core that
            uses "no kernel API"; async work ending "hundreds of ms before
            the last initcall" or a setup of "a few ms"; readers on
            different CPUs that never wait for each other (shards are
            cpu % 8); a caller that waits for an attempt under way (random.c
            takes its mutex with mutex_trylock()); fresh samples for a
            request's first block only (every block takes them);
  comments  no code comment of the series cites the development harness
            (harness/, make bench/check/..., check-margin, mutants.py).

Prints one line per check group; exits 1 naming every mismatch. Every
run first shows each claims and comments rule catching the sentences it
was written for and passing what the docs say instead (self-test cases,
counted in those groups); --self-test runs only that.

usage: check-docs.py [--self-test] [ROOT]
"""
import importlib.util
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
SELF_TEST_ONLY = "--self-test" in sys.argv[1:]
ROOT = os.path.abspath(ARGS[0] if ARGS else os.path.join(os.path.dirname(__file__), "..", ".."))
HERE = os.path.dirname(os.path.abspath(__file__))
BASE = os.path.join(ROOT, "build", "base", "linux-source-6.12")
HAVE_BASE = os.path.isfile(os.path.join(BASE, "drivers", "char", "random.c"))
RST = "Documentation/crypto/jitter_tsc.rst"
COVER = "series/cover-letter.txt"
KPARAMS = "Documentation/admin-guide/kernel-parameters.txt.patch"
SERIES = os.path.join(ROOT, "series")
CHANGELOGS = sorted("series/" + f for f in os.listdir(SERIES) if re.match(r"\d\d-.*\.txt$", f))
DOCS = [RST, COVER] + CHANGELOGS
# The repo files of the series, in series.conf order: the code is every
# added C file and header, whatever the layout of the day.
SERIES_FILES = []
for _line in open(os.path.join(SERIES, "series.conf")):
    _m = re.match(r"\s+file\s+(\S+)", _line)
    if _m and _m.group(1) not in SERIES_FILES:
        SERIES_FILES.append(_m.group(1))
SERIES_CODE = [f for f in SERIES_FILES if re.search(r"\.[ch]$", f)
               and os.path.exists(os.path.join(ROOT, f))]
SERIES_CODE.sort(key=lambda f: (not f.endswith(".h"), f))   # headers first
PROSE = [RST, COVER, "crypto/Kconfig.patch", "drivers/char/random.c.patch"] + \
    [f for f in SERIES_CODE if "kunit" not in f] + CHANGELOGS
HISTORY_HEAD = "Changes and findings since earlier revisions"
# called from user space in the examples and prose, not kernel functions
USERSPACE = {"read", "bind", "socket", "accept", "close", "perror", "main", "getrandom",
             "sched_yield"}

spec = importlib.util.spec_from_file_location("cc", os.path.join(HERE, "check-cutoffs.py"))
cc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cc)
# the core's constants: its internal header, whichever the layout names
_hdr = [f for f in SERIES_CODE if f.startswith("crypto/") and f.endswith(".h")] + \
    [f for f in SERIES_CODE if f.startswith("include/crypto/internal/") and "core" in f]
rows, ev = cc.parse_params(os.path.join(ROOT, "crypto/jitter_tsc_core.c"),
                           os.path.join(ROOT, _hdr[0]) if _hdr else None)
margins = {ev.env.get("JTSC_EST_MARGIN"), ev.env.get("JTSC_EST_MARGIN_TIMER")}
margin = "/".join(str(m) for m in sorted(margins))
credits = {p["credit"] for p in rows}
for p in rows:
    for pre, alog in cc.ALPHA_LOG2.items():
        # the RCT and the runs at alpha / 128, for twice the credit
        p["rct_%scutoff" % pre] = cc.rct_cutoff(cc.GUARD * p["credit"], alog + cc.PRED_EXTRA_LOG2)
        p["run_%scutoff" % pre] = p["rct_%scutoff" % pre]


def read(rel):
    return open(os.path.join(ROOT, rel)).read()


hdr = "\n".join(read(f) for f in SERIES_CODE if f.endswith(".h"))
m = re.search(r"#define\s+JITTER_TSC_PULL_MAX\s+(\d+)", hdr)
if not m:
    sys.exit("check-docs: no JITTER_TSC_PULL_MAX in the series' headers")
pull_max = int(m.group(1))
# bits one full pull carries, per collector (whole bits, as jitter_tsc_pull())
pull_bits = {(pull_max // 8) * p["credit"] * p["samples_per_word"] // 256 for p in rows}

bad = []
groups = {}


def ok(group, what, cond, where):
    groups[group] = groups.get(group, 0) + 1
    if not cond:
        bad.append("%s: %s: %s" % (group, where, what))


def decimals(x):
    return len(x.split(".")[1]) if "." in x else 0


def history_lines(rel, lines):
    """Line indexes of the cover letter's history section."""
    out = set()
    if rel != COVER:
        return out
    inside = False
    for i, line in enumerate(lines):
        if line.strip() == HISTORY_HEAD:
            inside = True
        elif inside and line and not line.startswith(("- ", "  ")):
            inside = False
        if inside:
            out.add(i)
    return out


def doc_text(rel):
    """A doc as checked: the cover letter without its history section."""
    lines = read(rel).split("\n")
    hist = history_lines(rel, lines)
    return "\n".join("" if i in hist else l for i, l in enumerate(lines))


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


# ---------------------------------------------------------------- credits, margin, pull
for rel in PROSE:
    path = os.path.join(ROOT, rel)
    if not os.path.exists(path):
        continue
    lines = open(path).read().split("\n")
    hist = history_lines(rel, lines)
    for i, line in enumerate(lines):
        where = "%s:%d" % (rel, i + 1)
        history = i in hist or re.search(r"earlier|previous",
                                         line + " " + (lines[i - 1] if i else ""), re.I)
        for m in re.finditer(r"(?<![\d.])(\d+)/256(?:\s*=\s*([\d.]+)\s*bit)?", line):
            n = int(m.group(1))
            unit = n == 1 and line[:m.start()].rstrip().endswith(" in")    # "in 1/256 bit"
            if not history and not unit:
                ok("credit", "credit %d/256 is not a current credit (%s)" %
                   (n, ", ".join("%d/256" % c for c in sorted(credits))), n in credits, where)
            if m.group(2):
                x = m.group(2).rstrip(".")
                ok("credit", "%d/256 = %s bit, not %.*f" % (n, x, decimals(x), n / 256),
                   abs(float(x) - n / 256) <= 0.5 * 10 ** -decimals(x) + 1e-12, where)
        for m in re.finditer(r"(?:margin of|JTSC_EST_MARGIN(?:``)?\s*\()\s*(\d+)", line):
            ok("margin", "margin %s, the code's are %s" % (m.group(1), margin),
               int(m.group(1)) in margins or history, where)
        for m in re.finditer(r"JITTER_TSC_PULL_MAX(?:``)?\s*\((\d+)\)", line):
            ok("pull", "JITTER_TSC_PULL_MAX is %d, not %s" % (pull_max, m.group(1)),
               int(m.group(1)) == pull_max, where)
        for m in re.finditer(r"(?<![\d.])(\d+) bits credited", line):
            ok("pull", "%s bits credited is not a full pull of any collector (%s)" %
               (m.group(1), ", ".join(map(str, sorted(pull_bits)))),
               int(m.group(1)) in pull_bits or history, where)

# ---------------------------------------------------------------- ladder table
text = read(RST)
for p in rows:
    c = p["credit"]
    per_word = c * p["samples_per_word"] / 256
    # columns: RCT and predictor runs (one formula), APT, predictor hits
    row = re.search(r"^%d/256 = ([\d.]+)\s+(\d+) samples, ([\d.]+) bits\s+(\d+) / (\d+)\s+(\d+) / (\d+)"
                    r"\s+(\d+) / (\d+)\s*$" % c, text, re.M)
    ok("ladder", "ladder table row for %d/256 missing" % c, row is not None, RST)
    if not row:
        continue
    h = row.group(1)
    ok("ladder", "%d/256: %s bit in the table" % (c, h),
       abs(float(h) - c / 256) <= 0.5 * 10 ** -decimals(h) + 1e-12, RST)
    ok("ladder", "%d/256: %s samples per word in the table, %d in the code" %
       (c, row.group(2), p["samples_per_word"]), int(row.group(2)) == p["samples_per_word"], RST)
    ok("ladder", "%d/256: %s bits per word in the table, %g in the code" % (c, row.group(3), per_word),
       abs(float(row.group(3)) - per_word) < 1e-9, RST)
    ok("ladder", "%d/256: the RCT's and the runs' cutoffs differ in the code, one column in the table"
       % c, (p["rct_cutoff"], p["rct_perm_cutoff"]) == (p["run_cutoff"], p["run_perm_cutoff"]), RST)
    want = [p[k] for k in ("rct_cutoff", "rct_perm_cutoff", "apt_cutoff", "apt_perm_cutoff",
                           "hits_cutoff", "hits_perm_cutoff")]
    got = [int(x) for x in row.groups()[3:]]
    ok("ladder", "%d/256: cutoffs %s in the table, %s in the code" % (c, got, want), got == want, RST)

# ---------------------------------------------------------------- the code, as the series leaves it
code = {rel: read(rel) for rel in SERIES_CODE}
code_raw = dict(code)


def patched(rel):
    """The base's file with the series' patch applied, or, without the base,
    the new side of the patch's hunks."""
    diff = read(rel + ".patch")
    if HAVE_BASE and shutil.which("patch"):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out")
            r = subprocess.run(["patch", "-s", "-o", out, os.path.join(BASE, rel)],
                               input=diff, text=True, capture_output=True)
            if r.returncode == 0:
                return open(out).read()
    return "\n".join(l[1:] for l in diff.split("\n")
                     if l[:1] in "+ " and not l.startswith("+++"))


code["drivers/char/random.c"] = patched("drivers/char/random.c")


def added(rel):
    """The '+' lines of a patch (every part of a multi-part one)."""
    return "\n".join(l[1:] for l in read(rel).split("\n")
                     if l.startswith("+") and not l.startswith("+++"))


kconfig_new = "\n".join(added(f) if f.endswith(".patch") else read(f)
                        for f in SERIES_FILES if re.search(r"(^|/)Kconfig(\.patch)?$", f))
stripped = {rel: cc.strip_comments(t) for rel, t in code.items()}
TEXTS = sorted(stripped.items())
C_FILES = [rel for rel in SERIES_CODE if rel.endswith(".c") and "kunit" not in rel]
kcapi = "\n".join(code[rel] for rel in C_FILES)     # what the module is made of

# Objects built only under an option of their own (crypto/Makefile.patch):
# what they define exists only with it.
FILE_COND = {}
for f in SERIES_FILES:
    if f.endswith("Makefile.patch"):
        for m in re.finditer(r"^[\w-]+-\$\(CONFIG_(\w+)\)\s*\+?=\s*(.*)$", added(f), re.M):
            for obj in m.group(2).split():
                FILE_COND[os.path.join(os.path.dirname(f), obj[:-2] + ".c")] = {m.group(1)}
for k in list(FILE_COND):
    FILE_COND[k] -= {"CRYPTO_JITTER_TSC"}

cev = cc.Evaluator("\n".join(code[r] for r in SERIES_CODE if "kunit" not in r))
K = cev.env


def body_of(name, texts):
    """The body of function @name, from the .c files that define it if any
    (a header's stub otherwise); several definitions (#ifdef branches) are
    joined."""
    found = []
    for rel, t in texts:
        for m in re.finditer(r"^[A-Za-z_][^;{}()]*\b%s\s*\([^;{}]*\)\s*\{" % re.escape(name), t, re.M):
            depth, i = 0, m.end() - 1
            while i < len(t):
                depth += {"{": 1, "}": -1}.get(t[i], 0)
                if depth == 0:
                    found.append((rel, t[m.end():i]))
                    break
                i += 1
    c = [b for rel, b in found if rel.endswith(".c")]
    bodies = c or [b for rel, b in found]
    return "\n".join(bodies) if bodies else None


def conditions(text, pattern):
    """For each match of @pattern in @text: (match, CONFIG_ symbols of the
    #if/#ifdef branches it is in, not counting #else branches)."""
    stack, out = [], []
    for line in text.split("\n"):
        s = line.strip()
        if re.match(r"#\s*if", s):
            stack.append(set(re.findall(r"CONFIG_(\w+)", s)))
        elif re.match(r"#\s*(else|elif)", s):
            if stack:
                stack[-1] = set()
        elif re.match(r"#\s*endif", s):
            if stack:
                stack.pop()
        for m in re.finditer(pattern, line):
            out.append((m, set().union(*stack) if stack else set()))
    return out


def conditions_all(pattern):
    """conditions() over every C file of the module, with the option its
    object is built under."""
    out = []
    for rel in C_FILES:
        for m, cond in conditions(code[rel], pattern):
            out.append((m, cond | FILE_COND.get(rel, set())))
    return out


def only(line):
    """The CONFIG_ symbols of "(``CONFIG_X`` only)" on a doc line."""
    return set(re.findall(r"\(``CONFIG_(\w+)`` only\)", line))


def deflist(text, head):
    """(line, entry names) of a definition list in the rst section @head."""
    lines = text.split("\n")
    start = lines.index(head)
    out = []
    for i in range(start + 2, len(lines) - 1):
        if re.match(r"^[=\-~]{3,}$", lines[i + 1]) and lines[i]:
            break
        if lines[i].startswith("``") and lines[i + 1].startswith("  "):
            out.append((lines[i], re.findall(r"``([^`]+)``", lines[i])))
    return out


# ---------------------------------------------------------------- functions
docs = {rel: doc_text(rel) for rel in DOCS}
named = {}
for rel, t in docs.items():
    for m in re.finditer(r"(?<![\w.>/-])([A-Za-z_]\w*)\(\)", t):
        named.setdefault(m.group(1), "%s:%d" % (rel, line_of(t, m.start())))
series_all = "\n".join(stripped.values())
missing = {n for n in named if n not in USERSPACE and
           not re.search(r"\b%s\s*\(" % re.escape(n), series_all)}
in_base = set()
if missing and HAVE_BASE:
    dirs = [os.path.join(BASE, d) for d in ("include", "init", "kernel", "drivers/char", "crypto",
                                            "arch/x86", "lib", "mm", "fs/debugfs")]
    r = subprocess.run(["grep", "-rhoE", "--include=*.c", "--include=*.h", "--include=*.S",
                        r"\b(%s)\s*\(" % "|".join(sorted(missing))] + dirs,
                       capture_output=True, text=True)
    in_base = {re.sub(r"\s*\($", "", x) for x in r.stdout.split()}
for n, where in sorted(named.items()):
    if n in USERSPACE or (n in missing and not HAVE_BASE):
        continue
    ok("functions", "%s() is in neither the series' code nor the base" % n,
       n not in missing or n in in_base, where)

# ---------------------------------------------------------------- kconfig
base_syms = set()
if HAVE_BASE:
    for d, _, files in os.walk(BASE):
        for f in files:
            if f.startswith("Kconfig"):
                for m in re.finditer(r"^\s*(?:menu)?config\s+(\w+)",
                                     open(os.path.join(d, f), errors="replace").read(), re.M):
                    base_syms.add(m.group(1))
entries = {}
for m in re.finditer(r"^config (\w+)\n(.*?)(?=^config |\Z)", kconfig_new, re.M | re.S):
    e = m.group(2)
    d = re.search(r"^\s*default\s+(\S+)", e, re.M)
    entries[m.group(1)] = {"default": d.group(1) if d else "n",
                           "depends": " ".join(re.findall(r"^\s*depends on\s+(.+)$", e, re.M))}
for rel, t in docs.items():
    syms = [(m.group(1), m.start()) for m in re.finditer(r"\bCONFIG_(\w+)", t)]
    syms += [(m.group(1), m.start()) for m in re.finditer(
        r"(?:depends on ``|needs |\b)([A-Z][A-Z0-9_]{3,})(?:``)?(?==[ynm]\b|\)|``\))", t)
        if m.group(1) in entries or m.group(1).startswith(("CRYPTO_", "DEBUG_", "FAULT_"))]
    for s, pos in syms:
        ok("kconfig", "CONFIG_%s is not a Kconfig symbol" % s,
           s in entries or s in base_syms or not HAVE_BASE, "%s:%d" % (rel, line_of(t, pos)))
    flat = re.sub(r"\s", " ", t)
    for m in re.finditer(r"CONFIG_(\w+)(?:``)? \(([^()]*)\)", flat):
        s, par, where = m.group(1), m.group(2), "%s:%d" % (rel, line_of(t, m.start()))
        e = entries.get(s)
        d = re.search(r"default ([ynm])\b", par)
        if d and e:
            ok("kconfig", "CONFIG_%s default %s, Kconfig says %s" % (s, d.group(1), e["default"]),
               d.group(1) == e["default"], where)
        for dep in re.findall(r"(?:depends on|needs) (?:``)?([A-Z][A-Z0-9_]+)", par):
            if e:
                ok("kconfig", "CONFIG_%s does not depend on %s (%s)" % (s, dep, e["depends"]),
                   re.search(r"\b%s\b" % dep, e["depends"]) is not None, where)

# ---------------------------------------------------------------- params
params = {}
for m, cond in conditions_all(r"^\s*module_param\((\w+),"):
    params["jitter_tsc." + m.group(1)] = cond
early = set(re.findall(r'early_param\("([\w.]+)"', code["drivers/char/random.c"]))
for m in re.finditer(r'early_param\("(random\.trust_jitter_tsc)"', code["drivers/char/random.c"]):
    params[m.group(1)] = set()
rst_text = read(RST)
listed = {}
for line, names in deflist(rst_text, "Boot and module parameters"):
    listed[re.sub(r"=.*", "", names[0])] = only(line)
ok("params", "the rst lists %s, the code has %s" % (sorted(listed), sorted(params)),
   set(listed) == set(params), RST)
for p, cond in listed.items():
    if p in params:
        ok("params", "%s: the rst says %s only, the code's #if is %s" %
           (p, sorted(cond) or "always", sorted(params[p]) or "always"), cond == params[p], RST)
for rel, t in list(docs.items()) + [(KPARAMS, "\n".join(
        l[1:] for l in read(KPARAMS).split("\n") if l.startswith("+")))]:
    for m in re.finditer(r"\b((?:jitter_tsc|random)\.[a-z]\w*)\b(?![{.(])", t):
        p = m.group(1)
        if p.split(".")[1] in ("rst", "h", "c", "o", "ko", "txt"):
            continue
        if p.startswith("jitter_tsc.") or p.startswith("random.trust"):
            ok("params", "%s is not a parameter of the code" % p,
               p in params or p in early, "%s:%d" % (rel, line_of(t, m.start())))

# ---------------------------------------------------------------- debugfs
files = {}
for m, cond in conditions_all(r'debugfs_create_(?:file(?:_unsafe)?|blob)\("(\w+)",\s*(0\d+)'):
    files[m.group(1)] = (cond - {"CRYPTO_JITTER_TSC_DEBUGFS"}, m.group(2))
dlisted = {}
for line, names in deflist(rst_text, "Raw samples in debugfs"):
    for n in re.findall(r"``([^`]+)``", line.split(" (")[0]):
        if re.match(r"^\w+$", n):
            dlisted[n] = only(line)
ok("debugfs", "the rst lists %d files %s, the code creates %d %s" %
   (len(dlisted), sorted(dlisted), len(files), sorted(files)), dlisted.keys() == files.keys(), RST)
for n, cond in dlisted.items():
    if n in files:
        ok("debugfs", "%s: the rst says %s only, the code's #if is %s" %
           (n, sorted(cond) or "always", sorted(files[n][0]) or "always"), cond == files[n][0], RST)
for m in re.finditer(r"all mode (0\d+)", rst_text):
    ok("debugfs", "all mode %s, the code's are %s" % (m.group(1), sorted({f[1] for f in files.values()})),
       {f[1] for f in files.values()} == {m.group(1)}, RST)

# ---------------------------------------------------------------- errno
ret = re.search(r"\* jtsc_rng_generate\(\).*?\* Return:(.*?)\*/", kcapi, re.S)
gen = set(re.findall(r"-(E[A-Z]+)", ret.group(1))) if ret else set()
ok("errno", "no Return: of jtsc_rng_generate()", bool(gen), "the series' C files")
# a bounded retry ("ret == -EAGAIN && ++retries < ...") lets -EAGAIN out
if re.search(r"==\s*-EAGAIN\s*&&", (body_of("jtsc_rng_generate", TEXTS) or "") +
             (body_of("jtsc_words", TEXTS) or "")):
    gen.add("EAGAIN")
# the crypto_rng's generate retries -EAGAIN itself, or through the one
# helper it calls for that
kgen = body_of("jtsc_kcapi_generate", TEXTS) or ""
if "jtsc_rng_generate_wait(" in kgen:
    kgen = body_of("jtsc_rng_generate_wait", TEXTS) or ""
if "== -EAGAIN" in kgen:
    gen.discard("EAGAIN")
reader = gen | {"ENOENT"}
listed_err = set()
for line, names in deflist(rst_text, "Failures and error codes"):
    listed_err |= {n[1:] for n in names if re.match(r"^-E[A-Z]+$", n)}
ok("errno", "the rst lists %s, a reader can get %s" % (sorted(listed_err), sorted(reader)),
   listed_err == reader, RST)
for m in re.finditer(r"/\* (?:errno )?-?(E[A-Z]+): no collector left;([^*]*)\*/", rst_text):
    got = {m.group(1)} | set(re.findall(r"-?(E[A-Z]+)", m.group(2)))
    ok("errno", "example comment names %s, generate returns %s" % (sorted(got), sorted(gen)),
       got == gen, "%s:%d" % (RST, line_of(rst_text, m.start())))

# ---------------------------------------------------------------- counts and sizes
spw = sorted({p["samples_per_word"] for p in rows})
for _k in ("JTSC_STARTUP_SAMPLES", "JTSC_PRED_WINDOW", "JTSC_BATCH", "JTSC_COUNTER_BATCH",
           "TSC_JITTER_MEM_SIZE", "TSC_JITTER_LINES", "TSC_JITTER_LINE_BITS", "JTSC_IDLE_SECS",
           "JTSC_FRESH_CREDIT", "JTSC_ENTROPY_SHIFT", "JTSC_BLOCK_CREDIT", "JTSC_MAX_WORD_CREDIT",
           "JTSC_MAX_SHARDS", "JTSC_COUNTER_READS", "JTSC_COUNTER_MAX_READ_NS", "JTSC_MAX_LAG",
           "JTSC_EST_WINDOWS", "JTSC_MAX_RETRIES", "JTSC_BACKOFF_MIN", "JTSC_BACKOFF_MAX"):
    ok("counts", "%s is not a constant of the code" % _k, _k in K, "the series' code")
    K.setdefault(_k, 1)
mem = K["TSC_JITTER_MEM_SIZE"]
boot_inits = len(re.findall(r"\bjtsc_rng_init\(", body_of("jtsc_setup", TEXTS) or ""))
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
# how often the startup health test yields: the modulus of its cond_resched()
_m = re.search(r"%\s*(\w+)\)\)\s*cond_resched\(", body_of("jtsc_core_startup", TEXTS) or "")
startup_yield = K.get(_m.group(1)) if _m else None
# how long a request waits while every collector backs off, in seconds
_m = re.search(r"jiffies\s*\+\s*(\w+)\s*\*\s*HZ", body_of("jtsc_rng_generate", TEXTS) or "")
generate_wait = K.get(_m.group(1)) if _m else None
COUNTS = [
    # (what, pattern on the whitespace-flattened doc, group -> expected value)
    ("startup test samples", r"startup test (?:over|of) (\d+)", K["JTSC_STARTUP_SAMPLES"]),
    ("startup test samples", r"its own (\d+) raw samples", K["JTSC_STARTUP_SAMPLES"]),
    ("startup test samples", r"(\d+) samples of the first startup test", K["JTSC_STARTUP_SAMPLES"]),
    ("startup test samples", r"startup test \((\d+) samples", K["JTSC_STARTUP_SAMPLES"]),
    ("startup test samples", r"(\d{4,5}) samples, their runtime estimate", K["JTSC_STARTUP_SAMPLES"]),
    ("startup test samples", r"JTSC_STARTUP_SAMPLES(?:``)? \((\d+)\)", K["JTSC_STARTUP_SAMPLES"]),
    ("estimate windows", r"\b(\d+) x (?:\()?\d{4,5} samples", K["JTSC_EST_WINDOWS"]),
    ("estimate windows", r"JTSC_EST_WINDOWS(?:``)? \((\d+)\)", K["JTSC_EST_WINDOWS"]),
    ("estimate windows", r"median of (?:the )?(two|three|four|five|\d+)\b", K["JTSC_EST_WINDOWS"]),
    ("estimate windows", r"\b(two|three|four|five|\d+) (?:startup-sized )?windows\b", K["JTSC_EST_WINDOWS"]),
    ("failures per call", r"JTSC_MAX_RETRIES(?:``)? \((\d+)\)", K["JTSC_MAX_RETRIES"]),
    ("failures per call", r"(?:at most|after|met) (four|five|six|\d+) failures\b", K["JTSC_MAX_RETRIES"]),
    ("backoff", r"\b(\d+) s, doubling", K["JTSC_BACKOFF_MIN"]),
    ("backoff", r"doubling (?:up )?to (\d+) s\b", K["JTSC_BACKOFF_MAX"]),
    ("startup test yield", r"startup health test (?:yields )?every (\d+) samples", startup_yield),
    ("request's wait", r"backed off (\d+) s into", generate_wait),
    ("request's wait", r"up to the longest backoff,? \((\d+) s\)", generate_wait),
    ("predictor window", r"predictor window, (\d+) samples", K["JTSC_PRED_WINDOW"]),
    ("predictor window", r"window of (\d+) samples", K["JTSC_PRED_WINDOW"]),
    ("batch", r"(?<!fastest\s)batch(?:es)? of (\d+)", K["JTSC_BATCH"]),
    ("counter check batch", r"fastest batch of (\d+)", K["JTSC_COUNTER_BATCH"]),
    ("passes under migrate_disable()", r"(?:disables? migration|[Mm]igration is disabled) for "
     r"(?:each|one|every) (?:chunk|batch) of (\d+) passes", K.get("JTSC_SPEC_CHUNK", K["JTSC_BATCH"])),
    ("passes under migrate_disable()", r"a chunk of (\d+) speculative passes",
     K.get("JTSC_SPEC_CHUNK", K["JTSC_BATCH"])),
    ("samples per word, lowest", r"\b(\d+) to \d+(?:, eight to each| to a word)", spw[0]),
    ("samples per word, highest", r"\b\d+ to (\d+)(?:, eight to each| to a word)", spw[-1]),
    ("buffer MiB", r"(\d+) MiB (?:buffer|of ``__vmalloc)", mem >> 20),
    ("buffer MiB", r"(?:buffer|``__vmalloc\(\)``), (\d+) MiB", mem >> 20),
    ("buffer MiB", r"fixed at (\d+) MiB", mem >> 20),
    ("buffer MiB", r"\d+ x \(?(\d+) MiB", mem >> 20),
    ("walk cycle", r"cycle of (\d+) passes", K["TSC_JITTER_LINES"]),
    ("walk cycle", r"cycle of 2\^(\d+) passes", K["TSC_JITTER_LINE_BITS"]),
    ("loads per page", r"page of the buffer is loaded (\d+) times", K["TSC_JITTER_LINES"] * 4096 // mem),
    ("loads per page", r"pages, each loaded (\d+) times", K["TSC_JITTER_LINES"] * 4096 // mem),
    ("loads per 8 KiB", r"at most (\d+)\s+loads per cycle", 2 * K["TSC_JITTER_LINES"] * 4096 // mem),
    ("line size", r"(\d+)-byte line", mem // K["TSC_JITTER_LINES"]),
    ("idle seconds", r"(\d+) to \d+ seconds", K["JTSC_IDLE_SECS"]),
    ("idle seconds", r"\d+ to (\d+) seconds", 2 * K["JTSC_IDLE_SECS"]),
    ("fresh credit", r"at least (\d+) (?:of them|credited bits from samples)",
     K["JTSC_FRESH_CREDIT"] >> K["JTSC_ENTROPY_SHIFT"]),
    ("block credit", r"carry (?:at least )?(\d+) credited bits",
     K["JTSC_BLOCK_CREDIT"] >> K["JTSC_ENTROPY_SHIFT"]),
    ("word credit", r"at most (\d+) (?:credited )?bits", K["JTSC_MAX_WORD_CREDIT"] >> K["JTSC_ENTROPY_SHIFT"]),
    ("shards", r"per CPU \(at most (\d+)", K["JTSC_MAX_SHARDS"]),
    ("shards", r"min\(nr_cpu_ids, (\d+)\)", K["JTSC_MAX_SHARDS"]),
    ("shards + random.c", r"(\d+) x \(?\d+ MiB", K["JTSC_MAX_SHARDS"] + 1),
    ("startup tests at boot", r"\b((?i:one|two|three)|\d+) startup tests?\b[^.]{0,60}\bat boot", boot_inits),
    ("counter check reads", r"(\d+) (?:counter reads|times back to back|reads unchanged)",
     K["JTSC_COUNTER_READS"]),
    ("counter check read ns", r"more than (\d+) ns", K["JTSC_COUNTER_MAX_READ_NS"]),
]
for rel, t in docs.items():
    flat = re.sub(r"\s", " ", t)     # same offsets, so line_of() still holds
    for what, pat, want in COUNTS:
        for m in re.finditer(pat.replace(" ", r"\s+"), flat):
            v = m.group(1)
            v = WORDS.get(v.lower()) if not v.isdigit() else int(v)
            ok("counts", "%s: %s in the prose, %s in the code" % (what, m.group(0).strip(), want),
               v == want, "%s:%d" % (rel, line_of(t, m.start())))

# ---------------------------------------------------------------- calls
PAIRS = [
    # (caller, callee): what the prose says calls what
    ("try_to_generate_entropy", "try_jitter_tsc"),
    ("try_jitter_tsc", "jitter_tsc_pull"),
    ("try_jitter_tsc", "mutex_trylock"),
    ("try_jitter_tsc", "credit_init_bits"),
    ("try_jitter_tsc", "mix_pool_bytes"),
    ("random_jitter_tsc_init", "queue_work"),
    ("random_jitter_tsc_init", "async_schedule"),
    ("random_wait_jitter_tsc", "wait_for_completion_timeout"),
    ("wait_for_random_bytes", "try_to_generate_entropy"),
    ("urandom_read_iter", "try_to_generate_entropy"),
    ("jtsc_mod_init", "queue_work"),
    ("jitter_tsc_pull", "wait_for_completion_interruptible"),
    ("jtsc_rng_pull", "mutex_lock_interruptible"),
    ("jtsc_rng_generate", "mutex_lock_interruptible"),
    ("tsc_jitter_fill", "rdtsc_ordered"),
    ("tsc_jitter_fill", "clflush"),
    ("tsc_jitter_fill", "tsc_jitter_addr"),
    ("tsc_jitter_addr", "tsc_jitter_line"),
    ("jtsc_timer_collect", "timer_shutdown_sync"),
    ("jtsc_timer_collect", "destroy_timer_on_stack"),
]
# What the prose says the module does, whichever of its functions does it:
# each is called somewhere in the series' C files (KUnit aside).
MODULE_CALLS = ["crypto_register_rng", "execute_with_initialized_rng",
                "register_random_vmfork_notifier", "register_pm_notifier", "queue_work",
                "boot_cpu_has", "tsc_jitter_fill", "migrate_disable", "cond_resched",
                "__vmalloc", "kvfree_sensitive", "memzero_explicit", "schedule",
                "mutex_lock_interruptible", "sha256"]
CALLS = r"(?:calls|runs|schedules|tries|asks|takes)"
CURATED = set(PAIRS)
for rel, t in docs.items():
    flat = re.sub(r"\s", " ", t)
    for m in re.finditer(r"(?:``)?(\w+)\(\)(?:``)?,? %s (?:``)?(\w+)\(\)" % CALLS.replace(" ", r"\s+"), flat):
        PAIRS.append((m.group(1), m.group(2)))
    for m in re.finditer(r"(?:``)?(\w+)\(\)(?:``)?,? (?:is )?called\s+from\s+(?:``)?(\w+)\(\)", flat):
        PAIRS.append((m.group(2), m.group(1)))
module_code = "\n".join(stripped[rel] for rel in SERIES_CODE if "kunit" not in rel)
for callee in MODULE_CALLS:
    ok("calls", "the module never calls %s()" % callee,
       re.search(r"\b%s\s*\(" % re.escape(callee), module_code) is not None, callee)
for caller, callee in sorted(set(PAIRS)):
    b = body_of(caller, TEXTS)
    # an extracted caller that is no function (an initcall macro, say) is
    # the functions check's to judge; without the base, random.c is partial
    if b is None and ((caller, callee) not in CURATED or not HAVE_BASE):
        continue
    ok("calls", "%s() has no body in the code" % caller, b is not None, caller)
    if b is not None:
        ok("calls", "%s() does not call %s()" % (caller, callee),
           re.search(r"\b%s\s*\(" % re.escape(callee), b) is not None, caller)
if HAVE_BASE:
    # what the glue calls of random.c: its functions that are not static
    base_random = cc.strip_comments(open(os.path.join(BASE, "drivers/char/random.c")).read())
    public = set(re.findall(r"^(?!static)[A-Za-z_][\w \t*]*?\b(\w+)\([^;{}]*\)\s*\{", base_random, re.M))
    # and what DEFINE_BATCHED_ENTROPY() defines
    public |= {"get_random_u%d" % b for b in (8, 16, 32, 64)}
    used = {e for e in public if re.search(r"\b%s\s*\(" % e, module_code)}
    for rel, t in docs.items():
        flat = re.sub(r"\s", " ", t)
        for m in re.finditer(r"(?:exported|public)\s+interface(?:\s+only)?\s*\(((?:[^()]|\(\))*)\)", flat):
            got = set(re.findall(r"(\w+)\(\)", m.group(1)))
            ok("calls", "the glue calls random.c's %s, the prose lists %s" % (sorted(used), sorted(got)),
               got == used, "%s:%d" % (rel, line_of(t, m.start())))
for rel, t in docs.items():
    for m in re.finditer(r"\bdrbg\b", t, re.I):
        ok("calls", "drbg named: it never calls jitter_tsc", False, "%s:%d" % (rel, line_of(t, m.start())))

# ---------------------------------------------------------------- columns
for rel in CHANGELOGS + [COVER]:
    for i, line in enumerate(read(rel).split("\n")):
        if "@BENCH_TABLE@" not in line:
            ok("columns", "%d columns" % len(line.expandtabs()), len(line.expandtabs()) <= 75,
               "%s:%d" % (rel, i + 1))

# ---------------------------------------------------------------- paths
# A path the prose names is a file or folder of the series, of the
# repository around it, or of the base tree.
PATH_RE = re.compile(r"(?<![\w/.-])((?:arch|crypto|drivers|include|lib|Documentation|harness|tools|"
                     r"kernel|mm|fs|init|scripts)/[\w.+/-]*[\w+])")
for rel in DOCS:
    t = docs[rel]
    for m in PATH_RE.finditer(t):
        path = m.group(1)
        if path.endswith("/*"):
            continue
        # a file, a patched one, a header by its include path, an object
        # by its source
        cands = [path, path + ".patch", "include/" + path]
        if path.endswith(".o"):
            cands.append(path[:-2] + ".c")
        there = any(os.path.exists(os.path.join(ROOT, c)) or
                    (HAVE_BASE and os.path.exists(os.path.join(BASE, c))) for c in cands) or \
            (path.endswith(".o") and any(os.path.basename(path) in added(f) for f in SERIES_FILES
                                         if f.endswith("Makefile.patch")))
        ok("paths", "%s is neither in the series nor in the base" % path,
           there or (not HAVE_BASE and not path.startswith(("crypto/jitter", "harness/"))),
           "%s:%d" % (rel, line_of(t, m.start())))


# ---------------------------------------------------------------- claims and comments
def comment_lines(text, first_line=1):
    """(line number, text) of every line inside a C comment of @text, the
    comment markers and leading stars removed; a blank entry ends each
    comment, so that a paragraph never spans two comments."""
    out = []
    for m in re.finditer(r"/\*.*?\*/|//[^\n]*", text, re.S):
        if re.match(r"/\*\s*SPDX|//\s*SPDX", m.group(0)):
            continue
        ln = first_line + text.count("\n", 0, m.start())
        body = m.group(0)
        body = body[2:-2] if body.startswith("/*") else body[2:]
        for i, l in enumerate(body.split("\n")):
            out.append((ln + i, re.sub(r"^\s*\*?\s?", "", l).strip()))
        out.append((ln, ""))
    return out


def patch_added(rel):
    """(line number in the patch, text) of its '+' lines."""
    return [(i + 1, l[1:]) for i, l in enumerate(read(rel).split("\n"))
            if l.startswith("+") and not l.startswith("+++")]


def prose_units():
    """(file, [(line, text)]) for every piece of prose the claims are
    checked over: the docs (the cover letter without its history), the
    Kconfig help, and the code comments of the series."""
    units = []
    for rel in DOCS:
        units.append((rel, list(enumerate(docs[rel].split("\n"), 1))))
    units.append(("crypto/Kconfig.patch", patch_added("crypto/Kconfig.patch")))
    for rel in SERIES_CODE:
        units.append((rel, comment_lines(code_raw[rel])))
    pl = patch_added("drivers/char/random.c.patch")
    txt = "\n".join(l for _, l in pl)
    units.append(("drivers/char/random.c.patch",
                  [(pl[min(n, len(pl)) - 1][0], l) for n, l in comment_lines(txt)]))
    return units


def sentences(lines):
    """Paragraphs (runs of non-blank lines) of @lines split into sentences:
    yields (paragraph's sentences, [(sentence, line)])."""
    para = []
    for ln, l in lines + [(0, "")]:
        if l.strip() and not re.match(r"^[=~-]{3,}$", l.strip()):
            para.append((ln, l.strip()))
            continue
        if not para:
            continue
        text, starts = "", []
        for pln, pl in para:
            starts.append((len(text), pln))
            text += pl + " "
        out = []
        pos = 0
        for m in list(re.finditer(r"(?<=[.!?])\s+(?=[A-Z`\"(*])", text)) + [None]:
            end = m.start() if m else len(text)
            s = text[pos:end].strip()
            if s:
                line = [pln for off, pln in starts if off <= pos][-1]
                out.append((s, line))
            pos = m.end() if m else len(text)
        yield out
        para = []


# What the claims are checked against, from the code.
budget = re.search(r"#define\s+JITTER_TSC_BOOT_BUDGET\b", code["drivers/char/random.c"]) is not None
n_start = K["JTSC_STARTUP_SAMPLES"]
p_flat = -(-n_start // 256) / n_start
MCV_FLAT = -math.log2(min(1.0, p_flat + 2.576 * math.sqrt(p_flat * (1 - p_flat) / (n_start - 1))))
spec_margin = ev.env.get("JTSC_EST_MARGIN", 8)
# predictor windows after the startup test until a full pull's words are
# released: a window releases its words but those the last JTSC_MAX_LAG
# samples (or a run still going) reach into
pull_windows = {}
for p in rows:
    spw_, wpw = p["samples_per_word"], K["JTSC_PRED_WINDOW"] // p["samples_per_word"]
    held = -(-K["JTSC_MAX_LAG"] // spw_)
    pull_windows[p["credit"]] = -(-(pull_max // 8 + held) // wpw)
WMIN, WMAX = min(pull_windows.values()), max(pull_windows.values())
NUM = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}


def num(s):
    return int(s) if s.isdigit() else NUM.get(s.lower())


def near(ctx, pat):
    return any(re.search(pat, s, re.I) for s in ctx)


def claim_init(s, ctx):
    if not budget:
        return None
    if not re.search(r"\b(?:none of (?:it|this|them)|nothing|never|not|n't|without|no|neither)\b"
                     r"[^.]{0,50}?\b(?:delay(?:s|ing|ed)?|hold(?:s|ing)? up|wait(?:s|ing)?(?: for)?|"
                     r"postpone[sd]?)\b[^.]{0,30}?(?<![\w/])init\b(?![\w(])", s, re.I) and \
       not re.search(r"(?<![\w/])init\b(?![\w(/])[^.]{0,40}?\b(?:is|was|does|did|will|need)\s+(?:not|never)"
                     r"\s+(?:be\s+)?(?:delayed|held up|wait|move|moved)\b", s, re.I):
        return None
    if near(ctx, r"JITTER_TSC_BOOT_BUDGET|budget"):
        return None
    return "says init is not delayed, but random.c lets init wait up to JITTER_TSC_BOOT_BUDGET"


def claim_pull(s, ctx):
    if not re.search(r"\b(?:pull|pulls|seeding|seed)\b", s, re.I):
        return None
    for m in re.finditer(r"(?:\b(at least|up to|at most|as many as)\s+)?\b(\w+)(?:\s+to\s+(\w+))?"
                         r"\s+(?:more\s+)?predictor windows?", s, re.I):
        a, b = num(m.group(2)), num(m.group(3)) if m.group(3) else None
        if a is None:
            continue
        q = (m.group(1) or "").lower()
        good = (a == WMIN and b == WMAX) if b is not None else \
            (q == "at least" and a <= WMIN) or (q in ("up to", "at most", "as many as") and a == WMAX)
        if not good:
            return ("%s: a pull needs %d to %d predictor windows after the startup test "
                    "(%d at the steps of %d samples a word)" %
                    (m.group(0).strip(), WMIN, WMAX, WMAX, JTSC_SPW_MAX))
    return None


def claim_half(s, ctx):
    if re.search(r"\bhalf (?:of )?(?:the |its |their |every |each |any )?(?:lowest|smallest|worst|minimum)"
                 r"(?: startup)? estimates?\b", s, re.I):
        return ("credit \"half the lowest estimate\": it is the estimate over a margin, at most "
                "half of the recorded 10^6-sample minima (check-margin), not of any estimate")
    if re.search(r"\bat most half (?:of )?(?:the |its |their )?(?:measured |true )?min-?entropy\b", s, re.I) \
            and not near(ctx, r"recorded|measured|10\^6|known|sample files?|stream"):
        return "\"at most half the min-entropy\" without saying of which measurements"
    return None


def claim_random(s, ctx):
    if re.search(r"\b(?:stops?|ceases?|halts?)\b[^.]{0,60}?\b(?:the moment|as soon as|once|whenever|when)\b"
                 r"[^.]{0,40}?\b(?:stops?|ceases?) (?:being|to be) (?:random|unpredictable)", s, re.I) or \
       re.search(r"\bstops? at the first (?:stuck|patterned|bad|non-?random)", s, re.I) or \
       re.search(r"\b(?:stops?|ends?|halts?)\b[^.]{0,40}?\boutput\b[^.]{0,40}?\bwhen (?:they|it|its "
                 r"collectors?) (?:cannot|can't|can no longer) be trusted", s, re.I) or \
       re.search(r"\bnever (?:gives|produces|emits|outputs|returns) (?:predictable|non-?random)", s, re.I):
        return ("output stops when a health test reaches a cutoff, not when the source stops "
                "being random: a source can lose entropy short of every cutoff")
    return None


def claim_holdup(s, ctx):
    # the readers' verb: "no reader's startup test estimates, and a refusal
    # holds" says nothing of readers holding anything up
    if re.search(r"\bno (?:reader|user|caller)s?\b[^.;:]{0,80}?\b(?:can|could|will|would|may|might|ever|to)\s+"
                 r"(?:\w+\s+)?(?:hold|slow|delay|stall)\b", s, re.I) or \
       re.search(r"\bno (?:reader|user|caller)s?\s+(?:\w+ly\s+)?(?:holds|slows|delays|stalls)\b", s, re.I) or \
       re.search(r"\b(?:readers?|users?|callers?)\b[^.]{0,40}?\b(?:cannot|can't|never|could not)\s+"
                 r"(?:hold|slow|delay|stall)", s, re.I):
        return ("readers share the CPUs and memory with random.c's instance and can slow it "
                "(JITTER_TSC_BOOT_BUDGET bounds what init waits)")
    return None


def claim_mcv(s, ctx):
    if not re.search(r"most common value|most-common-value|\bMCV\b", s, re.I) or \
       not re.search(r"upper bound|flat histogram|keeps? (?:any |an |the |every )?estimate", s, re.I):
        return None
    for m in re.finditer(r"\b(?:under|below|at most|less than|up to)\s+(\d+(?:\.\d+)?)\s*bits?", s, re.I):
        if float(m.group(1)) < MCV_FLAT:
            return ("%s: a flat histogram of %d samples, 256 values, estimates %.4f bits "
                    "(SP 800-90B 6.3.1)" % (m.group(0), n_start, MCV_FLAT))
    for m in re.finditer(r"(\d+\.\d+)\s+(?:bits? )?for a flat histogram", s, re.I):
        if abs(float(m.group(1)) - MCV_FLAT) > 0.5 * 10 ** -decimals(m.group(1)) + 1e-12:
            return "%s: it is %.4f" % (m.group(0), MCV_FLAT)
    for m in re.finditer(r"(\d+\.\d+) after the speculative margin", s, re.I):
        if abs(float(m.group(1)) - MCV_FLAT / spec_margin) > 0.5 * 10 ** -decimals(m.group(1)) + 1e-12:
            return "%s: it is %.4f" % (m.group(0), MCV_FLAT / spec_margin)
    return None


def claim_nlogn(s, ctx):
    """O(n log n) belongs to the suffix sort: a clause that gives it to the
    time or the estimate, or one with no sort in it or the sentence before,
    says it of the estimate, which is O(n k) at worst."""
    nlogn = r"\bO\(\s*n\s*log\s*n\s*\)|\bn log n\b|linearithmic|quasi-?linear"
    for clause in re.split(r"[:;,]", s):
        if not re.search(nlogn, clause, re.I) or re.search(r"suffix|\bsort", clause, re.I):
            continue
        if re.search(r"\bthe time\b|\btime is\b|estimat|\btakes\b|\bruns in\b", clause, re.I) or \
           not near(ctx[:2], r"suffix|\bsort"):
            return "O(n log n) is the suffix sort's; the estimate is O(n k) at worst (MultiMCW)"
    return None


def claim_fork(s, ctx):
    if "generation" in s.lower():
        return None
    if re.search(r"\bestimates?\b[^.]{0,80}?\b(?:another|other|a different|the old|the previous|the original)"
                 r" machine\b", s, re.I) or \
       re.search(r"\b(?:not kept|not carried over|not carry over|forgotten|discarded|dropped)\b[^.]{0,60}?"
                 r"\bestimates?\b", s, re.I) or \
       re.search(r"\bestimates?\b[^.]{0,40}?\b(?:are|is|get|gets)\s+(?:not kept|not carried over|dropped|"
                 r"discarded|forgotten)", s, re.I):
        return ("estimates are per machine generation: a VM fork, suspend or hibernation starts a "
                "new one, whose steps the kernel's estimate work sets again")
    return None


def claim_who_estimates(s, ctx):
    """Each step is estimated once per machine generation by the group's
    estimate work (jtsc_estimate_fn()), which a startup test only queues
    and waits for: a clause that has a startup test estimate, or a refused
    step estimated again before a new generation, says otherwise."""
    if not EST_BY_WORK:
        return None
    neg = (r"\bno (?:reader's |instance's )?startup tests?\b|\bmakes? no estimate|\b(?:do|does|did|need) not "
           r"estimate|\bnot estimat|\bnever estimat|\bno longer estimat|without (?:a |any )?(?:new )?estimate|"
           r"\bnor estimat")
    for clause in re.split(r"[;:]", s):
        if re.search(neg, clause, re.I):
            continue
        # a dot inside a word (random.c's) ends no sentence; "startup tests,
        # estimates, refusals" is a list, not a verb
        listed = re.sub(r"\b(startup tests?), estimates\b", r"\1, (counts)", clause, flags=re.I)
        if re.search(r"\bstartup tests?\b(?:[^.]|\.(?=\w)){0,120}?\b(?:estimates\b|re-?estimates\b|"
                     r"estimated? again\b)", listed, re.I):
            return ("no startup test estimates: the group's estimate work does, once per machine "
                    "generation, on windows it collects for that")
        if re.search(r"\b(?:refus\w*|backoff|backs? (?:it |the collector )?off)\b[^.]{0,120}?\b(?:estimat\w*|made)"
                     r" again\b", clause, re.I) and \
                not re.search(r"\bnew (?:machine )?generation\b|\bonly\b", clause, re.I):
            return "a refused step holds for the machine generation: only a new one estimates again"
    return None


def claim_never_retires(s, ctx):
    """jtsc_core_startup() retires a collector whose startup test after an
    intermittent failure fails for good (or the third time)."""
    if STARTUP_CAN_KILL and \
            re.search(r"\bstartup (?:tests?|samples)\b[^.]{0,100}?\bnever (?:retires?|kills?)\b|"
                      r"\bnever (?:retires?|kills?)\b[^.]{0,60}?\bstartup test", s, re.I) and \
            not re.search(r"\bexcept|\bunless\b|intermittent|\brestart", s, re.I):
        return ("the startup test after an intermittent failure is a failure of output when it "
                "fails: a permanent cutoff, or the third, retires the collector on that instance")
    return None


def claim_wait(s, ctx):
    """How a request of the crypto_rng waits, and that it gives up."""
    if not GEN_KILLABLE and re.search(r"\bkillabl[ey]\b|\bcan be killed\b|\bfatal signal\b", s, re.I):
        return "jtsc_rng_generate() waits interruptibly: any signal ends it with -EINTR"
    if GEN_EAGAIN and re.search(r"\bnever (?:sees?|gets?|returns?) (?:the recovery|-?EAGAIN)\b|\bnever -?EAGAIN\b|"
                                r"-?EAGAIN\b(?:``)? is returned only by|\bwaits? (?:for it|for the recovery)"
                                r" and gets? data", s, re.I):
        return "a request gives up with -EAGAIN after JTSC_MAX_RETRIES failures (jtsc_rng_generate())"
    return None


def claim_timer(s, ctx):
    """The timer collector's callback does nothing, and the collector is
    credited what its samples measure."""
    if TIMER_FN_EMPTY and \
            re.search(r"\b(?:pass|sample)\b[^.]{0,40}?\bincludes?\b[^.]{0,60}?\bcallback\b|"
                      r"\bcallback\b[^.]{0,40}?\b(?:pulls?|loads?|increments?|writes?|bumps?|counts?)\b", s, re.I) \
            and not re.search(r"\bnothing\b", s, re.I):
        return "the timer callback does nothing: a sample is the time of a pass through schedule()"
    if re.search(r"\btimer collector\b[^.]{0,80}?\bcredit\w*\b[^.]{0,30}?\bone bit per (?:timer )?expiry", s, re.I) \
            and not re.search(r"\bnot\b|\bunlike\b|\brather than\b", s, re.I):
        return "the timer collector credits what its samples measure, not one bit per expiry"
    return None


def claim_boot_timing(s, ctx):
    """Boot timings the data refutes: arm64's async work ends up to tens of
    ms after the last initcall, and the setup is tens of ms natively."""
    if re.search(r"\bhundreds of (?:ms|milliseconds) before the last initcall", s, re.I):
        return "the async work does not end hundreds of ms before the last initcall (arm64: after it)"
    if re.search(r"\bsetup\b[^.]{0,40}?\ba few (?:ms|milliseconds)\b", s, re.I):
        return "the setup is not a few ms natively (make bench: tens of ms)"
    return None


JTSC_SPW_MAX = max(p["samples_per_word"] for p in rows)
# What those claims are checked against, from the code.
EST_BY_WORK = (body_of("jtsc_estimate_fn", TEXTS) is not None and
               "jtsc_estimate_samples" not in (body_of("jtsc_start", TEXTS) or ""))
STARTUP_CAN_KILL = "JTSC_DEAD" in (body_of("jtsc_core_startup", TEXTS) or "")
_gen = (body_of("jtsc_rng_generate", TEXTS) or "") + (body_of("jtsc_words", TEXTS) or "")
GEN_KILLABLE = "killable" in _gen
GEN_EAGAIN = re.search(r"==\s*-EAGAIN\s*&&", _gen) is not None
TIMER_FN_EMPTY = re.fullmatch(r"\s*", body_of("jtsc_timer_fn", TEXTS) or "x") is not None
_try = body_of("try_jitter_tsc", TEXTS) or ""
TRYLOCK = "mutex_trylock" in _try
BLOCK_FRESH = "jtsc_words(rng, 0, JTSC_FRESH_CREDIT)" in _gen
MAX_SHARDS = K.get("JTSC_MAX_SHARDS", 8)


def phrase_claim(name, pattern, unless, why, holds=None):
    """A claim a phrase (@pattern) makes and another (@unless, if any) takes
    back: @why when @pattern and not @unless is in the sentence. @holds names the
    flag, read from the code, without which the claim is no error (the
    self-test sets it)."""
    def claim(s, ctx):
        if holds and not globals()[holds]:
            return None
        if re.search(pattern, s, re.I) and not (unless and re.search(unless, s, re.I)):
            return why
        return None
    claim.__name__ = name
    return claim


claim_dead_all = phrase_claim(
    "claim_dead_all",
    r"\b(?:dead|retired|disabled)\b[^.]{0,30}?\bfor (?:every|all|each) (?:the )?(?:instances?|of them)\b|"
    r"\bdead for (?:every|all)\b", r"\b(?:not|never|only)\b",
    "a permanent failure retires a collector for the instance that saw it only")
claim_migrate = phrase_claim(
    "claim_migrate",
    r"\b(?:both collectors|(?:stack-)?timer collector)\b[^.]{0,80}?\b(?:migration disabled|"
    r"migrate_disable\(\)|migration off)", r"\b(?:not|no longer|never|enabled)\b",
    "the timer collector runs with migration enabled (it drops a sample whose reads "
    "were on two CPUs); only the speculative one disables it, for one batch")
# the step is estimated once per machine generation, not at each startup test
claim_est_when = phrase_claim(
    "claim_est_when",
    r"\bestimated (?:at|by|in|during|with|from) (?:each|every|the|a) (?:\w+ )?startup tests?\b", None,
    "the step is estimated once per machine generation by the estimate work, not by startup tests",
    holds="EST_BY_WORK")
# a reader that starts a collector with no step yet triggers the
# generation's first estimate of it, under whatever load it makes
claim_reader_credit = phrase_claim(
    "claim_reader_credit",
    r"\bno (?:reader|caller|user|tenant)s?\b[^.;]{0,60}?\b(?:raise|lower|change|move|set|"
    r"influence)s?\b[^.;]{0,30}?\bcredits?\b",
    r"\bonce (?:it is |a step is )?set\b|\balready set\b|\bafter\b|\bfirst estimate",
    "a reader that starts a collector with no step yet triggers that generation's "
    "first estimate, under the load it chooses")
claim_no_api = phrase_claim(
    "claim_no_api",
    r"\b(?:uses?|calls?|needs?) no kernel (?:API|interfaces?|functions?)\b",
    r"\bbeyond\b|\bbut\b|\bexcept\b|\bother than\b",
    "the core calls kernel helpers (cond_resched(), WARN_ON_ONCE(), bit and string helpers)")
# readers share a shard when their CPUs are equal modulo JTSC_MAX_SHARDS
claim_shards = phrase_claim(
    "claim_shards",
    r"\breaders? on (?:different|other|separate|distinct) CPUs\b[^.]{0,40}?\b(?:do not|don't|never|"
    r"cannot|can't) (?:wait|contend|block|serialise|serialize)",
    r"\bup to (?:8|eight)\b|\bmodulo\b|%|\bunless\b|\bshare\b",
    "shards are cpu %% %d: readers on CPUs that share one wait for each other" % MAX_SHARDS)
# random.c takes its mutex with mutex_trylock(): a caller that finds an
# attempt under way runs the stock loop instead of waiting for it
claim_attempts = phrase_claim(
    "claim_attempts",
    r"\bwaits? for (?:at most )?(?:one|the) attempt\b|\bwaits? for the attempt under way|"
    r"\bsaw an attempt end\b", r"\bnot\b|\bno longer\b",
    "a caller that finds an attempt under way does not wait for it (mutex_trylock())",
    holds="TRYLOCK")
# every block, not only a request's first, takes JTSC_FRESH_CREDIT from
# samples collected after it began
claim_fresh_first = phrase_claim(
    "claim_fresh_first",
    r"\b(?:a|the|each|every) (?:new )?request's first block\b[^.]{0,80}?\b(?:fresh|new "
    r"samples|collected after)|\bonly the first block\b",
    r"\bnot only\b|\bevery block\b|\beach block\b|\bearlier\b|\bwhile only\b|\brevision\b|\bbefore\b",
    "every block takes JTSC_FRESH_CREDIT from samples collected after it began, not only the first",
    holds="BLOCK_FRESH")
CLAIMS = [claim_init, claim_pull, claim_half, claim_random, claim_holdup, claim_mcv, claim_nlogn,
          claim_fork, claim_who_estimates, claim_dead_all, claim_migrate, claim_never_retires,
          claim_wait, claim_timer, claim_est_when, claim_reader_credit, claim_no_api,
          claim_boot_timing, claim_shards, claim_attempts, claim_fresh_first]
HARNESS = re.compile(r"harness/|\bmake (?:bench|check|measure|mutants|run|series|sync|tree|kernel)\b|"
                     r"\bcheck-(?:margin|cutoffs|docs)\b|\bmutants\.py\b|\b(?:the|our|development) harness\b",
                     re.I)
# The rules must catch the sentences they were written for, and their
# paraphrases, and pass what the docs say instead: checked on every run.
SELF_TEST = [
    # (sentence, its neighbours, the claim that must catch it, or None)
    ("None of it delays init.", [], claim_init),
    ("The seeding runs asynchronously, so init is not delayed by it.", [], claim_init),
    ("Init does not wait for the seeding at all.", [], claim_init),
    ("Init waits for the seeding up to JITTER_TSC_BOOT_BUDGET (one second).", [], None),
    ("Neither holds up the initcalls that follow.", [], None),
    ("Then the first pull needs one more predictor window, 4096 samples.", [], claim_pull),
    ("The seeding takes two predictor windows.", [], claim_pull),
    ("After the startup test a pull needs one to five predictor windows of samples.", [], None),
    ("The seeding takes at least one more predictor window, and more at low credits.", [], None),
    ("The credit, at most half the lowest estimate, is not sized for that observer.", [], claim_half),
    ("Each collector is credited half of its lowest startup estimate.", [], claim_half),
    ("jitter_tsc stops producing output the moment it stops being random.", [], claim_random),
    ("It stops at the first stuck or patterned stretch.", [], claim_random),
    ("It stops its output when they cannot be trusted.", [], claim_random),
    ("random.c has an instance of its own, which no reader of the crypto_rng can hold up "
     "or drain.", [], claim_holdup),
    ("Readers of the crypto_rng cannot slow random.c's instance.", [], claim_holdup),
    ("No reader holds up the seeding.", [], claim_holdup),
    ("No reader's startup test estimates, and a refusal holds for the generation.", [], None),
    ("It shares the CPUs with random.c's instance and can slow the seeding.", [], None),
    ("The most common value's upper bound keeps an estimate of 12288 samples under 7.2 "
     "bits.", [], claim_mcv),
    ("The most common value's upper bound keeps any estimate of 12288 samples under 7.6 "
     "bits (7.54 for a flat histogram of 256 values), 0.94 after the speculative margin.",
     [], None),
    ("The most common value's upper bound keeps any estimate under 7.6 bits (7.2 for a flat "
     "histogram).", [], claim_mcv),
    ("The runtime estimate takes O(n log n) on any input.", [], claim_nlogn),
    ("Its time is bounded, O(n log n) whatever the input.", [], claim_nlogn),
    ("The time is O(n log n) on any input, periodic and constant ones included, where the "
     "longest repeat is as long as the input: t-tuple and LRS read all repeats off a suffix "
     "array (prefix doubling with radix sorts) and its LCP intervals.", [], claim_nlogn),
    ("Suffix array by prefix doubling, the sort done once 2k >= n. O(n log n) time whatever "
     "the input; cnt holds max(n, 256) + 1 counts.",
     ["Suffix array by prefix doubling, the sort done once 2k >= n."], None),
    ("t-tuple and LRS read every repeat off a suffix array (prefix doubling, O(n log n)).",
     [], None),
    ("A VM fork: the pools must not carry over to the clone, nor the estimates made on what "
     "may have been another machine.", [], claim_fork),
    ("On a fork the estimates are not kept.", [], claim_fork),
    ("A VM fork starts a new machine generation, whose first startup test estimates again.",
     [], claim_who_estimates),
    ("A VM fork starts a new machine generation, whose steps the kernel estimates again.",
     [], None),
    ("Each startup test (at boot, when a shard starts, after a failover) estimates the "
     "min-entropy of its own samples.", [], claim_who_estimates),
    ("The first startup test of a collector in a generation, on whichever instance runs it "
     "first (random.c's at boot), estimates the min-entropy of its own 12288 raw samples.",
     [], claim_who_estimates),
    ("An estimate under the floor sets no step: the instance backs the collector off, and a "
     "later startup test estimates again.", [], claim_who_estimates),
    ("A refused estimate is made again after the backoff and never lowers a step already "
     "set.", [], claim_who_estimates),
    ("Every later startup test health tests fresh samples and makes no estimate.", [], None),
    ("Per collector: passed a startup test, the last estimate, the counts of startup tests, "
     "estimates, refusals and raw samples.", [], None),
    ("No reader's startup test estimates, so no reader can draw again; a refusal holds for "
     "the generation.", [], None),
    ("A median under the floor refuses the collector for the generation: later startup "
     "tests do not estimate again, only a new generation does.", [], None),
    ("The first startup test that finds the step unset queues the group's estimate work and "
     "waits for it.", [], None),
    ("A startup test that fails, or an estimate under the floor, never retires a collector: "
     "that instance backs it off.", [], claim_never_retires),
    ("A health-test failure over the startup samples never retires the collector.", [],
     claim_never_retires),
    ("A startup test that fails backs the collector off, but after an intermittent failure "
     "its failure is one of output.", [], None),
    ("While every collector of an instance is backing off, its readers wait, killably.", [],
     claim_wait),
    ("A reader of the crypto_rng never sees the recovery: its request waits and gets data.",
     [], claim_wait),
    ("A crypto_rng reader's request waits for the recovery and gets data, never -EAGAIN.",
     [], claim_wait),
    ("While every collector backs off, a request waits, interruptibly; after five failures "
     "it returns -EAGAIN.", [], None),
    ("A pass includes the scheduler, interrupts and the callback on the other CPU.", [],
     claim_timer),
    ("The timer collector credits one bit per timer expiry, as random.c does.", [],
     claim_timer),
    ("The callback does nothing; the collector is credited what its samples measure, not "
     "one bit per expiry as random.c is.", [], None),
    ("A collector that fails permanently on one instance is dead for all of them.", [],
     claim_dead_all),
    ("A permanent failure marks that collector dead for every instance.", [], claim_dead_all),
    ("The collector is retired for the instance that saw it only.", [], None),
    ("Both collectors run each batch with migration disabled.", [], claim_migrate),
    ("The timer collector runs its batch with migrate_disable() held.", [], claim_migrate),
    ("The timer collector sleeps, so it runs with migration enabled.", [], None),
    ("The credit is estimated at each startup test.", [], claim_est_when),
    ("Each step is estimated once per machine generation, before the first startup test "
     "that needs it.", [], None),
    ("No reader can raise or lower a credit.", [], claim_reader_credit),
    ("No reader can lower a credit once it is set.", [], None),
    ("The estimate and the core use no kernel API.", [], claim_no_api),
    ("The core uses no kernel API beyond types and cond_resched().", [], None),
    ("The async work ends hundreds of ms before the last initcall.", [], claim_boot_timing),
    ("The setup takes a few ms natively.", [], claim_boot_timing),
    ("The setup takes tens of ms natively (make bench).", [], None),
    ("Readers on different CPUs do not wait for each other.", [], claim_shards),
    ("Readers on different CPUs do not wait for each other, up to 8 CPUs.", [], None),
    ("A caller waits for at most one attempt, the one under way when it came.", [],
     claim_attempts),
    ("A caller that finds an attempt under way does not wait for it.", [], None),
    ("A request's first block takes 256 bits from fresh samples.", [], claim_fresh_first),
    ("Every block takes 256 bits from samples collected after it began, not only a "
     "request's first block.", [], None),
    ("It ran at 5 times (10 while only a request's first block took fresh samples).", [],
     None),
]
# the rules that hold only against some code are tested as if they held
_held = (EST_BY_WORK, STARTUP_CAN_KILL, GEN_KILLABLE, GEN_EAGAIN, TIMER_FN_EMPTY, TRYLOCK, BLOCK_FRESH)
EST_BY_WORK, STARTUP_CAN_KILL, GEN_KILLABLE, GEN_EAGAIN, TIMER_FN_EMPTY = True, True, False, True, True
TRYLOCK, BLOCK_FRESH = True, True
for s, nb, want in SELF_TEST:
    got = [c for c in CLAIMS if c(s, [s] + nb)]
    ok("claims", "self-test: \"%s\" caught by %s, not %s" %
       (s, [c.__name__ for c in got] or "nothing", want.__name__ if want else "nothing"),
       got == ([want] if want else []), "check-docs.py")
EST_BY_WORK, STARTUP_CAN_KILL, GEN_KILLABLE, GEN_EAGAIN, TIMER_FN_EMPTY, TRYLOCK, BLOCK_FRESH = _held
for s, want in [("harness/measure/check-margin.py checks them.", True),
                ("make check runs it against this table.", True),
                ("`make bench` divides one by the other.", True),
                ("The health tests check every sample, batch by batch.", False)]:
    ok("comments", "self-test: \"%s\" %s" % (s, "not caught" if want else "caught"),
       (HARNESS.search(s) is not None) == want, "check-docs.py")
if SELF_TEST_ONLY:
    wrong = [b for b in bad if ": self-test: " in b]
    for b in wrong:
        print("check-docs: " + b)
    print("check-docs: self-test, %d cases, %d wrong" % (len(SELF_TEST) + 4, len(wrong)))
    sys.exit(1 if wrong else 0)

for rel, lines in prose_units():
    is_code = rel not in DOCS and not rel.endswith("Kconfig.patch")
    for sents in sentences(lines):
        for i, (s, line) in enumerate(sents):
            ctx = [s] + [x[0] for x in sents[max(0, i - 1):i] + sents[i + 1:i + 2]]
            for claim in CLAIMS:
                why = claim(s, ctx)
                groups["claims"] = groups.get("claims", 0) + 1
                if why:
                    bad.append("claims: %s:%d: \"%s\": %s" %
                               (rel, line, s if len(s) < 120 else s[:117] + "...", why))
    if is_code or rel.endswith("random.c.patch"):
        for line, l in lines:
            m = HARNESS.search(l)
            ok("comments", "a comment cites the harness: %s" % (m.group(0) if m else ""),
               m is None, "%s:%d" % (rel, line))

for b in bad:
    print("check-docs: MISMATCH " + b)
print("check-docs: ladder %s, margin %s, pull %d bytes = %s bits%s" %
      (", ".join("%d/256" % c for c in sorted(credits)), margin, pull_max,
       "/".join(map(str, sorted(pull_bits))), "" if HAVE_BASE else "; no base tree, base checks skipped"))
for g in ("credit", "margin", "ladder", "pull", "functions", "kconfig", "params", "debugfs",
          "errno", "counts", "calls", "columns", "paths", "claims", "comments"):
    n = groups.get(g, 0)
    print("check-docs: %-9s %4d checks, %d mismatches" % (g, n, sum(b.startswith(g + ":") for b in bad)))
print("check-docs: %d checks on %d files, %d mismatches" %
      (sum(groups.values()), len(set(PROSE + DOCS + [KPARAMS])), len(bad)))
sys.exit(1 if bad else 0)
