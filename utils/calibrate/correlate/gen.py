#!/usr/bin/env python3
"""Generates the kernels of the cost model's Hopper correlation check.

The gemm-opt half of utils/calibrate/correlate.sh:
  python3 utils/calibrate/correlate/gen.py   # after the gemm-opt build (LLVM)
  bash utils/calibrate/correlate.sh          # with a GPU (reads .gpu/correlate)

It ranks every schedule of a row-major 4096^3 SGEMM and DGEMM (static
extents, so that the model counts partial tiles and waves)
with `gemm-opt --explain --candidates=N --target=hopper-h100`, picks the top
ones and some lower-ranked ones so that the ranks spread (for f64 both
compute=dmma and compute=fma schedules), adds hand-picked schedules (their
predictions from `--explain --schedule=...`), and writes, per schedule, a
one-func module with row-major A, B and C through `gemm-opt --emit=cuda
--schedule=...` into .gpu/correlate/kernels/. Each part .gpu/correlate/part<i>.cu
#includes generated files (whose launchers are static) and defines one extern
launch wrapper per variant; variants.inc lists them with their predictions
for utils/calibrate/correlate/correlate.cu.

Usage: gen.py [--gemm-opt PATH] [--target NAME] [--out DIR] [--parts N]
              [--layout nn|nt] [--shape M,N,K] [--only FILE]

--shape times another problem than 4096^3 (say 32768,64,8192, a skinny
product one wave of 256x64 tiles covers), ranked and predicted for it.

--only FILE times just the schedules that FILE lists, one "f32|f64
SCHEDULE" a line ('#' starts a comment), for kernel experiments: each keeps
the model's prediction where it has one (else 0, marked "unranked"), so
the rho it prints means little.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))

# 1-based ranks in the model's list, per dtype and compute kind: the top ones
# and a spread below them.
PICKS = {
    ("f32", "fma"): [1, 2, 3, 4, 8, 12, 30, 100, 300, 1000, 3000, 10000, 20000],
    ("f64", "dmma"): [1, 2, 3, 6, 20, 100, 500, 2000],
    ("f64", "fma"): [1, 2, 5, 20, 100, 500, 2000],
}

# Hand-picked schedules timed beside the model's picks: test/gpu/sweep's
# kernels and tiles that the model ranks low or prunes, so that the check
# shows what it misses. pad = vector as the search sets it; C = A B unless
# transpose=1.
HAND = {
    "f32": [
        "block=128,128,8 thread=8,8 vector=4 prefetch=smem pad=4 compute=fma transpose=0",
        "block=128,128,8 thread=8,8 vector=4 prefetch=regs pad=4 compute=fma transpose=0",
        "block=128,128,8 thread=8,8 vector=4 prefetch=none pad=4 compute=fma transpose=0",
        "block=64,64,8 thread=4,4 vector=4 prefetch=smem pad=4 compute=fma transpose=0",
        "block=96,96,16 thread=6,6 vector=2 prefetch=regs pad=2 compute=fma transpose=0",
        # cp.async pipelines.
        "block=128,128,16 thread=8,8 vector=4 prefetch=async stages=2 pad=4 compute=fma transpose=0",
        "block=128,128,8 thread=8,8 vector=4 prefetch=async stages=3 pad=4 compute=fma transpose=0",
        # 4x12 tiles with a prefetch.
        "block=192,96,16 thread=4,12 vector=4 prefetch=regs pad=4 compute=fma transpose=0",
        # 8x8 tiles held to two blocks per SM by their launch bounds (the
        # NT layout's fastest kernel fits two blocks at 128 registers).
        "block=128,128,8 thread=8,8 vector=4 prefetch=regs pad=4 compute=fma transpose=0 occupancy=2",
        "block=128,128,8 thread=8,8 vector=4 prefetch=smem pad=4 compute=fma transpose=0 occupancy=2",
        "block=128,128,8 thread=8,8 vector=4 prefetch=none pad=4 compute=fma transpose=0 occupancy=2",
        # 8x16 tiles in blocks of 128 and 64 threads, two and four to an SM:
        # within 3% of the pick at 4096^3, but outside the FFMA register
        # law's margin.
        "block=128,128,8 thread=8,16 vector=4 prefetch=smem pad=4 compute=fma transpose=1",
        "block=128,128,8 thread=16,8 vector=4 prefetch=smem pad=4 compute=fma transpose=0",
        "block=128,64,8 thread=8,16 vector=4 prefetch=smem pad=4 compute=fma transpose=1",
    ],
    "f64": [
        "block=64,64,16 thread=4,4 vector=2 prefetch=smem pad=2 compute=fma transpose=0",
        "block=64,64,16 thread=4,4 vector=2 prefetch=regs pad=2 compute=fma transpose=0",
        "block=64,64,16 thread=4,4 vector=2 prefetch=none pad=2 compute=fma transpose=0",
        "block=128,128,8 thread=8,8 vector=2 prefetch=smem pad=2 compute=dmma transpose=0",
        "block=64,64,16 thread=4,4 vector=2 prefetch=smem pad=2 compute=dmma transpose=0",
        "block=64,128,16 thread=4,8 vector=2 prefetch=regs pad=2 compute=dmma transpose=0",
        # m16n8k16 and m16n8k8 warp tiles of 64 x 32 and 32 x 32.
        "block=128,128,16 thread=8,8 vector=2 prefetch=regs pad=4 compute=dmma transpose=0",
        "block=128,64,16 thread=8,4 vector=2 prefetch=regs pad=4 compute=dmma transpose=0",
        "block=128,64,8 thread=4,8 vector=2 prefetch=smem pad=4 compute=dmma transpose=0",
        # Conflict-free pad 4 and cp.async pipelines.
        "block=128,128,8 thread=8,8 vector=2 prefetch=smem pad=4 compute=dmma transpose=0",
        "block=128,128,16 thread=8,8 vector=2 prefetch=async stages=3 pad=4 compute=dmma transpose=0",
        "block=128,128,32 thread=8,8 vector=2 prefetch=async stages=3 pad=4 compute=dmma transpose=0",
        # Smaller blocks, two or four to an SM.
        "block=128,64,8 thread=8,8 vector=2 prefetch=smem pad=4 compute=dmma transpose=0",
        "block=64,64,8 thread=8,8 vector=2 prefetch=smem pad=4 compute=dmma transpose=0",
        # Two-slice steps in four buffers, whose 128-byte rows of A stream
        # from DRAM at the full rate.
        "block=256,64,16 thread=8,8 vector=2 prefetch=async stages=4 pad=4 compute=dmma transpose=0",
        "block=128,64,16 thread=8,8 vector=2 prefetch=async stages=4 pad=4 compute=dmma transpose=0",
        "block=128,64,16 thread=4,8 vector=2 prefetch=async stages=4 pad=4 compute=dmma transpose=0",
    ],
}

FUNCS = {"sgemm": "f32", "dgemm": "f64"}
ROW = re.compile(r"^\s*(\d+)\s+(.*?)\s+(block=.*)$")
HEAD = re.compile(r"^gemm-select-schedule: @(\w+) ")


def explain(gemm_opt, target, candidates, schedule=None, dtype=None):
    """{dtype: [(rank, gflops, bound, schedule)]} from --explain, for a
    row-major SGEMM and DGEMM of SHAPE, or for the one of `dtype` alone;
    without the schedules that only tuning may choose."""
    dtypes = [dtype] if dtype else ["f32", "f64"]
    src = os.path.join(ROOT, ".gpu", "correlate-%s.mlir" % "-".join(dtypes))
    os.makedirs(os.path.dirname(src), exist_ok=True)
    with open(src, "w") as f:
        for d in dtypes:
            f.write(module({"f32": "sgemm", "f64": "dgemm"}[d], d))
    cmd = [gemm_opt, src, "--explain", "--candidates=%d" % candidates,
           "--target=" + target]
    if schedule:
        cmd.append("--schedule=" + schedule)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    rows, dtype = {"f32": [], "f64": []}, None
    for line in out.splitlines():
        m = HEAD.match(line)
        if m:
            dtype = FUNCS[m.group(1)]
            continue
        # The row above breaks a measured rule: the model never picks it.
        if line.strip().startswith("(tuning only:") and dtype:
            rows[dtype].pop()
            continue
        m = ROW.match(line)
        if m and dtype:
            fields = m.group(2).split()
            # ... memory issue latency GFLOP/s peak bound
            rows[dtype].append((int(m.group(1)), float(fields[-3]), fields[-1],
                                m.group(3).strip()))
    return rows


def label(schedule):
    kv = dict(x.split("=") for x in schedule.split())
    # cp.async pipelines differ by their buffer count.
    prefetch = kv["prefetch"] + (kv.get("stages", "") if kv["prefetch"] == "async" else "")
    return "%s/%s/v%s/%s/p%s/%s%s%s" % (kv["block"].replace(",", "x"),
                                         kv["thread"].replace(",", "x"), kv["vector"],
                                         prefetch, kv["pad"], kv["compute"],
                                         "/T" if kv.get("transpose") == "1" else "",
                                         "/o" + kv["occupancy"] if "occupancy" in kv else "")


# The problem that correlate.cu times, M, N, K; static extents let the model
# count partial tiles and the last wave of blocks. Set by --shape.
SHAPE = (4096, 4096, 4096)


# "nn": row-major A, B and C; "nt": B stored transposed (N x K, its K
# contiguous), as BLAS's NT. Set by --layout.
LAYOUT = "nn"


def module(name, dtype):
    m, n, k = SHAPE
    ta = "memref<%dx%dx%s>" % (m, k, dtype)
    tb = ("memref<%dx%dx%s, strided<[1, %d]>>" % (k, n, dtype, k)
          if LAYOUT == "nt" else "memref<%dx%dx%s>" % (k, n, dtype))
    tc = "memref<%dx%dx%s>" % (m, n, dtype)
    return ("// Generated by utils/calibrate/correlate/gen.py.\n"
            "func.func @%s(%%a: %s, %%b: %s, %%c: %s, %%alpha: %s, %%beta: %s) {\n"
            "  gemm.matmul %%a, %%b, %%c, %%alpha, %%beta : %s, %s, %s, %s\n"
            "  return\n}\n" % (name, ta, tb, tc, dtype, dtype, ta, tb, tc, dtype))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gemm-opt", default=os.path.join(
        os.environ.get("BUILD_DIR", os.path.join(ROOT, "build")), "bin", "gemm-opt"))
    parser.add_argument("--target", default="hopper-h100")
    parser.add_argument("--out", default=os.path.join(ROOT, ".gpu", "correlate"))
    parser.add_argument("--parts", type=int, default=12)
    parser.add_argument("--layout", choices=["nn", "nt"], default="nn",
                        help="nt: B stored transposed (BLAS NT)")
    parser.add_argument("--shape", default="4096,4096,4096",
                        help="M,N,K of the timed problem")
    parser.add_argument("--list", action="store_true",
                        help="print the picks and their predictions only")
    parser.add_argument("--only", metavar="FILE",
                        help="time only the schedules listed in FILE")
    args = parser.parse_args()
    global LAYOUT, SHAPE
    LAYOUT = args.layout
    SHAPE = tuple(int(x) for x in args.shape.split(","))
    if len(SHAPE) != 3 or min(SHAPE) < 1:
        parser.error("--shape wants M,N,K, three positive integers")

    picks = []  # (dtype, model rank, gflops, bound, schedule, how)
    if args.only:
        for line in open(args.only):
            line = line.split("#")[0].strip()
            if not line:
                continue
            dtype, s = line.split(None, 1)
            r = prediction(args, dtype, s)
            picks.append((dtype,) + (r or (0, 0.0, "-")) +
                         (s, "only" if r else "unranked"))
        return write(args, picks)

    ranked = explain(args.gemm_opt, args.target, 1000000)
    for (dtype, compute), ranks in PICKS.items():
        kind = [r for r in ranked[dtype] if "compute=" + compute in r[3]]
        for k in ranks:
            if k <= len(kind):
                r = kind[k - 1]
                picks.append((dtype, r[0], r[1], r[2], r[3],
                              "%s #%d" % (compute, k)))
    for dtype, schedules in HAND.items():
        for s in schedules:
            if any(p[0] == dtype and p[4] == s for p in picks):
                continue
            hit = [r[:3] for r in ranked[dtype] if r[3] == s]
            r = hit[0] if hit else prediction(args, dtype, s)
            if not r:
                sys.stderr.write("gen.py: no prediction for %s (the "
                                 "guidelines drop it); skipped\n" % s)
                continue
            picks.append((dtype,) + r + (s, "hand"))
    return write(args, picks)


def prediction(args, dtype, schedule):
    """(0, GFLOP/s, bound) of one schedule outside the ranked list, from
    --explain --schedule, or None where the guidelines drop it."""
    one = explain(args.gemm_opt, args.target, 1, schedule, dtype)[dtype]
    return (0,) + one[0][1:3] if one else None


def write(args, picks):
    """Prints the picks (--list) or writes their kernels, parts and table."""
    picks.sort(key=lambda p: (p[0], -p[2]))
    if args.list:
        for p in picks:
            print("%s rank %6d %10.1f %-8s %-10s %s" % (p[0], p[1], p[2], p[3],
                                                       p[5], label(p[4])))
        return 0

    if os.path.isdir(args.out):
        shutil.rmtree(args.out)
    for sub in ("mlir", "kernels"):
        os.makedirs(os.path.join(args.out, sub))
    names = []
    for i, (dtype, rank, gflops, bound, s, how) in enumerate(picks):
        name = "cr_%s_%02d" % (dtype, i)
        names.append(name)
        src = os.path.join(args.out, "mlir", name + ".mlir")
        dst = os.path.join(args.out, "kernels", name + ".cu")
        with open(src, "w") as f:
            f.write(module(name, dtype))
        subprocess.run([args.gemm_opt, "--emit=cuda", src, "--schedule=" + s,
                        "--target=" + args.target, "-o", dst], check=True)

    nparts = min(args.parts, len(picks))
    for i in range(nparts):
        with open(os.path.join(args.out, "part%d.cu" % i), "w") as f:
            f.write("// Generated by utils/calibrate/correlate/gen.py.\n"
                    '#include "gemm_runtime.h"\n\n')
            group = names[i::nparts]
            for n in group:
                f.write('#include "kernels/%s.cu"\n' % n)
            for n in group:
                f.write("cudaError_t %s_launch(const gemm_rt::Problem &p, "
                        "cudaStream_t stream) {\n  return gemm_kernels::launch<%s_k0>(p, stream);\n"
                        "}\n" % (n, n))
    with open(os.path.join(args.out, "variants.inc"), "w") as f:
        f.write("// Generated by utils/calibrate/correlate/gen.py on %s.\n"
                % args.target)
        f.write("constexpr bool correlateBTransposed = %s;\n"
                % ("true" if LAYOUT == "nt" else "false"))
        f.write("constexpr int64_t correlateShape[3] = {%d, %d, %d};\n" % SHAPE)
        for n in names:
            f.write("cudaError_t %s_launch(const gemm_rt::Problem &p, "
                    "cudaStream_t stream);\n" % n)
        f.write("\nconst CorrelateVariant correlateVariants[] = {\n")
        for n, (dtype, rank, gflops, bound, s, how) in zip(names, picks):
            f.write('    {"%s", gemm_rt::DType::%s, "%s", "%s", %d, %.1f, "%s", '
                    "%s_launch},\n" % (n, dtype.upper(), label(s), how, rank,
                                       gflops, bound, n))
        f.write("};\n")
    with open(os.path.join(args.out, "parts.txt"), "w") as f:
        for i in range(nparts):
            f.write("part%d\n" % i)
    print("gen.py: %d variants (%d f32, %d f64), %d parts in %s" % (
        len(picks), sum(p[0] == "f32" for p in picks),
        sum(p[0] == "f64" for p in picks), nparts, os.path.relpath(args.out, ROOT)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
