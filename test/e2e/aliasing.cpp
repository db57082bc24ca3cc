// C may alias the inputs: the launcher checks at run time and runs the
// original loop when the buffers overlap, so both calls stay correct.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The lifted problems, computed on the CPU (GEMM_OPT_DEVICE=cpu), must agree too.
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
// CHECK: [-Rpass=gemm]
#include "e2e_util.h"

static void gemm(int n, const double *a, const double *b, double *c, int ldc) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        c[i * ldc + j] += a[i * n + k] * b[k * n + j];
}

int main() {
  const int n = 24;
  static double buf[3 * n * n];
  fillRandom(buf, 3 * n * n, 41);
  double scale = frobenius(buf, n * n) * frobenius(buf + n * n, n * n) +
                 frobenius(buf + 2 * n * n, n * n);
  // Disjoint: may run on the GPU.
  gemm(n, buf, buf + n * n, buf + 2 * n * n, n);
  printMatrix("disjoint", n, scale, buf + 2 * n * n, n, n, n, 1);
  // C overlaps B: only the original loop gives the sequential result.
  scale = frobenius(buf, n * n) * frobenius(buf + n * n, n * n) +
          frobenius(buf + n * n + n / 2, n * n);
  gemm(n, buf, buf + n * n, buf + n * n + n / 2, n);
  printMatrix("overlap", n, scale, buf + n * n, n, n, n, 1);
  return 0;
}
