//===- run-host.cu - Calls gemm_rt::run as generated code does ------------===//
//
// Runs a small f64 GEMM on host arrays, then one with an empty extent, and
// prints what run() answered and whether C was left alone. Without a GPU both
// must return false and leave C untouched.
//
//===----------------------------------------------------------------------===//
#include "gemm_runtime.h"

#include <cstdio>
#include <cstring>

int main() {
  // Keep stdout in step with the trace on stderr when both go to one pipe.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  double a[2][3] = {{1, 2, 3}, {4, 5, 6}};
  double b[3][2] = {{1, 0}, {0, 1}, {1, 1}};
  double c[2][2] = {{7, 7}, {7, 7}};
  double before[2][2];
  std::memcpy(before, c, sizeof c);

  gemm_rt::Problem p{"run-host.cu:25:14", gemm_rt::DType::F64, 1, 2, 2, 3,
                     {&a[0][0], 0, 3, 1}, {&b[0][0], 0, 2, 1},
                     {&c[0][0], 0, 2, 1}, 1.0, 0.0};
  bool ran = gemm_rt::run(p, gemm_rt::launchReference);
  std::printf("full: run returned %s, C %s\n", ran ? "true" : "false",
              std::memcmp(before, c, sizeof c) ? "changed" : "untouched");

  p.nest = "run-host.cu:31:9";
  p.k = 0;
  ran = gemm_rt::run(p, gemm_rt::launchReference);
  std::printf("empty: run returned %s, C %s\n", ran ? "true" : "false",
              std::memcmp(before, c, sizeof c) ? "changed" : "untouched");
  return 0;
}
