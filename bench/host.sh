#!/usr/bin/env bash
#===- bench/host.sh - The host-array benchmark (bench/host.cu) -------------===#
#
#   bench/gen.sh                 # with the gemm-opt build (LLVM): .gpu/bench
#   bash bench/host.sh [--small] # with a GPU; --small: only the tables of
#                                # small problems, steps 2 and 3 below skipped
#
# On a machine with a GPU, nvcc, cmake and cuBLAS (LLVM is not needed):
# builds libgemm_runtime
# standalone, links bench/host.cu with the rewritten .gpu/bench/{s,d}gemm.cu
# and with bench/inputs/{s,d}gemm.cpp as written (renamed loop_*, -O2 like
# the rewrite's own fallback loops), and runs
#   1. the tables: the rewrite on host arrays against pageable cudaMemcpy +
#      cuBLAS, and against the original loops on small and matrix-vector
#      shapes, under the profitability rule (no switch set, as users run it);
#   2. one call per square size under GEMM_OPT_TRACE (the panels chosen);
#   3. an f64 4096^3 product (384 MiB of operands) with a staging budget of
#      half that, then of a quarter, where B (128 MiB) goes in blocks
#      (GEMM_OPT_DEVICE_MEMORY), checked against cuBLAS.
# The output also goes to host.md in /tmp/gemm-opt-host. Logs and tables
# also go to $GEMM_OPT_LOG_DIR when set (host.md there instead).
# Exits non-zero if a result is wrong.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/.."
source test/gpu/lib.sh

WORK=/tmp/gemm-opt-host
mkdir -p "$WORK"
printDevice
buildRuntime

echo "== compiling"
objects=() pids=()
for name in sgemm dgemm; do
  "$NVCC" "${NVCC_FLAGS[@]}" -I bench -c ".gpu/bench/$name.cu" \
    -o "$WORK/$name.o" &
  pids+=($!)
  renames=()
  for f in $(grep -o '^void [a-z_]*' "bench/inputs/$name.cpp" | cut -d' ' -f2); do
    renames+=("-D$f=loop_$f")
  done
  g++ -O2 "${renames[@]}" -x c++ -c "bench/inputs/$name.cpp" \
    -o "$WORK/loop_$name.o"
  objects+=("$WORK/$name.o" "$WORK/loop_$name.o")
done
for pid in "${pids[@]}"; do
  wait "$pid"
done
"$NVCC" "${NVCC_FLAGS[@]}" -I bench bench/host.cu "${objects[@]}" "$LIB" \
  -lcublas -o "$WORK/host"

echo "== bench"
table=${LOG_DIR:-$WORK}/host.md
status=0
if [[ ${1:-} == --small ]]; then
  "$WORK/host" --small | tee "$table"
  exit "${PIPESTATUS[0]}"
fi
"$WORK/host" | tee "$table" || status=1
echo | tee -a "$table"
GEMM_OPT_TRACE=1 "$WORK/host" --once 2>&1 | sed 's/.*nest //' | tee -a "$table"
for budget in 192 96; do
  GEMM_OPT_DEVICE_MEMORY=$((budget << 20)) GEMM_OPT_TRACE=1 "$WORK/host" \
    --big 4096 2>&1 | tee -a "$table" || status=1
done
exit $status
