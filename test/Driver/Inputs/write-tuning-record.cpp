// Writes a tuning database of one row with the writer that device programs
// use (gemm-opt-abi/TuningFormat.h): one-nest.cpp's 16^3 f32 problem,
// timed on an H100 with a 16x16x16 tile. VERSION and TEMPLATES come from
// the build (-D), as the generated launchers' plans hold them.
#include "gemm-opt-abi/TuningFormat.h"

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  std::FILE *file = std::fopen(argv[1], "w");
  if (!file)
    return 1;
  std::fprintf(file, "%s\n", gemm_tuning::kHeader);
  gemm_tuning::writeRecord(
      file, {"NVIDIA H100 80GB HBM3", 90, 132, 13000, 13000, VERSION,
             TEMPLATES, "f32", "rrr", 1, 16, 16, 16, true, 1,
             "block=16,16,16 thread=2,2 vector=4 prefetch=smem stages=2 "
             "pad=4 compute=fma transpose=0",
             2.0, 4.1, 3.0, true});
  return std::fclose(file) == 0 ? 0 : 1;
}
