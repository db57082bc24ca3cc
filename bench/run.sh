#!/usr/bin/env bash
#===- bench/run.sh - The GPU half of the benchmark ------------------------===#
#
#   scripts/build.sh && bench/gen.sh   # with the gemm-opt build (LLVM)
#   bash bench/run.sh                  # with a GPU (reads .gpu/bench)
#
# On a machine with a GPU, nvcc, cmake and cuBLAS (LLVM is not needed), from
# any directory:
#   1. builds libgemm_runtime standalone (test/gpu/lib.sh);
#   2. compiles the rewritten inputs .gpu/bench/*.cu, one translation unit
#      each, and bench/bench.cu, in parallel, and links them;
#   3. runs the benchmark: its markdown, headed by the date, gemm-opt's
#      version and nvcc's, goes to stdout and to bench.md in the build
#      directory (/tmp/gemm-opt-bench). Logs and tables also go to
#      $GEMM_OPT_LOG_DIR when set (bench.md there instead).
# Arguments go to bench (a seed; --choices [seed] times every variant and K
# split of the plans instead, GEMM_OPT_CHOICE). Exits non-zero if anything
# failed. BENCH_RUN=0 only builds; a later call reuses the build.
# BENCH_GEN=DIR times another set of rewritten inputs (say, a baseline
# written by an older gemm-opt) in the same way; its table goes to
# $(basename DIR).md. BENCH_BASE=DIR links such a set beside this one, its
# functions renamed base_*, so that `bash bench/run.sh --ab` times both in
# turn with cuBLAS in one loop (the base must call the same runtime API).
# BENCH_BASE_INC=DIR compiles the base set against DIR, a copy of
# runtime/include (say, the kernel templates before a change): with BENCH_BASE
# a copy of .gpu/bench, `--ab` compares two versions of the templates.
# BENCH_WORK=DIR builds there instead of /tmp/gemm-opt-<set>[-ab]; the
# binary is DIR/bench.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/.."
source test/gpu/lib.sh

GEN=${BENCH_GEN:-.gpu/bench}
WORK=${BENCH_WORK:-/tmp/gemm-opt-$(basename "$GEN")${BENCH_BASE:+-ab}}
if [[ ! -f $GEN/VERSION ]]; then
  echo "run.sh: $GEN is missing: run 'bench/gen.sh' with the gemm-opt" \
    "build first" >&2
  exit 2
fi
mkdir -p "$WORK"

printDevice
buildRuntime

# A bench already built from these sources and kernel templates is reused,
# so that one session on the GPU host can build the kernels of two gemm-opt
# versions (BENCH_RUN=0) and the next command time them back to back.
sources=("$GEN"/*.cu bench/bench.cu "${SEEDS[@]}")
# The base set's definitions renamed, as gemms.h declares them.
base=() rename=() define=() baseInc=()
if [[ -n ${BENCH_BASE:-} ]]; then
  base=("$BENCH_BASE"/*.cu)
  for name in $(sed -n 's/^void \([a-z_]*\)(.*/\1/p' bench/inputs/*.cpp); do
    rename+=("-D$name=base_$name")
  done
  define=(-DBENCH_BASE)
  [[ -n ${BENCH_BASE_INC:-} ]] && baseInc=(-I "$BENCH_BASE_INC")
fi
stale=0
for src in "${sources[@]}" "${base[@]}" "$LIB" runtime/include/gemm_kernels/* \
  ${BENCH_BASE_INC:+"$BENCH_BASE_INC"/gemm_kernels/*}; do
  [[ $WORK/bench -nt $src ]] || stale=1
done
if ((stale)); then
  echo "== compiling"
  pids=() objects=()
  for src in "${sources[@]}"; do
    object=$WORK/$(basename "$src" .cu).o
    "$NVCC" "${NVCC_FLAGS[@]}" "${define[@]}" -Xcompiler -Wall,-Wextra \
      -c "$src" -o "$object" >"$object.log" 2>&1 &
    pids+=($!) objects+=("$object")
  done
  for src in "${base[@]}"; do
    object=$WORK/base-$(basename "$src" .cu).o
    "$NVCC" "${baseInc[@]}" "${NVCC_FLAGS[@]}" "${rename[@]}" \
      -Xcompiler -Wall,-Wextra \
      -c "$src" -o "$object" >"$object.log" 2>&1 &
    pids+=($!) objects+=("$object")
  done
  sources+=("${base[@]}")
  for i in "${!pids[@]}"; do
    if ! wait "${pids[$i]}"; then
      echo "FAIL: compiling ${sources[$i]}:"
      head -n 40 "${objects[$i]}.log"
      exit 1
    fi
    if [[ -s ${objects[$i]}.log ]]; then
      echo "WARNING: compiling ${sources[$i]}:"
      head -n 40 "${objects[$i]}.log"
    fi
  done
  "$NVCC" "-arch=sm_$ARCH" "${objects[@]}" "$LIB" -lcublas -o "$WORK/bench"
fi
if [[ ${BENCH_RUN:-1} == 0 ]]; then
  exit 0
fi

echo "== bench"
{
  echo "# gemm-opt vs cuBLAS, $(date -u +%Y-%m-%d)"
  echo
  echo "gemm-opt $(cat "$GEN/VERSION"); nvcc $("$NVCC" --version | grep -o "V[0-9][0-9.]*")."
  echo
  # The schedules that gemm-opt chose, as its kernels' comments say.
  for cu in "$GEN"/*.cu; do
    { grep -hE '^(///|// Kernel:) [0-9]+x[0-9]+x[0-9]+ block tile' "$cu" || true; } |
      sort -u | sed -E -e "s#^(///|// Kernel:)#- $(basename "$cu"):#" -e "s|,$||"
  done
  echo
  "$WORK/bench" "$@"
} | tee "${LOG_DIR:-$WORK}/$(basename "$GEN").md"
