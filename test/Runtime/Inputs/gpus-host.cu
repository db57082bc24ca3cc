//===- gpus-host.cu - C's rows shared among GPUs --------------------------===//
//
// Prints gemm_rt::detail::shareRows's shares for GPUs of equal and unequal
// speeds, rows that are no multiple of the grain, fewer rows than GPUs'
// grains, rowsOf's operands for a share of a padded, batched problem, and
// splitSeconds's prediction.
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
  // No GPU visible: the current device alone.
  std::printf("devices without a GPU: %zu\n", hostCallDevices().size());
  return 0;
}
