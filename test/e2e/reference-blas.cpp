// A C translation of the reference BLAS's GEMM, written the way such
// translations are: variables declared at the top, the beta branches ahead
// of each column's update, `temp` assigned above the inner loop. Called with
// beta = 0 (C poisoned with NaN, which must not leak: beta == 0 never reads
// C), beta = 1 and another beta.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s --reference-kernel -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The lifted problems, computed on the CPU (GEMM_OPT_DEVICE=cpu).
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
#include "e2e_util.h"

#include <cmath>
#include <vector>

// C := alpha*A*B + beta*C, column-major, no transposes.
static void dgemmNN(int m, int n, int k, double alpha, const double *a,
                    int lda, const double *b, int ldb, double beta, double *c,
                    int ldc) {
  int i, j, l;
  double temp;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64{{.*}}the beta branches of the reference BLAS
  for (j = 0; j < n; j++) {
    if (beta == 0.0) {
      for (i = 0; i < m; i++)
        c[i + j * ldc] = 0.0;
    } else if (beta != 1.0) {
      for (i = 0; i < m; i++)
        c[i + j * ldc] = beta * c[i + j * ldc];
    }
    for (l = 0; l < k; l++) {
      temp = alpha * b[l + j * ldb];
      for (i = 0; i < m; i++)
        c[i + j * ldc] += temp * a[i + l * lda];
    }
  }
}

// The reference BLAS's skip of zero terms of B (here a third of them).
static void dgemmSkip(int m, int n, int k, double alpha, const double *a,
                      int lda, const double *b, int ldb, double *c, int ldc) {
  int i, j, l;
  double temp;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64{{.*}}the terms it skips where 'b[l + j * ldb]' is 0 are 0 unless A or B holds Inf or NaN
  for (j = 0; j < n; j++)
    for (l = 0; l < k; l++)
      if (b[l + j * ldb] != 0.0) {
        temp = alpha * b[l + j * ldb];
        for (i = 0; i < m; i++)
          c[i + j * ldc] += temp * a[i + l * lda];
      }
}

// Only the zero branch, row-major, single precision.
static void sgemmZero(int m, int n, int k, const float *a, const float *b,
                      float beta, float *c) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32{{.*}}beta = (beta == 0 ? 0 : 1)
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      if (beta == 0)
        c[i * n + j] = 0;
      for (int l = 0; l < k; l++)
        c[i * n + j] += a[i * k + l] * b[l * n + j];
    }
}

int main() {
  const int m = 23, n = 19, k = 31, lda = m + 2, ldb = k + 1, ldc = m + 3;
  std::vector<double> a(lda * k), b(ldb * n);
  fillRandom(a.data(), long(a.size()), 11);
  fillRandom(b.data(), long(b.size()), 12);
  const double normAB = frobenius(a.data(), long(a.size())) *
                        frobenius(b.data(), long(b.size()));
  for (double beta : {0.0, 1.0, -0.75}) {
    std::vector<double> c(ldc * n);
    fillRandom(c.data(), long(c.size()), 13);
    if (beta == 0)
      for (double &x : c)
        x = std::nan("");
    const double normC = beta == 0 ? 0 : frobenius(c.data(), long(c.size()));
    dgemmNN(m, n, k, 1.25, a.data(), lda, b.data(), ldb, beta, c.data(), ldc);
    printMatrix("dgemm", k, 1.25 * normAB + std::fabs(beta) * normC, c.data(),
                m, n, 1, ldc);
  }
  {
    std::vector<double> sparse(b), c(ldc * n);
    for (size_t i = 0; i < sparse.size(); i += 3)
      sparse[i] = 0;
    fillRandom(c.data(), long(c.size()), 16);
    const double scale = 0.5 * frobenius(a.data(), long(a.size())) *
                             frobenius(sparse.data(), long(sparse.size())) +
                         frobenius(c.data(), long(c.size()));
    dgemmSkip(m, n, k, 0.5, a.data(), lda, sparse.data(), ldb, c.data(), ldc);
    printMatrix("dgemm-skip", k, scale, c.data(), m, n, 1, ldc);
  }
  std::vector<float> fa(m * k), fb(k * n);
  fillRandom(fa.data(), long(fa.size()), 14);
  fillRandom(fb.data(), long(fb.size()), 15);
  for (float beta : {0.0f, 2.0f}) {
    std::vector<float> fc(m * n, beta == 0 ? NAN : 0.5f);
    sgemmZero(m, n, k, fa.data(), fb.data(), beta, fc.data());
    printMatrix("sgemm", k,
                frobenius(fa.data(), long(fa.size())) *
                        frobenius(fb.data(), long(fb.size())) +
                    frobenius(fc.data(), 0) + (beta == 0 ? 0 : 0.5 * m * n),
                fc.data(), m, n, n, 1);
  }
  return 0;
}
