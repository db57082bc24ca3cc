#!/usr/bin/env bash
#===- test/gpu/variants.sh - Every kernel variant of a program, forced ------===#
#
#   test/gpu/variants.sh --prepare [--build]   # with the gemm-opt build (LLVM)
#   bash test/gpu/variants.sh                  # with a GPU (reads .gpu/variants)
#
# The run-time choice of kernel hides most variants of a dynamic nest: this
# runs test/Driver/Inputs/twenty-nests.cpp (20 nests, 1 to 5 variants each;
# configurations that share a kernel among them) on odd extents, once as
# written (GEMM_OPT_DISABLE=1), once with no switch set (as users run it)
# and once per variant index forced on every
# nest that has it (GEMM_OPT_CHOICE=v,1), on the GPU (always-gpu), each of
# those also as stream-K planned for 2 and for 3 slots (GEMM_OPT_STREAM;
# rewritten with --stream-k, so that every kernel has its stream-K form),
# so that tiles of C are summed from two pieces, and requires each
# routine's |C| to agree with the loop's to 1e-4 (a wrong element moves it
# far more; f32's rounding far less). --prepare rewrites it
# into .gpu/variants with the gemm-opt build, and with --build also compiles
# it (nvcc builds sm_90 programs without a GPU), so that a GPU host without
# LLVM, or a second run, runs .gpu/variants/program without compiling. Exits
# non-zero on any mismatch.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/../.."
GEN=.gpu/variants
source test/gpu/lib.sh
if [[ ${1:-} == --prepare ]]; then
  rm -rf "$GEN"
  mkdir -p "$GEN"
  "${BUILD_DIR:-build}/bin/gemm-opt" test/Driver/Inputs/twenty-nests.cpp \
    --stream-k -o "$GEN/twenty-nests.cu" 2>/dev/null
  if [[ ${2:-} == --build ]]; then
    buildRuntime
    "$NVCC" "${NVCC_FLAGS[@]}" "$GEN/twenty-nests.cu" "$LIB" -o "$GEN/program"
  fi
  exit 0
fi
printDevice
program=$GEN/program
if [[ ! -x $program ]]; then
  program=/tmp/gemm-opt-variants/program
  mkdir -p "$(dirname "$program")"
  buildRuntime
  "$NVCC" "${NVCC_FLAGS[@]}" "$GEN/twenty-nests.cu" "$LIB" -o "$program"
fi
WORK=$(mktemp -d)

args=(203 157 131 3 --no-statistics)
GEMM_OPT_DISABLE=1 "$program" "${args[@]}" >"$WORK/loop.out"
status=0
for run in {model,0\,1,1\,1,2\,1,3\,1,4\,1}/{0,2,3}; do
  choice=${run%/*} slots=${run#*/}
  if [[ $run == model/0 ]]; then
    # As users run it: no switch set.
    "$program" "${args[@]}" >"$WORK/gpu.out"
  elif [[ $choice == model ]]; then
    env "${FORCED_GPU[@]}" GEMM_OPT_STREAM="$slots" "$program" "${args[@]}" \
      >"$WORK/gpu.out"
  else
    env "${FORCED_GPU[@]}" GEMM_OPT_CHOICE="$choice" GEMM_OPT_STREAM="$slots" \
      "$program" "${args[@]}" >"$WORK/gpu.out"
  fi
  python3 - "$run" "$WORK/loop.out" "$WORK/gpu.out" <<'PY' || status=1
import re, sys
def norms(path):
    return [(line.split()[0], float(re.search(r"\|C\| = (\S+)", line)[1]))
            for line in open(path) if "|C| =" in line]
choice, loop, gpu = sys.argv[1], norms(sys.argv[2]), norms(sys.argv[3])
# choice: VARIANT,SPLITS/STREAM-K SLOTS (0: none).
bad = [name for (name, x), (_, y) in zip(loop, gpu)
       if not abs(x - y) <= 1e-4 * abs(x)]
if len(loop) != len(gpu) or not loop or bad:
    sys.exit(f"choice {choice}: MISMATCH {bad} ({len(loop)} routines, "
             f"{len(gpu)} on the GPU)")
print(f"choice {choice}: {len(loop)} routines PASS")
PY
done
exit $status
