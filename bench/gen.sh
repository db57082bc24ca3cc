#!/usr/bin/env bash
#===- bench/gen.sh - The dev-machine half of the benchmark -----------------===#
#
#   here:  scripts/build.sh && bench/gen.sh
#   there: bash bench/run.sh                 (carry .gpu)
#
# Rewrites every bench/inputs/*.cpp with the gemm-opt built here into
# .gpu/bench/<name>.cu, which the device call carries, and fails unless every
# function of every input was recognised (one [-Rpass=gemm] remark each, no
# [-Rpass-missed=gemm]). The remarks go to .gpu/bench/<name>.remarks, the
# checkout's `git describe` to .gpu/bench/VERSION.
# The kernels are chosen for the GPU that the device tool lends first, an
# H100 (its DRAM bandwidth sets the runtime's split and streaming terms);
# BENCH_TARGET=hopper-h200 (any --target name) writes them for another.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gemm_opt=${BUILD_DIR:-$root/build}/bin/gemm-opt
out=$root/.gpu/bench
target=${BENCH_TARGET:-hopper-h100}
rm -rf "$out"
mkdir -p "$out"
for src in "$root"/bench/inputs/*.cpp; do
  name=$(basename "$src" .cpp)
  "$gemm_opt" "$src" -o "$out/$name.cu" --target="$target" 2>"$out/$name.remarks"
  functions=$(grep -c '^void ' "$src")
  rewritten=$(grep -c '\[-Rpass=gemm\]' "$out/$name.remarks" || true)
  if ((rewritten != functions)) || grep -q 'Rpass-missed' "$out/$name.remarks"; then
    cat "$out/$name.remarks"
    echo "gen.sh: $name.cpp: $rewritten of $functions functions rewritten" >&2
    exit 1
  fi
  echo "$name.cpp: $rewritten functions rewritten into .gpu/bench/$name.cu"
done
# Which compiler wrote the kernels, for the results' record.
echo "$(git -C "$root" describe --always --dirty) for $target" >"$out/VERSION"
