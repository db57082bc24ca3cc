#!/usr/bin/env bash
# Installs what gemm-opt needs on a fresh Debian 12 machine. Idempotent: it
# only calls apt when a package is missing, so repeated runs cost seconds.
set -euo pipefail
pkgs=(llvm-19-dev libclang-19-dev libmlir-19-dev mlir-19-tools llvm-19-tools
      clang-19 libomp-19-dev cmake ninja-build make pkg-config g++ python3
      python3-clang-19)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}"
fi
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "install-deps: the CUDA toolkit (nvcc) is required; install it under /usr/local/cuda" >&2
  exit 1
fi
