# shellcheck shell=bash
#===- test/gpu/lib.sh - What the GPU-side scripts share --------------------===#
#
# Sourced, from the repository root, by the scripts that run on a machine
# with a GPU, nvcc, cmake and cuBLAS (LLVM is not needed there):
# test/gpu/*.sh, bench/*.sh and utils/calibrate/*.sh. It sets
#   NVCC        the CUDA compiler (NVCC in the environment wins);
#   ARCH        the target, sm_$ARCH;
#   LIB         libgemm_runtime.a, built standalone by buildRuntime;
#   NVCC_FLAGS  what every device program is compiled with;
#   FORCED_GPU  the switch, for one command at a time (`env "${FORCED_GPU[@]}"
#               prog`), that sends small host-array problems to the GPU
#               rather than to their original loops;
#   LOG_DIR     $GEMM_OPT_LOG_DIR, or empty: where the scripts also write
#               their logs and tables when it is set;
# and defines printDevice and buildRuntime. It unsets every GEMM_OPT_*
# variable the caller's shell exported (GEMM_OPT_LOG_DIR too, after reading
# it: it is the scripts' variable, not a program's switch): the checks run in
# the configuration users run, with no switch set, and each command that
# needs a switch sets it for itself.
#
#===------------------------------------------------------------------------===#

# shellcheck disable=SC2034
LOG_DIR=${GEMM_OPT_LOG_DIR:-}
while read -r name; do
  unset "$name"
done < <(compgen -e | grep '^GEMM_OPT_' || true)
# shellcheck disable=SC2034
FORCED_GPU=(GEMM_OPT_PROFITABILITY=always-gpu)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ARCH=90
# Outside the checkout, so that the checkout stays small (it may be copied
# to another machine) and a second script on the same machine reuses the
# build (RUNTIME_BUILD in the environment wins: another checkout on the same
# machine builds apart).
RUNTIME_BUILD=${RUNTIME_BUILD:-/tmp/build-rt}
# LIB and NVCC_FLAGS are read by the scripts that source this file.
# shellcheck disable=SC2034
LIB=$RUNTIME_BUILD/libgemm_runtime.a
# shellcheck disable=SC2034
# The host flag is gemm-opt --cflags's (the top CMakeLists.txt says why).
NVCC_FLAGS=(-O2 -std=c++17 "-arch=sm_$ARCH" -Xcompiler=-falign-loops=32
  -I runtime/include -I include -I test/gpu)
# The seed papers' kernels, which the seed checks and the benchmark compile
# with their own sources (test/gpu/seeds/seeds.h).
# shellcheck disable=SC2034
SEEDS=(test/gpu/seeds/*.cu)

# The GPU and the compiler, for the log: H100 and H200 results differ.
printDevice() {
  echo "== device"
  nvidia-smi -L || echo "(nvidia-smi failed)"
  "$NVCC" --version | tail -n 2
}

# Builds libgemm_runtime (Release, sm_$ARCH) in $RUNTIME_BUILD; prints the
# build's log only if it fails.
buildRuntime() {
  echo "== libgemm_runtime (standalone)"
  local generator=() log=$RUNTIME_BUILD.log
  if command -v ninja >/dev/null; then
    generator=(-G Ninja)
  fi
  if ! { cmake "${generator[@]}" -S runtime -B "$RUNTIME_BUILD" \
    -DCMAKE_BUILD_TYPE=Release -DGEMM_OPT_CUDA_ARCH=$ARCH \
    -DCMAKE_CUDA_COMPILER="$NVCC" && cmake --build "$RUNTIME_BUILD"; } \
    >"$log" 2>&1; then
    cat "$log"
    echo "buildRuntime: libgemm_runtime did not build" >&2
    return 1
  fi
}
