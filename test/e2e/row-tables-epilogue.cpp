// Tables of rows meet the epilogue: a dense layer whose input and output
// are tables of row pointers, with a bias, llm.c's GELU and a scale read
// through a pointer; a layer of vectors of vectors under tanh with alpha
// and beta read through pointers; and the first layer again with its scale
// inside a row of C, where the rewrite must run the loop.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s --reference-kernel -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The tables gathered, the epilogue applied and C scattered on the CPU.
// RUN: env GEMM_OPT_DEVICE=cpu GEMM_OPT_TRACE=1 %t.gpu > %t.lifted 2> %t.trace
// RUN: %python %S/compare.py %t.expected %t.lifted
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace
#include "e2e_util.h"

#include <cmath>
#include <vector>

#define GELU_SCALING_FACTOR sqrtf(2.0f / M_PI)

// out[n][o] = gelu(bias[o] + *scale * inp[n] . weight[o]).
static void dense_gelu(float **out, float *const *inp, const float *weight,
                       const float *bias, const float *scale, int N, int C,
                       int OC) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = N x OC x C; A row pointers, B column-major, C row pointers; accumulates in 'val', alpha = (*scale), beta = 0; reads '*scale' before the nest (the loop runs where C holds it); epilogue: + 'bias[o]', GELU (tanh form, {{.*}}); rewritten to call gemm_opt_nest_0
  for (int n = 0; n < N; n++)
    for (int o = 0; o < OC; o++) {
      float val = bias[o];
      for (int i = 0; i < C; i++)
        val += *scale * inp[n][i] * weight[o * C + i];
      float x = val;
      float cube = 0.044715f * x * x * x;
      out[n][o] = 0.5f * x * (1.0f + tanhf(GELU_SCALING_FACTOR * (x + cube)));
    }
}

// y = tanh(*alpha * x * w + *beta * y), every matrix a vector of vectors.
static void dense_tanh(std::vector<std::vector<double>> &y,
                       const std::vector<std::vector<double>> &x,
                       const std::vector<std::vector<double>> &w,
                       const double *alpha, const double *beta, int N, int C,
                       int OC) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = N x OC x C; A row vectors, B row vectors, C row vectors; accumulates in 'acc', alpha = (*alpha), beta = (*beta); reads '*alpha' before the nest (the loop runs where C holds it); reads '*beta' before the nest (the loop runs where C holds it); epilogue: tanh; rewritten to call gemm_opt_nest_1
  for (int n = 0; n < N; n++)
    for (int o = 0; o < OC; o++) {
      double acc = 0;
      for (int i = 0; i < C; i++)
        acc += x[n][i] * w[i][o];
      y[n][o] = std::tanh(*alpha * acc + *beta * y[n][o]);
    }
}

// A function's error: at most 1.2 times the product's (GELU's steepest
// slope is 1.13), plus the libm's ulps.
static double withFunction(double scale, long count) {
  return 1.2 * scale + std::sqrt(double(count));
}

int main() {
  const int N = 13, C = 24, OC = 17;
  std::vector<float> x(N * C), w(OC * C), bias(OC), y(N * OC, 0.0f);
  fillRandom(x.data(), long(x.size()), 1);
  fillRandom(w.data(), long(w.size()), 2);
  fillRandom(bias.data(), OC, 3);
  std::vector<float *> xRows(N), yRows(N);
  for (int n = 0; n < N; n++) {
    xRows[n] = &x[n * C];
    yRows[n] = &y[n * OC];
  }
  const float scale = -1.5f;
  const double product = 1.5 * frobenius(x.data(), long(x.size())) *
                             frobenius(w.data(), long(w.size())) +
                         frobenius(bias.data(), OC) * std::sqrt(double(N));
  dense_gelu(yRows.data(), xRows.data(), w.data(), bias.data(), &scale, N, C,
             OC);
  printMatrix("gelu-rows", C, withFunction(product, N * OC), y.data(), N, OC,
              OC, 1);

  // The scale is an element of C that the nest writes: the loop reads it as
  // it changes, so the rewrite must run that loop.
  for (float &v : y)
    v = 0.0f;
  y[(N - 1) * OC + OC - 1] = 0.25f;
  dense_gelu(yRows.data(), xRows.data(), w.data(), bias.data(),
             &y[(N - 1) * OC + OC - 1], N, C, OC);
  // TRACE: gemm-opt: nest row-tables-epilogue.cpp:{{[0-9]+}}:3 runs the original loop: C holds a scalar that the nest reads through a pointer
  printMatrix("gelu-scale-in-c", C, withFunction(4 * product, N * OC),
              y.data(), N, OC, OC, 1);

  std::vector<std::vector<double>> dx(N, std::vector<double>(C)),
      dw(C, std::vector<double>(OC)), dy(N, std::vector<double>(OC));
  double norms[3] = {0, 0, 0};
  for (int n = 0; n < N; n++) {
    fillRandom(dx[n].data(), C, 4 + n);
    fillRandom(dy[n].data(), OC, 40 + n);
    norms[0] += frobenius(dx[n].data(), C) * frobenius(dx[n].data(), C);
    norms[2] += frobenius(dy[n].data(), OC) * frobenius(dy[n].data(), OC);
  }
  for (int i = 0; i < C; i++) {
    fillRandom(dw[i].data(), OC, 80 + i);
    norms[1] += frobenius(dw[i].data(), OC) * frobenius(dw[i].data(), OC);
  }
  const double alpha = 0.75, beta = -0.5;
  dense_tanh(dy, dx, dw, &alpha, &beta, N, C, OC);
  std::vector<double> flat;
  for (const std::vector<double> &row : dy)
    flat.insert(flat.end(), row.begin(), row.end());
  printMatrix("tanh-vectors", C,
              withFunction(0.75 * std::sqrt(norms[0] * norms[1]) +
                               0.5 * std::sqrt(norms[2]),
                           N * OC),
              flat.data(), N, OC, OC, 1);
  return 0;
}
