/* A batch loop whose operands come from a broadcast helper that is not
 * inlined (it has loops and a variable-length array, as an ONNX runtime's
 * MatMul): the helper runs in each batch step as written and the product
 * inside is rewritten alone, launched once per step. A batch of A against
 * one B broadcast to every step, offsets from a helper, and a pointer set
 * after the product for the next step. The program must print what the
 * original prints, within the bound of a reordered sum, and the guard
 * cells must keep their values.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %host_cc -std=c99 -O1 -I %S/Inputs %s -lm -o %t/orig && %t/orig > %t/expected
 * RUN: gemm-opt %s -o %t/host.c --kernels=%t/kernels.cu -- -I %S/Inputs 2>&1 | FileCheck %s
 * RUN: %host_cc -std=c99 -Wall -Werror -O1 -I %S/Inputs -c %t/host.c -o %t/host.o
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t/kernels.cu -o %t/kernels.o
 * RUN: %nvcc -arch=sm_%cuda_arch %t/host.o %t/kernels.o %gemm_runtime_lib -o %t/split
 * RUN: %t/split > %t/actual && %python %S/compare.py %t/expected %t/actual
 * RUN: env GEMM_OPT_DEVICE=cpu %t/split > %t/lifted && %python %S/compare.py %t/expected %t/lifted
 * CHECK-COUNT-3: GEMM recognised: f32
 * CHECK-NOT: remark
 */
#include "e2e_util_c.h"

struct tens { float *data; int ndim; int dims[3]; };

/* The element of `t` that element `at` of `y` reads, broadcasting t's
 * dimensions of size 1. */
static inline float *broadcast_at(const struct tens *t, const struct tens *y,
                                  long at) {
  int ix[y->ndim];
  long off = 0;
  int d;
  for (d = y->ndim - 1; d >= 0; d--) {
    ix[d] = at % y->dims[d];
    at /= y->dims[d];
  }
  for (d = 0; d < t->ndim; d++)
    off = off * t->dims[d] + (t->dims[d] > 1 ? ix[d + y->ndim - t->ndim] : 0);
  return t->data + off;
}

static long offset_of(int b, int m, int k) {
  long off = 0;
  int i;
  for (i = 0; i < b; i++)
    off += (long)m * k + 3;
  return off;
}

void matmul(const struct tens *a, const struct tens *b, struct tens *y,
            int m, int n, int k) {
  float *py = y->data;
  float *pa;
  float *pb;
  float sum;
  long i, l;
  int u, v, w;
  for (i = 0, l = (long)y->dims[0] * m * n; i < l; i += m * n) {
    pa = broadcast_at(a, y, i);
    pb = broadcast_at(b, y, i);
    for (u = 0; u < m; u++)
      for (v = 0; v < n; v++) {
        sum = 0;
        for (w = 0; w < k; w++)
          sum += pa[u * k + w] * pb[w * n + v];
        py[i + u * n + v] = sum;
      }
  }
}

void with_offsets(const float *A, const float *B, float *out, int batch,
                  int m, int n, int k) {
  long oa;
  int b, r, s, t;
  for (b = 0; b < batch; b++) {
    oa = offset_of(b, m, k);
    for (r = 0; r < m; r++)
      for (s = 0; s < n; s++) {
        float acc = 0;
        for (t = 0; t < k; t++)
          acc += A[oa + r * k + t] * B[t * n + s];
        out[(long)b * m * n + r * n + s] = acc;
      }
  }
}

void set_after(const float *A, const float *w, float *out, int batch, int m,
               int n, int k) {
  const float *x = A;
  int b, r, s, t;
  for (b = 0; b < batch; b++) {
    for (r = 0; r < m; r++)
      for (s = 0; s < n; s++) {
        float acc = 0;
        for (t = 0; t < k; t++)
          acc += x[r * k + t] * w[t * n + s];
        out[(long)b * m * n + r * n + s] = acc;
      }
    x = A + offset_of(b + 1, m, k);
  }
}

int main(void) {
  const int m = 23, n = 31, k = 19, batch = 3;
  const long an = (long)batch * (m * k + 3);
  float *a = malloc(sizeof(float) * an), *b = malloc(sizeof(float) * k * n);
  float *out = guarded_f((long)batch * m * n);
  struct tens ta = {a, 3, {batch, m, k}}, tb = {b, 2, {k, n, 0}};
  struct tens ty = {out + GUARD, 3, {batch, m, n}};
  double scale;
  fill_f(a, an, 5);
  fill_f(b, (long)k * n, 6);
  scale = norm_f(a, an) * norm_f(b, (long)k * n);

  matmul(&ta, &tb, &ty, m, n, k);
  show_f("broadcast", k, scale, out, (long)batch * m * n);
  with_offsets(a, b, out + GUARD, batch, m, n, k);
  show_f("offsets", k, scale, out, (long)batch * m * n);
  set_after(a, b, out + GUARD, batch, m, n, k);
  show_f("set-after", k, scale, out, (long)batch * m * n);
  return 0;
}
