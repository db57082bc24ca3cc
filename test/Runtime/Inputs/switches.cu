//===- switches.cu - A nest run as a rewritten program runs it ------------===//
//
// C += A*B (f64, 2x3 times 3x2, C all 7) as a rewritten nest runs it: the
// launcher (gemm_rt::run), and where it returns false the original loop.
// Prints which of the two ran and C, which is 11 12 / 17 18 either way.
// Arguments: `none` runs the loop without calling the runtime at all;
// `repeat` makes three calls; `per-call` makes three calls, with
// GEMM_OPT_CHOICE set to a value it rejects before the second and to a
// valid one before the third.
//
//===----------------------------------------------------------------------===//
#include "gemm_runtime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
void call(const char *label, bool launch) {
  double a[2][3] = {{1, 2, 3}, {4, 5, 6}};
  double b[3][2] = {{1, 0}, {0, 1}, {1, 1}};
  double c[2][2] = {{7, 7}, {7, 7}};
  const gemm_rt::Problem p{"switches.cu:24:3", gemm_rt::DType::F64, 1, 2, 2, 3,
                           {&a[0][0], 0, 3, 1}, {&b[0][0], 0, 2, 1},
                           {&c[0][0], 0, 2, 1}, 1.0, 1.0};
  const bool ran = launch && gemm_rt::run(p, gemm_rt::launchReference);
  if (!ran)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        for (int k = 0; k < 3; ++k)
          c[i][j] += a[i][k] * b[k][j];
  std::printf("%s: %s, C = %g %g / %g %g\n", label, ran ? "launcher" : "loop",
              c[0][0], c[0][1], c[1][0], c[1][1]);
}
} // namespace

int main(int argc, char **argv) {
  // Keep stdout in step with stderr when both go to one pipe.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const char *mode = argc > 1 ? argv[1] : "";
  if (!std::strcmp(mode, "none")) {
    call("call", false);
  } else if (!std::strcmp(mode, "repeat") || !std::strcmp(mode, "per-call")) {
    const bool change = !std::strcmp(mode, "per-call");
    call("call 1", true);
    if (change)
      setenv("GEMM_OPT_CHOICE", "first", 1);
    call("call 2", true);
    if (change)
      setenv("GEMM_OPT_CHOICE", "0,1", 1);
    call("call 3", true);
  } else {
    call("call", true);
  }
  return 0;
}
