#!/usr/bin/env bash
#===- utils/calibrate/staging-costs.sh - Build and run staging-costs.cu ----===#
#
#   here:  bench/gen.sh              (the rewritten bench, .gpu/bench)
#   there: bash utils/calibrate/staging-costs.sh       (carry .gpu)
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
