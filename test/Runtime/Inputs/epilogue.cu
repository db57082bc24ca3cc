//===- epilogue.cu - run()'s epilogue under GEMM_OPT_DEVICE=cpu -----------===//
//
// C = act(A*B + bias) with a bias along N (row stride 0) and a clamp to
// [-1, 10]; the same with a NaN in A, the lower clamp turning it into its
// bound or keeping it; a null bias (none); and a bias that overlaps C.
//
//===----------------------------------------------------------------------===//
#include "gemm_runtime.h"

#include <cmath>
#include <cstdio>

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  float a[2][3] = {{1, 2, 3}, {4, 5, 6}};
  float b[3][2] = {{1, 0}, {0, 1}, {1, 1}};
  float bias[2] = {-6, 1};
  float c[2][2];
  // A*B = {{4, 5}, {10, 11}}.
  gemm_rt::Problem p{"epilogue.cu:22:3", gemm_rt::DType::F32, 1, 2, 2, 3,
                     {&a[0][0], 0, 3, 1}, {&b[0][0], 0, 2, 1},
                     {&c[0][0], 0, 2, 1}, 1.0, 0.0,
                     {{bias, 0, 0, 1}, 2, {{false, true, -1}, {true, false, 10}}}};
  auto show = [&](const char *what) {
    bool ran = gemm_rt::run(p, gemm_rt::launchReference);
    std::printf("%s: ran %d: C = %g %g / %g %g\n", what, ran, c[0][0], c[0][1],
                c[1][0], c[1][1]);
  };
  show("bias, clamp");
  a[0][0] = NAN;
  show("NaN to the bound");
  p.epilogue.clamp[0].nanToBound = false;
  show("NaN kept");
  a[0][0] = 1;
  p.epilogue.bias.ptr = nullptr;
  show("null bias");
  p.nest = "epilogue.cu:38:3";
  p.epilogue.bias.ptr = &c[1][0];
  show("bias overlaps C");
  return 0;
}
