#!/usr/bin/env bash
#===- test/gpu/seeds.sh - Checks the seed kernels on a GPU ------------------===#
#
# Runs on a machine with a GPU, nvcc, cmake and cuBLAS (LLVM is not needed),
# from any directory:
#   1. builds libgemm_runtime standalone (Release, sm_90) in /tmp/build-rt;
#   2. builds seeds_check.cu against it and cuBLAS, and runs it: every seed
#      kernel against cuBLAS, gemm_rt::verify, GEMM_OPT_VERIFY through run(),
#      then timings at 4096^3;
#   3. runs `seeds_check --quick` under compute-sanitizer's memcheck (bounds,
#      alignment), racecheck (shared-memory hazards, e.g. of double buffering)
#      and synccheck (barriers), if compute-sanitizer is there.
# Arguments go to seeds_check (a random seed). Exits non-zero on any failure.
# The log also goes to $GEMM_OPT_LOG_DIR when set.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/gpu/lib.sh

WORK=/tmp/gemm-opt-gpu

printDevice
buildRuntime

echo "== seeds_check"
mkdir -p "$WORK"
"$NVCC" "${NVCC_FLAGS[@]}" test/gpu/seeds_check.cu "${SEEDS[@]}" "$LIB" -lcublas \
  -o "$WORK/seeds_check"
if [[ -n $LOG_DIR ]]; then
  "$WORK/seeds_check" "$@" 2>&1 | tee "$LOG_DIR/seeds_check.log"
else
  "$WORK/seeds_check" "$@"
fi

SANITIZER=$(command -v compute-sanitizer ||
  echo "$(dirname "$NVCC")/compute-sanitizer")
if [[ -x $SANITIZER ]]; then
  for tool in memcheck racecheck synccheck; do
    echo "== compute-sanitizer --tool $tool: seeds_check --quick"
    "$SANITIZER" --tool $tool --error-exitcode 1 "$WORK/seeds_check" --quick
  done
else
  echo "== compute-sanitizer not found: sanitizer runs skipped"
fi
