/* Products written once as the text of an object-like macro and used by
 * several functions, as R's array.c writes matprod, crossprod and tcrossprod
 * (the body declares its own locals before the nest). Each use is rewritten
 * in a copy of the macro's text at that use; the #define stays as written.
 * A body with a long double accumulator (left as written: the GPU has no
 * long double), a function-like macro and a macro used in another macro's
 * text get remarks. The program must print what the original prints, and
 * the guard cells around each result keep their values.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %host_cc -std=c99 -O1 -I %S/Inputs %s -lm -o %t/orig && %t/orig > %t/expected
 * RUN: gemm-opt %s -o %t/host.c --kernels=%t/kernels.cu -- -I %S/Inputs 2>&1 | FileCheck %s
 * RUN: %host_cc -std=c99 -Wall -Werror -O1 -I %S/Inputs -c %t/host.c -o %t/host.o
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t/kernels.cu -o %t/kernels.o
 * RUN: %nvcc -arch=sm_%cuda_arch %t/host.o %t/kernels.o %gemm_runtime_lib -o %t/split
 * RUN: %t/split > %t/actual && %python %S/compare.py %t/expected %t/actual
 * RUN: env GEMM_OPT_DEVICE=cpu %t/split > %t/lifted && %python %S/compare.py %t/expected %t/lifted
 * RUN: grep -v HOST %t/host.c | FileCheck --check-prefix=HOST %s
 */
#include "e2e_util_c.h"

typedef long xlen_t;

static void internal_matprod(double *x, int nrx, int ncx, double *y, int nry,
                             int ncy, double *z) {
  long double sum;
#define MATPROD_BODY                                                           \
  xlen_t NRX = nrx, NRY = nry;                                                 \
  for (int i = 0; i < nrx; i++)                                                \
    for (int k = 0; k < ncy; k++) {                                            \
      sum = 0.0;                                                               \
      for (int j = 0; j < ncx; j++)                                            \
        sum += x[i + j * NRX] * y[j + k * NRY];                                \
      z[i + k * NRX] = (double)sum;                                            \
    }
  // CHECK: macro-text.c:[[@LINE+1]]:3: remark: loop nest not rewritten: {{.*}}long double
  MATPROD_BODY;
}

static void simple_matprod(double *x, int nrx, int ncx, double *y, int nry,
                           int ncy, double *z) {
  double sum;
  // The copy is at the use, with the macro's lines; the rest of the use's
  // line follows with its own number.
  // HOST: // gemm-opt: the macro MATPROD_BODY, its text with its nests rewritten
  // HOST-NEXT: #line [[#@LINE-18]] "{{.*}}macro-text.c"
  // HOST-NEXT: {{^}}xlen_t NRX = nrx, NRY = nry;
  // HOST-NEXT: {{^}}  if (!gemm_opt_kernels_{{[0-9a-f]+}}_nest_0(x, nrx, ncx, 1, nrx, y, ncx, ncy, 1, nry, z, nrx, ncy, 1, nrx, 1, 0)) {
  // HOST-NEXT: #line [[#@LINE-20]] "{{.*}}macro-text.c"
  // HOST: {{^}}    } }
  // HOST-NEXT: #line [[#@LINE+3]] "{{.*}}macro-text.c"
  // HOST-NEXT: {{^}};
  // CHECK: macro-text.c:[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = nrx x ncy x ncx
  MATPROD_BODY;
}

#define CROSSPROD_BODY                                                         \
  xlen_t NRX = nrx, NRY = nry, NCX = ncx;                                      \
  for (int i = 0; i < ncx; i++)                                                \
    for (int k = 0; k < ncy; k++) {                                            \
      sum = 0.0;                                                               \
      for (int j = 0; j < nrx; j++)                                            \
        sum += x[j + i * NRX] * y[j + k * NRY];                                \
      z[i + k * NCX] = (double)sum;                                            \
    }

static void simple_crossprod(double *x, int nrx, int ncx, double *y, int nry,
                             int ncy, double *z) {
  double sum;
  // CHECK: macro-text.c:[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = ncx x ncy x nrx; A row-major, B column-major, C column-major; accumulates in 'sum', alpha = 1, beta = 0; rewritten
  CROSSPROD_BODY;
}

/* A float product in a body that ends without a `;`, twice in one line. */
#define TCROSSPROD_BODY                                                        \
  for (int i = 0; i < nrx; i++)                                                \
    for (int k = 0; k < nry; k++) {                                            \
      float sum = 0;                                                           \
      for (int j = 0; j < ncx; j++)                                            \
        sum += x[i + j * nrx] * y[k + j * nry];                                \
      z[i + k * nrx] = sum;                                                    \
    }

static void simple_tcrossprod(float *x, int nrx, int ncx, float *y, int nry,
                              float *z, float *w) {
  // CHECK: macro-text.c:[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = nrx x nry x ncx; A column-major, B row-major, C column-major; accumulates in 'sum', alpha = 1, beta = 0; rewritten
  // CHECK: macro-text.c:[[@LINE+1]]:35: remark: GEMM recognised: f32
  TCROSSPROD_BODY { float *z = w; TCROSSPROD_BODY }
}

// A use as the arm of an `if` with an `else`: the guard is braced, so the
// `else` keeps its own `if`.
static void chosen(float *x, int nrx, int ncx, float *y, int nry, float *z,
                   int which) {
  // CHECK: macro-text.c:[[@LINE+1]]:14: remark: GEMM recognised: f32
  if (which) TCROSSPROD_BODY else z[0] = -1.0f;
}

// CHECK: macro-text.c:[[@LINE+7]]:3: remark: loop nest not rewritten: it is written in the function-like macro 'SCALED_BODY', whose text copied to its use would not have its arguments
#define SCALED_BODY(s)                                                         \
  for (int i = 0; i < n; i++)                                                  \
    for (int j = 0; j < n; j++)                                                \
      for (int l = 0; l < n; l++)                                              \
        c[i * n + j] += (s) * a[i * n + l] * b[l * n + j];
static void scaled(int n, const double *a, const double *b, double *c) {
  SCALED_BODY(2.0)
}

#define INNER_BODY                                                             \
  for (int i = 0; i < n; i++)                                                  \
    for (int j = 0; j < n; j++)                                                \
      for (int l = 0; l < n; l++)                                              \
        c[i * n + j] += a[i * n + l] * b[l * n + j];
#define OUTER_BODY INNER_BODY
static void nested(int n, const double *a, const double *b, double *c) {
  // CHECK: macro-text.c:[[@LINE+1]]:3: remark: loop nest not rewritten: it is written in the macro 'INNER_BODY', which the text of another macro uses; only a macro that the main file uses is copied there
  OUTER_BODY
}


int main(void) {
  const int m = 23, n = 19, k = 31;
  double *x = malloc(sizeof(double) * m * k), *y = malloc(sizeof(double) * k * n);
  double *z = malloc(sizeof(double) * (m * n + 2 * GUARD));
  float *xf = malloc(sizeof(float) * m * k), *yf = malloc(sizeof(float) * k * n);
  float *zf = malloc(sizeof(float) * (m * n + 2 * GUARD));
  float *wf = malloc(sizeof(float) * (m * n + 2 * GUARD));
  double *a = malloc(sizeof(double) * k * k), *b = malloc(sizeof(double) * k * k);
  double *c = malloc(sizeof(double) * (k * k + 2 * GUARD));
  long i;
  fill_d(x, (long)m * k, 1);
  fill_d(y, (long)k * n, 2);
  fill_f(xf, (long)m * k, 3);
  fill_f(yf, (long)k * n, 4);
  fill_d(a, (long)k * k, 5);
  fill_d(b, (long)k * k, 6);
#define RESET(p, count)                                                        \
  for (i = 0; i < (count) + 2 * GUARD; ++i)                                    \
    (p)[i] = -7;
  RESET(z, m * n)
  internal_matprod(x, m, k, y, k, n, z + GUARD);
  show_d("internal_matprod", k, norm_d(x, (long)m * k) * norm_d(y, (long)k * n), z, m * n);
  RESET(z, m * n)
  simple_matprod(x, m, k, y, k, n, z + GUARD);
  show_d("matprod", k, norm_d(x, (long)m * k) * norm_d(y, (long)k * n), z, m * n);
  RESET(z, m * n)
  simple_crossprod(x, k, m, y, k, n, z + GUARD);
  show_d("crossprod", k, norm_d(x, (long)m * k) * norm_d(y, (long)k * n), z, m * n);
  RESET(zf, m * n)
  RESET(wf, m * n)
  simple_tcrossprod(xf, m, k, yf, n, zf + GUARD, wf + GUARD);
  show_f("tcrossprod", k, norm_f(xf, (long)m * k) * norm_f(yf, (long)k * n), zf, m * n);
  show_f("tcrossprod-again", k, norm_f(xf, (long)m * k) * norm_f(yf, (long)k * n), wf, m * n);
  RESET(zf, m * n)
  chosen(xf, m, k, yf, n, zf + GUARD, 1);
  show_f("chosen", k, norm_f(xf, (long)m * k) * norm_f(yf, (long)k * n), zf, m * n);
  chosen(xf, m, k, yf, n, zf + GUARD, 0);
  printf("not chosen %.9g\n", (double)zf[GUARD]);
  RESET(c, k * k)
  scaled(k, a, b, c + GUARD);
  show_d("scaled", k, 3 * norm_d(a, (long)k * k) * norm_d(b, (long)k * k), c, k * k);
  RESET(c, k * k)
  nested(k, a, b, c + GUARD);
  show_d("nested", k, 2 * norm_d(a, (long)k * k) * norm_d(b, (long)k * k), c, k * k);
  free(x); free(y); free(z); free(xf); free(yf); free(zf); free(wf);
  free(a); free(b); free(c);
  return 0;
}
