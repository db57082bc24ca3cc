/* Several loops along one side of C: sum factorisation in the
 * finite-element style (N over two loops with a batch around them and K
 * outermost; two batch loops that merge), M over three loops, and loops
 * along C's rows that make a batch only where a test before the nest holds
 * (run where it holds and where it does not). The program must print what
 * the original prints, within the bound of a reordered sum, and the guard
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
 * CHECK-COUNT-5: GEMM recognised:
 */
#include "e2e_util_c.h"

void first_direction(int nb, int np, int nq, int ne, const double *r,
                     const double *x, double *u) {
  for (int i = 0; i < np; i++)
    for (int l = 0; l < nb; l++)
      for (int q = 0; q < nq; q++)
        for (int jk = 0; jk < np * np; jk++)
          for (int e = 0; e < ne; e++)
            u[((l * nq + q) * np * np + jk) * ne + e] +=
                r[q * np + i] * x[((l * np + i) * np * np + jk) * ne + e];
}

void third_direction(int nb, int np, int nq, int ne, const double *t,
                     const double *v, double *y) {
  for (int l = 0; l < nb; l++)
    for (int ab = 0; ab < nq * nq; ab++)
      for (int k = 0; k < np; k++)
        for (int c = 0; c < nq; c++)
          for (int e = 0; e < ne; e++)
            y[((l * nq * nq + ab) * nq + c) * ne + e] +=
                t[c * np + k] * v[((l * nq * nq + ab) * np + k) * ne + e];
}

void second_direction(int nb, int np, int nq, int ne, const double *s,
                      const double *u, double *v) {
  for (int l = 0; l < nb; l++)
    for (int a = 0; a < nq; a++)
      for (int k = 0; k < np; k++)
        for (int j = 0; j < np; j++)
          for (int b = 0; b < nq; b++)
            for (int e = 0; e < ne; e++)
              v[(((l * nq + a) * nq + b) * np + k) * ne + e] +=
                  s[b * np + j] * u[(((l * nq + a) * np + j) * np + k) * ne + e];
}

void rows_in_three(int n1, int n2, int n3, int n, int kk, const float *a,
                   const float *b, float *c) {
  for (int i1 = 0; i1 < n1; i1++)
    for (int i2 = 0; i2 < n2; i2++)
      for (int i3 = 0; i3 < n3; i3++)
        for (int j = 0; j < n; j++)
          for (int k = 0; k < kk; k++)
            c[((i1 * n2 + i2) * n3 + i3) * n + j] +=
                a[((i1 * n2 + i2) * n3 + i3) * kk + k] * b[k * n + j];
}

void apart(int n1, int n2, int n3, int n, int kk, const float *a,
           const float *b, float *c) {
  for (int i1 = 0; i1 < n1; i1++)
    for (int i2 = 0; i2 < n2; i2++)
      for (int i3 = 0; i3 < n3; i3++)
        for (int j = 0; j < n; j++)
          for (int k = 0; k < kk; k++)
            c[((i1 * n2 + i2) * n3 + i3) * n + j] +=
                a[(i1 * n3 + i3) * kk * n2 + i2 * kk + k] * b[k * n + j];
}

int main(void) {
  const int nb = 3, np = 4, nq = 5, ne = 6;
  const long big = (long)nb * nq * nq * nq * ne + (long)nb * np * np * np * ne;
  double *r = malloc(sizeof(double) * nq * np), *x = malloc(sizeof(double) * big);
  double *out = guarded_d(big);
  float *a = malloc(sizeof(float) * 2 * 3 * 5 * 9), *b = malloc(sizeof(float) * 9 * 7);
  float *c = guarded_f(2 * 3 * 5 * 7);
  double sd, c0;
  long i;
  int n1;
  fill_d(r, (long)nq * np, 1);
  fill_d(x, big, 2);
  fill_f(a, 2 * 3 * 5 * 9, 3);
  fill_f(b, 9 * 7, 4);
  sd = norm_d(r, (long)nq * np) * norm_d(x, big) + 1;

  for (i = 0; i < big; ++i)
    out[GUARD + i] = 0.25 * (double)(i % 7);
  c0 = norm_d(out + GUARD, big);
  first_direction(nb, np, nq, ne, r, x, out + GUARD);
  show_d("first", np, sd + c0, out, big);
  c0 = norm_d(out + GUARD, big);
  third_direction(nb, np, nq, ne, r, x, out + GUARD);
  show_d("third", np, sd + c0, out, big);
  c0 = norm_d(out + GUARD, big);
  second_direction(nb, np, nq, ne, r, x, out + GUARD);
  show_d("second", np, sd + c0, out, big);

  for (i = 0; i < 2 * 3 * 5 * 7; ++i)
    c[GUARD + i] = 0.5f;
  c0 = norm_f(c + GUARD, 210);
  rows_in_three(2, 3, 5, 7, 9, a, b, c + GUARD);
  show_f("rows-in-three", 9, norm_f(a, 270) * norm_f(b, 63) + c0, c, 210);
  for (n1 = 1; n1 <= 2; ++n1) {
    c0 = norm_f(c + GUARD, 210);
    apart(n1, 3, 5, 7, 9, a, b, c + GUARD);
    show_f(n1 == 1 ? "apart-one" : "apart-two", 9,
           norm_f(a, 270) * norm_f(b, 63) + c0, c, 210);
  }
  return 0;
}
