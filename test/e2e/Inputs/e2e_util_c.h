/*===- e2e_util_c.h - Helpers for the C end-to-end programs -------*- C -*-===
 *
 * Data and output for the C programs under test/e2e, as e2e_util.h is for the
 * C++ ones: deterministic values, norms for compare.py's error bound, and
 * `matrix` lines with GUARD cells of -7 on each side of a result, whose
 * changes are counted. Every loop is one level deep, so that none looks like
 * a matrix multiply to gemm-opt.
 *
 *===----------------------------------------------------------------------===*/
#ifndef GEMM_OPT_E2E_UTIL_C_H
#define GEMM_OPT_E2E_UTIL_C_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define GUARD 5

static inline void fill_f(float *p, long n, unsigned seed) {
  unsigned long state = seed * 2654435761UL + 12345UL;
  long i;
  for (i = 0; i < n; ++i) {
    state = (state * 1103515245UL + 12345UL) & 0x7fffffffUL;
    p[i] = (float)((double)state / 1073741824.0 - 1.0);
  }
}

static inline void fill_d(double *p, long n, unsigned seed) {
  unsigned long state = seed * 2246822519UL + 777UL;
  long i;
  for (i = 0; i < n; ++i) {
    state = (state * 1103515245UL + 12345UL) & 0x7fffffffUL;
    p[i] = (double)state / 1073741824.0 - 1.0;
  }
}

/* Room for n values between GUARD cells of -7 on each side, which show_f
 * and show_d check. */
static inline float *guarded_f(long n) {
  float *p = malloc(sizeof(float) * (n + 2 * GUARD));
  long i;
  for (i = 0; i < n + 2 * GUARD; ++i)
    p[i] = -7.0f;
  return p;
}

static inline double *guarded_d(long n) {
  double *p = malloc(sizeof(double) * (n + 2 * GUARD));
  long i;
  for (i = 0; i < n + 2 * GUARD; ++i)
    p[i] = -7.0;
  return p;
}

static inline double norm_f(const float *p, long n) {
  double s = 0;
  long i;
  for (i = 0; i < n; ++i)
    s += (double)p[i] * p[i];
  return sqrt(s);
}

static inline double norm_d(const double *p, long n) {
  double s = 0;
  long i;
  for (i = 0; i < n; ++i)
    s += p[i] * p[i];
  return sqrt(s);
}

static inline void show_f(const char *label, long k, double scale, const float *c,
                   long count) {
  long i, broken = 0;
  printf("matrix %s f32 %ld %.17g %ld", label, k, scale, count);
  for (i = 0; i < count; ++i)
    printf(" %.9g", (double)c[GUARD + i]);
  printf("\n");
  for (i = 0; i < GUARD; ++i)
    broken += c[i] != -7.0f || c[GUARD + count + i] != -7.0f;
  printf("guards %s %ld broken\n", label, broken);
}

static inline void show_d(const char *label, long k, double scale, const double *c,
                   long count) {
  long i, broken = 0;
  printf("matrix %s f64 %ld %.17g %ld", label, k, scale, count);
  for (i = 0; i < count; ++i)
    printf(" %.17g", c[GUARD + i]);
  printf("\n");
  for (i = 0; i < GUARD; ++i)
    broken += c[i] != -7.0 || c[GUARD + count + i] != -7.0;
  printf("guards %s %ld broken\n", label, broken);
}

#endif /* GEMM_OPT_E2E_UTIL_C_H */
