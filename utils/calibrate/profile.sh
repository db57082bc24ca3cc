#!/usr/bin/env bash
#===- utils/calibrate/profile.sh - What limits a sweep kernel -------------===#
#
#   bash test/gpu/sweep.sh --filter _rrr && \
#     bash utils/calibrate/profile.sh VARIANT...   # with a GPU, on one machine
#
# After sweep.sh has built /tmp/gemm-opt-sweep on the same machine,
# prints for each sweep variant (e.g. sw_f64_dmp4_rrr):
#   1. the SASS opcode mix of its packed kernel (cuobjdump), so that the
#      instructions besides products and tile moves show;
#   2. ncu's issue and stall picture of one timed 4096^3 launch: the
#      tensor/FMA pipe's busy share, warps per scheduler and the stall
#      reasons per issued instruction.
# Logs go to /tmp/gemm-opt-sweep/logs; logs and tables also go to
# $GEMM_OPT_LOG_DIR when set (there instead).
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/gpu/lib.sh

WORK=/tmp/gemm-opt-sweep
LOGS=${LOG_DIR:-$WORK/logs}
CUDA_BIN=$(dirname "$NVCC")
NCU=$(command -v ncu || echo "$CUDA_BIN/ncu")
CUOBJDUMP=$(command -v cuobjdump || echo "$CUDA_BIN/cuobjdump")
if [[ ! -x $WORK/sweep ]]; then
  echo "profile.sh: $WORK/sweep is missing: run test/gpu/sweep.sh first" >&2
  exit 2
fi
mkdir -p "$LOGS"

# The sweep's correctness cases launch each variant about 85 times before
# its 28 timed launches; skip past them to a 4096^3 one.
SKIP=95
METRICS='sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active'
METRICS+=',sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active'
METRICS+=',sm__inst_executed.sum,smsp__warps_active.avg.per_cycle_active'
METRICS+=',smsp__issue_active.avg.pct_of_peak_sustained_active'
METRICS+=',regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$'

for variant in "$@"; do
  echo "== $variant: SASS opcode mix of kernel<true> (instructions in the binary)"
  for object in "$WORK"/part*.o; do
    "$CUOBJDUMP" -sass "$object" 2>/dev/null |
      awk -v v="${variant}_k0ELb1" '
        /Function :/ { on = index($0, v) > 0 }
        on && /\/\*[0-9a-f]+\*\// {
          sub(/.*\*\/ +/, ""); sub(/^@!?U?P[0-9T] +/, "")
          split($0, w, /[ .;]/); n[w[1]]++; total++
        }
        END { for (o in n) printf "%6d %s\n", n[o], o; if (total) printf "%6d total\n", total }' |
      sort -rn | head -n 24
  done | tee "$LOGS/sass-$variant.txt"
  echo "== $variant: ncu (launch $SKIP)"
  "$NCU" --kernel-name-base demangled -k "regex:${variant}_k0" \
    --launch-skip "$SKIP" --launch-count 1 --metrics "$METRICS" \
    "$WORK/sweep" --filter "$variant" >"$LOGS/ncu-$variant.txt" 2>&1 || true
  grep -E "^\s+(sm|smsp)__" "$LOGS/ncu-$variant.txt" |
    awk '$NF + 0 >= 0.05 || $1 !~ /stalled/' | sed 's/  */ /g'
done
