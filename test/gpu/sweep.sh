#!/usr/bin/env bash
#===- test/gpu/sweep.sh - Sweeps gemm-opt's generated kernels on a GPU ------===#
#
#   python3 test/gpu/sweep/gen.py   # with the gemm-opt build (LLVM)
#   bash test/gpu/sweep.sh          # with a GPU (reads .gpu/sweep)
#
# gen.py writes every variant (f32/f64 x #gemm.schedule x operand layout)
# through `gemm-opt --emit=cuda` into .gpu/sweep/. On a machine with a GPU,
# nvcc, cmake and cuBLAS (LLVM is not needed) this script, from any
# directory:
#   1. builds libgemm_runtime standalone (Release, sm_90) in /tmp/build-rt;
#   2. compiles .gpu/sweep/part*.cu (the generated launchers, in parallel, with
#      -Xptxas -v) and test/gpu/sweep/sweep.cu, links them with the runtime
#      and cuBLAS; reports compiler warnings and every kernel that spills;
#   3. runs the sweep: every variant against cuBLAS, then timings at 4096^3
#      (the four layouts of A and B, each in turn with cuBLAS);
#      then `sweep --tall` (M past the grid's row-tile limit) for the default
#      f32 and f64 variants, each in a process of its own;
#   4. runs `sweep --quick` under compute-sanitizer's memcheck (every variant)
#      and racecheck and synccheck (the NN variant of each schedule), unless
#      SWEEP_SANITIZE=0 or compute-sanitizer is missing;
#   5. prints the sweep's table again and a one-line summary, last.
# Arguments go to sweep (a seed, --filter SUBSTRING). Exits non-zero on any
# failure. Logs and tables also go to $GEMM_OPT_LOG_DIR when set (else to
# /tmp/gemm-opt-sweep/logs).
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/gpu/lib.sh

WORK=/tmp/gemm-opt-sweep
GEN=.gpu/sweep
LOGS=${LOG_DIR:-$WORK/logs}

if [[ ! -f $GEN/variants.inc ]]; then
  echo "sweep.sh: $GEN/variants.inc is missing: run" \
    "'python3 test/gpu/sweep/gen.py' with the gemm-opt build first" >&2
  exit 2
fi
mkdir -p "$WORK" "$LOGS"
status=0

printDevice
buildRuntime

mapfile -t parts <"$GEN/parts.txt"
echo "== compiling ${#parts[@]} parts of generated kernels and the harness"
flags=("${NVCC_FLAGS[@]}" -I test/gpu/sweep -I "$GEN")
pids=() names=() objects=() logs=()
for part in "${parts[@]}"; do
  # The generated launchers leave some size parameters unused, so the
  # generated units get -Wall only; the harness gets -Wextra too.
  "$NVCC" "${flags[@]}" -Xcompiler -Wall -Xptxas -v -c "$GEN/$part.cu" \
    -o "$WORK/$part.o" >"$WORK/$part.log" 2>&1 &
  pids+=($!) names+=("$part")
  objects+=("$WORK/$part.o") logs+=("$WORK/$part.log")
done
"$NVCC" "${flags[@]}" -Xcompiler -Wall,-Wextra -c test/gpu/sweep/sweep.cu \
  -o "$WORK/sweep.o" >"$WORK/harness.log" 2>&1 &
pids+=($!) names+=(harness)
compiled=1
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then
    echo "FAIL: compiling ${names[$i]}:"
    grep -v "^ptxas info" "$WORK/${names[$i]}.log" | grep -v "bytes stack frame" |
      head -n 40
    compiled=0
  fi
done
# Everything the compilers said but ptxas's resource report.
warnings=$(cat "${logs[@]}" "$WORK/harness.log" |
  grep -v -e "^ptxas info" -e "bytes stack frame" || true)
if [[ -n $warnings ]]; then
  echo "WARNING: the compilers printed:"
  echo "$warnings" | head -n 40
fi
cat "${logs[@]}" >"$LOGS/ptxas.log"
if [[ $compiled == 0 ]]; then
  echo "sweep.sh: compilation failed"
  exit 1
fi
"$NVCC" -arch=sm_$ARCH "${objects[@]}" "$WORK/sweep.o" "$LIB" -lcublas \
  -o "$WORK/sweep"

echo "== register spills (-Xptxas -v) of the generated kernels"
demangle="cat"
if command -v c++filt >/dev/null; then
  demangle=c++filt
fi
spills=$(awk '
  /Compiling entry function/ { split($0, q, "'\''"); fn = q[2] }
  /Used [0-9]+ registers/ { regs[fn] = $5 }
  /bytes spill stores/ { stores[fn] = $5; loads[fn] = $9 }
  END {
    for (f in stores)
      if (stores[f] != 0 || loads[f] != 0)
        printf "%s: %s registers, %s bytes spill stores, %s bytes spill loads\n",
               f, regs[f], stores[f], loads[f]
  }' "$LOGS/ptxas.log" | $demangle | sort)
kernels=$(grep -c "Compiling entry function" "$LOGS/ptxas.log" || true)
if [[ -n $spills ]]; then
  echo "$spills"
  echo "spills: $(echo "$spills" | wc -l) of $kernels kernels spill"
else
  echo "spills: none in $kernels kernels"
fi
spillSummary=$(if [[ -n $spills ]]; then
  echo "$(echo "$spills" | wc -l) of $kernels kernels spill (listed above)"
else echo "none in $kernels kernels"; fi)

echo "== sweep"
set +e
"$WORK/sweep" "$@" 2>&1 | tee "$LOGS/sweep.log"
sweepStatus=${PIPESTATUS[0]}
set -e
if [[ $sweepStatus != 0 ]]; then
  status=1
fi

# M one row tile past the grid's y limit, one process per variant: a failed
# launch aborts the program inside gemm_rt::run.
tallSummary="PASS"
for variant in sw_f32_d_rrr sw_f64_d_rrr; do
  echo "== sweep --tall --filter $variant"
  set +e
  "$WORK/sweep" --tall --filter "$variant" >"$LOGS/tall-$variant.log" 2>&1
  tallStatus=$?
  set -e
  if [[ $tallStatus != 0 ]]; then
    echo "FAIL: sweep --tall --filter $variant exited with $tallStatus:"
    grep -v -e "^sw_" -e "^variant" "$LOGS/tall-$variant.log" | tail -n 5
    tallSummary="FAIL"
    status=1
  else
    grep -e "^$variant " "$LOGS/tall-$variant.log" || true
  fi
done

# After the sweep, so that a slow sanitizer cannot cost its result.
SANITIZER=$(command -v compute-sanitizer ||
  echo "$(dirname "$NVCC")/compute-sanitizer")
sanitizerSummary="skipped"
if [[ ${SWEEP_SANITIZE:-1} != 0 && -x $SANITIZER ]]; then
  sanitizerSummary="PASS"
  for run in "memcheck" "racecheck _rrr" "synccheck _rrr"; do
    read -r tool filter <<<"$run"
    args=(--quick)
    if [[ -n ${filter:-} ]]; then
      args+=(--filter "$filter")
    fi
    echo "== compute-sanitizer --tool $tool: sweep ${args[*]}"
    if ! timeout "${SWEEP_SANITIZE_TIMEOUT:-150}" "$SANITIZER" --tool "$tool" \
      --error-exitcode 1 "$WORK/sweep" "${args[@]}" \
      >"$LOGS/sanitizer-$tool.log" 2>&1; then
      echo "FAIL: compute-sanitizer $tool (or its timeout):"
      grep -v -e "^sw_" "$LOGS/sanitizer-$tool.log" | head -n 40
      sanitizerSummary="FAIL ($tool)"
      status=1
    else
      grep -e "ERROR SUMMARY" -e "ALL PASS" "$LOGS/sanitizer-$tool.log" || true
    fi
  done
fi

# The sweep's table once more, last.
echo
awk '/^== correctness/ { on = 1 } on' "$LOGS/sweep.log"
echo
echo "== summary: sweep $([[ $sweepStatus == 0 ]] && echo PASS || echo "FAIL ($sweepStatus)");" \
  "tall M $tallSummary; compute-sanitizer $sanitizerSummary;" \
  "spills: $spillSummary"
exit $status
