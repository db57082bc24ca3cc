// Batched GEMMs: 3-D arrays and flat buffers with batch strides, plus an
// OpenMP pragma on the outer loop.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The lifted problems, computed on the CPU (GEMM_OPT_DEVICE=cpu), must agree too.
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
// CHECK-COUNT-2: [-Rpass=gemm]
#include "e2e_util.h"

#include <vector>

enum { B = 5, M = 13, N = 17, K = 11 };
static float X[B][M][K], Y[B][K][N], Z[B][M][N];

static void batchedFlat(int batch, int m, int n, int k, const double *a,
                        const double *b, double *c) {
#pragma omp parallel for
  for (int p = 0; p < batch; ++p)
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double acc = 0;
        for (int l = 0; l < k; ++l)
          acc += a[p * m * k + i * k + l] * b[p * k * n + l * n + j];
        c[p * m * n + i * n + j] = acc;
      }
}

int main() {
  fillRandom(&X[0][0][0], B * M * K, 31);
  fillRandom(&Y[0][0][0], B * K * N, 32);
  for (int p = 0; p < B; ++p)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        for (int l = 0; l < K; ++l)
          Z[p][i][j] += X[p][i][l] * Y[p][l][j];
  printMatrix("array3d", K, frobenius(&X[0][0][0], B * M * K) * frobenius(&Y[0][0][0], B * K * N),
              &Z[0][0][0], B * M, N, N, 1);

  const int batch = 7, m = 9, n = 21, k = 15;
  std::vector<double> a(batch * m * k), b(batch * k * n), c(batch * m * n);
  fillRandom(a.data(), a.size(), 33);
  fillRandom(b.data(), b.size(), 34);
  batchedFlat(batch, m, n, k, a.data(), b.data(), c.data());
  printMatrix("flat", k, frobenius(a.data(), a.size()) * frobenius(b.data(), b.size()),
              c.data(), batch * m, n, n, 1);
  return 0;
}
