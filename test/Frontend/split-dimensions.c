// Several loops along one side of C (LoopShape's dimensions, then the
// recogniser's merge): innermost pairs whose strides compose in every
// operand make one dimension, the side's outer loops are batches, and
// nested batches merge where their strides compose (or else only where a
// test before the nest says so). Sum factorisation in the finite-element
// style: N split over two loops with a batch around them and K outermost;
// two batch loops around M, N and K; M over three loops; loops along C's
// rows whose strides compose in C but not in A: the outer two are a batch,
// which is one only where a test before the nest holds.
//
// RUN: gemm-opt %s -o %t.c --kernels=%t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:

void first_direction(int nb, int np, int nq, int ne, const double *r,
                     const double *x, double *u) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = nq x (ne * np * np) x np, batch nb; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten
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
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = nq x ne x np, batch (nb * nq * nq); A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten
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
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = nq x (ne * np) x np, batch (nb * nq); A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten
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
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = (n1 * n2 * n3) x n x kk; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten
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
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = n3 x n x kk, batch (n1 * n2); A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; the launcher runs only where n1 == 1 || (kk * n2 * n3) == (kk * n2) (
  for (int i1 = 0; i1 < n1; i1++)
    for (int i2 = 0; i2 < n2; i2++)
      for (int i3 = 0; i3 < n3; i3++)
        for (int j = 0; j < n; j++)
          for (int k = 0; k < kk; k++)
            c[((i1 * n2 + i2) * n3 + i3) * n + j] +=
                a[(i1 * n3 + i3) * kk * n2 + i2 * kk + k] * b[k * n + j];
}
