/* Loops named by labels that no goto targets (Vitis/SDSoC HLS style, with
 * HLS pragmas), and strides spelled by two names: a local copy of a member
 * set before the nest in one statement, the member itself in another
 * (sfepy's fmf_mulABT_nn, `int wr = R->nCol;`), or in one operand and not
 * the other. Odd sizes. Every labelled and two-names nest is rewritten; the
 * labels stay once, in the loop the guard keeps.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %host_cc -std=c99 -O1 -I %S/Inputs %s -lm -o %t/orig && %t/orig > %t/expected
 * RUN: gemm-opt %s -o %t/host.c --kernels=%t/kernels.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=remark:
 * RUN: %host_cc -std=c99 -Wall -Werror -Wno-unused-label -Wno-unknown-pragmas -O1 -I %S/Inputs -c %t/host.c -o %t/host.o
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t/kernels.cu -o %t/kernels.o
 * RUN: %nvcc -arch=sm_%cuda_arch %t/host.o %t/kernels.o %gemm_runtime_lib -o %t/run
 * RUN: %t/run > %t/actual && %python %S/compare.py %t/expected %t/actual
 * RUN: env GEMM_OPT_DEVICE=cpu GEMM_OPT_TRACE=1 %t/run > %t/lifted 2> %t/trace && %python %S/compare.py %t/expected %t/lifted
 * RUN: grep -c "ran on the CPU reference" %t/trace | grep -qx 3
 */
#include "e2e_util_c.h"

static void mmult(int m, int n, int k, const float *A, const float *B,
                  float *C) {
row:
  // CHECK: labels-and-copies.c:[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; {{.*}}accumulates in 'result'{{.*}}[-Rpass=gemm]
  for (int i = 0; i < m; i++) {
  col:
    for (int j = 0; j < n; j++) {
#pragma HLS PIPELINE
      float result = 0;
    prod:
      for (int p = 0; p < k; p++) {
#pragma HLS UNROLL factor = 2
        result += A[i * k + p] * B[p * n + j];
      }
      C[i * n + j] = result;
    }
  }
}

typedef struct {
  int nLev, nRow, nCol;
  double *val;
} FMField;

/* R = A * B^T per level; the zero-init names R's row width wr. */
static void mulABT(FMField *R, FMField *A, FMField *B) {
  int i, j, k, il, wr = R->nCol, wa = A->nCol, wb = B->nCol;
  double *pr, *pa, *pb;
  // CHECK: labels-and-copies.c:[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = R->nRow x R->nCol x A->nCol, batch R->nLev; {{.*}}fused zero-init of C{{.*}}[-Rpass=gemm]
  for (il = 0; il < R->nLev; il++) {
    pr = R->val + R->nCol * R->nRow * il;
    pa = A->val + A->nCol * A->nRow * il;
    pb = B->val + B->nCol * B->nRow * il;
    for (i = 0; i < R->nRow; i++)
      for (j = 0; j < R->nCol; j++) {
        pr[wr * i + j] = 0.0;
        for (k = 0; k < A->nCol; k++)
          pr[R->nCol * i + j] += pa[wa * i + k] * pb[wb * j + k];
      }
  }
}

typedef struct {
  int rows, cols;
  float *data;
} Mat;

/* C = A * B with C's stride copied into ld for the init, A's stride read
 * through the copy la and B's through the member. */
static void matmul(Mat *C, const Mat *A, const Mat *B) {
  int ld, la;
  ld = C->cols;
  la = A->cols;
  // CHECK: labels-and-copies.c:[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = C->rows x C->cols x A->cols; {{.*}}fused zero-init of C{{.*}}[-Rpass=gemm]
  for (int i = 0; i < C->rows; i++)
  outer:
    for (int j = 0; j < ld; j++) {
      C->data[i * ld + j] = 0;
      for (int p = 0; p < la; p++)
        C->data[i * C->cols + j] += A->data[i * la + p] * B->data[p * B->cols + j];
    }
}

int main(void) {
  const int m = 17, n = 13, k = 11, lev = 3;
  float *a = malloc(sizeof(float) * m * k);
  float *b = malloc(sizeof(float) * k * n);
  float *c = malloc(sizeof(float) * (m * n + 2 * GUARD));
  double *ad = malloc(sizeof(double) * lev * m * k);
  double *bd = malloc(sizeof(double) * lev * n * k);
  double *cd = malloc(sizeof(double) * (lev * m * n + 2 * GUARD));
  long i;
  fill_f(a, (long)m * k, 3);
  fill_f(b, (long)k * n, 5);
  fill_d(ad, (long)lev * m * k, 7);
  fill_d(bd, (long)lev * n * k, 9);
  double scale = norm_f(a, (long)m * k) * norm_f(b, (long)k * n);
  double scaled = norm_d(ad, (long)lev * m * k) * norm_d(bd, (long)lev * n * k);

  for (i = 0; i < m * n + 2 * GUARD; ++i)
    c[i] = -7.0f;
  mmult(m, n, k, a, b, c + GUARD);
  show_f("labelled", k, scale, c, (long)m * n);

  for (i = 0; i < lev * m * n + 2 * GUARD; ++i)
    cd[i] = i % 2 ? 3.0 : -7.0;
  for (i = 0; i < GUARD; ++i)
    cd[i] = cd[GUARD + lev * m * n + i] = -7.0;
  FMField R = {lev, m, n, cd + GUARD}, A = {lev, m, k, ad}, B = {lev, n, k, bd};
  mulABT(&R, &A, &B);
  show_d("two-names", k, scaled, cd, (long)lev * m * n);

  for (i = 0; i < m * n + 2 * GUARD; ++i)
    c[i] = i < GUARD || i >= GUARD + m * n ? -7.0f : 2.0f;
  Mat Cm = {m, n, c + GUARD}, Am = {m, k, a}, Bm = {k, n, b};
  matmul(&Cm, &Am, &Bm);
  show_f("copied-stride", k, scale, c, (long)m * n);
  free(a);
  free(b);
  free(c);
  free(ad);
  free(bd);
  free(cd);
  return 0;
}
