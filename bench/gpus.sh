#!/usr/bin/env bash
#===- bench/gpus.sh - The several-GPU host-array benchmark (bench/gpus.cu) -===#
#
#   bench/gen.sh                 # with the gemm-opt build (LLVM): .gpu/bench
#   bash bench/gpus.sh [N...]    # with one or more GPUs, nvcc and cuBLAS
#
# Builds libgemm_runtime standalone, links bench/gpus.cu with the rewritten
# .gpu/bench/{s,d}gemm.cu and runs it: the rewrite on host arrays with no
# switch set (split over the GPUs where the model says so) and held to one
# GPU, cublasXt on every visible GPU, and memcpy + cuBLAS on one, each result
# checked. The table also goes to gpus.md in $GEMM_OPT_LOG_DIR when set, else
# in /tmp/gemm-opt-gpus; then one traced call per size shows the shares.
# Exits non-zero if a result is wrong.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/.."
source test/gpu/lib.sh

WORK=/tmp/gemm-opt-gpus
mkdir -p "$WORK"
printDevice
buildRuntime

echo "== compiling"
pids=()
for name in sgemm dgemm; do
  "$NVCC" "${NVCC_FLAGS[@]}" -I bench -c ".gpu/bench/$name.cu" \
    -o "$WORK/$name.o" &
  pids+=($!)
done
for pid in "${pids[@]}"; do
  wait "$pid"
done
"$NVCC" "${NVCC_FLAGS[@]}" -I bench bench/gpus.cu "$WORK/sgemm.o" \
  "$WORK/dgemm.o" "$LIB" -lcublas -o "$WORK/gpus"

echo "== bench"
table=${LOG_DIR:-$WORK}/gpus.md
"$WORK/gpus" "$@" | tee "$table"
status=${PIPESTATUS[0]}
echo | tee -a "$table"
GEMM_OPT_TRACE=1 "$WORK/gpus" 4096 2>&1 | grep 'ran on' | sed 's/.*nest //' |
  sort -u | tee -a "$table"
exit "$status"
