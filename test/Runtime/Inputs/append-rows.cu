//===- append-rows.cu - Concurrent appends to a tuning database -----------===//
//
// `append-rows DB WRITER BATCHES ROWS GO` waits for the file GO to exist,
// so that the writers start together, then appends BATCHES batches of ROWS
// records to DB as tuning programs and GEMM_OPT_TUNE do (timing.h): each
// batch opens the database anew (openDatabase, which writes the header if
// the file is empty), formats its rows with gemm_tuning::writeRecord into a
// buffer and appends them with appendRows. Host code: no GPU is needed.
// The rows are one-nest.cpp's 16^3 f32 problem (test/Driver), WRITER in
// the split column so that each writer's rows can be counted; VERSION and
// TEMPLATES come from the build (-D).
//
//===----------------------------------------------------------------------===//
#include "tuning/measure.h"

#include "gemm-opt-abi/TuningFormat.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include <unistd.h>

int main(int argc, char **argv) {
  if (argc != 6)
    return 2;
  const std::string path = argv[1];
  const long long writer = std::atoll(argv[2]);
  const int batches = std::atoi(argv[3]), count = std::atoi(argv[4]);
  for (int waited = 0; access(argv[5], F_OK) != 0; ++waited) {
    if (waited == 100000) // 100 s
      return 3;
    usleep(1000);
  }
  for (int b = 0; b < batches; ++b) {
    char *text = nullptr;
    size_t size = 0;
    std::FILE *buffer = open_memstream(&text, &size);
    if (!buffer)
      return 1;
    for (int r = 0; r < count; ++r)
      gemm_tuning::writeRecord(
          buffer, {"NVIDIA H100 80GB HBM3", 90, 132, 13000, 13000, VERSION,
                   TEMPLATES, "f32", "rrr", 1, 16, 16, 16, true, writer,
                   "block=16,16,16 thread=2,2 vector=4 prefetch=smem "
                   "stages=2 pad=4 compute=fma transpose=0",
                   2.0 + b, 4.1, 3.0, true});
    if (std::fclose(buffer) != 0)
      return 1;
    const std::string rows(text, size);
    std::free(text);
    std::FILE *db = gemm_rt::detail::openDatabase(path);
    if (!db)
      return 1;
    const bool written = gemm_rt::detail::appendRows(db, rows);
    if (std::fclose(db) != 0 || !written)
      return 1;
  }
  return 0;
}
