#!/usr/bin/env bash
# Runs bench/tune.sh ($1) in $2 on stand-ins for a GPU machine: three
# built "programs" that each append a row naming their GPU to the database
# part they are given (b fails), and an nvidia-smi that lists 2, then 1,
# GPUs. Prints each run's output, exit status and database.
set -u
tune=$1 dir=$2
rm -rf "$dir"
mkdir -p "$dir/gen" "$dir/work" "$dir/bin"
echo stand-ins >"$dir/gen/VERSION"
for n in a b c; do
  echo "// $n" >"$dir/gen/$n.cu"
  cat >"$dir/work/$n" <<EOF
#!/usr/bin/env bash
db=\${1#--db=}
[[ -s \$db ]] || echo device,program >"\$db"
echo "gpu\$CUDA_VISIBLE_DEVICES,$n" >>"\$db"
echo "$n timed on GPU \$CUDA_VISIBLE_DEVICES"
[[ $n != b ]]
EOF
  chmod +x "$dir/work/$n"
done
md5sum "$dir"/gen/*.cu >"$dir/work/sources.md5"
for gpus in 2 1; do
  # shellcheck disable=SC2016 # $g is the stand-in's, not this script's
  printf '#!/usr/bin/env bash\nfor ((g = 0; g < %d; ++g)); do echo "GPU $g: stand-in"; done\n' \
    "$gpus" >"$dir/bin/nvidia-smi"
  chmod +x "$dir/bin/nvidia-smi"
  rm -f "$dir/work/tuning.csv"
  PATH=$dir/bin:$PATH TUNE_BUILD=0 TUNE_GEN=$dir/gen TUNE_WORK=$dir/work \
    bash "$tune"
  echo "exit $?"
  cat "$dir/work/tuning.csv"
done
