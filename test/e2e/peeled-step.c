/* The sum's first step written ahead of its loop as a plain product
 * (PeeledStep.cpp): into C, into a double accumulator over float data
 * through walked pointers, the last step ahead of a loop that counts down,
 * in a loop of its own beside the sum's, with alpha, R's pointer walks
 * with the first step a loop of its own; and a near miss (the
 * written step is another element), whose product goes through a
 * temporary. Each runs with K = 1 (the loop runs no iteration) and K = 0
 * (the launcher's precondition fails: the loop runs as written), but for
 * the last step's, which reads row K - 1. The
 * program must print what the original prints, within the bound of a
 * reordered sum, and the guard cells must keep their values.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %host_cc -std=c99 -O1 -I %S/Inputs %s -lm -o %t/orig && %t/orig > %t/expected
 * RUN: gemm-opt %s -o %t/host.c --kernels=%t/kernels.cu -- -I %S/Inputs 2>&1 | FileCheck %s
 * RUN: %host_cc -std=c99 -Wall -Werror -O1 -I %S/Inputs -c %t/host.c -o %t/host.o
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t/kernels.cu -o %t/kernels.o
 * RUN: %nvcc -arch=sm_%cuda_arch %t/host.o %t/kernels.o %gemm_runtime_lib -o %t/split
 * RUN: %t/split > %t/actual && %python %S/compare.py %t/expected %t/actual
 * RUN: env GEMM_OPT_DEVICE=cpu %t/split > %t/lifted && %python %S/compare.py %t/expected %t/lifted
 * CHECK-COUNT-8: GEMM recognised:
 */
#include "e2e_util_c.h"

void into_c(int m, int n, int k, const float *a, const float *b, float *c) {
  int i, j, t;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      c[i * n + j] = a[i * k] * b[j];
      for (t = 1; t < k; t++)
        c[i * n + j] += a[i * k + t] * b[t * n + j];
    }
}

void walked(float *d, const float *m1, const float *m2, int rows, int cols,
            int inner) {
  int i, j, t;
  const float *p1, *p2;
  double sum;
  p1 = m1;
  for (i = 0; i < rows; i++) {
    for (j = 0; j < cols; j++) {
      p2 = m2 + j;
      sum = p1[0] * p2[0];
      for (t = 1; t < inner; t++) {
        p2 += cols;
        sum += p1[t] * p2[0];
      }
      *d++ = sum;
    }
    p1 += inner;
  }
}

void last_step(int m, int n, int k, const double *a, const double *b,
               double *c) {
  int i, j, t;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      double s = a[i * k + k - 1] * b[(k - 1) * n + j];
      for (t = k - 2; t >= 0; t--)
        s += a[i * k + t] * b[t * n + j];
      c[i * n + j] = s;
    }
}

void own_loop(int m, int n, int k, const double *a, int lda, const double *b,
              int ldb, double *c, int ldc) {
  int i, j, t;
  for (j = 0; j < n; j++) {
    for (i = 0; i < m; i++)
      c[i + j * ldc] = a[i] * b[j * ldb];
    for (t = 1; t < k; t++)
      for (i = 0; i < m; i++)
        c[i + j * ldc] += a[i + t * lda] * b[t + j * ldb];
  }
}

void scaled(int m, int n, int k, float alpha, const float *a, const float *b,
            float *c) {
  int i, j, t;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      c[i * n + j] = alpha * a[i * k] * b[j];
      for (t = 1; t < k; t++)
        c[i * n + j] += alpha * a[i * k + t] * b[t * n + j];
    }
}

void other_element(int m, int n, int k, const float *a, const float *b,
                   float *c) {
  int i, j, t;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      c[i * n + j] = a[i * k + 1] * b[n + j];
      for (t = 1; t < k; t++)
        c[i * n + j] += a[i * k + t] * b[t * n + j];
    }
}

/* R's style: column-major, dimensions through int pointers, every operand
 * walked by a pointer, the first step a loop of its own; A = B C and
 * A = B C'. */
void mult_bc(double *A, const double *B, const double *C, const int *r,
             const int *c, const int *n) {
  double xx, *ap, *ap1;
  const double *bp;
  int i, j;
  for (j = 0; j < *c; j++) {
    ap1 = A + *r;
    xx = *C;
    bp = B;
    for (ap = A; ap < ap1; ap++, bp++)
      *ap = xx * *bp;
    C++;
    for (i = 1; i < *n; i++, C++)
      for (xx = *C, ap = A; ap < ap1; ap++, bp++)
        *ap += xx * *bp;
    A = ap1;
  }
}

void mult_bct(double *A, const double *B, const double *C, const int *r,
              const int *c, const int *n) {
  double xx, *ap, *ap1;
  const double *bp, *cp = C;
  int i, j;
  for (j = 0; j < *c; j++) {
    ap1 = A + *r;
    C = cp;
    xx = *C;
    bp = B;
    for (ap = A; ap < ap1; ap++, bp++)
      *ap = xx * *bp;
    C += *c;
    for (i = 1; i < *n; i++, C += *c)
      for (xx = *C, ap = A; ap < ap1; ap++, bp++)
        *ap += xx * *bp;
    A = ap1;
    cp++;
  }
}

int main(void) {
  const int m = 37, n = 29, ks[3] = {45, 1, 0};
  int mi = m, ni = n;
  /* K = 0 still reads row 0 of each operand in the written step. */
  float *a = malloc(sizeof(float) * m * 46), *b = malloc(sizeof(float) * 46 * n);
  double *ad = malloc(sizeof(double) * m * 46), *bd = malloc(sizeof(double) * 46 * n);
  float *c = guarded_f((long)m * n);
  double *cd = guarded_d((long)m * n);
  int r;
  fill_f(a, (long)m * 46, 1);
  fill_f(b, 46L * n, 2);
  fill_d(ad, (long)m * 46, 3);
  fill_d(bd, 46L * n, 4);
  for (r = 0; r < 3; r++) {
    int k = ks[r], kk = k > 0 ? k : 1;
    double s = norm_f(a, (long)m * kk) * norm_f(b, (long)kk * n) + 1;
    double sd = norm_d(ad, (long)m * kk) * norm_d(bd, (long)kk * n) + 1;
    into_c(m, n, k, a, b, c + GUARD);
    show_f("into-c", kk, s, c, (long)m * n);
    walked(c + GUARD, a, b, m, n, k);
    show_f("walked", kk, s, c, (long)m * n);
    if (k > 0) { /* the written step reads row k - 1 */
      last_step(m, n, k, ad, bd, cd + GUARD);
      show_d("last-step", kk, sd, cd, (long)m * n);
    }
    own_loop(m, n, k, ad, m, bd, kk, cd + GUARD, m);
    show_d("own-loop", kk, sd, cd, (long)m * n);
    scaled(m, n, k, -1.5f, a, b, c + GUARD);
    show_f("scaled", kk, 1.5 * s, c, (long)m * n);
    if (k > 0) { /* the first step reads C's first row */
      mult_bc(cd + GUARD, ad, bd, &mi, &ni, &k);
      show_d("mult-bc", kk, sd, cd, (long)m * n);
      mult_bct(cd + GUARD, ad, bd, &mi, &ni, &k);
      show_d("mult-bct", kk, sd, cd, (long)m * n);
    }
    if (k > 1) {
      other_element(m, n, k, a, b, c + GUARD);
      show_f("other-element", kk, 2 * s, c, (long)m * n);
    }
  }
  return 0;
}
