/* Dot products that keep partial sums, as hand-tuned C does to break the
 * chain of additions: eight lanes over K rounded down by a shift with the
 * rest summed apart (a helper called per element), two lanes of doubles
 * declared in the nest, and a scalar sum of the unrolled loop added to the
 * remainder's. Each is the K loop's sum in another order. Pointers
 * declared without initialiser at the top of a block and set first in the
 * loop that reads them (in a helper, and several in one declaration) are
 * the declarations with those values. Sizes are odd so that every
 * remainder loop runs. A lane that reads another lane stays as written. The program must print what the original prints, within the
 * bound of a reordered sum, and the guard cells around each result must
 * keep their values.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %host_cc -std=c99 -O1 -I %S/Inputs %s -lm -o %t/orig && %t/orig > %t/expected
 * RUN: gemm-opt %s -o %t/host.c --kernels=%t/kernels.cu -- -I %S/Inputs 2>&1 | FileCheck %s
 * RUN: %host_cc -std=c99 -Wall -Werror -O1 -I %S/Inputs -c %t/host.c -o %t/host.o
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t/kernels.cu -o %t/kernels.o
 * RUN: %nvcc -arch=sm_%cuda_arch %t/host.o %t/kernels.o %gemm_runtime_lib -o %t/split
 * RUN: %t/split > %t/actual && %python %S/compare.py %t/expected %t/actual
 * RUN: env GEMM_OPT_DEVICE=cpu %t/split > %t/lifted && %python %S/compare.py %t/expected %t/lifted
 * CHECK-COUNT-5: [-Rpass=gemm]
 * CHECK: loop nest not rewritten: 'lane[0]' is read in {{.*}} [-Rpass-missed=gemm]
 */
#include "e2e_util_c.h"

/* Eight lanes, then the tail in its own sum, the lanes added at the end. */
static float dot8(int len, const float *u, const float *v) {
  int q, body = len >> 3 << 3;
  float total, lane[8];
  lane[0] = lane[1] = lane[2] = lane[3] = 0.0f;
  lane[4] = lane[5] = lane[6] = lane[7] = 0.0f;
  for (q = 0; q < body; q += 8) {
    lane[0] += u[q] * v[q];
    lane[1] += u[q + 1] * v[q + 1];
    lane[2] += u[q + 2] * v[q + 2];
    lane[3] += u[q + 3] * v[q + 3];
    lane[4] += u[q + 4] * v[q + 4];
    lane[5] += u[q + 5] * v[q + 5];
    lane[6] += u[q + 6] * v[q + 6];
    lane[7] += u[q + 7] * v[q + 7];
  }
  for (total = 0.0f; q < len; ++q)
    total += u[q] * v[q];
  total += lane[0] + lane[1] + lane[2] + lane[3] + lane[4] + lane[5] +
           lane[6] + lane[7];
  return total;
}

/* y = x * w^T, w stored by rows of length depth. */
static void project(int rows, int cols, int depth, const float *x,
                    const float *w, float *y) {
  int r, c;
  for (r = 0; r < rows; ++r)
    for (c = 0; c < cols; ++c)
      y[r * cols + c] = dot8(depth, x + r * depth, w + c * depth);
}

/* c += a * b with two lanes of doubles per element. */
static void update(int m, int n, int k, const double *a, const double *b,
                   double *c) {
  int i, j, p;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      double two[2] = {0};
      for (p = 0; p + 2 <= k; p += 2) {
        two[0] += a[i * k + p] * b[p * n + j];
        two[1] += a[i * k + p + 1] * b[(p + 1) * n + j];
      }
      for (; p < k; p++)
        two[1] += a[i * k + p] * b[p * n + j];
      c[i * n + j] += two[0] + two[1];
    }
}

/* The unrolled loop's own sum, added to the remainder's. */
static void split(int m, int n, int k, const float *a, const float *b,
                  float *c) {
  int i, j, p;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      float head = 0.0f;
      float s;
      for (p = 0; p < k - 2; p += 3) {
        head += a[i * k + p] * b[p * n + j];
        head += a[i * k + p + 1] * b[(p + 1) * n + j];
        head += a[i * k + p + 2] * b[(p + 2) * n + j];
      }
      s = 0.0f;
      for (; p < k; p++)
        s += a[i * k + p] * b[p * n + j];
      s += head;
      c[i * n + j] = s;
    }
}

/* A column of A picked at the top of each step of the helper's loop. */
static void column_dot(int k, const double *a, int lda, const double *b,
                       double *out) {
  int p;
  const double *at;
  for (p = 0; p < k; p++) {
    at = &a[p * lda];
    *out += at[0] * b[p];
  }
}

/* c (column-major) += a * b, a and b column-major. */
static void columns(int m, int n, int k, const double *a, const double *b,
                    double *c) {
  int i, j;
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++)
      column_dot(k, &a[i], m, &b[j * k], &c[j * m + i]);
}

/* Row pointers of A and C declared together, set in the row loop. */
static void by_rows(int m, int n, int k, const float *a, const float *b,
                    float *c) {
  int i, j, p;
  for (i = 0; i < m; i++) {
    const float *arow;
    float *crow, s;
    arow = a + i * k;
    crow = c + i * n;
    for (j = 0; j < n; j++) {
      s = 0.0f;
      for (p = 0; p < k; p++)
        s += arow[p] * b[p * n + j];
      crow[j] = s;
    }
  }
}

/* Lane 1 reads lane 0: no partial sums, left as written. */
static void chained(int m, int n, int k, const float *a, const float *b,
                    float *c) {
  int i, j, p;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      float lane[2] = {0};
      for (p = 0; p + 2 <= k; p += 2) {
        lane[0] += a[i * k + p] * b[p * n + j];
        lane[1] += 0.5f * lane[0] * a[i * k + p + 1] * b[(p + 1) * n + j];
      }
      c[i * n + j] = lane[0] + lane[1];
    }
}

int main(void) {
  const int m = 37, n = 29, k = 83;
  float *af = malloc(sizeof(float) * m * k);
  float *bf = malloc(sizeof(float) * k * n);
  float *cf = malloc(sizeof(float) * (m * n + 2 * GUARD));
  double *ad = malloc(sizeof(double) * m * k);
  double *bd = malloc(sizeof(double) * k * n);
  double *cd = malloc(sizeof(double) * (m * n + 2 * GUARD));
  long i;
  fill_f(af, (long)m * k, 3);
  fill_f(bf, (long)k * n, 5);
  fill_d(ad, (long)m * k, 7);
  fill_d(bd, (long)k * n, 11);

  for (i = 0; i < m * n + 2 * GUARD; ++i)
    cf[i] = -7.0f;
  project(m, n, k, af, bf, cf + GUARD);
  show_f("project", k, norm_f(af, (long)m * k) * norm_f(bf, (long)k * n), cf,
         (long)m * n);

  for (i = 0; i < m * n + 2 * GUARD; ++i)
    cd[i] = -7.0;
  for (i = GUARD; i < GUARD + m * n; ++i)
    cd[i] = 0.25 * (double)(i % 13);
  {
    double c0 = norm_d(cd + GUARD, (long)m * n);
    update(m, n, k, ad, bd, cd + GUARD);
    show_d("update", k,
           norm_d(ad, (long)m * k) * norm_d(bd, (long)k * n) + c0, cd,
           (long)m * n);
  }

  for (i = 0; i < m * n + 2 * GUARD; ++i)
    cf[i] = -7.0f;
  split(m, n, k, af, bf, cf + GUARD);
  show_f("split", k, norm_f(af, (long)m * k) * norm_f(bf, (long)k * n), cf,
         (long)m * n);

  for (i = 0; i < m * n + 2 * GUARD; ++i)
    cd[i] = -7.0;
  for (i = GUARD; i < GUARD + m * n; ++i)
    cd[i] = 0.5 - 0.125 * (double)(i % 7);
  {
    double c0 = norm_d(cd + GUARD, (long)m * n);
    columns(m, n, k, ad, bd, cd + GUARD);
    show_d("columns", k,
           norm_d(ad, (long)m * k) * norm_d(bd, (long)k * n) + c0, cd,
           (long)m * n);
  }

  for (i = 0; i < m * n + 2 * GUARD; ++i)
    cf[i] = -7.0f;
  by_rows(m, n, k, af, bf, cf + GUARD);
  show_f("by_rows", k, norm_f(af, (long)m * k) * norm_f(bf, (long)k * n), cf,
         (long)m * n);

  for (i = 0; i < m * n + 2 * GUARD; ++i)
    cf[i] = -7.0f;
  chained(m, n, k, af, bf, cf + GUARD);
  show_f("chained", k, norm_f(af, (long)m * k) * norm_f(bf, (long)k * n), cf,
         (long)m * n);

  free(af);
  free(bf);
  free(cf);
  free(ad);
  free(bd);
  free(cd);
  return 0;
}
