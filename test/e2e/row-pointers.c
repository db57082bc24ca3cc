/* A numerical library in C89 style that keeps each matrix as a table of row
 * pointers, one malloc per row: a product, a product with the second factor
 * transposed and alpha/beta, a Schur-complement update of a block (as LU
 * does) with hoisted row pointers, and an in-place update whose C shares its
 * rows with A. Every row is allocated longer than the matrix and its tail
 * poisoned; the tails, and the elements outside the updated block, must come
 * back untouched. The host file stays C; the kernels are built apart.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %host_cc -std=c99 -O1 %s -lm -o %t/orig && %t/orig > %t/expected
 * RUN: gemm-opt %s -o %t/host.c --kernels=%t/kernels.cu 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
 * RUN: %host_cc -std=c99 -Wall -Werror -O1 -c %t/host.c -o %t/host.o
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t/kernels.cu -o %t/kernels.o
 * RUN: %nvcc -arch=sm_%cuda_arch %t/host.o %t/kernels.o %gemm_runtime_lib -o %t/split
 * RUN: %t/split > %t/actual && %python %S/compare.py %t/expected %t/actual
 * RUN: env GEMM_OPT_DEVICE=cpu GEMM_OPT_TRACE=1 %t/split > %t/lifted 2> %t/trace
 * RUN: %python %S/compare.py %t/expected %t/lifted
 * RUN: FileCheck --check-prefix=TRACE %s < %t/trace
 * CHECK: row-pointers.c:57:3: remark: GEMM recognised: f64, M x N x K = m x p x n; A row pointers, B row pointers, C row pointers; accumulates in 'sum', alpha = 1, beta = 0
 * CHECK: row-pointers.c:70:3: remark: GEMM recognised: f64, M x N x K = m x p x n; A row pointers, B column pointers, C row pointers; accumulates in 'sum', alpha = alpha, beta = beta
 * CHECK: row-pointers.c:83:3: remark: GEMM recognised: f64, M x N x K = (-i0 + i1) x (-j0 + j1) x n; A row pointers, B row pointers, C row pointers; accumulates into C, alpha = -1, beta = 1
 * CHECK: row-pointers.c:97:3: remark: GEMM recognised: f64, M x N x K = n x n x n; A row pointers, B row pointers, C row pointers; accumulates into C, alpha = 1, beta = 1
 * TRACE: nest row-pointers.c:57:3 ran on the CPU reference
 * TRACE: nest row-pointers.c:70:3 ran on the CPU reference
 * TRACE: nest row-pointers.c:83:3 ran on the CPU reference
 * TRACE: nest row-pointers.c:97:3 runs the original loop: C overlaps A
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define TAIL 3 /* elements past the end of every row */
#define POISON (-12345.25)

/* An nr x nc matrix as nr rows of nc + TAIL doubles, the tails poisoned. */
static double **dmatrix(long nr, long nc) {
  double **m = malloc(nr * sizeof(double *));
  long i, j;
  for (i = 0; i < nr; i++) {
    m[i] = malloc((nc + TAIL) * sizeof(double));
    for (j = 0; j < nc + TAIL; j++)
      m[i][j] = POISON;
  }
  return m;
}

static void free_dmatrix(double **m, long nr) {
  long i;
  for (i = 0; i < nr; i++)
    free(m[i]);
  free(m);
}

/* c = a * b: m x n times n x p. */
void dmmul(double **a, double **b, double **c, int m, int n, int p) {
  int i, j, k;
  for (i = 0; i < m; i++)
    for (j = 0; j < p; j++) {
      double sum = 0.0;
      for (k = 0; k < n; k++)
        sum += a[i][k] * b[k][j];
      c[i][j] = sum;
    }
}

/* c = alpha * a * bt^T + beta * c, bt p x n. */
void dmmul_nt(int m, int n, int p, double alpha, const double *const *a,
              const double *const *bt, double beta, double **c) {
  int i, j, k;
  for (i = 0; i < m; i++)
    for (j = 0; j < p; j++) {
      double sum = 0.0;
      for (k = 0; k < n; k++)
        sum += a[i][k] * bt[j][k];
      c[i][j] = alpha * sum + beta * c[i][j];
    }
}

/* c[i0:i1][j0:j1] -= a[i0:i1][0:n] * b[0:n][j0:j1], row by row. */
void schur_update(double **a, double **b, double **c, int i0, int i1, int j0,
                  int j1, int n) {
  int i, j, k;
  for (i = i0; i < i1; i++) {
    double *ci = c[i];
    const double *ai = a[i];
    for (k = 0; k < n; k++) {
      double aik = ai[k];
      for (j = j0; j < j1; j++)
        ci[j] -= aik * b[k][j];
    }
  }
}

/* c += a * b where c may be a itself. */
void dmmul_acc(double **a, double **b, double **c, int n) {
  int i, j, k;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        c[i][j] += a[i][k] * b[k][j];
}

static void fill(double **m, long nr, long nc, unsigned seed) {
  unsigned long long state = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  long i;
  for (i = 0; i < nr * nc; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    m[i / nc][i % nc] = 2.0 * ((double)(state >> 11) / 9007199254740992.0) - 1.0;
  }
}

static double norm(double **m, long nr, long nc) {
  double sum = 0;
  long i;
  for (i = 0; i < nr * nc; ++i)
    sum += m[i / nc][i % nc] * m[i / nc][i % nc];
  return sqrt(sum);
}

static void print(const char *label, long k, double scale, double **c, long nr,
                  long nc) {
  long i;
  printf("matrix %s f64 %ld %.17g %ld", label, k, scale, nr * nc);
  for (i = 0; i < nr * nc; ++i)
    printf(" %.17g", c[i / nc][i % nc]);
  printf("\n");
}

/* How many tail elements of m's rows lost their poison. */
static long tails_changed(double **m, long nr, long nc) {
  long i, changed = 0;
  for (i = 0; i < nr * TAIL; ++i)
    changed += m[i / TAIL][nc + i % TAIL] != POISON;
  return changed;
}

int main(void) {
  const int m = 37, n = 45, p = 29;
  double **a = dmatrix(m, n), **b = dmatrix(n, p), **bt = dmatrix(p, n);
  double **c = dmatrix(m, p), **c0 = dmatrix(m, p);
  double **sq = dmatrix(n, n), **sq2 = dmatrix(n, n);
  double **shared = malloc(n * sizeof(double *));
  long i, outside = 0;
  double scale;
  fill(a, m, n, 1);
  fill(b, n, p, 2);
  fill(bt, p, n, 3);
  fill(c0, m, p, 4);

  dmmul(a, b, c, m, n, p);
  print("dmmul", n, norm(a, m, n) * norm(b, n, p), c, m, p);

  fill(c, m, p, 4);
  dmmul_nt(m, n, p, 1.5, (const double *const *)a, (const double *const *)bt,
           -0.5, c);
  print("dmmul_nt", n, 1.5 * norm(a, m, n) * norm(bt, p, n) + 0.5 * norm(c0, m, p),
        c, m, p);

  /* The block [3, 30) x [4, 20) changes; the rest of c must not. */
  fill(c, m, p, 4);
  schur_update(a, b, c, 3, 30, 4, 20, n);
  print("schur", n, norm(a, m, n) * norm(b, n, p) + norm(c0, m, p), c, m, p);
  for (i = 0; i < (long)m * p; ++i)
    if (i / p < 3 || i / p >= 30 || i % p < 4 || i % p >= 20)
      outside += c[i / p][i % p] != c0[i / p][i % p];
  printf("elements outside the block changed: %ld\n", outside);

  /* C's rows are A's: the loop's in-place order decides the result. */
  fill(sq, n, n, 5);
  fill(sq2, n, n, 6);
  for (i = 0; i < n; ++i)
    shared[i] = sq[i];
  scale = 2 * norm(sq, n, n) * norm(sq2, n, n);
  dmmul_acc(sq, sq2, shared, n);
  print("in-place", n, scale, sq, n, n);

  printf("tails changed: %ld %ld %ld\n", tails_changed(c, m, p),
         tails_changed(sq, n, n), tails_changed(a, m, n));
  free_dmatrix(a, m);
  free_dmatrix(b, n);
  free_dmatrix(bt, p);
  free_dmatrix(c, m);
  free_dmatrix(c0, m);
  free_dmatrix(sq, n);
  free_dmatrix(sq2, n);
  free(shared);
  return 0;
}
