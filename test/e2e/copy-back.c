/* A product into a temporary copied back into A's rows, as PolyBench-ACC's
 * doitgen writes it: the product goes into the temporary, the copy runs
 * after it. A double copy to the row's end over flat arrays, and a float copy to a shorter
 * bound (nr < np, the run-time test holds). A and the temporary must hold
 * what the original leaves in them, within the bound of a reordered sum,
 * and the guard cells around each must keep their values.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %host_cc -std=c99 -O1 -I %S/Inputs %s -lm -o %t/orig && %t/orig > %t/expected
 * RUN: gemm-opt %s -o %t/host.c --kernels=%t/kernels.cu -- -I %S/Inputs 2>&1 | FileCheck %s
 * RUN: %host_cc -std=c99 -Wall -Werror -O1 -I %S/Inputs -c %t/host.c -o %t/host.o
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t/kernels.cu -o %t/kernels.o
 * RUN: %nvcc -arch=sm_%cuda_arch %t/host.o %t/kernels.o %gemm_runtime_lib -o %t/split
 * RUN: %t/split > %t/actual && %python %S/compare.py %t/expected %t/actual
 * RUN: env GEMM_OPT_DEVICE=cpu %t/split > %t/lifted && %python %S/compare.py %t/expected %t/lifted
 * CHECK-COUNT-2: runs beside the product{{.*}}[-Rpass=gemm]
 */
#include "e2e_util_c.h"

/* Flat arrays, indexed by hand. */
static void doitgen_d(int nr, int nq, int np, double *A, const double *C4,
                      double *sum) {
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nq; q++) {
      double *row = sum + (r * nq + q) * np;
      for (int p = 0; p < np; p++) {
        row[p] = 0.0;
        for (int s = 0; s < np; s++)
          row[p] += A[(r * nq + q) * np + s] * C4[s * np + p];
      }
      for (int p = 0; p < np; p++)
        A[(r * nq + q) * np + p] = sum[(r * nq + q) * np + p];
    }
}

static void doitgen_f(int nr, int nq, int np, float A[nr][nq][np],
                      float C4[np][np], float sum[nr][nq][np]) {
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nq; q++) {
      for (int p = 0; p < np; p++) {
        sum[r][q][p] = 0;
        for (int s = 0; s < np; s++)
          sum[r][q][p] += A[r][q][s] * C4[s][p];
      }
      for (int p = 0; p < nr; p++)
        A[r][q][p] = sum[r][q][p];
    }
}

int main(void) {
  const int nr = 6, nq = 10, np = 24;
  const long n = (long)nr * nq * np;
  double *ad = malloc(sizeof(double) * (n + 2 * GUARD));
  double *sd = malloc(sizeof(double) * (n + 2 * GUARD));
  double *cd = malloc(sizeof(double) * np * np);
  float *af = malloc(sizeof(float) * (n + 2 * GUARD));
  float *sf = malloc(sizeof(float) * (n + 2 * GUARD));
  float *cf = malloc(sizeof(float) * np * np);
  long i;
  for (i = 0; i < n + 2 * GUARD; ++i) {
    ad[i] = sd[i] = -7.0;
    af[i] = sf[i] = -7.0f;
  }
  fill_d(ad + GUARD, n, 3);
  fill_d(cd, (long)np * np, 5);
  fill_f(af + GUARD, n, 7);
  fill_f(cf, (long)np * np, 11);
  double scale_d = norm_d(ad + GUARD, n) * norm_d(cd, (long)np * np);
  double scale_f = norm_f(af + GUARD, n) * norm_f(cf, (long)np * np);

  doitgen_d(nr, nq, np, ad + GUARD, cd, sd + GUARD);
  show_d("doitgen_a", np, scale_d, ad, n);
  show_d("doitgen_sum", np, scale_d, sd, n);

  doitgen_f(nr, nq, np, (float (*)[nq][np])(af + GUARD), (float (*)[np])cf,
            (float (*)[nq][np])(sf + GUARD));
  show_f("shorter_copy_a", np, scale_f, af, n);
  show_f("shorter_copy_sum", np, scale_f, sf, n);
  return 0;
}
