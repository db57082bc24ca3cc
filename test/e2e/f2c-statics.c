/* f2c's static locals (every local of a translated routine is static): the
 * reference DGEMM's NN case with static indices and temp, called with beta
 * 0 and beta 0.5, twice each; and a near miss whose static index the next
 * call reads before its loop sets it, which runs as written. The program
 * must print what the original prints, within the bound of a reordered
 * sum, and the guard cells must keep their values.
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
 * CHECK: 'i' is a static local that the nest assigns
 */
#include "e2e_util_c.h"

typedef int integer;
typedef double doublereal;

int dgemm_nn(integer *m, integer *n, integer *k, doublereal *alpha,
             doublereal *a, integer *lda, doublereal *b, integer *ldb,
             doublereal *beta, doublereal *c__, integer *ldc) {
  integer a_dim1, a_offset, b_dim1, b_offset, c_dim1, c_offset, i__1, i__2,
      i__3;
  static integer i__, j, l;
  static doublereal temp;
  a_dim1 = *lda;
  a_offset = 1 + a_dim1;
  a -= a_offset;
  b_dim1 = *ldb;
  b_offset = 1 + b_dim1;
  b -= b_offset;
  c_dim1 = *ldc;
  c_offset = 1 + c_dim1;
  c__ -= c_offset;
  i__1 = *n;
  for (j = 1; j <= i__1; ++j) {
    if (*beta == 0.) {
      i__2 = *m;
      for (i__ = 1; i__ <= i__2; ++i__)
        c__[i__ + j * c_dim1] = 0.;
    } else if (*beta != 1.) {
      i__2 = *m;
      for (i__ = 1; i__ <= i__2; ++i__)
        c__[i__ + j * c_dim1] = *beta * c__[i__ + j * c_dim1];
    }
    i__2 = *k;
    for (l = 1; l <= i__2; ++l) {
      temp = *alpha * b[l + j * b_dim1];
      i__3 = *m;
      for (i__ = 1; i__ <= i__3; ++i__)
        c__[i__ + j * c_dim1] += temp * a[i__ + l * a_dim1];
    }
  }
  return 0;
}

int read_first(integer m, integer n, integer k, doublereal *a,
               doublereal *b, doublereal *c) {
  static integer i, j, l;
  if (i > 0)
    c[0] += 1;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      for (l = 0; l < k; l++)
        c[i * n + j] += a[i * k + l] * b[l * n + j];
  return 0;
}

int main(void) {
  integer m = 37, n = 29, k = 45, r;
  double *a = malloc(sizeof(double) * m * k), *b = malloc(sizeof(double) * k * n);
  double *c = guarded_d((long)m * n);
  doublereal alpha = 1.5, betas[2] = {0.0, 0.5};
  double scale, c0;
  long i;
  fill_d(a, (long)m * k, 1);
  fill_d(b, (long)k * n, 2);
  scale = norm_d(a, (long)m * k) * norm_d(b, (long)k * n);
  for (i = 0; i < (long)m * n; ++i)
    c[GUARD + i] = 0.25;
  for (r = 0; r < 4; ++r) {
    c0 = norm_d(c + GUARD, (long)m * n);
    dgemm_nn(&m, &n, &k, &alpha, a, &m, b, &k, &betas[r % 2], c + GUARD, &m);
    show_d(r % 2 ? "beta-half" : "beta-zero", k, 1.5 * scale + 0.5 * c0, c,
           (long)m * n);
  }
  for (r = 0; r < 2; ++r) {
    c0 = norm_d(c + GUARD, (long)m * n);
    read_first(m, n, k, a, b, c + GUARD);
    show_d("read-first", k, scale + c0 + 1, c, (long)m * n);
  }
  return 0;
}
