#!/usr/bin/env bash
#===- bench/widen/run.sh - Float matrices summed in double, timed ----------===#
#
#   mkdir -p .gpu/widen && build/bin/gemm-opt bench/widen/loops.cpp \
#     -o .gpu/widen/loops.cu                                # with LLVM
#   bash bench/widen/run.sh [--reps N] [n ...]                # with a GPU
#
# Builds libgemm_runtime standalone (test/gpu/lib.sh), links the rewritten
# loops with widen_bench.cu and cuBLAS, and prints one table row per size
# (m = n = k, default 1024 4096 8192), with no GEMM_OPT_* switch set.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/gpu/lib.sh

WORK=/tmp/gemm-opt-widen
mkdir -p "$WORK"
printDevice
buildRuntime
"$NVCC" "${NVCC_FLAGS[@]}" .gpu/widen/loops.cu bench/widen/widen_bench.cu \
  "$LIB" -lcublas -o "$WORK/widen_bench"
"$WORK/widen_bench" "$@"
