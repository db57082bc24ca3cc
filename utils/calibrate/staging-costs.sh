#!/usr/bin/env bash
#===- utils/calibrate/staging-costs.sh - Build and run staging-costs.cu ----===#
#
#   bench/gen.sh                          # with the gemm-opt build: .gpu/bench
#   bash utils/calibrate/staging-costs.sh # with a GPU (reads .gpu/bench)
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/gpu/lib.sh
printDevice
buildRuntime
"$NVCC" "${NVCC_FLAGS[@]}" -I bench -I runtime/src \
  utils/calibrate/staging-costs.cu .gpu/bench/sgemm.cu "$LIB" \
  -o /tmp/staging-costs
GEMM_OPT_PROFITABILITY=always-gpu /tmp/staging-costs
