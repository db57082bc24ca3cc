#!/usr/bin/env bash
#===- bench/gen.sh - The gemm-opt half of the benchmark --------------------===#
#
#   scripts/build.sh && bench/gen.sh   # with the gemm-opt build (LLVM)
#   bash bench/run.sh                  # with a GPU (reads .gpu/bench)
#
# Rewrites every bench/inputs/*.cpp with the gemm-opt of ${BUILD_DIR:-build}
# into .gpu/bench/<name>.cu, which bench/run.sh builds and times on the GPU
# (of this machine, or of a GPU host given a copy of the checkout with
# .gpu/), and fails unless every
# function of every input was recognised (one [-Rpass=gemm] remark each, no
# [-Rpass-missed=gemm]). The remarks go to .gpu/bench/<name>.remarks, the
# checkout's `git describe` to .gpu/bench/VERSION.
# The kernels are chosen for an H100 by default (its DRAM bandwidth sets
# the runtime's split and streaming terms); BENCH_TARGET=hopper-h200 (any
# --target name) writes them for another GPU.
# BENCH_TUNING_DB=FILE chooses them with a tuning database (docs/tuning.md;
# without it, with none).
# It also writes the tuning programs of the inputs on the benchmark's
# shapes to .gpu/tune/<name>.cu (gemm-opt --emit=tune, the model's first
# BENCH_TUNE_TOP schedules per shape and its best of BENCH_TUNE_SHAPES
# further tile shapes), which bench/tune.sh runs.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gemm_opt=${BUILD_DIR:-$root/build}/bin/gemm-opt
dest=$root/.gpu/bench
tune=$root/.gpu/tune
target=${BENCH_TARGET:-hopper-h100}
# bench.cu's shapes, with their layout classes; batched ones with their
# batch.
shapes=rrr:1024x1024x1024,rrr:2048x2048x2048,rrr:4096x4096x4096
shapes+=,rrr:8192x8192x8192,rrr:1000x1000x1000,rrr:3000x3000x3000
shapes+=,rrr:4096x4096x64,rrr:4096x4096x256,rrr:16384x64x16384
shapes+=,rrr:64x16384x16384,rcr:4096x4096x4096,crr:4096x4096x4096
shapes+=,ccr:4096x4096x4096,rrr:1024x64x64x64,rrr:64x256x256x256
rm -rf "$dest" "$tune"
mkdir -p "$dest" "$tune"
for src in "$root"/bench/inputs/*.cpp; do
  name=$(basename "$src" .cpp)
  "$gemm_opt" "$src" -o "$tune/$name.cu" --target="$target" --emit=tune \
    --tune-problems="$shapes" --tune-top="${BENCH_TUNE_TOP:-12}" \
    --tune-shapes="${BENCH_TUNE_SHAPES:-16}" \
    --tuning-db=none 2>"$tune/$name.remarks"
  "$gemm_opt" "$src" -o "$dest/$name.cu" --target="$target" \
    --tuning-db="${BENCH_TUNING_DB:-none}" 2>"$dest/$name.remarks"
  functions=$(grep -c '^void ' "$src")
  rewritten=$(grep -c '\[-Rpass=gemm\]' "$dest/$name.remarks" || true)
  if ((rewritten != functions)) || grep -q 'Rpass-missed' "$dest/$name.remarks"; then
    cat "$dest/$name.remarks"
    echo "gen.sh: $name.cpp: $rewritten of $functions functions rewritten" >&2
    exit 1
  fi
  echo "$name.cpp: $rewritten functions rewritten into .gpu/bench/$name.cu"
done
# Which compiler wrote the kernels, for the results' record.
echo "$(git -C "$root" describe --always --dirty) for $target" >"$dest/VERSION"
cp "$dest/VERSION" "$tune/VERSION"
