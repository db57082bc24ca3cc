#!/usr/bin/env bash
#===- bench/same-kernels.sh - Whether two builds compile the same kernels --===#
#
#   bash bench/same-kernels.sh BASE_GEN BASE_INC [GEN [INC]]
#
# Compiles the device code of every program of GEN (default .gpu/tune, the
# tuning programs bench/gen.sh wrote) against the templates of INC (default
# runtime/include), and BASE_GEN's program of the same name against
# BASE_INC, to cubins (nvcc -cubin: cicc and ptxas, no GPU needed), and
# compares them byte for byte once the name nvcc gives each file's
# anonymous namespace (a hash of its text) is blanked. Prints the kernels
# compared and each program whose machine code differs; exits 1 if one
# does. A change to the kernel templates or to the printed configurations
# that passes leaves a tuning database's rows true (docs/tuning.md,
# "Shipped databases").
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/.."
source test/gpu/lib.sh
if (($# < 2)); then
  echo "usage: bench/same-kernels.sh BASE_GEN BASE_INC [GEN [INC]]" >&2
  exit 2
fi
baseGen=$1 baseInc=$2 gen=${3:-.gpu/tune} inc=${4:-runtime/include}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/base" "$work/new"

# cubin SIDE SOURCE INCLUDE: the source's device code, its anonymous
# namespace's hash blanked (same length, so offsets stay).
cubin() {
  local out=$1/$(basename "$2" .cu).cubin
  "$NVCC" -std=c++17 "-arch=sm_$ARCH" -I "$3" -I test/gpu -cubin "$2" \
    -o "$out.raw" &&
    perl -pe 's/_GLOBAL__N__[0-9a-f]{8}_/_GLOBAL__N__00000000_/g' \
      "$out.raw" >"$out"
}
export -f cubin
export NVCC ARCH

jobs=()
for src in "$gen"/*.cu; do
  name=$(basename "$src")
  if [[ ! -f $baseGen/$name ]]; then
    echo "same-kernels: $baseGen has no $name" >&2
    exit 2
  fi
  jobs+=("$work/new $src $inc" "$work/base $baseGen/$name $baseInc")
done
printf '%s\n' "${jobs[@]}" |
  xargs -P "$(nproc)" -L 1 bash -c 'cubin "$@" || exit 255' _

kernels=0 differ=0
for src in "$gen"/*.cu; do
  name=$(basename "$src" .cu)
  # A kernel's code section, named twice in the cubin's string tables.
  count=$(strings "$work/new/$name.cubin" | grep '^\.text\.' | sort -u |
    wc -l)
  if cmp -s "$work/base/$name.cubin" "$work/new/$name.cubin"; then
    kernels=$((kernels + count))
  else
    echo "differs: $name"
    differ=$((differ + 1))
  fi
done
echo "same-kernels: $kernels kernels in identical cubins," \
  "$differ programs differ"
((differ == 0))
