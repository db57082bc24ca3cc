#!/usr/bin/env bash
#===- utils/calibrate/sass-profile.sh - Where a kernel's warps stall -------===#
#
#   bash utils/calibrate/correlate.sh && \
#     bash utils/calibrate/sass-profile.sh NAME...   # with a GPU, on one machine
#
# After correlate.sh has built its harness (CORRELATE_GEN as there), profiles
# one timed 4096^3 launch of each NAME with ncu: a correlate variant
# (cr_f64_01) or cuBLAS's kernel of a type (cublas-f64, cublas-f32). Writes
# to the harness's logs (/tmp/gemm-opt-<set>/logs); logs and tables also go
# to $GEMM_OPT_LOG_DIR when set (there instead):
#   ncu-NAME.txt  the launch's pipe, issue and stall sections;
#   sass-NAME.csv its SASS, one row per instruction with the warp-stall
#                 samples by reason (ncu's source page), for
#                 utils/calibrate/sass-stalls.py to read (no GPU needed).
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/gpu/lib.sh

GEN=${CORRELATE_GEN:-.gpu/correlate}
WORK=/tmp/gemm-opt-$(basename "$GEN")
LOGS=${LOG_DIR:-$WORK/logs}
NCU=$(command -v ncu || echo "$(dirname "$NVCC")/ncu")
if [[ ! -x $WORK/correlate ]]; then
  echo "sass-profile.sh: $WORK/correlate is missing: run" \
    "utils/calibrate/correlate.sh first" >&2
  exit 2
fi
mkdir -p "$LOGS"

for name in "$@"; do
  case $name in
  cublas-f64) filter=(--kernel-name-base function -k "regex:xmma.*f64|dgemm") ;;
  cublas-f32) filter=(--kernel-name-base function -k "regex:xmma.*f32|sgemm") ;;
  *) filter=(--kernel-name-base demangled -k "regex:${name}_k0") ;;
  esac
  echo "== $name"
  report=$WORK/prof-$name
  # Skip the check run and a warm-up: the third launch is a timed one.
  "$NCU" "${filter[@]}" --launch-skip 2 --launch-count 1 \
    --section SourceCounters --section WarpStateStats \
    --section ComputeWorkloadAnalysis --section LaunchStats \
    -f -o "$report" "$WORK/correlate" >"$LOGS/ncu-run-$name.txt" 2>&1 || {
    tail -n 20 "$LOGS/ncu-run-$name.txt"
    continue
  }
  "$NCU" -i "$report.ncu-rep" --page details >"$LOGS/ncu-$name.txt" 2>&1 || true
  "$NCU" -i "$report.ncu-rep" --page source --csv --print-source sass \
    >"$LOGS/sass-$name.csv" 2>&1 ||
    "$NCU" -i "$report.ncu-rep" --page source --csv \
      >"$LOGS/sass-$name.csv" 2>&1 || true
  grep -E "Function Name|Registers Per|Issued Ipc|Warp Cycles Per Issued|Block Size" \
    "$LOGS/ncu-$name.txt" | sed 's/  */ /g' | head -n 8
  echo "$(wc -l <"$LOGS/sass-$name.csv") source rows"
done
