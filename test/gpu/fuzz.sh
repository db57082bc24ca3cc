#!/usr/bin/env bash
#===- test/gpu/fuzz.sh - The differential fuzzer's programs on the GPU -----===#
#
# Runs on a machine with a GPU, nvcc, cmake and python3 (neither LLVM nor
# gemm-opt is needed), from any directory. The programs come from the
# gemm-opt build:
#   python3 test/fuzz/fuzz.py --seeds 1000:1016 --mode gpu-prepare  # needs LLVM
#   bash test/gpu/fuzz.sh [DIR | PACK.tar.xz]                        # needs a GPU
# DIR (default .gpu/fuzz) holds, per seed, prog.cu (gemm-opt's output, real
# kernels), expected.txt.gz (the original program's output) and nests. This
#   1. builds libgemm_runtime standalone (test/gpu/lib.sh);
#   2. builds every prog.cu with nvcc, 16 at a time;
#   3. runs each twice, with no switch set (as users run it) and under
#      always-gpu, and compares each output with the original's
#      (test/fuzz/compare_fuzz.py): written cells norm-wise, every other cell
#      bit for bit; every other program's always-gpu run has
#      GEMM_OPT_TRACE=1, which says where each nest ran (and makes run()
#      wait for its kernel);
#   4. runs compute-sanitizer memcheck on a sample of the programs
#      (FUZZ_MEMCHECK of them, default 10).
# Prints `N passed, M failed` last (nests, counted once per run; a program
# that does not build fails all its nests, a memcheck error counts as one
# more failure) and exits non-zero if anything failed.
#
#===----------------------------------------------------------------------===#
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=test/gpu/lib.sh
source test/gpu/lib.sh

DIR=${1:-.gpu/fuzz}
WORK=/tmp/gemm-opt-fuzz
SAMPLE=${FUZZ_MEMCHECK:-10}
SANITIZER=$(dirname "$NVCC")/compute-sanitizer

# Programs may travel packed (a .tar.xz of the seed folders: prog.cu files
# compress about 60-fold) and without expected.txt.gz (the original's output,
# large): then they are unpacked here and the originals built and run here.
if [[ $DIR == *.tar.xz ]]; then
  rm -rf "$WORK.src" && mkdir -p "$WORK.src" &&
    tar -xJf "$DIR" -C "$WORK.src" || exit 1
  DIR=$WORK.src
fi
if [[ ! -d $DIR ]]; then
  echo "fuzz.sh: no $DIR; run test/fuzz/fuzz.py --mode gpu-prepare first" >&2
  exit 2
fi
mapfile -t seeds < <(find "$DIR" -mindepth 1 -maxdepth 1 -type d \
  -printf '%f\n' | sort -n)

printDevice
buildRuntime || exit 1

for s in "${seeds[@]}"; do
  [[ -f $DIR/$s/expected.txt.gz ]] ||
    echo "cd $DIR/$s && g++ -O1 -std=c++17 -w prog.cpp -o orig &&" \
      "./orig | gzip >expected.txt.gz"
done | xargs -P 16 -I{} bash -c '{}'

echo "== build ${#seeds[@]} programs"
rm -rf "$WORK"
mkdir -p "$WORK"
for s in "${seeds[@]}"; do
  mkdir -p "$WORK/$s"
  # One line per program for xargs: the compiler's command.
  echo "$NVCC ${NVCC_FLAGS[*]} -w $DIR/$s/prog.cu $LIB -o $WORK/$s/prog" \
    ">$WORK/$s/build.log 2>&1"
done | xargs -P 16 -I{} bash -c '{}'

echo "== run"
passed=0
failed=0
ongpu=0
for s in "${seeds[@]}"; do
  read -r nests _ <"$DIR/$s/nests"
  dir=$WORK/$s
  if [[ ! -x $dir/prog ]]; then
    echo "seed $s: does not build:"
    tail -n 20 "$dir/build.log"
    failed=$((failed + nests))
    continue
  fi
  # As users run it (no switch), then on the GPU whatever the size, traced
  # in odd seeds.
  forced=("${FORCED_GPU[@]}")
  ((s % 2)) && forced+=(GEMM_OPT_TRACE=1)
  for mode in plain forced; do
    settings=()
    [[ $mode == forced ]] && settings=("${forced[@]}")
    env "${settings[@]}" timeout 600 "$dir/prog" >"$dir/actual.txt" \
      2>"$dir/stderr.txt"
    rc=$?
    if ((rc != 0)); then
      echo "seed $s ($mode): exit status $rc"
      tail -n 5 "$dir/stderr.txt"
    fi
    ongpu=$((ongpu + $(grep -c "ran on the GPU" "$dir/stderr.txt")))
    python3 test/fuzz/compare_fuzz.py "$DIR/$s/expected.txt.gz" \
      "$dir/actual.txt" >"$dir/compare.txt"
    grep -v '^compare:' "$dir/compare.txt" | sed "s/^/seed $s ($mode): /"
    summary='^compare: ([0-9]+) passed, ([0-9]+) failed$'
    if [[ $(tail -n 1 "$dir/compare.txt") =~ $summary ]]; then
      passed=$((passed + BASH_REMATCH[1]))
      failed=$((failed + BASH_REMATCH[2]))
    else
      echo "seed $s ($mode): compare_fuzz.py failed"
      failed=$((failed + nests))
    fi
  done
done
echo "$ongpu nests ran on the GPU in the traced (odd-seeded) programs"

echo "== compute-sanitizer memcheck (${SAMPLE} programs)"
count=$((SAMPLE < ${#seeds[@]} ? SAMPLE : ${#seeds[@]}))
for ((k = 0; k < count; k++)); do
  s=${seeds[k * ${#seeds[@]} / count]}
  dir=$WORK/$s
  [[ -x $dir/prog ]] || continue
  if "$SANITIZER" --tool memcheck --error-exitcode 99 "$dir/prog" \
    >"$dir/memcheck.out" 2>"$dir/memcheck.txt"; then
    echo "seed $s: memcheck clean"
  else
    echo "seed $s: memcheck FAILED:"
    grep -m 10 -E "=========" "$dir/memcheck.txt"
    failed=$((failed + 1))
  fi
done

echo "$passed passed, $failed failed"
((failed == 0))
