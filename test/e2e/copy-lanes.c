/* One accumulator per copy, as hand-optimised C keeps them (llm.c's
 * forward layer): an array of U accumulators that loops over the copies
 * set, sum into inside the K loop and store, each copy touching its own
 * element. Rows stepped by a tile with a bias that may be null, a macro
 * size with the array zeroed by its initialiser, and copies along the
 * columns of a double product with alpha and beta. A copy that reads
 * another copy's accumulator stays as written. The program must print what
 * the original prints, within the bound of a reordered sum, and the guard
 * cells around each result must keep their values.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %host_cc -std=c99 -O1 -I %S/Inputs %s -lm -o %t/orig && %t/orig > %t/expected
 * RUN: gemm-opt %s -o %t/host.c --kernels=%t/kernels.cu -- -I %S/Inputs 2>&1 | FileCheck %s
 * RUN: %host_cc -std=c99 -Wall -Werror -O1 -I %S/Inputs -c %t/host.c -o %t/host.o
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t/kernels.cu -o %t/kernels.o
 * RUN: %nvcc -arch=sm_%cuda_arch %t/host.o %t/kernels.o %gemm_runtime_lib -o %t/split
 * RUN: %t/split > %t/actual && %python %S/compare.py %t/expected %t/actual
 * RUN: env GEMM_OPT_DEVICE=cpu %t/split > %t/lifted && %python %S/compare.py %t/expected %t/lifted
 * CHECK-COUNT-3: one accumulator per copy {{.*}} [-Rpass=gemm]
 * CHECK: loop nest not rewritten: 's' is indexed by '0' inside the loop over 't', so copy 't' touches other copies' elements [-Rpass-missed=gemm]
 */
#include "e2e_util_c.h"

/* Rows stepped by a tile, one accumulator per row of the tile, the weight
 * loaded once per K step for the whole tile, a bias that may be null. */
static void dense_forward(float *y, const float *x, const float *w,
                          const float *b, int rows, int in, int out) {
  const int TILE = 4;
  int r0, o, i, t;
  for (r0 = 0; r0 < rows; r0 += TILE) {
    for (o = 0; o < out; o++) {
      float acc[TILE];
      for (t = 0; t < TILE; t++)
        acc[t] = (b != NULL) ? b[o] : 0.0f;
      for (i = 0; i < in; i++) {
        float wi = w[i + o * in];
        for (t = 0; t < TILE; t++) {
          int r = r0 + t;
          acc[t] += x[r * in + i] * wi;
        }
      }
      for (t = 0; t < TILE; t++) {
        int r = r0 + t;
        y[r * out + o] = acc[t];
      }
    }
  }
}

/* A macro size, the array zeroed by its initialiser, the copy loop around
 * the K loop; b holds B's columns as rows. */
#define LANES 8
static void tiles(int m, int n, int k, const float *a, const float *bt,
                  float *c) {
  int i0, j, t, p;
  for (i0 = 0; i0 < m; i0 += LANES)
    for (j = 0; j < n; j++) {
      float s[LANES] = {0};
      for (t = 0; t < LANES; t++)
        for (p = 0; p < k; p++)
          s[t] += a[(i0 + t) * k + p] * bt[j * k + p];
      for (t = 0; t < LANES; t++)
        c[(i0 + t) * n + j] = s[t];
    }
}

/* Copies along the columns of C, alpha and beta in the store, A's element
 * held in a scalar declared with the array and set in each K step. */
static void columns(int m, int n, int k, double alpha, const double *a,
                    const double *b, double beta, double *c) {
  int j0, i, p, u;
  for (j0 = 0; j0 < n; j0 += 4)
    for (i = 0; i < m; i++) {
      double sum[4], aip;
      for (u = 0; u < 4; ++u)
        sum[u] = 0;
      for (p = 0; p < k; p++) {
        aip = a[i * k + p];
        for (u = 0; u < 4; ++u)
          sum[u] += aip * b[p * n + j0 + u];
      }
      for (u = 0; u < 4; ++u)
        c[i * n + j0 + u] = alpha * sum[u] + beta * c[i * n + j0 + u];
    }
}

/* Copy t reads copy 0's accumulator: the copies depend on each other, left
 * as written. */
static void chained(int m, int n, int k, const float *a, const float *bt,
                    float *c) {
  int i0, j, t, p;
  for (i0 = 0; i0 < m; i0 += 4)
    for (j = 0; j < n; j++) {
      float s[4];
      for (t = 0; t < 4; t++)
        s[t] = 0.0f;
      for (p = 0; p < k; p++)
        for (t = 0; t < 4; t++)
          s[t] += a[(i0 + t) * k + p] * bt[j * k + p] + 0.001f * s[0];
      for (t = 0; t < 4; t++)
        c[(i0 + t) * n + j] = s[t];
    }
}

int main(void) {
  const int m = 40, n = 28, k = 67;
  float *af = malloc(sizeof(float) * m * k);
  float *bf = malloc(sizeof(float) * k * n);
  float *bias = malloc(sizeof(float) * n);
  float *cf = malloc(sizeof(float) * (m * n + 2 * GUARD));
  double *ad = malloc(sizeof(double) * m * k);
  double *bd = malloc(sizeof(double) * k * n);
  double *cd = malloc(sizeof(double) * (m * n + 2 * GUARD));
  long i;
  fill_f(af, (long)m * k, 3);
  fill_f(bf, (long)k * n, 5);
  fill_f(bias, n, 13);
  fill_d(ad, (long)m * k, 7);
  fill_d(bd, (long)k * n, 11);

  for (i = 0; i < m * n + 2 * GUARD; ++i)
    cf[i] = -7.0f;
  dense_forward(cf + GUARD, af, bf, bias, m, k, n);
  show_f("dense_bias", k,
         norm_f(af, (long)m * k) * norm_f(bf, (long)k * n) + norm_f(bias, n),
         cf, (long)m * n);

  for (i = 0; i < m * n + 2 * GUARD; ++i)
    cf[i] = -7.0f;
  dense_forward(cf + GUARD, af, bf, NULL, m, k, n);
  show_f("dense", k, norm_f(af, (long)m * k) * norm_f(bf, (long)k * n), cf,
         (long)m * n);

  for (i = 0; i < m * n + 2 * GUARD; ++i)
    cf[i] = -7.0f;
  tiles(m, n, k, af, bf, cf + GUARD);
  show_f("tiles", k, norm_f(af, (long)m * k) * norm_f(bf, (long)k * n), cf,
         (long)m * n);

  for (i = 0; i < m * n + 2 * GUARD; ++i)
    cd[i] = -7.0;
  for (i = GUARD; i < GUARD + m * n; ++i)
    cd[i] = 0.25 * (double)(i % 13);
  {
    double c0 = norm_d(cd + GUARD, (long)m * n);
    columns(m, n, k, 1.5, ad, bd, -0.5, cd + GUARD);
    show_d("columns", k,
           1.5 * norm_d(ad, (long)m * k) * norm_d(bd, (long)k * n) +
               0.5 * c0,
           cd, (long)m * n);
  }

  for (i = 0; i < m * n + 2 * GUARD; ++i)
    cf[i] = -7.0f;
  chained(m, n, k, af, bf, cf + GUARD);
  show_f("chained", k, norm_f(af, (long)m * k) * norm_f(bf, (long)k * n), cf,
         (long)m * n);

  free(af);
  free(bf);
  free(bias);
  free(cf);
  free(ad);
  free(bd);
  free(cd);
  return 0;
}
