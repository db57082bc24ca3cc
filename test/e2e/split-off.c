/* Products beside another computation (SplitOff.cpp): a weight gradient
 * with its bias gradient summed in the same loops (llm.c's backward), with
 * a bias and without, and a product with a column sum of B beside it. The
 * product goes to the launcher and the other statement runs after it in
 * the nest's loops, where the two touch no common memory; where they do
 * (the bias gradient written into dout, the column sums into C), the loop
 * runs as written. The program must print what the original prints,
 * within the bound of a reordered sum, and the guard cells must keep their
 * values.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %host_cc -std=c99 -O1 -I %S/Inputs %s -lm -o %t/orig && %t/orig > %t/expected
 * RUN: gemm-opt %s -o %t/host.c --kernels=%t/kernels.cu -- -I %S/Inputs 2>&1 | FileCheck %s
 * RUN: %host_cc -std=c99 -Wall -Werror -O1 -I %S/Inputs -c %t/host.c -o %t/host.o
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t/kernels.cu -o %t/kernels.o
 * RUN: %nvcc -arch=sm_%cuda_arch %t/host.o %t/kernels.o %gemm_runtime_lib -o %t/split
 * RUN: %t/split > %t/actual && %python %S/compare.py %t/expected %t/actual
 * RUN: env GEMM_OPT_DEVICE=cpu %t/split > %t/lifted && %python %S/compare.py %t/expected %t/lifted
 * RUN: env GEMM_OPT_DEVICE=cpu GEMM_OPT_TRACE=1 %t/split 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
 * CHECK-COUNT-2: runs beside the product: {{.*}} [-Rpass=gemm]
 * TRACE-COUNT-3: ran on the CPU reference
 * TRACE-NOT: ran on
 */
#include "e2e_util_c.h"

/* dW[o][i] += sum over rows of dout[r][o] * in[r][i]; db[o] += dout[r][o]. */
static void backward(float *dw, float *db, const float *dout, const float *in,
                     int B, int T, int C, int OC) {
  int o, b, t, i;
  for (o = 0; o < OC; o++)
    for (b = 0; b < B; b++)
      for (t = 0; t < T; t++) {
        const float *drow = dout + (b * T + t) * OC;
        const float *irow = in + (b * T + t) * C;
        float *wrow = dw + o * C;
        float d = drow[o];
        if (db != NULL) {
          db[o] += d;
        }
        for (i = 0; i < C; i++)
          wrow[i] += irow[i] * d;
      }
}

/* c = a * b, and half of b's first row summed into cs per row of c. */
static void colsums(int m, int n, int k, const double *a, const double *b,
                    double *c, double *cs) {
  int i, j, p;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      double s = 0;
      for (p = 0; p < k; p++)
        s += a[i * k + p] * b[p * n + j];
      c[i * n + j] = s;
      cs[j] = cs[j] + b[j] * 0.5;
    }
}

int main(void) {
  const int B = 3, T = 5, C = 23, OC = 17, rows = 15;
  const int m = 19, n = 21, k = 33;
  float *dout = malloc(sizeof(float) * (rows * OC + 2 * GUARD));
  float *in = malloc(sizeof(float) * rows * C);
  float *dw = malloc(sizeof(float) * (OC * C + 2 * GUARD));
  float *db = malloc(sizeof(float) * (OC + 2 * GUARD));
  double *a = malloc(sizeof(double) * m * k);
  double *bm = malloc(sizeof(double) * k * n);
  double *c = malloc(sizeof(double) * (m * n + 2 * GUARD));
  double *cs = malloc(sizeof(double) * (n + 2 * GUARD));
  long i;
  fill_f(dout + GUARD, (long)rows * OC, 3);
  fill_f(in, (long)rows * C, 5);
  fill_d(a, (long)m * k, 7);
  fill_d(bm, (long)k * n, 11);
  for (i = 0; i < GUARD; ++i)
    dout[i] = dout[GUARD + rows * OC + i] = -7.0f;

  /* With a bias gradient, then without. */
  for (int pass = 0; pass < 2; ++pass) {
    for (i = 0; i < OC * C + 2 * GUARD; ++i)
      dw[i] = i < GUARD || i >= GUARD + OC * C ? -7.0f : 0.125f * (float)(i % 5);
    for (i = 0; i < OC + 2 * GUARD; ++i)
      db[i] = i < GUARD || i >= GUARD + OC ? -7.0f : 0.5f;
    backward(dw + GUARD, pass ? NULL : db + GUARD, dout + GUARD, in, B, T, C,
             OC);
    show_f(pass ? "dw_nobias" : "dw", rows,
           norm_f(dout + GUARD, (long)rows * OC) * norm_f(in, (long)rows * C) +
               norm_f(dw + GUARD, (long)OC * C),
           dw, (long)OC * C);
    show_f(pass ? "db_nobias" : "db", rows,
           norm_f(dout + GUARD, (long)rows * OC) + 1.0, db, OC);
  }

  /* The bias gradient written into dout itself, which the product reads:
   * the loop runs as written. */
  for (i = 0; i < OC * C + 2 * GUARD; ++i)
    dw[i] = i < GUARD || i >= GUARD + OC * C ? -7.0f : 0.0f;
  backward(dw + GUARD, dout + GUARD + 2 * OC, dout + GUARD, in, B, T, C, OC);
  show_f("dw_into_dout", rows,
         4.0 * norm_f(dout + GUARD, (long)rows * OC) * norm_f(in, (long)rows * C),
         dw, (long)OC * C);
  show_f("dout_after", rows, norm_f(dout + GUARD, (long)rows * OC), dout,
         (long)rows * OC);

  /* Column sums beside the product, apart from C, then into C's last row. */
  for (int pass = 0; pass < 2; ++pass) {
    for (i = 0; i < m * n + 2 * GUARD; ++i)
      c[i] = i < GUARD || i >= GUARD + m * n ? -7.0 : 0.0;
    for (i = 0; i < n + 2 * GUARD; ++i)
      cs[i] = i < GUARD || i >= GUARD + n ? -7.0 : 0.25;
    colsums(m, n, k, a, bm, c + GUARD,
            pass ? c + GUARD + (m - 1) * n : cs + GUARD);
    show_d(pass ? "c_sums_in_c" : "c", k,
           norm_d(a, (long)m * k) * norm_d(bm, (long)k * n) + m * n, c,
           (long)m * n);
    show_d("cs", k, norm_d(bm, n) * m + 1.0, cs, n);
  }

  free(dout);
  free(in);
  free(dw);
  free(db);
  free(a);
  free(bm);
  free(c);
  free(cs);
  return 0;
}
