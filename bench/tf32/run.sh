#!/usr/bin/env bash
# bench/tf32/run.sh - build and run the wgmma TF32/3xTF32 prototype benchmark.
#   bash bench/tf32/run.sh [--compile-only] [tf32_bench args: --reps N MxNxK ...]
# Run from the repository root (any directory works). Honours $NVCC
# (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc) and $TF32_BUILD
# (default /tmp/gemm-opt-tf32). Needs an sm_90 GPU to run; compiles anywhere.
# Uses -gencode=arch=compute_90a,code=sm_90a: with nvcc 13.0 the -arch=sm_90a
# shorthand also runs a plain sm_90 ptxas pass that rejects wgmma/setmaxnreg.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
build="${TF32_BUILD:-/tmp/gemm-opt-tf32}"
mkdir -p "$build"
compile_only=0
if [[ "${1:-}" == "--compile-only" ]]; then compile_only=1; shift; fi
"$NVCC" -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xptxas=-warn-spills,-warn-lmem-usage \
  -Werror=all-warnings -lineinfo ${TF32_FLAGS:-} -I "$here/../../runtime/include" -o "$build/tf32_bench" "$here/tf32_bench.cu" -lcublas
echo "built $build/tf32_bench" >&2
[[ $compile_only == 1 ]] && exit 0
exec "$build/tf32_bench" "$@"
