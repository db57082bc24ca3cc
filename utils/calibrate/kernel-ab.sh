#!/usr/bin/env bash
#===- utils/calibrate/kernel-ab.sh - Two kernels, one device, in turn ------===#
#
#   bash utils/calibrate/kernel-ab.sh DIR [ROUNDS [N...]]   # with a GPU
#
# DIR (say, under .gpu) holds kernel files (*.cu), each defining
# `gemm_rt::LaunchFn f` for one kernel, and optionally an include directory
# per file, `<name>.inc/`, that replaces runtime/include for it (say, a
# changed copy of gemm_kernels). Builds kernel-ab.cu once per file, in
# parallel, then times them in turn ROUNDS times (default 3) at each n^3
# (default 4096), so that a
# change to the templates can be judged on one kernel against the kernel
# before it: `bench/run.sh` times whole inputs.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(cd "$1" && pwd)
rounds=${2:-3}
sizes=("${@:3}")
((${#sizes[@]})) || sizes=(4096)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
bins=()
for src in "$dir"/*.cu; do
  name=$(basename "$src" .cu)
  inc=$root/runtime/include
  [[ -d $dir/$name.inc ]] && inc=$dir/$name.inc
  "$nvcc" -std=c++17 -arch=sm_90 -O2 -I "$inc" -I "$dir" \
    -DKERNEL_FILE="\"$src\"" "$root/utils/calibrate/kernel-ab.cu" \
    -o "$dir/$name.ab" &
  bins+=("$dir/$name.ab")
done
wait
for n in "${sizes[@]}"; do
  for ((r = 0; r < rounds; ++r)); do
    for bin in "${bins[@]}"; do
      "$bin" "$n"
    done
  done
done
