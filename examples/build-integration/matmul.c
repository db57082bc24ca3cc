/* A column-major product written in C, as C libraries write it; main.cpp
   calls it. gemm-opt keeps this file C, for the C compiler, and writes its
   kernels apart, for nvcc. */
#include "matmul.h"

void matmul_colmajor(int m, int n, int k, const double *a, const double *b,
                     double *c) {
  int i, j, l;
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) {
      double t = 0.0;
      for (l = 0; l < k; l++)
        t += a[i + l * m] * b[l + j * k];
      c[i + j * m] = t;
    }
}
