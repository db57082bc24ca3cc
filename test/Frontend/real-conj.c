/* Matrix code written once for real and complex elements conjugates a
 * factor (X * X^H). With a real element type, conjf of a real value read
 * back as real is the value itself: the nest is the real product. A
 * conjugated complex value, or a product of two complex values, is complex
 * arithmetic and stays as written.
 *
 * RUN: gemm-opt %s -o %t.c 2>&1 | FileCheck %s --implicit-check-not=remark:
 */
#include <complex.h>

#define ELEM float
#define AT(m, ld, r, c) (m)[(r) * (ld) + (c)]

/* X * X^H, the conjugated factor through a local of the element type. */
void outer_gram(const ELEM *x, unsigned m, unsigned n, ELEM *g) {
  unsigned r, c, i;
  ELEM acc = 0;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x m x n; A row-major, B column-major, C row-major; accumulates in 'acc', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  for (r = 0; r < m; r++)
    for (c = 0; c < m; c++) {
      acc = 0.0f;
      for (i = 0; i < n; i++) {
        ELEM term = AT(x, n, r, i) * conjf(AT(x, n, c, i));
        acc += term;
      }
      AT(g, m, r, c) = acc;
    }
}

/* X^H * X in double, the conjugate first, the real part taken by creal. */
void inner_gram(const double *x, int m, int n, double *g) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = n x n x m; A column-major, B row-major, C row-major; accumulates in 'acc', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  for (int r = 0; r < n; r++)
    for (int c = 0; c < n; c++) {
      double acc = 0;
      for (int i = 0; i < m; i++)
        acc += creal(conj(x[i * n + r]) * x[i * n + c]);
      g[r * n + c] = acc;
    }
}

/* A sum inside the conjugate: the real part of a sum is the sum. */
void shifted(const float *a, const float *b, const float *d, int M, int N,
             int K, float *out) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; {{.*}}rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int k = 0; k < K; k++)
        s += a[i * K + k] * crealf(conjf(b[k * N + j]));
      out[i * N + j] = s;
    }
}

/* Near miss: the operand is complex, so the conjugate changes it. */
void complex_gram(const float complex *x, int m, int n, float *g) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'conjf' of a complex value: the nest computes in complex arithmetic, which a real GEMM does not [-Rpass-missed=gemm]
  for (int r = 0; r < m; r++)
    for (int c = 0; c < m; c++) {
      float acc = 0;
      for (int i = 0; i < n; i++)
        acc += x[r * n + i] * conjf(x[c * n + i]);
      g[r * m + c] = acc;
    }
}

/* Near miss: a product of two complex values reads their imaginary parts
 * (-im * im), which an infinity or a NaN would change. */
void two_conjugates(const float *x, int m, int n, float *g) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the nest computes in complex arithmetic (a product of two complex values, or a complex value read as real), which a real GEMM does not [-Rpass-missed=gemm]
  for (int r = 0; r < m; r++)
    for (int c = 0; c < m; c++) {
      float acc = 0;
      for (int i = 0; i < n; i++)
        acc += conjf(x[r * n + i]) * conjf(x[c * n + i]);
      g[r * m + c] = acc;
    }
}
