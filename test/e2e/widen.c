/* Float matrices summed in a double accumulator (CUDA samples' matrixMulCPU
 * and computeGold): the loop computes each element in double and rounds it
 * to float once, and so must the rewrite (gemm_widen.h). Forms: each factor
 * widened before the product, the float product summed in double with
 * alpha, beta and a bias, and C with padding between its rows. One row of
 * A cancels (1e8 + 1 - 1e8): summed in double it gives 1, in float 0, and
 * the `cancel` lines must match exactly. Where C overlaps A, the loop runs.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %host_cc -std=c99 -O1 -I %S/Inputs %s -lm -o %t/orig && %t/orig > %t/expected
 * RUN: gemm-opt %s -o %t/host.c --kernels=%t/kernels.cu -- -I %S/Inputs 2>&1 | FileCheck %s
 * RUN: %host_cc -std=c99 -Wall -Werror -O1 -I %S/Inputs -c %t/host.c -o %t/host.o
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t/kernels.cu -o %t/kernels.o
 * RUN: %nvcc -arch=sm_%cuda_arch %t/host.o %t/kernels.o %gemm_runtime_lib -o %t/widen
 * RUN: %t/widen > %t/actual && %python %S/compare.py %t/expected %t/actual
 * RUN: env GEMM_OPT_DEVICE=cpu %t/widen > %t/lifted && %python %S/compare.py %t/expected %t/lifted
 * RUN: env GEMM_OPT_DEVICE=cpu GEMM_OPT_TRACE=1 %t/widen 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
 * CHECK-COUNT-2: summed in double, as the accumulator 'sum' is: the operands are widened to double; {{.*}} [-Rpass=gemm]
 * TRACE: nest {{.*}}widen.c:31:3 sums float matrices in double
 * TRACE-NEXT: nest {{.*}}widen.c:31:3 ran on the CPU reference
 * TRACE-NEXT: nest {{.*}}widen.c:47:3 sums float matrices in double
 * TRACE-NEXT: nest {{.*}}widen.c:47:3 ran on the CPU reference
 * TRACE-NEXT: nest {{.*}}widen.c:31:3 runs the original loop: C overlaps A
 * TRACE-NOT: ran on
 */
#include "e2e_util_c.h"

/* CUDA samples' matrixMulCPU. */
static void gold(float *C, const float *A, const float *B, unsigned hA,
                 unsigned wA, unsigned wB) {
  for (unsigned i = 0; i < hA; ++i)
    for (unsigned j = 0; j < wB; ++j) {
      double sum = 0;
      for (unsigned k = 0; k < wA; ++k) {
        double a = A[i * wA + k];
        double b = B[k * wB + j];
        sum += a * b;
      }
      C[i * wB + j] = (float)sum;
    }
}

/* C = alpha * A * B^T + beta * C + bias[j], C with leading dimension ldc. */
static void scaled(int m, int n, int k, float alpha, const float *a,
                   const float *b, float beta, float *c, int ldc,
                   const float *bias) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = 0.0;
      for (int p = 0; p < k; ++p)
        sum += a[i * k + p] * b[j * k + p];
      c[i * ldc + j] = alpha * sum + beta * c[i * ldc + j] + bias[j];
    }
}

int main(void) {
  const int m = 37, n = 29, k = 45, ldc = n + 3;
  float *a = malloc(sizeof(float) * (m * k + 2 * GUARD));
  float *b = malloc(sizeof(float) * k * n);
  float *bt = malloc(sizeof(float) * n * k);
  float *bias = malloc(sizeof(float) * n);
  float *c = malloc(sizeof(float) * (m * ldc + 2 * GUARD));
  long i;
  fill_f(a + GUARD, (long)m * k, 3);
  fill_f(b, (long)k * n, 5);
  fill_f(bt, (long)n * k, 7);
  fill_f(bias, n, 9);
  /* Row 2 of A cancels against a column of ones in B's column 0. */
  a[GUARD + 2 * k + 0] = 1e8f;
  a[GUARD + 2 * k + 1] = 1.0f;
  a[GUARD + 2 * k + 2] = -1e8f;
  for (i = 3; i < k; ++i)
    a[GUARD + 2 * k + i] = 0.0f;
  for (i = 0; i < k; ++i)
    b[i * n] = 1.0f;
  double anorm = norm_f(a + GUARD, (long)m * k);

  for (i = 0; i < m * n + 2 * GUARD; ++i)
    c[i] = -7.0f;
  gold(c + GUARD, a + GUARD, b, m, k, n);
  show_f("gold", k, anorm * norm_f(b, (long)k * n), c, (long)m * n);
  printf("cancel %.9g\n", (double)c[GUARD + 2 * n]);

  /* Padding between C's rows keeps its value: shown as part of C. */
  for (i = 0; i < m * ldc + 2 * GUARD; ++i)
    c[i] = i < GUARD || i >= GUARD + m * ldc ? -7.0f
                                             : 0.25f * (float)(i % 7) - 0.5f;
  double c0 = norm_f(c + GUARD, (long)m * ldc);
  scaled(m, n, k, 1.5f, a + GUARD, bt, -0.5f, c + GUARD, ldc, bias);
  show_f("scaled", k,
         1.5 * anorm * norm_f(bt, (long)n * k) + 0.5 * c0 + m * norm_f(bias, n),
         c, (long)m * ldc);

  /* C on A's rows 4 to 11, which the product reads: the loop runs. */
  gold(a + GUARD + 4 * k, a + GUARD, b, 8, k, n);
  show_f("overlap", k, 4.0 * anorm * norm_f(b, (long)k * n), a, (long)m * k);

  free(a);
  free(b);
  free(bt);
  free(bias);
  free(c);
  return 0;
}
