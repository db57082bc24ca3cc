#!/usr/bin/env bash
#===- test/gpu/run.sh - The GPU side of gemm-opt's checks ------------------===#
#
# Runs on a machine with a GPU, nvcc, cmake and python3 (LLVM is not
# needed), from any directory:
#   1. builds libgemm_runtime standalone (Release, sm_90) in /tmp/build-rt;
#   2. builds and runs runtime_check.cu (run() + launchReference against a
#      CPU fp64 reference), with no switch set and under always-gpu;
#   3. builds and runs seeds_check.cu (the seed kernels against cuBLAS, and
#      GEMM_OPT_VERIFY; seeds.sh runs it alone);
#   4. if .gpu/e2e exists (prepared with the gemm-opt build: <name>.cpp programs and
#      their gemm-opt outputs <name>.cu, or <name>.c programs with their
#      <name>.host.c and <name>.kernels.cu, optional arguments in <name>.args,
#      a language standard other than the compilers' default in <name>.std,
#      headers rewritten on their own in <name>.headers/;
#      test/gpu/prepare.sh makes it), builds each program both ways, runs
#      the rewrite once with no switch set and once under always-gpu,
#      compares each output with the original's (test/e2e/compare.py) and
#      requires at least one nest per program to have run on the GPU under
#      always-gpu;
#   5. test/gpu/regress.sh: the self-checking regression programs;
#   6. if .gpu/tune-check exists (test/gpu/prepare.sh), builds and runs its
#      tuning program and checks its rows with tune_check.py.
# Prints a table and exits non-zero if anything failed. GPU_STEPS (say
# "e2e" or "regress e2e") runs only the steps it names: runtime, seeds,
# regress, tune, e2e.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/gpu/lib.sh

WORK=/tmp/gemm-opt-gpu
status=0
steps=" ${GPU_STEPS:-runtime seeds regress tune e2e} "

printDevice
buildRuntime

mkdir -p "$WORK"
if [[ $steps == *" runtime "* ]]; then
  echo "== runtime_check"
  if "$NVCC" "${NVCC_FLAGS[@]}" test/gpu/runtime_check.cu "$LIB" \
      -o "$WORK/runtime_check"; then
    # Once as users run it (no switch: the rule may keep host calls in
    # their loops), then on the GPU whatever the size, traced.
    "$WORK/runtime_check" >"$WORK/runtime_check.plain" 2>&1 || {
      tail -n 30 "$WORK/runtime_check.plain"
      status=1
    }
    env "${FORCED_GPU[@]}" GEMM_OPT_TRACE=1 "$WORK/runtime_check" \
      2>"$WORK/runtime_check.trace" || status=1
    # The split-K cases must have split: K = 4096 16 ways, K = 1000 2 ways.
    for ways in 16 2; do
      if ! grep -q "K split $ways ways" "$WORK/runtime_check.trace"; then
        echo "runtime_check: no problem split K $ways ways"
        status=1
      fi
    done
  else
    echo "runtime_check.cu does not compile"
    status=1
  fi
fi

if [[ $steps == *" seeds "* ]]; then
  echo "== seeds_check"
  if "$NVCC" "${NVCC_FLAGS[@]}" test/gpu/seeds_check.cu "${SEEDS[@]}" "$LIB" -lcublas \
      -o "$WORK/seeds_check"; then
    "$WORK/seeds_check" || status=1
  else
    echo "seeds_check.cu does not compile"
    status=1
  fi
fi

if [[ $steps == *" regress "* ]]; then
  bash test/gpu/regress.sh || status=1
fi

if [[ $steps == *" tune "* && -f .gpu/tune-check/tune.cu ]]; then
  echo "== tune_check"
  rm -f "$WORK/tune-check.csv"
  if "$NVCC" "${NVCC_FLAGS[@]}" .gpu/tune-check/tune.cu "$LIB" \
      -o "$WORK/tune-check"; then
    { "$WORK/tune-check" --db="$WORK/tune-check.csv" --runs=5 \
        >"$WORK/tune-check.log" &&
      python3 test/gpu/tune_check.py "$WORK/tune-check.csv" \
        .gpu/tune-check/tune.cu; } || status=1
  else
    echo "the tuning program does not compile"
    status=1
  fi
fi

if [[ $steps != *" e2e "* ]]; then
  exit $status
fi
if [[ ! -d .gpu/e2e ]]; then
  echo "== e2e: no .gpu/e2e directory, nothing to run"
  exit $status
fi

echo "== e2e"
rows=()
programs=()
for src in .gpu/e2e/*.cpp .gpu/e2e/*.c; do
  [[ -e $src && $src != *.host.c ]] && programs+=("$src")
done

# Builds program $1 both ways into $WORK/e2e/<file name> (a .c and a .cpp
# program may share a stem, and they build at once): the original with the
# host compiler, the rewrite from its out.cu (C++), or for C from a host file
# built by gcc and its kernels by nvcc (gemm-opt --kernels). Writes why it
# failed, if it did, to build.failed.
build() {
  local src=$1 name dir cu compiler
  name=$(basename "${src%.*}")
  dir=$WORK/e2e/$(basename "$src")
  mkdir -p "$dir"
  rm -f "$dir/build.failed"
  local std=() nvcc_flags=("${NVCC_FLAGS[@]}")
  if [[ -f .gpu/e2e/$name.std ]]; then
    std=("$(cat ".gpu/e2e/$name.std")")
    nvcc_flags=("${NVCC_FLAGS[@]/#-std=*/${std[0]}}")
  fi
  compiler=(g++ -O2 "${std[@]}")
  [[ $src == *.c ]] && compiler=(gcc -O2 -std=c99)
  if ! "${compiler[@]}" -I test/e2e/Inputs -I .gpu/e2e "$src" \
      -o "$dir/original" -lm 2>"$dir/original.build"; then
    echo "${compiler[0]} failed:original.build" >"$dir/build.failed"
  elif [[ $src == *.c ]]; then
    { gcc -O2 -std=c99 -I test/e2e/Inputs -c ".gpu/e2e/$name.host.c" \
        -o "$dir/host.o" &&
      "$NVCC" "${NVCC_FLAGS[@]}" -c ".gpu/e2e/$name.kernels.cu" \
        -o "$dir/kernels.o" &&
      "$NVCC" "${NVCC_FLAGS[@]}" "$dir/host.o" "$dir/kernels.o" "$LIB" \
        -o "$dir/gpu"; } 2>"$dir/gpu.build" ||
      echo "nvcc failed:gpu.build" >"$dir/build.failed"
  else
    # Headers rewritten on their own (prepare.sh) come before the originals.
    local headers=() kernels=()
    [[ -d .gpu/e2e/$name.headers ]] && headers=(-I ".gpu/e2e/$name.headers")
    # Kernels that gemm-opt wrote apart (--kernel-dir) link in beside it.
    [[ -d .gpu/e2e/$name.kernels ]] && kernels=(.gpu/e2e/"$name".kernels/*.cu)
    "$NVCC" "${nvcc_flags[@]}" "${headers[@]}" -I test/e2e/Inputs -I .gpu/e2e \
      ".gpu/e2e/$name.cu" "${kernels[@]}" "$LIB" -o "$dir/gpu" \
      2>"$dir/gpu.build" ||
      echo "nvcc failed:gpu.build" >"$dir/build.failed"
  fi
}
# nvcc takes seconds per kernel: build every program at once.
for src in "${programs[@]}"; do
  build "$src" &
done
wait

for src in "${programs[@]}"; do
  name=$(basename "${src%.*}")
  dir=$WORK/e2e/$(basename "$src")
  # Optional program arguments, one word each, in <name>.args.
  args=()
  if [[ -f .gpu/e2e/$name.args ]]; then
    read -r -a args <".gpu/e2e/$name.args"
  fi
  nests=0
  ratio=-
  why=
  log=
  if [[ -f $dir/build.failed ]]; then
    why=$(cut -d: -f1 "$dir/build.failed")
    log=$dir/$(cut -d: -f2 "$dir/build.failed")
  elif ! timeout 600 "$dir/original" "${args[@]}" >"$dir/original.out" 2>"$dir/original.err"; then
    why="the original program failed"
    log=$dir/original.err
  elif ! timeout 600 "$dir/gpu" "${args[@]}" >"$dir/plain.out" 2>"$dir/plain.err"; then
    why="the GPU program failed with no switch set"
    log=$dir/plain.err
  elif ! python3 test/e2e/compare.py "$dir/original.out" "$dir/plain.out" \
      >"$dir/plain.compare" 2>&1; then
    why="outputs differ with no switch set"
    log=$dir/plain.compare
  elif ! env "${FORCED_GPU[@]}" GEMM_OPT_TRACE=1 timeout 600 "$dir/gpu" \
      "${args[@]}" >"$dir/gpu.out" 2>"$dir/gpu.err"; then
    why="the GPU program failed under always-gpu"
    log=$dir/gpu.err
  else
    # A nest that runs several times counts once.
    nests=$({ grep -o 'nest [^ ]* ran on the GPU' "$dir/gpu.err" || true; } |
      sort -u | wc -l)
    if ! python3 test/e2e/compare.py "$dir/original.out" "$dir/gpu.out" \
        >"$dir/compare.out" 2>&1; then
      why="outputs differ"
      log=$dir/compare.out
    elif ((nests == 0)); then
      why="no nest ran on the GPU"
      log=$dir/gpu.err
    fi
    ratio=$(awk -F'ratio=' 'NF > 1 { split($2, f, " "); r = f[1] + 0;
        if (!seen || r > max) max = r; seen = 1 }
      END { if (seen) printf "%.3e", max; else print "-" }' "$dir/compare.out")
  fi
  result=PASS
  if [[ -n $why ]]; then
    result="FAIL ($why)"
    status=1
    echo "-- $(basename "$src"): $result; last lines of $log:"
    tail -n 20 "$log"
  fi
  rows+=("$(printf '%-32s %9s %14s  %s' "$(basename "$src")" "$nests" "$ratio" "$result")")
done

printf '%-32s %9s %14s  %s\n' program "GPU nests" "max err/bound" result
for row in "${rows[@]}"; do
  echo "$row"
done
exit $status
