#!/usr/bin/env bash
#===- bench/tune.sh - Tune the benchmark's kernels on the GPU --------------===#
#
#   scripts/build.sh && bench/gen.sh                # with the gemm-opt build
#   bash bench/tune.sh                              # with a GPU
#   BENCH_TUNING_DB=<its tuning.csv> bench/gen.sh   # with the gemm-opt build
#   bash bench/run.sh                               # with a GPU: the bench with
#                                                   # measured kernels
#
# On a machine with a GPU (LLVM is not needed): builds libgemm_runtime
# standalone (test/gpu/lib.sh),
# compiles the tuning programs .gpu/tune/*.cu that bench/gen.sh wrote (nvcc
# splits each across the cores), and runs them one after the other on each
# GPU, the machine's GPUs side by side. Their tables go to stdout, their
# rows to tuning.csv in the build directory (docs/tuning.md). Logs and
# tables also go to $GEMM_OPT_LOG_DIR when set (tuning.csv there instead).
# Arguments go to each program (--runs=N). Exits non-zero if anything
# failed.
# TUNE_WORK=DIR builds there instead of /tmp/gemm-opt-tune. TUNE_RUN=0 only
# builds, TUNE_BUILD=0 only runs what DIR holds: nvcc compiles sm_90
# programs without a GPU, so building them first
# (`TUNE_RUN=0 TUNE_WORK=.gpu/tune-bin bash bench/tune.sh`, on the build
# host) leaves the GPU only the timing
# (`TUNE_BUILD=0 TUNE_WORK=.gpu/tune-bin bash bench/tune.sh`, with
# .gpu/tune and .gpu/tune-bin in the checkout); it refuses programs built
# from other sources than .gpu/tune's. TUNE_GEN=DIR tunes DIR's programs
# instead of .gpu/tune's.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/.."
source test/gpu/lib.sh

GEN=${TUNE_GEN:-.gpu/tune}
WORK=${TUNE_WORK:-/tmp/gemm-opt-tune}
if [[ ! -f $GEN/VERSION ]]; then
  echo "tune.sh: $GEN is missing: run 'bench/gen.sh' with the gemm-opt" \
    "build first" >&2
  exit 2
fi
mkdir -p "$WORK"
db=${LOG_DIR:-$WORK}/tuning.csv

printDevice
sources=("$GEN"/*.cu) programs=()
for src in "${sources[@]}"; do
  programs+=("$WORK/$(basename "$src" .cu)")
done

if [[ ${TUNE_BUILD:-1} != 0 ]]; then
  buildRuntime
  echo "== compiling"
  start=$SECONDS
  pids=()
  for i in "${!programs[@]}"; do
    "$NVCC" "${NVCC_FLAGS[@]}" -split-compile=0 "${sources[$i]}" "$LIB" \
      -o "${programs[$i]}" >"${programs[$i]}.log" 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    if ! wait "${pids[$i]}"; then
      echo "FAIL: compiling ${programs[$i]}:"
      head -n 40 "${programs[$i]}.log"
      exit 1
    fi
  done
  echo "compiled in $((SECONDS - start)) s"
  md5sum "${sources[@]}" >"$WORK/sources.md5"
elif ! md5sum --quiet -c "$WORK/sources.md5"; then
  echo "tune.sh: $WORK holds programs of other sources than $GEN:" \
    "build them again (TUNE_RUN=0)" >&2
  exit 2
fi
if [[ ${TUNE_RUN:-1} == 0 ]]; then
  exit 0
fi

echo "== tuning ($(cat "$GEN/VERSION")) into $db"
start=$SECONDS
# One queue of programs per GPU, each timing on its own card into a part of
# the database, so that a machine of several GPUs tunes in a fraction of the
# time and no two programs share a card.
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
gpus=$((gpus < 1 ? 1 : gpus))
pids=()
for ((g = 0; g < gpus && g < ${#programs[@]}; ++g)); do
  (
    failed=0
    for ((i = g; i < ${#programs[@]}; i += gpus)); do
      CUDA_VISIBLE_DEVICES=$g "${programs[$i]}" --db="$WORK/part$i.csv" "$@" \
        >"$WORK/part$i.log" 2>&1 || failed=1
    done
    exit $failed
  ) &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do
  wait "$pid" || status=1
done
for i in "${!programs[@]}"; do
  cat "$WORK/part$i.log"
  # Every part starts with the header, which the database holds once.
  skip=1
  [[ -s $db ]] && skip=2
  [[ -f $WORK/part$i.csv ]] && tail -n +$skip "$WORK/part$i.csv" >>"$db"
  rm -f "$WORK/part$i.csv" "$WORK/part$i.log"
done
echo "tuned in $((SECONDS - start)) s on $gpus GPU(s): $(($(wc -l <"$db") - 1)) rows"
exit $status
