/* Pointers declared at the top of a function (C89) that each nest sets
 * before every use: an inference runtime's Gemm whose bias element comes
 * through a broadcast helper in the bias branch (NestLocals.cpp; versioned:
 * the product without a bias is rewritten), a product whose column
 * pointer is set from an inline accessor in each column (a pointer walk),
 * index locals set from the loop indices in each iteration (with HLS
 * loop labels), and a batch loop
 * whose operands come through a broadcast's `at % size`, whose inner
 * product is rewritten for each batch. The program must print what the
 * original prints, within the bound of a reordered sum, and the guard
 * cells must keep their values.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %host_cc -std=c99 -O1 -I %S/Inputs %s -lm -o %t/orig && %t/orig > %t/expected
 * RUN: gemm-opt %s -o %t/host.c --kernels=%t/kernels.cu -- -I %S/Inputs 2>&1 | FileCheck %s
 * RUN: %host_cc -std=c99 -Wall -Werror -Wno-unused-label -O1 -I %S/Inputs -c %t/host.c -o %t/host.o
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t/kernels.cu -o %t/kernels.o
 * RUN: %nvcc -arch=sm_%cuda_arch %t/host.o %t/kernels.o %gemm_runtime_lib -o %t/split
 * RUN: %t/split > %t/actual && %python %S/compare.py %t/expected %t/actual
 * RUN: env GEMM_OPT_DEVICE=cpu %t/split > %t/lifted && %python %S/compare.py %t/expected %t/lifted
 * CHECK-COUNT-4: GEMM recognised: f32
 */
#include "e2e_util_c.h"

struct tens { float *data; long size; };
static inline float *at_of(const struct tens *t, long at) { return t->data + (at % t->size); }
struct mat { int rows, cols; const float *data; };
static inline const float *column(const struct mat *m, int j) { return m->data + j; }

void gemm_bias(int m, int n, int k, float alpha, float beta, const float *a,
               const float *b, const struct tens *bias, float *y) {
  float *q, acc;
  int r, s, t;
  for (r = 0; r < m; r++)
    for (s = 0; s < n; s++) {
      acc = 0;
      for (t = 0; t < k; t++)
        acc += a[r * k + t] * b[t * n + s];
      if (bias) {
        q = at_of(bias, (long)r * n + s);
        y[r * n + s] = alpha * acc + beta * (*q);
      } else
        y[r * n + s] = alpha * acc;
    }
}

void by_columns(float *d, const struct mat *a, const struct mat *b) {
  int r, s, t;
  const float *ap, *bp;
  float acc;
  ap = a->data;
  for (r = 0; r < a->rows; r++) {
    for (s = 0; s < b->cols; s++) {
      bp = column(b, s);
      acc = 0;
      for (t = 0; t < a->cols; t++) {
        acc += ap[t] * bp[0];
        bp += b->cols;
      }
      *d++ = acc;
    }
    ap += a->cols;
  }
}

void batched(const struct tens *ta, const struct tens *tb, float *out,
             long total, int m, int n, int k) {
  float *x, *w, acc;
  long at;
  int r, s, t;
  for (at = 0; at < total; at += (long)m * n) {
    x = at_of(ta, at);
    w = at_of(tb, at);
    for (r = 0; r < m; r++)
      for (s = 0; s < n; s++) {
        acc = 0;
        for (t = 0; t < k; t++)
          acc += x[r * k + t] * w[t * n + s];
        out[at + r * n + s] = acc;
      }
  }
}

void index_locals(const float *m1, const float *m2, float *prod, int m,
                  int n, int k) {
  int i, j, t, i_row, t_row;
  float mult, sum;
outer:
  for (i = 0; i < m; i++) {
  middle:
    for (j = 0; j < n; j++) {
      i_row = i * k;
      sum = 0;
    inner:
      for (t = 0; t < k; t++) {
        t_row = t * n;
        mult = m1[i_row + t] * m2[t_row + j];
        sum += mult;
      }
      prod[i * n + j] = sum;
    }
  }
}

int main(void) {
  const int m = 37, n = 29, k = 45, batches = 3;
  float *a = malloc(sizeof(float) * m * k), *b = malloc(sizeof(float) * k * n);
  float *bias = malloc(sizeof(float) * n), *y = guarded_f((long)m * n);
  float *wide = malloc(sizeof(float) * (m * n + k * n));
  float *out = guarded_f((long)batches * m * n);
  struct tens row = {bias, n}, ta = {a, (long)m * n}, tb = {wide, 2L * m * n};
  struct mat ma = {m, k, a}, mb = {k, n, b};
  double scale;
  fill_f(a, (long)m * k, 1);
  fill_f(b, (long)k * n, 2);
  fill_f(bias, n, 3);
  fill_f(wide, (long)m * n + (long)k * n, 4);
  scale = norm_f(a, (long)m * k) * norm_f(b, (long)k * n);

  gemm_bias(m, n, k, 1.5f, 0.5f, a, b, &row, y + GUARD);
  show_f("bias", k, 1.5 * scale + 0.5 * norm_f(bias, n) * m, y, (long)m * n);
  gemm_bias(m, n, k, -2.0f, 0.5f, a, b, NULL, y + GUARD);
  show_f("no-bias", k, 2 * scale, y, (long)m * n);
  by_columns(y + GUARD, &ma, &mb);
  show_f("by-columns", k, scale, y, (long)m * n);
  index_locals(a, b, y + GUARD, m, n, k);
  show_f("index-locals", k, scale, y, (long)m * n);
  batched(&ta, &tb, out + GUARD, (long)batches * m * n, m, n, k);
  show_f("batched", k, norm_f(a, (long)m * k) * norm_f(wide, (long)m * n + (long)k * n),
         out, (long)batches * m * n);
  return 0;
}
