/* A repeat loop whose body picks a tiled copy or the plain product (ParRes's
 * SERIAL dgemm): the plain product, tried beside the tiled branch, is
 * rewritten; the counters it shares with the tiled branch's loops (which
 * set them first, `for (ql = 0, q = qq; ...)`) keep the values the program
 * reads. The program must print what the original prints, within the bound
 * of a reordered sum, and the guard cells must keep their values.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %host_cc -std=c99 -O1 -I %S/Inputs %s -lm -o %t/orig && %t/orig > %t/expected
 * RUN: gemm-opt %s -o %t/host.c --kernels=%t/kernels.cu -- -I %S/Inputs 2>&1 | FileCheck %s
 * RUN: %host_cc -std=c99 -Wall -Werror -O1 -I %S/Inputs -c %t/host.c -o %t/host.o
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t/kernels.cu -o %t/kernels.o
 * RUN: %nvcc -arch=sm_%cuda_arch %t/host.o %t/kernels.o %gemm_runtime_lib -o %t/beside
 * RUN: %t/beside > %t/actual && %python %S/compare.py %t/expected %t/actual
 * RUN: env GEMM_OPT_DEVICE=cpu %t/beside > %t/lifted && %python %S/compare.py %t/expected %t/lifted
 * RUN: env GEMM_OPT_DEVICE=cpu GEMM_OPT_TRACE=1 %t/beside 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
 * CHECK: remark: GEMM recognised: f64{{.*}} [-Rpass=gemm]
 * TRACE-COUNT-2: ran on the CPU reference
 * TRACE-NOT: ran on
 */
#include "e2e_util_c.h"

#define MINV(a, b) ((a) < (b) ? (a) : (b))

/* z += x y (column-major) reps times, or z's tiles copied into tmp where
 * tile > 0 (the tile counters' last values summed and returned). */
static long timed(int n, int reps, int tile, const double *x, const double *y,
                  double *z, double *tmp) {
  int r, p, q, s, pp, qq, pl = 0, ql = 0;
  long seen = 0;
  for (r = 0; r < reps; r++) {
    if (tile > 0) {
      for (qq = 0; qq < n; qq += tile)
        for (pp = 0; pp < n; pp += tile)
          for (ql = 0, q = qq; q < MINV(qq + tile, n); q++, ql++)
            for (pl = 0, p = pp; p < MINV(pp + tile, n); p++, pl++)
              tmp[pl + ql * tile] = z[p + q * n];
      seen += ql + pl;
    } else {
      for (q = 0; q < n; q++)
        for (s = 0; s < n; s++)
          for (p = 0; p < n; p++)
            z[p + q * n] += x[p + s * n] * y[s + q * n];
    }
  }
  return seen;
}

int main(void) {
  const int n = 37, tile = 8;
  double *x = malloc(sizeof(double) * n * n);
  double *y = malloc(sizeof(double) * n * n);
  double *z = malloc(sizeof(double) * (n * n + 2 * GUARD));
  double *tmp = malloc(sizeof(double) * tile * tile);
  long i;
  fill_d(x, (long)n * n, 3);
  fill_d(y, (long)n * n, 5);
  for (i = 0; i < n * n + 2 * GUARD; ++i)
    z[i] = i < GUARD || i >= GUARD + n * n ? -7.0 : 0.25 * (double)(i % 7);
  printf("seen %ld\n", timed(n, 2, 0, x, y, z + GUARD, tmp));
  printf("seen %ld\n", timed(n, 1, tile, x, y, z + GUARD, tmp));
  show_d("z", n, 2.0 * norm_d(x, (long)n * n) * norm_d(y, (long)n * n) +
                     norm_d(z + GUARD, (long)n * n),
         z, (long)n * n);
  free(x);
  free(y);
  free(z);
  free(tmp);
  return 0;
}
