#!/usr/bin/env bash
# The test command: set up a fresh machine, build from scratch if needed, and
# run the whole lit suite (dialect, front end, driver, code generation, e2e).
#   scripts/test.sh           the lit suite (no GPU needed)
#   scripts/test.sh --gpu     then, on a machine with a GPU, the GPU checks:
#                             test/gpu/prepare.sh, then test/gpu/run.sh
#   scripts/test.sh --bench   then the benchmark against cuBLAS: bench/gen.sh,
#                             then bench/run.sh (BENCH_TARGET and
#                             BENCH_TUNING_DB as bench/gen.sh reads them)
# --gpu and --bench may be given together. Logs and tables also go to
# $GEMM_OPT_LOG_DIR when set.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gpu=0 bench=0
for arg in "$@"; do
  case $arg in
  --gpu) gpu=1 ;;
  --bench) bench=1 ;;
  *)
    echo "usage: scripts/test.sh [--gpu] [--bench]" >&2
    exit 2
    ;;
  esac
done
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
cmake --build "${BUILD_DIR:-$root/build}" --target check-gemm-opt
if ((gpu)); then
  "$root/test/gpu/prepare.sh"
  bash "$root/test/gpu/run.sh"
fi
if ((bench)); then
  "$root/bench/gen.sh"
  bash "$root/bench/run.sh"
fi
