/* A statistics library's BLAS-free products in C89 style (the forms of R
 * packages' C code): matrices as tables of row pointers whose rows are
 * loaded into locals and walked to an end (C = op(A) op(B), the four cases
 * of one function picked by flags, each case's pointers set again before
 * any other case reads them), and column-major arrays with dimensions
 * passed as `int *`, walked to end pointers that are set from them, with
 * the operand pointers themselves stepped from one column to the next.
 * Rows are allocated longer than the matrix and their tails poisoned; the
 * tails must come back untouched. The host file stays C.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %host_cc -std=c99 -O1 -I %S/Inputs %s -lm -o %t/orig && %t/orig > %t/expected
 * RUN: gemm-opt %s -o %t/host.c --kernels=%t/kernels.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
 * RUN: %host_cc -std=c99 -Wall -Werror -O1 -I %S/Inputs -c %t/host.c -o %t/host.o
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t/kernels.cu -o %t/kernels.o
 * RUN: %nvcc -arch=sm_%cuda_arch %t/host.o %t/kernels.o %gemm_runtime_lib -o %t/split
 * RUN: %t/split > %t/actual && %python %S/compare.py %t/expected %t/actual
 * RUN: env GEMM_OPT_DEVICE=cpu %t/split > %t/lifted
 * RUN: %python %S/compare.py %t/expected %t/lifted
 * CHECK: row-table-walks.c:42:7: remark: GEMM recognised: f64, M x N x K = A.c x B.r x A.r; A column pointers, B column pointers, C row pointers; fused zero-init of C, alpha = 1, beta = 0
 * CHECK: row-table-walks.c:48:7: remark: GEMM recognised: f64, M x N x K = A.c x B.c x A.r; A column pointers, B row pointers, C row pointers; accumulates into C, alpha = 1, beta = 1
 * CHECK: row-table-walks.c:55:7: remark: GEMM recognised: f64, M x N x K = A.r x B.r x A.c; A row pointers, B column pointers, C row pointers; fused zero-init of C, alpha = 1, beta = 0
 * CHECK: row-table-walks.c:61:7: remark: GEMM recognised: f64, M x N x K = A.r x B.c x A.c; A row pointers, B row pointers, C row pointers; accumulates into C, alpha = 1, beta = 1
 * CHECK: row-table-walks.c:74:3: remark: GEMM recognised: f64, M x N x K = (*c) x (*r) x (*n); A row-major, B row-major, C row-major; fused zero-init of C, alpha = 1, beta = 0
 * CHECK: row-table-walks.c:88:3: remark: GEMM recognised: f64, M x N x K = (*c) x (*r) x (*n); A row-major, B row-major, C row-major; fused zero-init of C, alpha = 1, beta = 0
 * CHECK: row-table-walks.c:107:3: remark: GEMM recognised: f64, M x N x K = (*c) x (*r) x (*n); A row-major, B column-major, C row-major; accumulates in 'xx', alpha = 1, beta = 0; the launcher runs only where cr > 0
 */
#include "e2e_util_c.h"
#include <stddef.h>

#define TAIL 3
#define POISON 12345.0 /* in the tails of a table's rows */

typedef struct { int r, c; double **M; } matrix;

/* C = op(A) op(B), A transposed where tA, B where tB. */
void matmult(matrix C, matrix A, matrix B, int tA, int tB) {
  int i, j, k;
  double temp, *p, *p1, *p2, **CM = C.M, **AM = A.M, **BM = B.M;
  if (tA) {
    if (tB) {
      for (i = 0; i < A.c; i++) for (j = 0; j < B.r; j++) {
        p2 = CM[i] + j; *p2 = 0.0; p = BM[j];
        for (k = 0; k < A.r; k++) *p2 += AM[k][i] * (*p++);
      }
    } else {
      for (i = 0; i < A.c; i++) for (p = CM[i]; p < CM[i] + C.c; p++) *p = 0.0;
      for (k = 0; k < A.r; k++) for (i = 0; i < A.c; i++) {
        temp = AM[k][i]; p1 = BM[k];
        for (p = CM[i]; p < CM[i] + B.c; p++) *p += temp * (*p1++);
      }
    }
  } else {
    if (tB) {
      for (i = 0; i < A.r; i++) for (j = 0; j < B.r; j++) {
        p2 = CM[i] + j; *p2 = 0.0; p1 = BM[j];
        for (p = AM[i]; p < AM[i] + A.c; p++) *p2 += (*p) * (*p1++);
      }
    } else {
      for (i = 0; i < A.r; i++) for (p = CM[i]; p < CM[i] + B.c; p++) *p = 0.0;
      for (k = 0; k < A.c; k++) for (i = 0; i < A.r; i++) {
        p1 = BM[k]; temp = AM[i][k];
        for (p = CM[i]; p < CM[i] + B.c; p++) *p += temp * (*p1++);
      }
    }
  }
}

/* A = B C, column-major: A is r x c, B r x n, C n x c; each column of A is
 * zeroed, then B's columns are added into it, scaled by C's elements. */
void mmult_bc(double *A, double *B, double *C, int *r, int *c, int *n) {
  double xx, *bp, *ap, *ap1;
  int i, j;
  for (j = 0; j < *c; j++) {
    ap1 = A + *r; bp = B;
    for (ap = A; ap < ap1; ap++) *ap = 0.0;
    for (i = 0; i < *n; i++, C++)
      for (xx = *C, ap = A; ap < ap1; ap++, bp++) *ap += xx * *bp;
    A = ap1;
  }
}

/* The same with C's element read in the loop's body and B's column set
 * from its index. */
void mmult_bc2(double *A, double *B, double *C, int *r, int *c, int *n) {
  double *bp, *ap, *ap1;
  int i, j;
  for (j = 0; j < *c; j++) {
    ap1 = A + *r;
    for (ap = A; ap < ap1; ap++) *ap = 0.0;
    for (i = 0; i < *n; i++) {
      double xx = C[i + *n * j];
      bp = B + *r * i;
      for (ap = A; ap < ap1; ap++, bp++) *ap += xx * *bp;
    }
    A = ap1;
  }
}

/* A = B' C, column-major: A is r x c, B n x r, C n x c; C's columns are
 * walked in steps of n to an end n * c elements on, written with a cast. */
void mmult_btc(double *A, double *B, double *C, int *r, int *c, int *n) {
  double xx, *bp, *cp, *cp1, *cp2, *cp3, *ap;
  int cr, i;
  cr = *n;
  cp2 = C + *c * (ptrdiff_t)cr;
  for (ap = A, cp1 = C; cp1 < cp2; cp1 += cr)
    for (bp = B, i = 0; i < *r; i++, ap++) {
      for (xx = 0.0, cp = cp1, cp3 = cp1 + *n; cp < cp3; cp++, bp++)
        xx += *cp * *bp;
      *ap = xx;
    }
}

/* An r x c matrix whose row table points into one block, each row
 * followed by TAIL poisoned cells, as the library allocates them. */
static matrix table(int r, int c, unsigned seed) {
  matrix m;
  long i, stride = c + TAIL;
  double *block = malloc(r * stride * sizeof(double));
  m.r = r; m.c = c; m.M = malloc(r * sizeof(double *));
  for (i = 0; i < r * stride; i++)
    block[i] = POISON;
  for (i = 0; i < r; i++) {
    m.M[i] = block + i * stride;
    fill_d(m.M[i], c, seed + (unsigned)i);
  }
  return m;
}

static double tableNorm(matrix m) {
  double sum = 0;
  long i;
  for (i = 0; i < m.r; ++i)
    sum += norm_d(m.M[i], m.c) * norm_d(m.M[i], m.c);
  return sqrt(sum);
}

static void printTable(const char *label, long k, double scale, matrix m) {
  long i, tails = 0;
  printf("matrix %s f64 %ld %.17g %ld", label, k, scale, (long)m.r * m.c);
  for (i = 0; i < (long)m.r * m.c; ++i)
    printf(" %.17g", m.M[i / m.c][i % m.c]);
  printf("\n");
  for (i = 0; i < (long)m.r * TAIL; ++i)
    tails += m.M[i / TAIL][m.c + i % TAIL] != POISON;
  printf("%s: tails changed: %ld\n", label, tails);
}

/* A column-major array between GUARD cells of -7 (e2e_util_c.h). */
int main(void) {
  const int m = 37, k = 45, n = 29;
  int v;
  /* Each case of matmult: one loop, so that main holds no nest. */
  for (v = 0; v < 4; v++) {
    int tA = v / 2, tB = v % 2;
    matrix A = tA ? table(k, m, 1u) : table(m, k, 1u);
    matrix B = tB ? table(n, k, 2u) : table(k, n, 2u);
    matrix C = table(m, n, 3u);
    char label[32];
    matmult(C, A, B, tA, tB);
    sprintf(label, "matmult-%d%d", tA, tB);
    printTable(label, k, tableNorm(A) * tableNorm(B), C);
  }
  {
    int r = 37, c = 29, nn = 45;
    double *A = guarded_d((long)r * c), *B = guarded_d((long)r * nn);
    double *C = guarded_d((long)nn * c);
    double scale;
    fill_d(B + GUARD, (long)r * nn, 4);
    fill_d(C + GUARD, (long)nn * c, 5);
    scale = norm_d(B + GUARD, (long)r * nn) * norm_d(C + GUARD, (long)nn * c);
    mmult_bc(A + GUARD, B + GUARD, C + GUARD, &r, &c, &nn);
    show_d("mmult_bc", nn, scale, A, (long)r * c);
    fill_d(A + GUARD, (long)r * c, 6);
    mmult_bc2(A + GUARD, B + GUARD, C + GUARD, &r, &c, &nn);
    show_d("mmult_bc2", nn, scale, A, (long)r * c);
    fill_d(A + GUARD, (long)r * c, 7);
    mmult_btc(A + GUARD, B + GUARD, C + GUARD, &r, &c, &nn);
    show_d("mmult_btc", nn, scale, A, (long)r * c);
  }
  return 0;
}
