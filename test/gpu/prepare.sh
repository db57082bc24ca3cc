#!/usr/bin/env bash
# The gemm-opt half of the GPU checks: rewrite every end-to-end program
# (test/e2e/*.cpp, test/e2e/*.c split with --kernels, and the example) with
# the gemm-opt of ${BUILD_DIR:-build} into .gpu/e2e, the self-checking
# regression programs (test/gpu/regress/*.cpp) into .gpu/regress, and a
# tuning program of one nest on three problems into .gpu/tune-check;
# test/gpu/run.sh builds and runs them on the GPU, on this machine or on a
# GPU host that has a copy of the checkout with .gpu/ (no LLVM needed there).
#   test/gpu/prepare.sh            # after scripts/build.sh (needs LLVM)
#   bash test/gpu/run.sh           # with a GPU (scripts/test.sh --gpu runs both)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
gemm_opt=${BUILD_DIR:-$root/build}/bin/gemm-opt
e2e=$root/.gpu/e2e
rm -rf "$e2e"
mkdir -p "$e2e"
for src in "$root"/test/e2e/*.cpp; do
  name=$(basename "$src" .cpp)
  cp "$src" "$e2e/$name.cpp"
  # A program written in a newer standard names it on its gemm-opt RUN line;
  # the GPU side compiles it with the same (<name>.std).
  std=$(sed -n 's/.*RUN: gemm-opt .* -- .*\(-std=[^ ]*\).*/\1/p' "$src" | head -n 1)
  [[ -n $std ]] && echo "$std" >"$e2e/$name.std"
  "$gemm_opt" "$src" -o "$e2e/$name.cu" -- $std -I "$root/test/e2e/Inputs" 2>/dev/null
  # A header that the program's RUN line rewrites on its own goes into
  # <name>.headers, which the program's build searches first; the program
  # is then built as written, as its RUN line builds it.
  for header in $(sed -n 's/.*RUN: gemm-opt -x c++ %S\/Inputs\/\([^ ]*\) .*/\1/p' "$src"); do
    mkdir -p "$e2e/$name.headers/$(dirname "$header")"
    "$gemm_opt" -x c++ "$root/test/e2e/Inputs/$header" \
      -o "$e2e/$name.headers/$header" 2>/dev/null
    cp "$src" "$e2e/$name.cu"
  done
done
for src in "$root"/test/e2e/*.c; do
  name=$(basename "$src" .c)
  cp "$src" "$e2e/$name.c"
  "$gemm_opt" "$src" -o "$e2e/$name.host.c" \
    --kernels="$e2e/$name.kernels.cu" -- -I "$root/test/e2e/Inputs" 2>/dev/null
done
cp "$root/examples/mlp.cpp" "$e2e/mlp.cpp"
"$gemm_opt" "$root/examples/mlp.cpp" -o "$e2e/mlp.cu" 2>/dev/null
echo "--dump" >"$e2e/mlp.args"
# The example again with its kernels apart (--kernel-dir), as the CMake
# package builds programs: run.sh compiles <name>.kernels/*.cu beside it.
cp "$root/examples/mlp.cpp" "$e2e/mlp-kernel-dir.cpp"
"$gemm_opt" "$root/examples/mlp.cpp" -o "$e2e/mlp-kernel-dir.cu" \
  --kernel-dir="$e2e/mlp-kernel-dir.kernels" 2>/dev/null
echo "--dump" >"$e2e/mlp-kernel-dir.args"
ls "$e2e"
regress=$root/.gpu/regress
rm -rf "$regress"
mkdir -p "$regress"
for src in "$root"/test/gpu/regress/*.cpp; do
  "$gemm_opt" "$src" -o "$regress/$(basename "$src" .cpp).cu" 2>/dev/null
done
ls "$regress"
tuneCheck=$root/.gpu/tune-check
rm -rf "$tuneCheck"
mkdir -p "$tuneCheck"
"$gemm_opt" "$root/test/Driver/Inputs/dynamic-nest.cpp" --emit=tune \
  --tune-problems=512x512x512,4096x4096x256,64x4096x4096 --tune-top=2 \
  -o "$tuneCheck/tune.cu" 2>/dev/null
ls "$tuneCheck"
