// Tiles clipped with fmin, which computes in double: of two ints, exactly
// their smaller, so `m < fmin(m0 + bs, M)` bounds the loop within its tile
// as `m < min(m0 + bs, M)` does (a course's cache-blocked product). Near
// miss: fminf, whose float rounds ints past 2^24.
//
// RUN: gemm-opt %s -o %t.c --kernels=%t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:

#include <math.h>

void blocked(int M, int N, int K, double **A, double **B, double **C,
             int bs) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = M x N x K; {{.*}}rewritten
  for (int m0 = 0; m0 < M; m0 += bs)
    for (int k0 = 0; k0 < K; k0 += bs)
      for (int n0 = 0; n0 < N; n0 += bs)
        for (int m = m0; m < fmin(m0 + bs, M); m++)
          for (int k = k0; k < fmin(k0 + bs, K); k++)
            for (int n = n0; n < fmin(n0 + bs, N); n++)
              C[m][n] += A[m][k] * B[k][n];
}

void rounded(int M, int N, int K, const float *A, const float *B, float *C,
             int bs) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: non-rectangular bounds: the bound of 'm' depends on 'm0'
  for (int m0 = 0; m0 < M; m0 += bs)
    for (int m = m0; m < fminf(m0 + bs, M); m++)
      for (int n = 0; n < N; n++)
        for (int k = 0; k < K; k++)
          C[m * N + n] += A[m * K + k] * B[k * N + n];
}
