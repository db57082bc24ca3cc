#!/usr/bin/env bash
#===- test/gpu/regress.sh - GPU regressions, every variant and split -------===#
#
# Runs on a machine with a GPU (LLVM is not needed): builds each
# self-checking program of .gpu/regress (test/gpu/regress/*.cpp rewritten by
# test/gpu/prepare.sh) and
# runs it once with no switch set (as users run it), then on the GPU
# whatever the size (always-gpu): once with the runtime's own choice and
# once forced onto each variant of its plans, unsplit and split two ways
# (GEMM_OPT_CHOICE), so that a fault in any generated kernel shows whatever
# the extents favour, and once under a 4 MiB staging budget (B in blocks
# wherever it is host memory); then twice under GEMM_OPT_TUNE=1 with a
# database of its own, the first run timing each plan's choices at run time
# and the second reading them back. Each run must exit 0, and each forced
# one run a nest on the GPU. Prints one line per program.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/gpu/lib.sh

WORK=/tmp/gemm-opt-gpu/regress
status=0
echo "== regress"
[[ -f $LIB ]] || buildRuntime
mkdir -p "$WORK"
for cu in .gpu/regress/*.cu; do
  [[ -e $cu ]] || continue
  name=$(basename "$cu" .cu)
  exe=$WORK/$name
  if ! "$NVCC" "${NVCC_FLAGS[@]}" "$cu" "$LIB" -o "$exe" 2>"$exe.build"; then
    echo "$name: FAIL (nvcc failed)"
    tail -n 20 "$exe.build"
    status=1
    continue
  fi
  variants=$(grep -c '{gemm_kernels::launch<' "$cu" || true)
  choices=("")
  for ((v = 0; v < variants; ++v)); do
    choices+=("$v,1" "$v,2")
  done
  failed=()
  # First as users run it: no switch set.
  if ! timeout 300 "$exe" >"$exe.out" 2>"$exe.err"; then
    failed+=("no switch")
    echo "-- $name, no switch set:"
    tail -n 5 "$exe.out" "$exe.err"
  fi
  choices+=(small-budget)
  for choice in "${choices[@]}"; do
    settings=(GEMM_OPT_CHOICE="$choice")
    [[ $choice == small-budget ]] &&
      settings=(GEMM_OPT_DEVICE_MEMORY=$((4 << 20)))
    if ! env "${FORCED_GPU[@]}" "${settings[@]}" GEMM_OPT_TRACE=1 timeout 300 "$exe" \
        >"$exe.out" 2>"$exe.err" || ! grep -q 'ran on the GPU' "$exe.err"; then
      failed+=("${choice:-own}")
      echo "-- $name, choice ${choice:-own}:"
      tail -n 5 "$exe.out"
      grep -v 'ran on the GPU' "$exe.err" | tail -n 5 || true
    fi
  done
  blocked=$(grep -c 'in blocks of' "$exe.err" || true)
  db=$WORK/$name-tuning.csv
  rm -f "$db"
  rows=()
  for run in timing reading; do
    if ! env "${FORCED_GPU[@]}" GEMM_OPT_TUNE=1 GEMM_OPT_TUNING_DB="$db" \
        GEMM_OPT_TRACE=1 timeout 600 "$exe" >"$exe.out" 2>"$exe.err" ||
        ! grep -q 'ran on the GPU' "$exe.err"
    then
      failed+=("GEMM_OPT_TUNE ($run)")
      echo "-- $name, GEMM_OPT_TUNE=1 ($run):"
      tail -n 5 "$exe.out"
      grep -v 'ran on the GPU' "$exe.err" | tail -n 5 || true
    fi
    rows+=("$(($(wc -l <"$db" 2>/dev/null || echo 1) - 1))")
  done
  if ((${#failed[@]})); then
    echo "$name: FAIL under ${failed[*]}"
    status=1
  elif ((rows[0] < 1)); then
    echo "$name: FAIL: GEMM_OPT_TUNE=1 recorded no timings"
    status=1
  else
    echo "$name: PASS with no switch, under ${#choices[@]} choices and GEMM_OPT_TUNE" \
      "(${rows[0]} then ${rows[1]} rows; $blocked calls with B in blocks" \
      "under 4 MiB; $(tail -n 1 "$exe.out"))"
  fi
done

# Calls on host arrays run on the GPU that GEMM_OPT_GPUS or the MPI local
# rank names (docs/switches.md); with one GPU both name device 0. Under
# GEMM_OPT_GPUS=all (which gpus --split sets for its last calls) they share C's
# rows over every GPU (gpus --split).
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
exe=$WORK/gpus
if [[ -x $exe ]]; then
  want=$((gpus > 1 ? 1 : 0))
  # Split calls every way: in several slices of K, B copied once to every
  # GPU, and (under the smaller budget) staged by each GPU. The trace stays
  # in gpus-split.err.
  split_log=$WORK/gpus-split.err
  missing=()
  if env GEMM_OPT_TRACE=1 "$exe" --split >"$exe.out" 2>"$split_log"; then
    if ((gpus > 1)); then
      # Whole-input greps: `grep -q` ending a pipeline would stop its writer
      # early, which pipefail counts as a failure.
      calls=$(grep "of C on $gpus GPUs" "$split_log" || true)
      grep -q "in [2-9][0-9]* slice(s) of K" <<<"$calls" ||
        missing+=("in several slices of K")
      grep -q "B copied once" <<<"$calls" || missing+=("B copied once")
      grep -v "B copied once" <<<"$calls" | grep -v "slice(s) of K" >/dev/null ||
        missing+=("staged by each GPU")
    fi
  else
    missing+=("right results")
  fi
  if ((${#missing[@]} == 0)); then
    echo "gpus, C's rows over every GPU: PASS ($(tail -n 1 "$exe.out"))"
  else
    echo "gpus, C's rows over every GPU: FAIL (no call split over $gpus GPUs: $(IFS=,; echo "${missing[*]}"))"
    tail -n 3 "$exe.out"
    grep -o "m=[0-9]* n=[0-9]* k=[0-9]* .*" "$split_log" | sed 's/operands.*; rows/; rows/' | sort | uniq -c | head -n 20
    status=1
  fi
  for setting in GEMM_OPT_GPUS=1 OMPI_COMM_WORLD_LOCAL_RANK=1 SLURM_LOCALID=1; do
    if env "${FORCED_GPU[@]}" "$setting" GEMM_OPT_TRACE=1 "$exe" \
        >"$exe.out" 2>"$exe.err" &&
      hosted=$(grep "host-staged/host-staged/host-staged" "$exe.err") &&
      ! grep -qv "device $want)" <<<"$hosted"; then
      echo "gpus under $setting: PASS (host-array calls on device $want of $gpus)"
    else
      echo "gpus under $setting: FAIL (host-array calls not all on device $want)"
      grep "host-staged" "$exe.err" | head -n 3 || true
      status=1
    fi
  done
  # Under mpirun each rank's host-array calls run on its own GPU (rank r on
  # device r); --tag-output prefixes each line with [job,rank].
  host_on() {
    grep "^\[[0-9]*,$1\]<stderr>:.*host-staged/host-staged/host-staged" \
      "$exe.err" | grep -o 'device [0-9]*)' | sort -u
  }
  if command -v mpirun >/dev/null && ((gpus > 1)); then
    if env "${FORCED_GPU[@]}" GEMM_OPT_TRACE=1 mpirun --allow-run-as-root \
        --oversubscribe --tag-output -np 2 "$exe" >"$exe.out" 2>"$exe.err" &&
      [[ $(host_on 0) == "device 0)" && $(host_on 1) == "device 1)" ]] &&
      (($(grep -c ' \([0-9]*\) of \1 calls right' "$exe.out") == 2)); then
      echo "gpus under mpirun -np 2: PASS (rank 0's host-array calls on GPU 0, rank 1's on GPU 1, both right)"
    else
      echo "gpus under mpirun -np 2: FAIL"
      tail -n 5 "$exe.out" "$exe.err"
      status=1
    fi
  fi
fi
exit $status
