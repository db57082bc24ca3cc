#!/usr/bin/env bash
# The dev-machine half of the GPU checks: rewrite every end-to-end program
# (test/e2e/*.cpp, test/e2e/*.c split with --kernels, and the example) with
# the gemm-opt built here into .gpu/e2e,
# the self-checking regression programs (test/gpu/regress/*.cpp) into
# .gpu/regress, and a tuning program of one nest on three problems into
# .gpu/tune-check, which the device call carries; test/gpu/run.sh there
# builds and runs them.
#   test/gpu/prepare.sh            # here, after scripts/build.sh
#   bash test/gpu/run.sh           # on the GPU machine, carry .gpu
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
gemm_opt=${BUILD_DIR:-$root/build}/bin/gemm-opt
out=$root/.gpu/e2e
rm -rf "$out"
mkdir -p "$out"
for src in "$root"/test/e2e/*.cpp; do
  name=$(basename "$src" .cpp)
  cp "$src" "$out/$name.cpp"
  "$gemm_opt" "$src" -o "$out/$name.cu" -- -I "$root/test/e2e/Inputs" 2>/dev/null
done
for src in "$root"/test/e2e/*.c; do
  name=$(basename "$src" .c)
  cp "$src" "$out/$name.c"
  "$gemm_opt" "$src" -o "$out/$name.host.c" \
    --kernels="$out/$name.kernels.cu" 2>/dev/null
done
cp "$root/examples/mlp.cpp" "$out/mlp.cpp"
"$gemm_opt" "$root/examples/mlp.cpp" -o "$out/mlp.cu" 2>/dev/null
echo "--dump" >"$out/mlp.args"
ls "$out"
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
