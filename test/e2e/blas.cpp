// BLAS-style f32 GEMMs on flat pointers with runtime leading dimensions:
// column-major storage, all four transpose combinations, alpha and beta, and
// leading dimensions larger than the extents; beta applied by the
// accumulator's start (s = beta*C) or by a scaling of C before the sum.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The lifted problems, computed on the CPU (GEMM_OPT_DEVICE=cpu), must agree too.
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
// CHECK-COUNT-6: [-Rpass=gemm]
#include "e2e_util.h"

#include <vector>

// Column-major, as in the reference BLAS: element (r, c) of X is x[r + c*ldx].
static void gemmNN(int m, int n, int k, float alpha, const float *a, int lda,
                   const float *b, int ldb, float beta, float *c, int ldc) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      float s = 0.0f;
      for (int l = 0; l < k; ++l)
        s += a[i + l * lda] * b[l + j * ldb];
      c[i + j * ldc] = alpha * s + beta * c[i + j * ldc];
    }
}

static void gemmTN(int m, int n, int k, float alpha, const float *a, int lda,
                   const float *b, int ldb, float beta, float *c, int ldc) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      float s = 0.0f;
      for (int l = 0; l < k; ++l)
        s += a[l + i * lda] * b[l + j * ldb];
      c[i + j * ldc] = alpha * s + beta * c[i + j * ldc];
    }
}

static void gemmNT(int m, int n, int k, float alpha, const float *a, int lda,
                   const float *b, int ldb, float beta, float *c, int ldc) {
  for (int j = 0; j < n; ++j)
    for (int l = 0; l < k; ++l) {
      float t = alpha * b[j + l * ldb];
      for (int i = 0; i < m; ++i)
        c[i + j * ldc] += t * a[i + l * lda];
    }
  (void)beta;
}

static void gemmTT(int m, int n, int k, float alpha, const float *a, int lda,
                   const float *b, int ldb, float *c, int ldc) {
  for (long i = 0; i < m; i++)
    for (long j = 0; j < n; j++)
      for (long l = 0; l < k; l++)
        c[i + j * ldc] -= alpha * a[l + i * lda] * b[j + l * ldb];
}

// The accumulator starts at beta * C, and its store is C = s.
static void gemmStartBeta(int m, int n, int k, const float *a, int lda,
                          const float *b, int ldb, float beta, float *c,
                          int ldc) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      float s = beta * c[i + j * ldc];
      for (int l = 0; l < k; ++l)
        s += a[i + l * lda] * b[l + j * ldb];
      c[i + j * ldc] = s;
    }
}

// C is scaled by beta, then the sum is added to it.
static void gemmScaleFirst(int m, int n, int k, float alpha, const float *a,
                           int lda, const float *b, int ldb, float beta,
                           float *c, int ldc) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      c[i + j * ldc] *= beta;
      float s = 0;
      for (int l = 0; l < k; ++l)
        s += a[i + l * lda] * b[l + j * ldb];
      c[i + j * ldc] += alpha * s;
    }
}

int main() {
  const int m = 37, n = 29, k = 41, ld = 53;
  std::vector<float> a(ld * ld), b(ld * ld), c0(ld * ld), c(ld * ld);
  fillRandom(a.data(), ld * ld, 11);
  fillRandom(b.data(), ld * ld, 12);
  fillRandom(c0.data(), ld * ld, 13);
  float alpha = 0.5f, beta = 2.0f;
  double scale = 2.0 * frobenius(a.data(), ld * ld) * frobenius(b.data(), ld * ld) +
                 2.0 * frobenius(c0.data(), ld * ld);

  c = c0;
  gemmNN(m, n, k, alpha, a.data(), ld, b.data(), ld, beta, c.data(), ld);
  printMatrix("NN", k, scale, c.data(), m, n, 1, ld);
  c = c0;
  gemmTN(m, n, k, alpha, a.data(), ld, b.data(), ld, beta, c.data(), ld);
  printMatrix("TN", k, scale, c.data(), m, n, 1, ld);
  c = c0;
  gemmNT(m, n, k, alpha, a.data(), ld, b.data(), ld, beta, c.data(), ld);
  printMatrix("NT", k, scale, c.data(), m, n, 1, ld);
  c = c0;
  gemmTT(m, n, k, alpha, a.data(), ld, b.data(), ld, c.data(), ld);
  printMatrix("TT", k, scale, c.data(), m, n, 1, ld);
  c = c0;
  gemmStartBeta(m, n, k, a.data(), ld, b.data(), ld, beta, c.data(), ld);
  printMatrix("startBeta", k, scale, c.data(), m, n, 1, ld);
  c = c0;
  gemmScaleFirst(m, n, k, alpha, a.data(), ld, b.data(), ld, beta, c.data(),
                 ld);
  printMatrix("scaleFirst", k, scale, c.data(), m, n, 1, ld);
  return 0;
}
