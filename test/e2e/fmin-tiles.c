/* Tiles clipped with fmin (a course's cache-blocked product over tables of
 * rows), with a block size that divides no extent. The program must print
 * what the original prints, within the bound of a reordered sum, and the
 * guard cells must keep their values.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %host_cc -std=c99 -O1 -I %S/Inputs %s -lm -o %t/orig && %t/orig > %t/expected
 * RUN: gemm-opt %s -o %t/host.c --kernels=%t/kernels.cu -- -I %S/Inputs 2>&1 | FileCheck %s
 * RUN: %host_cc -std=c99 -Wall -Werror -O1 -I %S/Inputs -c %t/host.c -o %t/host.o
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t/kernels.cu -o %t/kernels.o
 * RUN: %nvcc -arch=sm_%cuda_arch %t/host.o %t/kernels.o %gemm_runtime_lib -lm -o %t/split
 * RUN: %t/split > %t/actual && %python %S/compare.py %t/expected %t/actual
 * RUN: env GEMM_OPT_DEVICE=cpu %t/split > %t/lifted && %python %S/compare.py %t/expected %t/lifted
 * CHECK: GEMM recognised: f64
 */
#include "e2e_util_c.h"

void blocked(int M, int N, int K, double **A, double **B, double **C,
             int bs) {
  for (int m0 = 0; m0 < M; m0 += bs)
    for (int k0 = 0; k0 < K; k0 += bs)
      for (int n0 = 0; n0 < N; n0 += bs)
        for (int m = m0; m < fmin(m0 + bs, M); m++)
          for (int k = k0; k < fmin(k0 + bs, K); k++)
            for (int n = n0; n < fmin(n0 + bs, N); n++)
              C[m][n] += A[m][k] * B[k][n];
}

int main(void) {
  const int M = 37, N = 29, K = 45;
  double *a = malloc(sizeof(double) * M * K), *b = malloc(sizeof(double) * K * N);
  double *c = guarded_d((long)M * N);
  double *ra[37], *rb[45], *rc[37];
  double scale, c0;
  int i, bs;
  fill_d(a, (long)M * K, 1);
  fill_d(b, (long)K * N, 2);
  for (i = 0; i < M * N; ++i)
    c[GUARD + i] = 0.5;
  for (i = 0; i < M; ++i) {
    ra[i] = a + i * K;
    rc[i] = c + GUARD + i * N;
  }
  for (i = 0; i < K; ++i)
    rb[i] = b + i * N;
  scale = norm_d(a, (long)M * K) * norm_d(b, (long)K * N);
  for (bs = 8; bs <= 64; bs *= 8) {
    c0 = norm_d(c + GUARD, (long)M * N);
    blocked(M, N, K, ra, rb, rc, bs);
    show_d(bs == 8 ? "bs-8" : "bs-64", K, scale + c0, c, (long)M * N);
  }
  return 0;
}
