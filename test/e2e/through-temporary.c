/* Products that go through a temporary (Temporary.cpp), in C: a bias
 * scaled with the sum (C89 loops, the indices declared at the top), and a
 * residual subtracted from a right-hand side with a store that a flag
 * transposes, weighted per column. The host file mallocs the temporary; the launcher computes
 * the product into it, and the nest runs as written with its K loop reading
 * it. Where the output overlaps A (the second call of `residual`), the
 * run-time check runs the loop as written. The program must print what the
 * original prints, within the bound of a reordered sum, and the guard cells
 * must keep their values.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %host_cc -std=c99 -O1 -I %S/Inputs %s -lm -o %t/orig && %t/orig > %t/expected
 * RUN: gemm-opt %s -o %t/host.c --kernels=%t/kernels.cu -- -I %S/Inputs 2>&1 | FileCheck %s
 * RUN: %host_cc -std=c99 -Wall -Werror -O1 -I %S/Inputs -c %t/host.c -o %t/host.o
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t/kernels.cu -o %t/kernels.o
 * RUN: %nvcc -arch=sm_%cuda_arch %t/host.o %t/kernels.o %gemm_runtime_lib -o %t/temporary
 * RUN: %t/temporary > %t/actual && %python %S/compare.py %t/expected %t/actual
 * RUN: env GEMM_OPT_DEVICE=cpu %t/temporary > %t/lifted && %python %S/compare.py %t/expected %t/lifted
 * RUN: env GEMM_OPT_DEVICE=cpu GEMM_OPT_TRACE=1 %t/temporary 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
 * CHECK-COUNT-2: the product goes through a temporary of {{.*}} [-Rpass=gemm]
 * TRACE-COUNT-2: ran on the CPU reference
 * TRACE-NOT: ran on
 */
#include "e2e_util_c.h"

/* out = (bias + x w^T) * scale */
static void scaled_bias(float *out, const float *x, const float *w,
                        const float *bias, float scale, int m, int n, int k) {
  int i, j, p;
  float sum;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      sum = bias[j];
      for (p = 0; p < k; p++)
        sum += x[i * k + p] * w[j * k + p];
      out[i * n + j] = sum * scale;
    }
}

/* r = (rhs - a b) weighted per column, stored transposed where
 * `transposed` is set. */
static void residual(double *r, const double *rhs, const double *a,
                     const double *b, const double *weight, int m, int n,
                     int k, int transposed) {
  int i, j, p;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      double s = rhs[i * n + j];
      for (p = 0; p < k; p++)
        s -= a[i * k + p] * b[p * n + j];
      s *= weight[j];
      if (transposed)
        r[j * m + i] = s;
      else
        r[i * n + j] = s;
    }
}

int main(void) {
  const int m = 23, n = 19, k = 31;
  float *x = malloc(sizeof(float) * (m * k + 2 * GUARD));
  float *w = malloc(sizeof(float) * (n * k + 2 * GUARD));
  float *bias = malloc(sizeof(float) * (n + 2 * GUARD));
  float *out = malloc(sizeof(float) * (m * n + 2 * GUARD));
  double *a = malloc(sizeof(double) * (m * k + m * n + 2 * GUARD));
  double *b = malloc(sizeof(double) * (k * n + 2 * GUARD));
  double *rhs = malloc(sizeof(double) * (m * n + 2 * GUARD));
  double *r = malloc(sizeof(double) * (m * n + 2 * GUARD));
  double *weight = malloc(sizeof(double) * n);
  long i;
  for (i = 0; i < m * k + 2 * GUARD; ++i)
    x[i] = -7.0f;
  for (i = 0; i < n * k + 2 * GUARD; ++i)
    w[i] = -7.0f;
  for (i = 0; i < n + 2 * GUARD; ++i)
    bias[i] = -7.0f;
  for (i = 0; i < m * n + 2 * GUARD; ++i)
    out[i] = -7.0f;
  fill_f(x + GUARD, (long)m * k, 3);
  fill_f(w + GUARD, (long)n * k, 5);
  fill_f(bias + GUARD, n, 7);
  scaled_bias(out + GUARD, x + GUARD, w + GUARD, bias + GUARD, 0.75f, m, n, k);
  show_f("scaled_bias", k,
         0.75 * norm_f(x + GUARD, (long)m * k) * norm_f(w + GUARD, (long)n * k) +
             0.75 * m,
         out, (long)m * n);
  show_f("x", k, 1.0, x, (long)m * k);
  show_f("w", k, 1.0, w, (long)n * k);

  for (i = 0; i < m * k + m * n + 2 * GUARD; ++i)
    a[i] = -7.0;
  for (i = 0; i < k * n + 2 * GUARD; ++i)
    b[i] = -7.0;
  for (i = 0; i < m * n + 2 * GUARD; ++i)
    rhs[i] = r[i] = -7.0;
  fill_d(a + GUARD, (long)m * k, 11);
  fill_d(b + GUARD, (long)k * n, 13);
  fill_d(rhs + GUARD, (long)m * n, 17);
  fill_d(weight, n, 19);
  residual(r + GUARD, rhs + GUARD, a + GUARD, b + GUARD, weight, m, n, k, 1);
  show_d("residual_transposed", k,
         norm_d(a + GUARD, (long)m * k) * norm_d(b + GUARD, (long)k * n) +
             norm_d(rhs + GUARD, (long)m * n),
         r, (long)m * n);
  /* Into a's own buffer, after its k * m elements: the spans meet (the
   * store's span starts inside A's last row), so the loop runs. */
  residual(a + GUARD + m * k - 1, rhs + GUARD, a + GUARD, b + GUARD, weight,
           m, n, k, 0);
  show_d("residual_over_a", k,
         4.0 * norm_d(a + GUARD, (long)m * k) * norm_d(b + GUARD, (long)k * n) +
             4.0 * norm_d(rhs + GUARD, (long)m * n),
         a, (long)m * k + m * n - 1);
  show_d("b", k, 1.0, b, (long)k * n);

  free(x);
  free(w);
  free(bias);
  free(out);
  free(a);
  free(b);
  free(rhs);
  free(r);
  free(weight);
  return 0;
}
