/* Hand-blocked products whose point loops run from 0 to the block size
 * inside two tile loops that both step by it (MachSuite's bbgemm, with
 * index locals and a value set ahead of the loop over j that runs once per
 * tile), and a variable block size (two that divide the size: the
 * launcher checks that each does). The program must print what the
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
 * CHECK: GEMM recognised: f64
 * CHECK: GEMM recognised: f32
 * CHECK-NOT: remark
 */
#include "e2e_util_c.h"

#define ROWS 64
#define BLOCK 8

void bbgemm(double m1[ROWS * ROWS], double m2[ROWS * ROWS],
            double prod[ROWS * ROWS]) {
  int i, k, j, jj, kk;
  int i_row, k_row;
  double temp_x, mul;
  for (jj = 0; jj < ROWS; jj += BLOCK)
    for (kk = 0; kk < ROWS; kk += BLOCK)
      for (i = 0; i < ROWS; ++i)
        for (k = 0; k < BLOCK; ++k) {
          i_row = i * ROWS;
          k_row = (k + kk) * ROWS;
          temp_x = m1[i_row + k + kk];
          for (j = 0; j < BLOCK; ++j) {
            mul = temp_x * m2[k_row + j + jj];
            prod[i_row + j + jj] += mul;
          }
        }
}

void blocked(const float *a, const float *b, float *c, int n, int bs) {
  int i, j, k, jj, kk;
  for (kk = 0; kk < n; kk += bs)
    for (jj = 0; jj < n; jj += bs)
      for (i = 0; i < n; ++i)
        for (j = 0; j < bs; ++j) {
          float s = 0;
          for (k = 0; k < bs; ++k)
            s += a[i * n + kk + k] * b[(kk + k) * n + jj + j];
          c[i * n + jj + j] += s;
        }
}

int main(void) {
  const long nd = (long)ROWS * ROWS;
  const int n = 48;
  double *m1 = malloc(sizeof(double) * nd), *m2 = malloc(sizeof(double) * nd);
  double *prod = guarded_d(nd);
  float *a = malloc(sizeof(float) * n * n), *b = malloc(sizeof(float) * n * n);
  float *c = guarded_f((long)n * n);
  double c0;
  fill_d(m1, nd, 7);
  fill_d(m2, nd, 8);
  fill_d(prod + GUARD, nd, 9);
  c0 = norm_d(prod + GUARD, nd);
  bbgemm(m1, m2, prod + GUARD);
  show_d("bbgemm", ROWS, norm_d(m1, nd) * norm_d(m2, nd) + c0, prod, nd);

  fill_f(a, (long)n * n, 10);
  fill_f(b, (long)n * n, 11);
  fill_f(c + GUARD, (long)n * n, 12);
  c0 = norm_f(c + GUARD, (long)n * n);
  blocked(a, b, c + GUARD, n, 16);
  show_f("blocks-16", n, norm_f(a, (long)n * n) * norm_f(b, (long)n * n) + c0, c,
         (long)n * n);
  fill_f(c + GUARD, (long)n * n, 13);
  c0 = norm_f(c + GUARD, (long)n * n);
  blocked(a, b, c + GUARD, n, 12);
  show_f("blocks-12", n,
         norm_f(a, (long)n * n) * norm_f(b, (long)n * n) + c0, c, (long)n * n);
  return 0;
}
