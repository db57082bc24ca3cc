#!/usr/bin/env bash
# The main job on the bundled example: set up, build, rewrite examples/mlp.cpp
# with gemm-opt, build both the original (g++) and the rewrite (nvcc), run
# them, and compare their results norm-wise. On a machine without a GPU the
# rewrite runs its original loops (the CPU fallback); with one, the trace
# shows each nest running on it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
work=$build/example
mkdir -p "$work"

echo "== gemm-opt examples/mlp.cpp -o $work/mlp.cu"
"$build/bin/gemm-opt" "$root/examples/mlp.cpp" -o "$work/mlp.cu"
echo "== nvcc mlp.cu \$(gemm-opt --nvcc-flags)"
# shellcheck disable=SC2046 # the flags are meant to split into words
"$nvcc" -O2 "$work/mlp.cu" $("$build/bin/gemm-opt" --nvcc-flags) -o "$work/mlp-gpu"
g++ -O2 "$root/examples/mlp.cpp" -o "$work/mlp-original"

echo "== run"
"$work/mlp-original" --dump >"$work/original.txt"
GEMM_OPT_TRACE=1 "$work/mlp-gpu" --dump >"$work/rewritten.txt"
python3 "$root/test/e2e/compare.py" "$work/original.txt" "$work/rewritten.txt"
"$work/mlp-gpu"
