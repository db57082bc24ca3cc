#!/usr/bin/env bash
#===- bench/ab.sh - The A/B bench, built ahead for the GPU to run ----------===#
#
#   scripts/build.sh && bench/ab.sh [BASE]   # with the gemm-opt build (LLVM)
#   .gpu/ab/bench --ab [seed]                # with a GPU
#
# Compares this checkout's kernels with those of the gemm-opt at commit BASE
# (default 450dfa7, the last before the kernel templates), shape by shape
# (docs/performance.md). Everything is built on this machine (nvcc needs no
# GPU), so that the GPU, here or on a GPU host given a copy of the checkout
# with .gpu/ab, only runs the benchmark:
#   1. builds BASE's gemm-opt in a worktree under $AB_WORK (default
#      /tmp/gemm-opt-ab) and rewrites bench/inputs with it into
#      .gpu/bench-base;
#   2. rewrites them with this checkout's gemm-opt into .gpu/bench;
#   3. compiles both sets with bench/bench.cu and the runtime (bench/run.sh
#      with BENCH_RUN=0 and BENCH_BASE), for sm_90, and copies the binary to
#      .gpu/ab/bench.
# Both sets are written for $BENCH_TARGET (default hopper-h100). The base
# must call the same runtime API as this checkout.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
base=${1:-450dfa7}
work=${AB_WORK:-/tmp/gemm-opt-ab}
tree=$work/$base
export BENCH_TARGET=${BENCH_TARGET:-hopper-h100}

if [[ ! -d $tree ]]; then
  mkdir -p "$work"
  git -C "$root" worktree add --detach "$tree" "$base"
fi
if [[ ! -f $tree/build/build.ninja ]]; then
  cmake -G Ninja -S "$tree" -B "$tree/build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_COMPILER="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-19/build/utils/lit/lit.py
fi
cmake --build "$tree/build" --target gemm-opt

BUILD_DIR=$tree/build "$tree/bench/gen.sh"
rm -rf "$root/.gpu/bench-base"
cp -r "$tree/.gpu/bench" "$root/.gpu/bench-base"
"$root/bench/gen.sh"

BENCH_RUN=0 BENCH_BASE=.gpu/bench-base BENCH_WORK=$work/bench \
  bash "$root/bench/run.sh"
mkdir -p "$root/.gpu/ab"
cp "$work/bench/bench" "$root/.gpu/ab/bench"
echo "ab.sh: .gpu/ab/bench: $(git -C "$root" describe --always --dirty)" \
  "against $base, for $BENCH_TARGET"
