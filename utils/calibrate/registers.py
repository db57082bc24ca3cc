#!/usr/bin/env python3
"""Refits the Hopper register law (RegisterLaw in lib/Target/Targets.cpp).

Runs here, with the gemm-opt built here and nvcc/ptxas (no GPU needed):
  python3 utils/calibrate/registers.py [--jobs N] [--kind fma|dmma]

For the schedules of the correlation check (gen.py's model picks and hand
schedules) it prints each kernel with `gemm-opt --emit=cuda` at occupancy 1,
bisects nvcc's -maxrregcount for the fewest registers at which ptxas compiles
both kernel variants without spilling, and fits by least squares

  registers = base + words * (accumulators + fragment * fragments
                              + staged * (stagedLive, stagedCopied
                                          or stagedDead))

with the cost model's counts (CostModel.cpp), once over the FFMA kernels
and once over the dmma ones. It prints each table, fit, residuals and their
standard deviation; the margin that CostModel adds for residency should
cover their scatter.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "correlate"))
import gen  # noqa: E402  (the correlation check's picks)

NVCC = os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
SPILL = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")


def fields(schedule):
    kv = dict(x.split("=") for x in schedule.split())
    bm, bn, bk = (int(x) for x in kv["block"].split(","))
    tm, tn = (int(x) for x in kv["thread"].split(","))
    return bm, bn, bk, tm, tn, kv


def counts(dtype, schedule):
    """(words, accumulators, fragments, staged, prefetch kind, dmma) as
    CostModel.cpp counts them."""
    bm, bn, bk, tm, tn, kv = fields(schedule)
    words = 2 if dtype == "f64" else 1
    threads = (bm // tm) * (bn // tn)
    staged = -(-(bm + bn) * bk // threads)
    dmma = kv["compute"] == "dmma"
    if dmma:
        depth = 8 if tm % 2 == 0 and bk % 8 == 0 else 4
        fragments = depth // 4 * (tm + tn // 2)
    else:
        fragments = tm + tn
    return words, tm * tn, fragments, staged, kv["prefetch"], dmma


def spills(cu, regs, workdir):
    """Whether ptxas spills with `regs` registers per thread. -maxrregcount
    yields to __launch_bounds__, so the cap replaces the launch bounds."""
    with open(cu) as f:
        text = f.read()
    capped = os.path.join(workdir, "%s.%d.cu" % (os.path.basename(cu)[:-3], regs))
    with open(capped, "w") as f:
        f.write(text.replace("__launch_bounds__(THREADS, OCCUPANCY)",
                             "__maxnreg__(%d)" % regs))
    out = subprocess.run(
        [NVCC, "-std=c++17", "-arch=sm_90", "-I", os.path.join(gen.ROOT, "runtime", "include"),
         "-Xptxas", "-v", "-c", capped, "-o", capped[:-3] + ".o"],
        capture_output=True, text=True, check=True).stderr
    return any(int(a) or int(b) for a, b in SPILL.findall(out))


def fewest(cu, workdir):
    """The fewest registers (a multiple of 8) without spills, or None."""
    if spills(cu, 255, workdir):
        return None
    lo, hi = 24, 256  # spills at lo (assumed), not at hi
    while hi - lo > 8:
        mid = (lo + hi) // 2 // 8 * 8
        if spills(cu, mid, workdir):
            lo = mid
        else:
            hi = mid
    return min(hi, 255)


def solve(rows, ys):
    """Least squares by the normal equations (a few unknowns). A column that
    no kernel exercises (say, no dmma kernel without a prefetch) keeps its
    coefficient at 0."""
    used = [i for i in range(len(rows[0])) if any(r[i] for r in rows)]
    x = [0.0] * len(rows[0])
    for i, v in zip(used, normal(([r[i] for i in used] for r in rows), ys)):
        x[i] = v
    return x


def normal(rows, ys):
    """Least squares over `rows`, which exercise every column."""
    rows = list(rows)
    n = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) for j in range(n)] for i in range(n)]
    b = [sum(r[i] * y for r, y in zip(rows, ys)) for i in range(n)]
    for i in range(n):
        p = max(range(i, n), key=lambda k: abs(a[k][i]))
        a[i], a[p], b[i], b[p] = a[p], a[i], b[p], b[i]
        for k in range(i + 1, n):
            f = a[k][i] / a[i][i]
            a[k] = [x - f * y for x, y in zip(a[k], a[i])]
            b[k] -= f * b[i]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (b[i] - sum(a[i][j] * x[j] for j in range(i + 1, n))) / a[i][i]
    return x


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gemm-opt", default=os.path.join(gen.ROOT, "build", "bin", "gemm-opt"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--kind", choices=["fma", "dmma"],
                        help="measure and fit this kind of product only")
    args = parser.parse_args()

    ranked = gen.explain(args.gemm_opt, "hopper-h100", 1000000)
    schedules = []
    for (dtype, compute), ranks in gen.PICKS.items():
        kind = [r for r in ranked[dtype] if "compute=" + compute in r[3]]
        schedules += [(dtype, kind[k - 1][3]) for k in ranks if k <= len(kind)]
    schedules += [(d, s) for d, hand in gen.HAND.items() for s in hand]
    schedules = sorted(s for s in set(schedules)
                       if not args.kind or counts(*s)[5] == (args.kind == "dmma"))

    workdir = tempfile.mkdtemp(prefix="gemm-opt-registers-")
    def measure(item):
        dtype, schedule = item
        name = "rg_%s_%d" % (dtype, schedules.index(item))
        src = os.path.join(workdir, name + ".mlir")
        cu = os.path.join(workdir, name + ".cu")
        with open(src, "w") as f:
            f.write(gen.module(name, dtype))
        subprocess.run([args.gemm_opt, "--emit=cuda", src, "--target=hopper-h100",
                        "--schedule=" + schedule + " occupancy=1", "-o", cu], check=True)
        return fewest(cu, workdir)

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        measured = list(pool.map(measure, schedules))

    # The FFMA and the dmma kernels each have their law (Targets.cpp's
    # registerLaw and dmmaRegisterLaw).
    for kind in [args.kind] if args.kind else ["fma", "dmma"]:
        fit(kind, [(item, regs) for item, regs in zip(schedules, measured)
                   if counts(*item)[5] == (kind == "dmma")])


def fit(kind, measured):
    """Fits and prints one law over `measured`, ((dtype, schedule), regs)."""
    rows, ys, table = [], [], []
    for (dtype, schedule), regs in measured:
        words, acc, frag, staged, prefetch, dmma = counts(dtype, schedule)
        table.append((dtype, gen.label(schedule), regs))
        if regs is None:
            continue
        known = words * acc
        # The staged words by what holds them: the tile (regs, smem), the
        # copies' addresses (async) or nothing past the stores (none).
        kinds = [prefetch in ("regs", "smem"), prefetch == "async",
                 prefetch == "none"]
        rows.append([1.0, words * frag] +
                    [words * staged if k else 0.0 for k in kinds])
        ys.append(regs - known)
    base, fragment, live, copied, dead = solve(rows, ys)
    print("%-4s %-44s %5s %7s %6s" % ("type", "schedule", "regs", "fit", "resid"))
    i, squares = 0, 0.0
    for dtype, label, regs in table:
        if regs is None:
            print("%-4s %-44s spills at 255" % (dtype, label))
            continue
        r = rows[i]
        estimate = (base + fragment * r[1] + live * r[2] + copied * r[3] +
                    dead * r[4] + (regs - ys[i]))
        squares += (regs - estimate) ** 2
        print("%-4s %-44s %5d %7.1f %+6.1f" % (dtype, label, regs, estimate,
                                              regs - estimate))
        i += 1
    sigma = (squares / max(i - 5, 1)) ** 0.5
    print("%s: RegisterLaw{%.1f, %.2f, %.2f, %.2f, %.2f, %.0f}  (base, "
          "fragment, stagedLive, stagedCopied, stagedDead, sigma; 0.00: no "
          "kernel of that kind)\n"
          % (kind, base, fragment, live, copied, dead, sigma))


if __name__ == "__main__":
    sys.exit(main())
