#!/usr/bin/env python3
"""Generates the device sweep's kernels with the gemm-opt built here.

The gemm-opt half of test/gpu/sweep.sh:
  python3 test/gpu/sweep/gen.py   # after the gemm-opt build (LLVM)
  bash test/gpu/sweep.sh          # with a GPU (reads .gpu/sweep)

For every variant (element type x schedule x operand layout) it writes a
one-func module `.gpu/sweep/mlir/<name>.mlir` whose gemm.matmul carries the
schedule, runs `gemm-opt --emit=cuda` on it into `.gpu/sweep/kernels/<name>.cu`,
and groups the variants into translation units `.gpu/sweep/part<i>.cu` that
nvcc compiles in parallel on the machine with the GPU. Each part #includes its
generated files (whose launchers are static) and defines one extern wrapper
per variant. `.gpu/sweep/variants.inc` declares the wrappers and holds the
table that test/gpu/sweep/sweep.cu walks.

Usage: gen.py [--gemm-opt PATH] [--out DIR] [--parts N]
"""

import argparse
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


@dataclass(frozen=True)
class Schedule:
    key: str  # short name used in the variant's name
    block: tuple
    thread: tuple
    vector: int
    prefetch: str
    pad: int
    default: bool = False
    compute: str = "fma"
    # Buffers of an async pipeline; the other kinds imply theirs.
    async_stages: int = 0
    # Blocks per SM that __launch_bounds__ fits the registers for.
    occupancy: int = 1

    @property
    def warps(self):
        threads = (self.block[0] // self.thread[0]) * (self.block[1] // self.thread[1])
        assert threads % 32 == 0, self
        return threads // 32

    @property
    def stages(self):
        if self.prefetch == "async":
            return self.async_stages
        return 2 if self.prefetch == "smem" else 1

    def attr(self):
        return (
            "#gemm.schedule<block = [%d, %d, %d], thread = [%d, %d], warps = %d, "
            "stages = %d, vector = %d, prefetch = %s, pad = %d, compute = %s, "
            "occupancy = %d>"
            % (*self.block, *self.thread, self.warps, self.stages, self.vector,
               self.prefetch, self.pad, self.compute, self.occupancy))

    def label(self):
        prefetch = self.prefetch + (str(self.stages) if self.prefetch == "async" else "")
        occupancy = "/o%d" % self.occupancy if self.occupancy > 1 else ""
        return "%dx%dx%d/%dx%d/v%d/%s/p%d/%s%s" % (*self.block, *self.thread, self.vector,
                                                   prefetch, self.pad, self.compute, occupancy)


SCHEDULES = {
    "f32": [
        Schedule("d", (128, 128, 8), (8, 8), 4, "smem", 4, default=True),
        Schedule("regs", (128, 128, 8), (8, 8), 4, "regs", 4),
        Schedule("none", (128, 128, 8), (8, 8), 4, "none", 4),
        Schedule("b64", (64, 64, 8), (4, 4), 4, "smem", 4),
        Schedule("b96", (96, 96, 16), (6, 6), 2, "regs", 1),
        Schedule("v1", (128, 128, 8), (8, 8), 1, "smem", 0),
        # cp.async pipelines: 2 to 4 stages, past 48 KB of shared memory.
        Schedule("a3", (128, 128, 8), (8, 8), 4, "async", 4, async_stages=3),
        Schedule("a2", (128, 128, 16), (8, 8), 4, "async", 4, async_stages=2),
        Schedule("a4", (128, 128, 16), (8, 8), 4, "async", 4, async_stages=4),
        Schedule("a256", (256, 128, 8), (8, 16), 4, "async", 4, async_stages=3),
        Schedule("a1", (128, 64, 8), (4, 8), 1, "async", 1, async_stages=3),
        # Two blocks per SM: registers capped at 128.
        Schedule("o2r", (128, 128, 8), (8, 8), 4, "regs", 4, occupancy=2),
        Schedule("o2n", (128, 128, 8), (8, 8), 4, "none", 4, occupancy=2),
        Schedule("o2a", (128, 128, 16), (8, 8), 4, "async", 4, async_stages=3,
                 occupancy=2),
        # 4x12 tiles, without and with a prefetch.
        Schedule("m4", (192, 96, 48), (4, 12), 4, "none", 4),
        Schedule("m4r", (192, 96, 16), (4, 12), 4, "regs", 4),
    ],
    "f64": [
        Schedule("d", (64, 64, 16), (4, 4), 2, "smem", 2, default=True),
        Schedule("regs", (64, 64, 16), (4, 4), 2, "regs", 2),
        Schedule("none", (64, 64, 16), (4, 4), 2, "none", 2),
        Schedule("b32", (32, 32, 8), (2, 2), 2, "smem", 2),
        Schedule("v4", (64, 64, 16), (4, 4), 4, "smem", 4),
        Schedule("v1", (64, 64, 8), (4, 4), 1, "none", 1),
        Schedule("dm", (128, 128, 8), (8, 8), 2, "smem", 4, compute="dmma"),
        Schedule("dm64", (64, 64, 16), (4, 4), 2, "smem", 4, compute="dmma"),
        Schedule("dmr", (64, 128, 16), (4, 8), 2, "regs", 4, compute="dmma"),
        # m16n8k4 (BK = 12), m16n8k16 and, with an odd TM, m8n8k4 on sm_90.
        Schedule("dm12", (96, 96, 12), (6, 4), 2, "regs", 4, compute="dmma"),
        Schedule("dm16", (128, 128, 16), (8, 8), 2, "regs", 4, compute="dmma"),
        Schedule("dm9", (72, 144, 8), (9, 4), 1, "smem", 1, compute="dmma"),
        # Pad 4: conflict-free fragment reads; cp.async pipelines.
        Schedule("dmp4", (128, 128, 8), (8, 8), 2, "smem", 4, compute="dmma"),
        Schedule("dmp2", (128, 128, 8), (8, 8), 2, "smem", 2, compute="dmma"),
        Schedule("da2", (128, 128, 16), (8, 8), 2, "async", 4, compute="dmma",
                 async_stages=2),
        Schedule("da3", (128, 128, 16), (8, 8), 2, "async", 4, compute="dmma",
                 async_stages=3),
        Schedule("da4", (128, 128, 16), (8, 8), 2, "async", 4, compute="dmma",
                 async_stages=4),
        Schedule("da32", (128, 128, 32), (8, 8), 2, "async", 4, compute="dmma",
                 async_stages=3),
        Schedule("da1", (128, 128, 16), (8, 8), 1, "async", 4, compute="dmma",
                 async_stages=3),
        Schedule("da64", (64, 128, 16), (4, 8), 2, "async", 4, compute="dmma",
                 async_stages=4),
        # A 4x16 register tile without a prefetch, and 128-thread blocks
        # two to an SM.
        Schedule("dmn", (128, 128, 12), (4, 16), 2, "none", 4, compute="dmma"),
        Schedule("dw2", (128, 64, 8), (8, 8), 2, "smem", 4, compute="dmma",
                 occupancy=2),
        Schedule("dw2a", (128, 64, 16), (8, 8), 2, "async", 4, compute="dmma",
                 async_stages=3, occupancy=2),
        Schedule("dw4", (64, 64, 8), (8, 8), 2, "smem", 4, compute="dmma",
                 occupancy=4),
        Schedule("dwn", (64, 128, 8), (8, 8), 2, "smem", 4, compute="dmma",
                 occupancy=2),
        # The model's picks for streamed and small problems: two-slice and
        # four-slice steps in four cp.async buffers.
        Schedule("ds16", (256, 64, 16), (8, 8), 2, "async", 4, compute="dmma",
                 async_stages=4),
        Schedule("db16", (64, 64, 16), (4, 8), 2, "async", 4, compute="dmma",
                 async_stages=4, occupancy=2),
        Schedule("db32", (64, 64, 32), (4, 4), 2, "async", 4, compute="dmma",
                 async_stages=4),
    ],
}

# Operand layouts: 'r' row-major (unit column stride), 'c' column-major (unit
# row stride), 'g' fully dynamic strides (the generic scalar path).
STRIDES2 = {"r": "[?, 1]", "c": "[1, ?]", "g": "[?, ?]"}
STRIDES3 = {"r": "[?, ?, 1]", "c": "[?, 1, ?]", "g": "[?, ?, ?]"}


@dataclass(frozen=True)
class Variant:
    dtype: str
    schedule: Schedule
    layout: str  # A, B, C: three of 'r', 'c', 'g'
    batched: bool

    @property
    def name(self):
        kind = "bat_" if self.batched else ""
        return "sw_%s_%s_%s%s" % (self.dtype, self.schedule.key, kind,
                                  "gen" if self.layout == "ggg" else self.layout)

    def memref(self, operand):
        strides = (STRIDES3 if self.batched else STRIDES2)[operand]
        shape = "?x?x?x" if self.batched else "?x?x"
        return "memref<%s%s, strided<%s, offset: ?>>" % (shape, self.dtype, strides)

    def mlir(self):
        ta, tb, tc = (self.memref(x) for x in self.layout)
        return (
            "// Generated by test/gpu/sweep/gen.py: %s, schedule %s.\n"
            "module {\n"
            "func.func @%s(%%a: %s,\n"
            "    %%b: %s,\n"
            "    %%c: %s,\n"
            "    %%alpha: %s, %%beta: %s) {\n"
            "  gemm.matmul %%a, %%b, %%c, %%alpha, %%beta\n"
            "      {schedule = %s}\n"
            "      : %s, %s, %s, %s\n"
            "  return\n"
            "}\n"
            "}\n" % (self.name, self.schedule.label(), self.name, ta, tb, tc,
                     self.dtype, self.dtype, self.schedule.attr(), ta, tb, tc,
                     self.dtype))


def variants():
    out = []
    for dtype, schedules in SCHEDULES.items():
        for s in schedules:
            for a in "rc":
                for b in "rc":
                    out.append(Variant(dtype, s, a + b + "r", False))
            if s.default:
                for a in "rc":
                    for b in "rc":
                        out.append(Variant(dtype, s, a + b + "c", False))
                out.append(Variant(dtype, s, "ggg", False))
                # Batched: A row-major, B column-major (packs along K for both).
                out.append(Variant(dtype, s, "rcr", True))
    return out


def wrapper(v):
    """An extern function with one signature for every variant."""
    t = "float" if v.dtype == "f32" else "double"
    if v.batched:
        dims = {
            "a": "x.batch, x.m, x.k, x.a.sb, x.a.sr, x.a.sc",
            "b": "x.batch, x.k, x.n, x.b.sb, x.b.sr, x.b.sc",
            "c": "x.batch, x.m, x.n, x.c.sb, x.c.sr, x.c.sc",
        }
    else:
        dims = {
            "a": "x.m, x.k, x.a.sr, x.a.sc",
            "b": "x.k, x.n, x.b.sr, x.b.sc",
            "c": "x.m, x.n, x.c.sr, x.c.sc",
        }
    return (
        "bool %s_call(const SweepArgs &x) {\n"
        "  return %s(static_cast<const %s *>(x.a.ptr), %s,\n"
        "      static_cast<const %s *>(x.b.ptr), %s,\n"
        "      static_cast<%s *>(const_cast<void *>(x.c.ptr)), %s,\n"
        "      %s(x.alpha), %s(x.beta));\n"
        "}\n"
        "// The kernel launch alone, for timing; the kernels have internal\n"
        "// linkage, so the table reaches them through this.\n"
        "cudaError_t %s_launch(const gemm_rt::Problem &p, cudaStream_t stream) {\n"
        "  return gemm_kernels::launch<%s_k0>(p, stream);\n"
        "}\n" % (v.name, v.name, t, dims["a"], t, dims["b"], t, dims["c"], t, t,
                 v.name, v.name))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gemm-opt", default=os.path.join(
        os.environ.get("BUILD_DIR", os.path.join(ROOT, "build")), "bin", "gemm-opt"))
    parser.add_argument("--out", default=os.path.join(ROOT, ".gpu", "sweep"))
    parser.add_argument("--parts", type=int, default=8)
    args = parser.parse_args()

    if os.path.isdir(args.out):
        shutil.rmtree(args.out)
    for sub in ("mlir", "kernels"):
        os.makedirs(os.path.join(args.out, sub))

    vs = variants()
    names = [v.name for v in vs]
    assert len(set(names)) == len(names), "variant names must be unique"
    failed = []
    for v in vs:
        src = os.path.join(args.out, "mlir", v.name + ".mlir")
        dst = os.path.join(args.out, "kernels", v.name + ".cu")
        with open(src, "w") as f:
            f.write(v.mlir())
        proc = subprocess.run([args.gemm_opt, "--emit=cuda", src, "-o", dst],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            failed.append(v.name)
            sys.stderr.write("gen.py: gemm-opt failed on %s:\n%s" % (src, proc.stderr))
    if failed:
        sys.stderr.write("gen.py: %d variants did not generate\n" % len(failed))
        return 1

    parts = [[] for _ in range(min(args.parts, len(vs)))]
    for i, v in enumerate(vs):
        parts[i % len(parts)].append(v)
    for i, group in enumerate(parts):
        with open(os.path.join(args.out, "part%d.cu" % i), "w") as f:
            f.write("// Generated by test/gpu/sweep/gen.py: the launchers of %d "
                    "variants and their wrappers.\n" % len(group))
            f.write('#include "sweep.h"\n\n')
            for v in group:
                f.write('#include "kernels/%s.cu"\n' % v.name)
            f.write("\n")
            for v in group:
                f.write(wrapper(v))

    with open(os.path.join(args.out, "variants.inc"), "w") as f:
        f.write("// Generated by test/gpu/sweep/gen.py: %d variants in %d parts.\n"
                % (len(vs), len(parts)))
        for v in vs:
            f.write("bool %s_call(const SweepArgs &x);\n" % v.name)
            f.write("cudaError_t %s_launch(const gemm_rt::Problem &p, "
                    "cudaStream_t stream);\n" % v.name)
        f.write("\nconst SweepVariant sweepVariants[] = {\n")
        for v in vs:
            f.write('    {"%s", gemm_rt::DType::%s, "%s", "%s", %s, %s, %s_call, '
                    "%s_launch},\n"
                    % (v.name, v.dtype.upper(), v.schedule.label(), v.layout,
                       "true" if v.batched else "false",
                       "true" if v.schedule.default else "false", v.name, v.name))
        f.write("};\n")
    with open(os.path.join(args.out, "parts.txt"), "w") as f:
        for i in range(len(parts)):
            f.write("part%d\n" % i)
    print("gen.py: %d variants, %d parts in %s" % (len(vs), len(parts),
                                                     os.path.relpath(args.out, ROOT)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
