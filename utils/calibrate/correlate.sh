#!/usr/bin/env bash
#===- utils/calibrate/correlate.sh - The cost model against the device -----===#
#
#   python3 utils/calibrate/correlate/gen.py   # with the gemm-opt build (LLVM)
#   bash utils/calibrate/correlate.sh          # with a GPU (reads .gpu/correlate)
#
# Builds libgemm_runtime standalone, compiles .gpu/correlate/part*.cu (the
# generated launchers, in parallel, -Xptxas -v into ptxas.log) and
# utils/calibrate/correlate/correlate.cu, and runs it: predicted against
# measured GFLOP/s per schedule (4096^3 unless gen.py --shape), Spearman's
# rho per element type and the model's rank-1 schedule's error
# (utils/calibrate/README.md). Logs and tables also go to
# $GEMM_OPT_LOG_DIR when set: ptxas.log to its subdirectory named after the
# set (else to /tmp/gemm-opt-<set>/logs/<set>), the rows to correlate.csv.
# CORRELATE_GEN=DIR runs another generated set (gen.py --out DIR), so that
# one session can time, say, an NN and an NT set.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/gpu/lib.sh

GEN=${CORRELATE_GEN:-.gpu/correlate}
WORK=/tmp/gemm-opt-$(basename "$GEN")
LOGS=${LOG_DIR:-$WORK/logs}/$(basename "$GEN")
if [[ ! -f $GEN/variants.inc ]]; then
  echo "correlate.sh: run 'python3 utils/calibrate/correlate/gen.py' with" \
    "the gemm-opt build first" >&2
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
if [[ -n $LOG_DIR ]]; then
  CORRELATE_CSV=$LOG_DIR/correlate.csv "$WORK/correlate"
else
  "$WORK/correlate"
fi
