//===- gpus-host.cu - C's rows shared among GPUs --------------------------===//
//
// Prints gemm_rt::detail::shareRows's shares for GPUs of equal and unequal
// speeds, rows that are no multiple of the grain, fewer rows than GPUs'
// grains, rowsOf's operands for a share of a padded, batched problem,
// splitSeconds's prediction and planSlices's slices.
// Host code: no GPU is needed.
//
//===----------------------------------------------------------------------===//
#include "host/gpus.h"

#include <cstdio>

using namespace gemm_rt::detail;

namespace {
void print(const char *what, int64_t m, const std::vector<int> &devices,
           const std::vector<double> &speeds) {
  std::printf("%s:", what);
  for (const Share &s : shareRows(m, devices, speeds, 256))
    std::printf(" GPU %d rows %lld+%lld", s.device,
                static_cast<long long>(s.begin),
                static_cast<long long>(s.rows));
  std::printf("\n");
}
} // namespace

int main() {
  print("equal", 8192, {0, 1}, {1, 1});
  print("odd", 1000, {0, 1}, {1, 1});
  print("one faster", 8192, {1, 0}, {3, 1});
  print("three", 16384, {0, 1, 2}, {1, 1, 1});
  print("few rows", 300, {0, 1}, {1, 1});
  print("one row", 1, {0, 1}, {1, 1});

  float a[1], b[1], c[1], bias[1];
  gemm_rt::Problem p = gemm_rt::launcherProblem(
      "t", gemm_rt::DType::F32, 2, 1000, 300, 200, {a, 400000, 400, 1},
      {b, 0, 300, 1}, {c, 600000, 1, 1003}, 1, 0);
  p.epilogue.bias = {bias, 0, 1, 0};
  const gemm_rt::Problem rows = rowsOf(p, {1, 512, 488});
  std::printf("rows: m %lld, A +%td (sr %lld), B +%td, C +%td (sc %lld), "
              "bias +%td\n",
              static_cast<long long>(rows.m),
              static_cast<const float *>(rows.a.ptr) - a,
              static_cast<long long>(rows.a.sr),
              static_cast<const float *>(rows.b.ptr) - b,
              static_cast<const float *>(rows.c.ptr) - c,
              static_cast<long long>(rows.c.sc),
              static_cast<const float *>(rows.epilogue.bias.ptr) - bias);
  // A split call's prediction: B's copy (gathered at 40 GB/s, sent at 50)
  // before the slowest share, or all host copies where they take longer.
  const Rates rates{40, 50, 50};
  std::printf("split: %.3f s, host-bound %.3f s, B staged by each %.3f s\n",
              splitSeconds(2e9, 0.1, 6e9, rates),
              splitSeconds(2e9, 0.1, 8e9, rates),
              splitSeconds(0, 0.1, 3e9, rates));
  // Slices of K for two GPUs' rows: as deep as a 64 MiB slot and the
  // budget allow, in multiples of 128, bands of 16 MiB of C's runs; none
  // where a GPU cannot hold its rows of C, for a batch, or where slices
  // would be thinner than 1024 (and K).
  auto slices = [](const char *what, gemm_rt::DType type, int64_t batch,
                   int64_t m, int64_t n, int64_t k, size_t budget,
                   bool columnMajorC = false) {
    gemm_rt::Problem q = gemm_rt::launcherProblem(
        "t", type, batch, m, n, k, {nullptr, m * k, k, 1},
        {nullptr, k * n, n, 1},
        columnMajorC ? gemm_rt::Operand{nullptr, m * n, 1, m}
                     : gemm_rt::Operand{nullptr, m * n, n, 1},
        1, 0);
    const int64_t half = m / 2;
    const SlicePlan s =
        planSlices(q, {{0, 0, half}, {1, half, m - half}}, budget);
    std::printf("%s: depth %lld, %lld slice(s), bands of %lld, slot %zu MiB\n",
                what, static_cast<long long>(s.depth),
                static_cast<long long>(s.slices),
                static_cast<long long>(s.bandRuns), s.pinnedSlot >> 20);
  };
  const size_t gib = size_t(1) << 30;
  slices("f32 8192^3", gemm_rt::DType::F32, 1, 8192, 8192, 8192, 64 * gib);
  slices("f64 16384^3", gemm_rt::DType::F64, 1, 16384, 16384, 16384,
         64 * gib);
  slices("f64 16384^3, C column-major", gemm_rt::DType::F64, 1, 16384, 16384,
         16384, 64 * gib, true);
  slices("f32 1000x3000x100", gemm_rt::DType::F32, 1, 1000, 3000, 100, gib);
  slices("f32 8192^3 in 300 MiB", gemm_rt::DType::F32, 1, 8192, 8192, 8192,
         size_t(300) << 20);
  slices("f32 8192^3 in 256 MiB", gemm_rt::DType::F32, 1, 8192, 8192, 8192,
         size_t(256) << 20);
  slices("f32 1024x512x2048 in 13 MiB", gemm_rt::DType::F32, 1, 1024, 512,
         2048, 13 << 20);
  slices("f32 1024x512x2048 in 12 MiB", gemm_rt::DType::F32, 1, 1024, 512,
         2048, 12 << 20);
  slices("f32 8192x256x256 in 10 MiB", gemm_rt::DType::F32, 1, 8192, 256,
         256, 10 << 20);
  slices("f32 8192^3, a batch of 2", gemm_rt::DType::F32, 2, 8192, 8192, 8192,
         64 * gib);
  slices("f64 300000x300000x1024", gemm_rt::DType::F64, 1, 300000, 300000,
         1024, 4096 * gib);
  // No GPU visible: the current device alone.
  std::printf("devices without a GPU: %zu\n", hostCallDevices().size());
  return 0;
}
