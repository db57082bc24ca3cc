//===- epilogue.cu - run()'s epilogue under GEMM_OPT_DEVICE=cpu -----------===//
//
// C = act(A*B + bias) with a bias along N (row stride 0) and a clamp to
// [-1, 10]; the same with a NaN in A, the lower clamp turning it into its
// bound or keeping it; a null bias (none); a bias that overlaps C; and the
// functions (tanh, sigmoid, GELU in its two forms), alone and before a clamp.
//
//===----------------------------------------------------------------------===//
#include "gemm_checks.h"

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
                     {{bias, 0, 0, 1},
                      2,
                      {{gemm_rt::Step::Lower, true, {-1}},
                       {gemm_rt::Step::Upper, false, {10}}}}};
  auto show = [&](const char *what) {
    bool ran = gemm_rt::run(p, gemm_rt::launchReference);
    std::printf("%s: ran %d: C = %g %g / %g %g\n", what, ran, c[0][0], c[0][1],
                c[1][0], c[1][1]);
  };
  show("bias, clamp");
  a[0][0] = NAN;
  show("NaN to the bound");
  p.epilogue.step[0].nanToBound = false;
  show("NaN kept");
  a[0][0] = 1;
  p.epilogue.bias.ptr = nullptr;
  show("null bias");
  p.nest = "epilogue.cu:38:3";
  p.epilogue.bias.ptr = &c[1][0];
  show("bias overlaps C");
  // The functions, in fp64 on the CPU path and rounded to float: on A*B =
  // {{4, 5}, {10, 11}} scaled by alpha = 1/8.
  p.epilogue.bias.ptr = nullptr;
  p.alpha = 0.125;
  const gemm_rt::Step functions[] = {
      {gemm_rt::Step::Tanh, false, {}},
      {gemm_rt::Step::Sigmoid, false, {}},
      {gemm_rt::Step::GeluTanh, false, {0.7978845608, 0.044715}},
      {gemm_rt::Step::GeluErf, false, {M_SQRT1_2}}};
  const char *names[] = {"tanh", "sigmoid", "gelu tanh", "gelu erf"};
  for (int f = 0; f < 4; ++f) {
    p.epilogue.steps = 1;
    p.epilogue.step[0] = functions[f];
    show(names[f]);
  }
  // Each step against its formula in float (the kernel's form) on x = 0.5,
  // a clamp after a function: tanh, then max with 0.5.
  gemm_rt::Epilogue e{{nullptr, 0, 0, 0},
                      2,
                      {functions[0], {gemm_rt::Step::Lower, true, {0.5}}}};
  std::printf("tanh then clamp: %g %g\n",
              gemm_rt::finishElement<float>(e, 0.5f, 0, 0, 0),
              gemm_rt::finishElement<float>(e, 2.0f, 0, 0, 0));
  for (int f = 0; f < 4; ++f) {
    e.steps = 1;
    e.step[0] = functions[f];
    float x = 0.5f;
    float formula[] = {tanhf(x), 1.0f / (1.0f + expf(-x)),
                       0.5f * x *
                           (1.0f + tanhf(0.7978845608f *
                                         (x + 0.044715f * x * x * x))),
                       0.5f * x * (1.0f + erff(x * float(M_SQRT1_2)))};
    std::printf("%s(0.5) as written: %d\n", names[f],
                gemm_rt::finishElement<float>(e, x, 0, 0, 0) == formula[f]);
  }
  // verify()'s bound with a function: the kernel's float formula against the
  // fp64 reference passes.
  for (int f = 0; f < 4; ++f) {
    p.epilogue.steps = 1;
    p.epilogue.step[0] = functions[f];
    float out[2][2];
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        float acc = 0;
        for (int l = 0; l < 3; ++l)
          acc += a[i][l] * b[l][j];
        out[i][j] = gemm_rt::finishElement<float>(
            p.epilogue, float(p.alpha) * acc, 0, i, j);
      }
    std::printf("verify %s: %d\n", names[f],
                gemm_rt::verify(p, nullptr, &out[0][0]) <= 1);
  }
  // A scalar read through a pointer (f2c's *alpha): outside C it runs,
  // inside C the loop does.
  p.epilogue.steps = 0;
  const float alpha = 0.125f;
  p.reads = {1, {{&alpha, sizeof alpha}}};
  show("scalar apart from C");
  p.nest = "epilogue.cu:104:3";
  p.reads.read[0].ptr = &c[1][1];
  show("scalar in C");
  return 0;
}
