//===- cpu-mode.cu - run() under GEMM_OPT_DEVICE=cpu ----------------------===//
//
// A column-major f32 C with padding rows (ldc > m), C -= A*B (alpha -1, beta
// 1), and a C that overlaps A. Prints C's elements, whether the padding and
// the guard cells kept their poison, and what run() answered.
//
//===----------------------------------------------------------------------===//
#include "gemm_runtime.h"

#include <cstdio>

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const float poison = -999;
  float a[2][3] = {{1, 2, 3}, {4, 5, 6}};
  float b[3][2] = {{1, 0}, {0, 1}, {1, 1}};
  // Guard, then C column-major with ldc = 3 (row 2 is padding), then guard.
  float buf[1 + 6 + 1];
  for (float &x : buf)
    x = poison;
  float *c = buf + 1;
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 2; ++i)
      c[i + 3 * j] = 10;

  gemm_rt::Problem p{"cpu-mode.cu:26:3", gemm_rt::DType::F32, 1, 2, 2, 3,
                     {&a[0][0], 0, 3, 1}, {&b[0][0], 0, 2, 1},
                     {c, 0, 1, 3}, -1.0, 1.0};
  bool ran = gemm_rt::run(p, gemm_rt::launchReference);
  std::printf("ran %d: C = %g %g / %g %g\n", ran, c[0], c[3], c[1], c[4]);
  bool kept = buf[0] == poison && buf[7] == poison && c[2] == poison &&
              c[5] == poison;
  std::printf("padding and guards %s\n", kept ? "kept" : "CHANGED");

  // C overlapping A: the original loop must run.
  p.nest = "cpu-mode.cu:36:3";
  p.c = {&a[0][0], 0, 3, 1};
  ran = gemm_rt::run(p, gemm_rt::launchReference);
  std::printf("overlap: ran %d\n", ran);
  return 0;
}
