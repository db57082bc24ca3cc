/* A matrix library in C written once for real and complex elements: with a
 * real element type, conjf and creal of real values leave the values, and
 * the Gram products X * X^H and X^H * X are real GEMMs. gemm-opt writes the
 * host file in C (built with gcc, complex.h and all) and the kernels apart;
 * the program must print what the original prints, and the guard cells
 * around each result must keep their values.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %host_cc -std=c99 -O1 %s -lm -o %t/orig && %t/orig > %t/expected
 * RUN: gemm-opt %s -o %t/host.c --kernels=%t/kernels.cu 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
 * RUN: %host_cc -std=c99 -Wall -Werror -O1 -c %t/host.c -o %t/host.o
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t/kernels.cu -o %t/kernels.o
 * RUN: %nvcc -arch=sm_%cuda_arch %t/host.o %t/kernels.o %gemm_runtime_lib -o %t/split
 * RUN: %t/split > %t/actual && %python %S/compare.py %t/expected %t/actual
 * RUN: env GEMM_OPT_DEVICE=cpu %t/split > %t/lifted && %python %S/compare.py %t/expected %t/lifted
 * CHECK-COUNT-2: [-Rpass=gemm]
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define ELEM float
#define AT(x, cols, r, c) (x)[(r) * (cols) + (c)]
#define GUARD 4

static void fill(ELEM *p, long n, unsigned seed) {
  unsigned long long state = seed * 2862933555777941757ULL + 3037000493ULL;
  long i;
  for (i = 0; i < n; ++i) {
    state = state * 2862933555777941757ULL + 3037000493ULL;
    p[i] = (ELEM)(2.0 * ((double)(state >> 11) / 9007199254740992.0) - 1.0);
  }
}

static double norm(const ELEM *p, long n) {
  double sum = 0;
  long i;
  for (i = 0; i < n; ++i)
    sum += (double)p[i] * p[i];
  return sqrt(sum);
}

static void report(const char *label, long k, double scale, const ELEM *c,
                   long count) {
  long i, broken = 0;
  printf("matrix %s f32 %ld %.17g %ld", label, k, scale, count);
  for (i = 0; i < count; ++i)
    printf(" %.17g", (double)c[GUARD + i]);
  printf("\n");
  for (i = 0; i < GUARD; ++i)
    broken += c[i] != 3.0f || c[GUARD + count + i] != 3.0f;
  printf("guards %s %ld broken\n", label, broken);
}

/* x * x^H, m x m, from an m x n matrix. */
static void times_adjoint(ELEM *x, unsigned m, unsigned n, ELEM *g) {
  unsigned r, c, i;
  ELEM acc = 0;
  for (r = 0; r < m; r++) {
    for (c = 0; c < m; c++) {
      acc = 0.0f;
      for (i = 0; i < n; i++) {
        ELEM term = AT(x, n, r, i) * conjf(AT(x, n, c, i));
        acc += term;
      }
      AT(g, m, r, c) = acc;
    }
  }
}

/* x^H * x, n x n, the real part read by crealf. */
static void adjoint_times(ELEM *x, unsigned m, unsigned n, ELEM *g) {
  unsigned r, c, i;
  for (r = 0; r < n; r++)
    for (c = 0; c < n; c++) {
      ELEM acc = 0;
      for (i = 0; i < m; i++)
        acc += crealf(conjf(AT(x, n, i, r)) * AT(x, n, i, c));
      AT(g, n, r, c) = acc;
    }
}

int main(void) {
  const unsigned m = 23, n = 17;
  ELEM *x = malloc(sizeof(ELEM) * m * n);
  ELEM *g = malloc(sizeof(ELEM) * (m * m + 2 * GUARD));
  long i;
  double scale;
  fill(x, (long)m * n, 7);
  scale = norm(x, (long)m * n) * norm(x, (long)m * n);
  for (i = 0; i < (long)(m * m + 2 * GUARD); ++i)
    g[i] = 3.0f;
  times_adjoint(x, m, n, g + GUARD);
  report("times_adjoint", n, scale, g, (long)m * m);
  for (i = 0; i < (long)(n * n + 2 * GUARD); ++i)
    g[i] = 3.0f;
  adjoint_times(x, m, n, g + GUARD);
  report("adjoint_times", m, scale, g, (long)n * n);
  free(x);
  free(g);
  return 0;
}
