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
  debugfs   the files the rst lists are exactly the debugfs_create_file()
            calls, with the same "(CONFIG_X only)" conditions and mode;
  errno     the rst's reader-visible error codes are jtsc_rng_generate()'s
            Return: codes, less -EAGAIN (which the crypto_rng retries, in
            jtsc_kcapi_generate() or jtsc_rng_generate_wait()),
            plus -ENOENT (crypto API lookup); its code examples' comments
            name the same;
  counts    counts and sizes quoted: startup test samples, batch, samples
            per word, buffer size, the walk's cycle and loads per page, idle seconds, fresh and
            block credit, shards, startup tests at boot, counter check reads;
  calls     "X calls Y"-style claims, extracted from the prose and a fixed
            list: Y appears in the body of X; random.c's exports that the
            glue calls are the ones the cover letter lists; drbg is named
            nowhere as a caller;
  columns   series/*.txt lines are at most 75 columns.

Prints one line per check group; exits 1 naming every mismatch.

usage: check-docs.py [ROOT]
"""
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), "..", ".."))
HERE = os.path.dirname(os.path.abspath(__file__))
BASE = os.path.join(ROOT, "build", "base", "linux-source-6.12")
HAVE_BASE = os.path.isfile(os.path.join(BASE, "drivers", "char", "random.c"))
RST = "Documentation/crypto/jitter_tsc.rst"
COVER = "series/cover-letter.txt"
KPARAMS = "Documentation/admin-guide/kernel-parameters.txt.patch"
SERIES = os.path.join(ROOT, "series")
CHANGELOGS = sorted("series/" + f for f in os.listdir(SERIES) if re.match(r"\d\d-.*\.txt$", f))
DOCS = [RST, COVER] + CHANGELOGS
PROSE = ["Documentation/crypto/jitter_tsc.rst", "series/cover-letter.txt",
         "crypto/Kconfig.patch", "crypto/jitter_tsc_kcapi.c", "crypto/jitter_tsc_core.c",
         "crypto/jitter_tsc_estimate.c", "include/crypto/internal/jitter_tsc_core.h",
         "drivers/char/random.c.patch"] + CHANGELOGS
HISTORY_HEAD = "Changes and findings since earlier revisions"
# called from user space in the examples and prose, not kernel functions
USERSPACE = {"read", "bind", "socket", "accept", "close", "perror", "main", "getrandom",
             "sched_yield"}

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


def read(rel):
    return open(os.path.join(ROOT, rel)).read()


hdr = read("include/crypto/jitter_tsc.h")
m = re.search(r"#define\s+JITTER_TSC_PULL_MAX\s+(\d+)", hdr)
if not m:
    sys.exit("check-docs: no JITTER_TSC_PULL_MAX in include/crypto/jitter_tsc.h")
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
    row = re.search(r"^%d/256 = ([\d.]+)\s+(\d+) samples, ([\d.]+) bits\s+(\d+) / (\d+)\s+(\d+) / (\d+)"
                    r"\s+(\d+) / (\d+)\s+(\d+) / (\d+)\s*$" % c, text, re.M)
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
    want = [p[k] for k in ("rct_cutoff", "rct_perm_cutoff", "apt_cutoff", "apt_perm_cutoff",
                           "run_cutoff", "run_perm_cutoff", "hits_cutoff", "hits_perm_cutoff")]
    got = [int(x) for x in row.groups()[3:]]
    ok("ladder", "%d/256: cutoffs %s in the table, %s in the code" % (c, got, want), got == want, RST)

# ---------------------------------------------------------------- the code, as the series leaves it
SERIES_CODE = ["arch/x86/include/asm/tsc_jitter.h", "include/crypto/jitter_tsc.h",
               "include/crypto/internal/jitter_tsc.h", "include/crypto/internal/jitter_tsc_core.h",
               "include/crypto/internal/jitter_tsc_estimate.h", "crypto/jitter_tsc_core.c",
               "crypto/jitter_tsc_estimate.c", "crypto/jitter_tsc_kcapi.c",
               "lib/kunit-tests/jitter_tsc_kunit.c"]
code = {rel: read(rel) for rel in SERIES_CODE if os.path.exists(os.path.join(ROOT, rel))}


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
kconfig_new = "\n".join(l[1:] for l in read("crypto/Kconfig.patch").split("\n")
                        if l.startswith("+") and not l.startswith("+++"))
kconfig_new += "\n" + read("lib/kunit-tests/Kconfig")
stripped = {rel: cc.strip_comments(t) for rel, t in code.items()}
TEXTS = sorted(stripped.items())
kcapi = code["crypto/jitter_tsc_kcapi.c"]

cev = cc.Evaluator("\n".join(code[r] for r in (
    "include/crypto/jitter_tsc.h", "include/crypto/internal/jitter_tsc_core.h",
    "include/crypto/internal/jitter_tsc.h", "arch/x86/include/asm/tsc_jitter.h",
    "crypto/jitter_tsc_kcapi.c")))
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
for m, cond in conditions(kcapi, r"^\s*module_param\((\w+),"):
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
for m, cond in conditions(kcapi, r'debugfs_create_file\("(\w+)",\s*(0\d+)'):
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
ok("errno", "no Return: of jtsc_rng_generate()", bool(gen), "crypto/jitter_tsc_kcapi.c")
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
mem = K["TSC_JITTER_MEM_SIZE"]
boot_inits = len(re.findall(r"\bjtsc_rng_init\(", body_of("jtsc_setup", TEXTS) or ""))
WORDS = {"one": 1, "two": 2, "three": 3}
COUNTS = [
    # (what, pattern on the whitespace-flattened doc, group -> expected value)
    ("startup test samples", r"startup test (?:over|of) (\d+)", K["JTSC_STARTUP_SAMPLES"]),
    ("startup test samples", r"its own (\d+) raw samples", K["JTSC_STARTUP_SAMPLES"]),
    ("startup test samples", r"(\d+) samples of the first startup test", K["JTSC_STARTUP_SAMPLES"]),
    ("startup test samples", r"startup test \((\d+) samples", K["JTSC_STARTUP_SAMPLES"]),
    ("startup test samples", r"(\d{4,5}) samples, their runtime estimate", K["JTSC_STARTUP_SAMPLES"]),
    ("startup test samples", r"JTSC_STARTUP_SAMPLES(?:``)? \((\d+)\)", K["JTSC_STARTUP_SAMPLES"]),
    ("startup test samples", r"\b(\d+) x (?:\()?\d{4,5} samples", 1),
    ("predictor window", r"predictor window, (\d+) samples", K["JTSC_PRED_WINDOW"]),
    ("predictor window", r"window of (\d+) samples", K["JTSC_PRED_WINDOW"]),
    ("batch", r"(?<!fastest\s)batch(?:es)? of (\d+)", K["JTSC_BATCH"]),
    ("counter check batch", r"fastest batch of (\d+)", K["JTSC_VERIFY_BATCH_READS"]),
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
     K["JTSC_VERIFY_READS"]),
    ("counter check read ns", r"more than (\d+) ns", K["JTSC_VERIFY_MAX_READ_NS"]),
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
    ("try_jitter_tsc", "mutex_lock_interruptible"),
    ("try_jitter_tsc", "credit_init_bits"),
    ("try_jitter_tsc", "mix_pool_bytes"),
    ("random_jitter_tsc_init", "async_schedule"),
    ("wait_for_random_bytes", "try_to_generate_entropy"),
    ("urandom_read_iter", "try_to_generate_entropy"),
    ("jtsc_mod_init", "async_schedule"),
    ("jtsc_setup", "jtsc_rng_init"),
    ("jtsc_setup", "crypto_register_rng"),
    ("jtsc_setup", "execute_with_initialized_rng"),
    ("jtsc_setup", "register_random_vmfork_notifier"),
    ("jtsc_group_init", "jtsc_counter_check"),
    ("jtsc_spec_collect", "jtsc_spec_usable"),
    ("jtsc_spec_usable", "boot_cpu_has"),
    ("jtsc_spec_fill", "tsc_jitter_fill"),
    ("jtsc_collect", "migrate_disable"),
    ("jitter_tsc_pull", "wait_for_completion_interruptible"),
    ("jtsc_rng_pull", "jtsc_credit"),
    ("jtsc_rng_pull", "mutex_lock_interruptible"),
    ("jtsc_rng_generate", "jtsc_credit"),
    ("jtsc_rng_generate", "mutex_lock_killable"),
    ("jtsc_crng_ready_fn", "jtsc_park"),
    ("jtsc_start", "jtsc_spec_alloc"),
    ("jtsc_spec_alloc", "__vmalloc"),
    ("tsc_jitter_fill", "rdtsc_ordered"),
    ("tsc_jitter_fill", "clflush"),
    ("tsc_jitter_fill", "tsc_jitter_addr"),
    ("tsc_jitter_addr", "tsc_jitter_line"),
    ("jtsc_verify", "kvfree_sensitive"),
    ("jtsc_park", "jtsc_free_buf"),
    ("jtsc_timer_collect", "timer_shutdown_sync"),
    ("jtsc_timer_collect", "destroy_timer_on_stack"),
]
CALLS = r"(?:calls|runs|schedules|tries|asks|takes)"
CURATED = set(PAIRS)
for rel, t in docs.items():
    flat = re.sub(r"\s", " ", t)
    for m in re.finditer(r"(?:``)?(\w+)\(\)(?:``)?,? %s (?:``)?(\w+)\(\)" % CALLS.replace(" ", r"\s+"), flat):
        PAIRS.append((m.group(1), m.group(2)))
    for m in re.finditer(r"(?:``)?(\w+)\(\)(?:``)?,? (?:is )?called\s+from\s+(?:``)?(\w+)\(\)", flat):
        PAIRS.append((m.group(2), m.group(1)))
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
    used = {e for e in public if re.search(r"\b%s\s*\(" % e, stripped["crypto/jitter_tsc_kcapi.c"])}
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

for b in bad:
    print("check-docs: MISMATCH " + b)
print("check-docs: ladder %s, margin %s, pull %d bytes = %s bits%s" %
      (", ".join("%d/256" % c for c in sorted(credits)), margin, pull_max,
       "/".join(map(str, sorted(pull_bits))), "" if HAVE_BASE else "; no base tree, base checks skipped"))
for g in ("credit", "margin", "ladder", "pull", "functions", "kconfig", "params", "debugfs",
          "errno", "counts", "calls", "columns"):
    n = groups.get(g, 0)
    print("check-docs: %-9s %4d checks, %d mismatches" % (g, n, sum(b.startswith(g + ":") for b in bad)))
print("check-docs: %d checks on %d files, %d mismatches" %
      (sum(groups.values()), len(set(PROSE + DOCS + [KPARAMS])), len(bad)))
sys.exit(1 if bad else 0)
