// Float products whose author lets them run on Hopper's TF32 tensor cores
// (#pragma gemm_opt precision): one TF32 product, three (3xTF32), a layer
// with a bias (which the tensor-core launch leaves to the FP32 kernels), a
// double product (which the pragma does not change) and one left in FP32.
// Each result is compared under its precision's bound (compare.py).
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s --reference-kernel -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
#include "e2e_util.h"

#include <cmath>
#include <vector>

// y = x * w, all row-major.
static void forward(const float *x, const float *w, float *y, int m, int n,
                    int k) {
  // CHECK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, {{.*}}; precision tf32 (TF32 tensor cores on sm_90 GPUs, 10-bit mantissas; {{.*}}); rewritten to call
#pragma gemm_opt precision(tf32)
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int p = 0; p < k; ++p)
        sum += x[i * k + p] * w[p * n + j];
      y[i * n + j] = sum;
    }
}

// c = alpha * a * b + beta * c with b stored by columns.
static void update(const float *a, const float *b, float *c, int m, int n,
                   int k, float alpha, float beta) {
  // CHECK: :[[@LINE+3]]:3: remark: GEMM recognised: f32, {{.*}}; precision 3xtf32 (three TF32 products on sm_90 GPUs' tensor cores, FP32-accurate; {{.*}}); rewritten to call
#pragma gemm_opt precision(3xtf32)
  // (comments may stand between the pragma and its nest)
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int p = 0; p < k; ++p)
        sum += a[i * k + p] * b[j * k + p];
      c[i * n + j] = alpha * sum + beta * c[i * n + j];
    }
}

// A dense layer with a bias: the FP32 kernels run it.
static void dense(const float *x, const float *w, const float *bias, float *y,
                  int m, int n, int k) {
  // CHECK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, {{.*}}; precision tf32 (
#pragma gemm_opt precision(tf32)
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = bias[j];
      for (int p = 0; p < k; ++p)
        sum += x[i * k + p] * w[p * n + j];
      y[i * n + j] = sum;
    }
}

static void dgemm(const double *a, const double *b, double *c, int m, int n,
                  int k) {
  // CHECK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, {{.*}}; precision tf32 does not apply to an f64 product; rewritten to call
#pragma gemm_opt precision(tf32)
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = 0;
      for (int p = 0; p < k; ++p)
        sum += a[i * k + p] * b[p * n + j];
      c[i * n + j] = sum;
    }
}

static void plain(const float *a, const float *b, float *c, int m, int n,
                  int k) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, {{.*}} beta = 0; rewritten to call
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int p = 0; p < k; ++p)
        sum += a[i * k + p] * b[p * n + j];
      c[i * n + j] = sum;
    }
}

int main() {
  const int m = 517, n = 389, k = 703;
  std::vector<float> a(m * k), b(k * n), c(m * n), bias(n);
  std::vector<double> ad(m * k), bd(k * n), cd(m * n);
  fillRandom(a.data(), m * k, 1);
  fillRandom(b.data(), k * n, 2);
  fillRandom(bias.data(), n, 3);
  fillRandom(ad.data(), m * k, 4);
  fillRandom(bd.data(), k * n, 5);
  const double ab = frobenius(a.data(), m * k) * frobenius(b.data(), k * n);

  forward(a.data(), b.data(), c.data(), m, n, k);
  printMatrix("forward", k, ab, c.data(), m, n, n, 1, "tf32");

  fillRandom(c.data(), m * n, 6);
  const double updated = 1.5 * ab + 0.5 * frobenius(c.data(), m * n);
  update(a.data(), b.data(), c.data(), m, n, k, 1.5f, -0.5f);
  printMatrix("update", k, updated, c.data(), m, n, n, 1, "3xtf32");

  dense(a.data(), b.data(), bias.data(), c.data(), m, n, k);
  printMatrix("dense", k, ab + frobenius(bias.data(), n) * std::sqrt(double(m)),
              c.data(), m, n, n, 1, "tf32");

  dgemm(ad.data(), bd.data(), cd.data(), m, n, k);
  printMatrix("dgemm", k,
              frobenius(ad.data(), m * k) * frobenius(bd.data(), k * n),
              cd.data(), m, n, n, 1);

  plain(a.data(), b.data(), c.data(), m, n, k);
  printMatrix("plain", k, ab, c.data(), m, n, n, 1);
  return 0;
}
