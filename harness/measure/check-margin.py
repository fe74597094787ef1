#!/usr/bin/env python3
"""check-margin.py - is the runtime estimate's margin enough, on everything measured?

The kernel credits each collector the highest step of its ladder at or below
(runtime estimate) / JTSC_EST_MARGIN, the estimate made by
crypto/jitter_tsc_estimate.c over the JTSC_STARTUP_SAMPLES samples of a
startup test. The rule of the series is that a credit is at most half of
the min-entropy the SP 800-90B non-IID estimators find in 10^6 samples of
the same source. This checks that rule against:

  1. every line of harness/measure/margin-results: a sample file of a host
     (quiet and loaded, each CPU we measured on, the loop variants) or a
     guest (QEMU TCG x86, arm64), its 10^6-sample minimum (ea_noniid, all
     estimators) and the highest runtime estimate (ea-core, the kernel's
     code in user space) over its disjoint startup-sized windows: the
     step picked from that worst window must be at most half the minimum;
  2. the boot windows of harness/measure/results-boot (boot-windows.sh):
     the samples each boot's first startup test in the TCG guest estimated
     and took the collector's credit from (ea-core's estimate of each is
     the one the kernel logged, or a note says not): the credit picked
     from each must be at most half the collector's lowest min-entropy in
     the TCG guest, the 10^6-sample minimum of the guest rows of
     margin-results or the lowest ea_noniid estimate of a window's own
     samples;
  3. synthetic sources of known min-entropy (i.i.d. with a most common
     value of probability 0.99 to 0.1, two-state Markov chains, blocks that
     only long tuples reveal, and deterministic streams), generated here
     with a fixed seed, each window estimated by ea-core: the step picked
     from the worst window must be at most half the true min-entropy, and
     a source whose half is below the floor must be refused;
  4. structured sources (Markov chains of orders 2, 3 and 10, a counter with
     noise, a sine with a coin, gaussians, even deltas) whose structure the
     five NIST-exact estimators miss: ea-core's estimate of each of two
     windows must be at most RATIO_MAX (1.15) times ea_noniid's minimum over
     all of SP 800-90B, literal and bitstring, of the same window.

The ladder and the margin are read from crypto/jitter_tsc_core.c and its
header. Prints one aligned line per source; exits 1 naming every
failure, and if margin-results lacks the host quiet, host loaded or TCG
guest rows of either collector, or results-boot the windows of either.

usage: check-margin.py [--results FILE] [--boot DIR] [--ea-core PATH]
                       [--ea-noniid PATH] [--windows N]
"""
import argparse
import concurrent.futures
import importlib.util
import math
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
spec = importlib.util.spec_from_file_location("cc", os.path.join(HERE, "check-cutoffs.py"))
cc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cc)

REQUIRED = ("host.spec", "host_loaded.spec", "guest.spec", "guest.timer")


def ladder():
    rows, ev = cc.parse_params(os.path.join(TOP, "crypto", "jitter_tsc_core.c"))
    margin = {"spec": ev.env.get("JTSC_EST_MARGIN"), "timer": ev.env.get("JTSC_EST_MARGIN_TIMER")}
    window = ev.env.get("JTSC_STARTUP_SAMPLES")
    if not all(isinstance(m, int) for m in margin.values()) or not isinstance(window, int):
        sys.exit("check-margin: no JTSC_EST_MARGIN, JTSC_EST_MARGIN_TIMER or JTSC_STARTUP_SAMPLES")
    return [r["credit"] for r in rows], margin, window


def collector(prefix):
    """The collector a margin-results prefix measured: the loop variants are
    the speculative loop's."""
    return "timer" if prefix.endswith(".timer") else "spec"


def pick(credits, margin, h):
    """The credit jtsc_ladder_pick() gives estimate @h (bits), 0 if refused."""
    best = 0
    for c in credits:
        # credit * margin <= h, in the kernel's units (2^-32 bit, exact)
        if c * margin * (1 << 24) <= math.floor(h * (1 << 32)):
            best = c
    return best


def h_min(cmd, path):
    """The H_min line of ea-core's or ea_noniid's output on @path."""
    out = subprocess.run(cmd + [path], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == "H_min":
            return float(f[1])
    raise RuntimeError("%s printed no H_min for %s" % (cmd[0], path))


def estimate(ea_core, path, off, n):
    return h_min([ea_core, "-o", str(off), "-n", str(n)], path)


def host_key(cpu):
    """A host CPU's name reduced to compare a margin-results row ("... on
    Intel(R) Xeon(R) Processor (in a VM)") with a results-boot directory
    (intel-xeon-processor-f6-m167.COMMIT): no CPU is like another, so boot
    windows are held to the guest rows of their own host."""
    cpu = re.sub(r"\((r|tm|in a vm[^)]*|family \d+ model \d+)\)|-f\d+-m\d+.*$", "", cpu.lower())
    return re.sub(r"[^a-z0-9]", "", cpu)


def boot_windows(root):
    """(collector, path, kernel's estimate, kernel's credit, host key) of each
    window listed in a results-boot/*/windows file."""
    out = []
    for d in sorted(os.listdir(root)) if os.path.isdir(root) else []:
        idx = os.path.join(root, d, "windows")
        for line in open(idx) if os.path.exists(idx) else []:
            f = line.split()
            if f and not f[0].startswith("#"):
                path = os.path.join(root, d, f[0])
                out.append((f[0].split("-")[0], path, float(f[2]), int(f[4]),
                            host_key(d.split(".")[0])))
    return out


# Guest rows measured since the collector's loop took its current form: the
# boot windows of a loop are held to that loop's files, not an earlier one's
# (6996299, the DRAM loop as it is; the timer's every row, the lowest).
SINCE = {"spec": "2026-12-06T13:22Z", "timer": ""}


def check_boot(args, credits, margin, window, lowest, bad):
    """Part 2: the credit picked from each boot window, and the one the
    kernel logged, against @lowest, the 10^6-sample minimum of the TCG guest
    rows of the window's own host and loop (SINCE), or the windows' own if
    lower."""
    print("\n%-6s %-14s %3s %21s %7s %9s %9s %9s %8s %6s" %
          ("boot", "host", "n", "estimate min/med/max", "credits", "guest", "own", "lowest",
           "max", "ratio"))
    rows = boot_windows(args.boot)
    for col in ("spec", "timer"):
        hosts = sorted({r[4] for r in rows if r[0] == col})
        if not hosts:
            bad.append("no boot windows of the %s collector in %s (boot-windows.sh)"
                       % (col, args.boot))
        for host in hosts:
            check_boot_host(args, credits, margin, window, lowest, bad, col, host,
                            [r for r in rows if r[0] == col and r[4] == host])


def check_boot_host(args, credits, margin, window, lowest, bad, col, host, rows):
    ws = []  # path, estimate, credit, the kernel's logged estimate and credit
    for _, p, ke, kc, _ in rows:
        e = estimate(args.ea_core, p, 0, window)
        ws.append((p, e, pick(credits, margin[col], e), ke, kc))
    # all estimators of every window: the slow part, one process a CPU
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        own = min(pool.map(lambda w: h_min([args.ea_noniid, "-t", "u8"], w[0]), ws))
    guest = lowest.get((col, host), float("nan"))
    low = own if math.isnan(guest) else min(guest, own)
    ests = sorted(w[1] for w in ws)
    top = max(w[2] for w in ws)
    ratio = (top / 256.0) / (low / 2)
    print("%-6s %-14s %3d %6.3f/%6.3f/%6.3f %7s %9.5f %9.5f %9.5f %8s %6.3f%s" %
          (col, host[:14], len(ws), ests[0], ests[len(ests) // 2], ests[-1],
           ",".join(str(c) for c in sorted(set(w[2] for w in ws))),
           guest, own, low, "%d/256" % top, ratio, "" if ratio <= 1 else "  TOO HIGH"))
    for p, e, c, ke, kc in ws:
        if c / 256.0 > low / 2:
            bad.append("boot window %s: credit %d/256 (estimate %.5f) is above half of %.5f, "
                       "the %s collector's lowest min-entropy in this host's TCG guest"
                       % (os.path.relpath(p, args.boot), c, e, low, col))
        # the credit the kernel logged (from the median of its three windows)
        if kc / 256.0 > low / 2:
            bad.append("boot %s: the kernel credited %d/256 (median estimate %.3f), above "
                       "half of %.5f" % (os.path.relpath(p, args.boot), kc, ke, low))
    if ratio > 1:
        m = margin[col]
        while pick(credits, m, ests[-1]) / 256.0 > low / 2:
            m += 1
        print("%-6s margin %d would hold (credit %d/256 from the highest estimate)" %
              ("", m, pick(credits, m, ests[-1])))


def synthetic(nbytes, seed):
    """(name, true min-entropy per sample, bytes) of each known source."""
    rnd = random.Random(seed)
    out = []
    for p in (0.99, 0.95, 0.9, 0.8, 0.5, 0.3, 0.1):
        b = bytes(0 if rnd.random() < p else rnd.randrange(1, 256) for _ in range(nbytes))
        out.append(("i.i.d., most common value %.2f" % p,
                    -math.log2(max(p, (1 - p) / 255)), b))
    out.append(("i.i.d. uniform bytes", 8.0, bytes(rnd.randrange(256) for _ in range(nbytes))))
    for stay in (0.99, 0.9, 0.7):
        s, b = 0, bytearray()
        for _ in range(nbytes):
            if rnd.random() >= stay:
                s ^= 1
            b.append(0x5a if s else 0xa5)
        out.append(("two-state Markov, stays with %.2f" % stay, -math.log2(max(stay, 1 - stay)),
                    bytes(b)))
    for nblk in (8, 64):
        blocks = [bytes(rnd.randrange(256) for _ in range(16)) for _ in range(nblk)]
        b = b"".join(rnd.choice(blocks) for _ in range(nbytes // 16 + 1))[:nbytes]
        out.append(("%d blocks of 16 samples" % nblk, math.log2(nblk) / 16, b))
    # deterministic: a cubic counter's deltas, a period of 1000 random bytes
    out.append(("cubic counter", 0.0, bytes((40 + j * j) & 0xff for j in range(nbytes))))
    per = bytes(rnd.randrange(256) for _ in range(1000))
    out.append(("period 1000", 0.0, (per * (nbytes // 1000 + 1))[:nbytes]))
    return out


# the kernel's estimate of a window over ea_noniid's minimum of it, at most
RATIO_MAX = 1.15


def structured(nbytes, seed):
    """(name, bytes) of sources whose structure the five NIST-exact estimators
    miss and 90B's MultiMMC, LZ78Y and bitstring estimates see."""
    rnd = random.Random(seed)
    out = []

    def markov(order, k, pdom, mult):
        tab, s, b = {}, [rnd.randrange(k) for _ in range(order)], bytearray()
        for _ in range(nbytes):
            ctx = tuple(s[-order:])
            tab.setdefault(ctx, rnd.randrange(k))
            x = tab[ctx] if rnd.random() < pdom else rnd.randrange(k)
            s.append(x)
            b.append((x * mult) & 0xff)
        return bytes(b)
    out.append(("Markov order 3, 4 values", markov(3, 4, 0.6, 37)))
    out.append(("Markov order 2, 16 values", markov(2, 16, 0.5, 13)))
    out.append(("binary Markov order 10", markov(10, 2, 0.8, 1)))
    c, raw = 0, bytearray()
    for _ in range(nbytes + 1):
        c += 40 + rnd.choice((0, 2, 2, 4))
        raw.append(c & 0xff)
    out.append(("counter + noise, deltas", bytes((raw[i + 1] - raw[i]) & 0xff for i in range(nbytes))))
    out.append(("counter + noise, values", bytes(raw[:nbytes])))
    out.append(("sine + coin", bytes((int(60 + 50 * math.sin(i * 0.37)) + rnd.randrange(2)) & 0xff
                                     for i in range(nbytes))))
    out.append(("rounded gaussian", bytes(int(round(rnd.gauss(128, 3))) & 0xff for _ in range(nbytes))))
    out.append(("even gaussian deltas", bytes((2 * int(round(rnd.gauss(60, 4)))) & 0xff
                                              for _ in range(nbytes))))
    return out


def main():
    ap = argparse.ArgumentParser(description="check the runtime estimate's margin")
    ap.add_argument("--results", default=os.path.join(HERE, "margin-results"))
    ap.add_argument("--boot", default=os.path.join(HERE, "results-boot"))
    ap.add_argument("--ea-core", default=os.path.join(TOP, "build", "measure", "ea-core"))
    ap.add_argument("--ea-noniid", default=os.path.join(TOP, "build", "measure", "ea_noniid"))
    ap.add_argument("--windows", type=int, default=12,
                    help="windows of each synthetic source (default 12)")
    args = ap.parse_args()
    credits, margin, window = ladder()
    bad = []
    floor = credits[0] / 256.0
    print("ladder %s/256 bit, window %d samples: credit = highest step <= estimate / margin "
          "(speculative %d, timer %d), refused below margin x %.4f" %
          (",".join(map(str, credits)), window, margin["spec"], margin["timer"], floor))

    # 1. the measurements
    seen, lowest = set(), {}
    print("\n%-26s %-9s %9s %9s %8s %6s  %s" % ("measured (margin-results)", "date", "h_min",
                                              "rt_max", "credit", "ratio", "cpu"))
    if os.path.exists(args.results):
        for line in open(args.results):
            f = line.split()
            if not f or f[0].startswith("#"):
                continue
            date, prefix, h, rt_max = f[0], f[1], float(f[2]), float(f[3])
            cpu = " ".join(f[6:])
            seen.add(prefix)
            if prefix.startswith("guest."):
                k = (collector(prefix), host_key(cpu.split(" on ")[-1]))
                if date >= SINCE[k[0]]:
                    lowest[k] = min(h, lowest.get(k, h))
            c = pick(credits, margin[collector(prefix)], rt_max)
            ratio = (c / 256.0) / (h / 2) if h > 0 else float("inf") if c else 0
            ok = ratio <= 1
            print("%-26s %-9s %9.5f %9.5f %8s %6.3f  %s%s" %
                  (prefix, date[:10], h, rt_max, "%d/256" % c if c else "refused", ratio,
                   cpu[:40], "" if ok else "  TOO HIGH"))
            if not ok:
                bad.append("%s of %s: credit %d/256 from a runtime estimate of %.5f is above half "
                           "of the 10^6-sample %.5f" % (prefix, date, c, rt_max, h))
    for r in REQUIRED:
        if r not in seen:
            bad.append("no %s line in %s: the margin must rest on the host quiet, loaded and "
                       "the TCG guest" % (r, args.results))

    for tool in (args.ea_core, args.ea_noniid):
        if not os.access(tool, os.X_OK):
            sys.exit("check-margin: no %s (lib.sh build_tools ea-core ea_noniid)" % tool)
    # 2. the boot windows
    check_boot(args, credits, margin, window, lowest, bad)

    # 3. sources of known min-entropy
    print("\n%-34s %8s %9s %9s %8s %6s" % ("synthetic (worst of %d windows)" % args.windows,
                                          "true H", "rt_max", "rt_min", "credit", "ratio"))
    with tempfile.TemporaryDirectory() as d:
        for name, h, data in synthetic(window * args.windows, 0x6d617267):
            path = os.path.join(d, "s.u8")
            with open(path, "wb") as fh:
                fh.write(data)
            ests = [estimate(args.ea_core, path, w * window, window) for w in range(args.windows)]
            # the smaller margin, the speculative collector's: the timer's is larger
            c = pick(credits, min(margin.values()), max(ests))
            ratio = (c / 256.0) / (h / 2) if h > 0 else (float("inf") if c else 0)
            ok = ratio <= 1 and not (h / 2 < floor and c)
            print("%-34s %8.4f %9.5f %9.5f %8s %6.3f%s" %
                  (name, h, max(ests), min(ests), "%d/256" % c if c else "refused", ratio,
                   "" if ok else "  FAIL"))
            if not ok:
                bad.append("%s: credit %d/256 for a true min-entropy of %.4f" % (name, c, h))

    # 4. the estimate against all of SP 800-90B, window by window
    print("\n%-34s %9s %9s %6s" % ("structured (window by window)", "ea_noniid", "kernel", "ratio"))
    with tempfile.TemporaryDirectory() as d:
        for name, data in structured(window * 2, 0x72617469):
            for w in range(2):
                path = os.path.join(d, "w.u8")
                with open(path, "wb") as fh:
                    fh.write(data[w * window:(w + 1) * window])
                full = h_min([args.ea_noniid, "-q", "-t", "u8"], path)
                ours = h_min([args.ea_core], path)
                r = ours / full if full > 0 else (float("inf") if ours else 1)
                ok = r <= RATIO_MAX
                print("%-34s %9.5f %9.5f %6.3f%s" % (name if not w else "", full, ours, r,
                                                    "" if ok else "  FAIL"))
                if not ok:
                    bad.append("%s, window %d: the kernel's estimate %.5f is %.3f times "
                               "ea_noniid's %.5f (at most %.2f)" % (name, w, ours, r, full, RATIO_MAX))
    if bad:
        for b in bad:
            print("check-margin: " + b)
        sys.exit(1)
    print("check-margin: every credit the runtime estimate picks is at most half of the "
          "min-entropy measured or known, and its estimate of a window at most %.2f times "
          "ea_noniid's" % RATIO_MAX)


if __name__ == "__main__":
    main()
