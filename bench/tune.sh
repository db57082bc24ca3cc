#!/usr/bin/env bash
#===- bench/tune.sh - Tune the benchmark's kernels on the GPU --------------===#
#
#   here:  scripts/build.sh && bench/gen.sh
#   there: bash bench/tune.sh                (carry .gpu)
#   here:  BENCH_TUNING_DB=<its tuning.csv> bench/gen.sh
#   there: bash bench/run.sh                 (the bench with measured kernels)
#
# On the GPU machine: builds libgemm_runtime standalone (test/gpu/lib.sh),
# compiles the tuning programs .gpu/tune/*.cu that bench/gen.sh wrote (nvcc
# splits each across the cores), and runs them one after the other. Their
# tables go to stdout, their rows to tuning.csv in $OUT (the device tool) or
# /tmp/gemm-opt-tune (docs/tuning.md). Arguments go to each program
# (--runs=N). Exits non-zero if anything failed.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/.."
source test/gpu/lib.sh

GEN=.gpu/tune
WORK=/tmp/gemm-opt-tune
if [[ ! -f $GEN/VERSION ]]; then
  echo "tune.sh: $GEN is missing: run 'bench/gen.sh' on the dev machine and" \
    "carry .gpu" >&2
  exit 2
fi
mkdir -p "$WORK"
db=${OUT:-$WORK}/tuning.csv

printDevice
buildRuntime

echo "== compiling"
start=$SECONDS
pids=() programs=()
for src in "$GEN"/*.cu; do
  program=$WORK/$(basename "$src" .cu)
  "$NVCC" "${NVCC_FLAGS[@]}" -split-compile=0 "$src" "$LIB" -o "$program" \
    >"$program.log" 2>&1 &
  pids+=($!) programs+=("$program")
done
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then
    echo "FAIL: compiling ${programs[$i]}:"
    head -n 40 "${programs[$i]}.log"
    exit 1
  fi
done
echo "compiled in $((SECONDS - start)) s"

echo "== tuning ($(cat "$GEN/VERSION")) into $db"
start=$SECONDS
status=0
for program in "${programs[@]}"; do
  "$program" --db="$db" "$@" || status=1
done
echo "tuned in $((SECONDS - start)) s: $(($(wc -l <"$db") - 1)) rows"
exit $status
