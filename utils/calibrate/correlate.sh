#!/usr/bin/env bash
#===- utils/calibrate/correlate.sh - The cost model against the device -----===#
#
#   here:  python3 utils/calibrate/correlate/gen.py  (with build/bin/gemm-opt)
#   there: bash utils/calibrate/correlate.sh         (carry .gpu)
#
# Builds libgemm_runtime standalone, compiles .gpu/correlate/part*.cu (the
# generated launchers, in parallel, -Xptxas -v into $OUT/ptxas.log) and
# utils/calibrate/correlate/correlate.cu, and runs it: predicted against
# measured GFLOP/s per schedule (4096^3 unless gen.py --shape), Spearman's
# rho per element type and the model's rank-1 schedule's error
# (utils/calibrate/README.md).
# CORRELATE_GEN=DIR runs another generated set (gen.py --out DIR), so that
# one device call can time, say, an NN and an NT set.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/gpu/lib.sh

GEN=${CORRELATE_GEN:-.gpu/correlate}
WORK=/tmp/gemm-opt-$(basename "$GEN")
LOGS=${OUT:-$WORK/logs}/$(basename "$GEN")
if [[ ! -f $GEN/variants.inc ]]; then
  echo "correlate.sh: run 'python3 utils/calibrate/correlate/gen.py' here" \
    "first and carry .gpu" >&2
  exit 2
fi
mkdir -p "$WORK" "$LOGS"
printDevice
buildRuntime

mapfile -t parts <"$GEN/parts.txt"
echo "== compiling ${#parts[@]} parts and the harness"
flags=("${NVCC_FLAGS[@]}" -I utils/calibrate/correlate -I "$GEN")
pids=() objects=()
for part in "${parts[@]}"; do
  "$NVCC" "${flags[@]}" -Xptxas -v -c "$GEN/$part.cu" -o "$WORK/$part.o" \
    >"$WORK/$part.log" 2>&1 &
  pids+=($!) objects+=("$WORK/$part.o")
done
"$NVCC" "${flags[@]}" -c utils/calibrate/correlate/correlate.cu \
  -o "$WORK/correlate.o" >"$WORK/harness.log" 2>&1 &
pids+=($!)
status=0
for pid in "${pids[@]}"; do
  wait "$pid" || status=1
done
cat "$WORK"/part*.log >"$LOGS/ptxas.log"
if [[ $status != 0 ]]; then
  grep -v "^ptxas info" "$WORK"/*.log | head -n 40
  exit 1
fi
"$NVCC" -arch=sm_$ARCH "${objects[@]}" "$WORK/correlate.o" "$LIB" -lcublas \
  -o "$WORK/correlate"
echo "== registers (ptxas) per kernel"
awk '/Compiling entry function/ { split($0, q, "'\''"); fn = q[2] }
  /Used [0-9]+ registers/ { print fn, $5, "registers" }' "$LOGS/ptxas.log" |
  sed 's/^_Z[0-9]*//' | sort
"$WORK/correlate"
