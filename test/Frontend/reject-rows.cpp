// Tables of rows that no gathered copy describes are left alone: a table of
// tables, a row read with a step, a table in a batched nest and a bias read
// from a table. The tables that are rewritten are in row-tables.cpp.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT-NOT: gemm_opt_nest
// OUT:     #line 1 "{{.*}}reject-rows.cpp"
// OUT-NOT: gemm_opt_nest

#include <vector>

void tableOfTables(int n, float ***A, float **B, float **C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: non-contiguous rows: 'A[0][i]' is a row of a table of tables, not one strided buffer or table of rows [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i][j] += A[0][i][k] * B[k][j];
}

void rowStep(int n, float **A, float **B, float **C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the rows of B ('B[k][2 * j]') are not read one row per step of 'k' or 'j' and one element per step of the other [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i][j] += A[i][k] * B[k][2 * j];
}

void tableStep(int n, double **A, double **B, double **C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the rows of A ('A[2 * i][k]') are not read one row per step of 'i' or 'k' and one element per step of the other [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i][j] += A[2 * i][k] * B[k][j];
}

void batchedTable(int n, double **W, double *X, double *Y) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the rows of A ('W[i][k]') are a table in a batched nest [-Rpass-missed=gemm]
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
          Y[(b * n + i) * n + j] += W[i][k] * X[(b * n + k) * n + j];
}

void biasTable(int n, float **A, float **B, float **C, float **bias) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the bias 'bias[i][j]' is read from a table of rows; a bias must be one strided buffer [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float s = bias[i][j];
      for (int k = 0; k < n; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}
