// Rows that are separate allocations (a vector of vectors, a pointer to row
// pointers, an array of row pointers) are no strided buffer, so the nest is
// left alone.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT-NOT: gemm_opt_nest
// OUT:     #line 1 "{{.*}}reject-rows.cpp"
// OUT-NOT: gemm_opt_nest

#include <vector>

using Matrix = std::vector<std::vector<double>>;

void vectorOfVectors(int n, const Matrix &A, const Matrix &B, Matrix &C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: non-contiguous rows: 'A[i]' is a row of a vector of vectors, not one strided buffer [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i][j] += A[i][k] * B[k][j];
}

void pointerToPointers(int n, float **A, float **B, float **C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: non-contiguous rows: 'A[i]' is a pointer, so 'A[i][k]' does not address one strided buffer [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i][j] += A[i][k] * B[k][j];
}

// Only C has pointer rows.
void arrayOfRowPointers(double A[8][8], double B[8][8], double *rows[8]) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: non-contiguous rows: 'rows[i]' is a pointer, so 'rows[i][j]' does not address one strided buffer [-Rpass-missed=gemm]
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 8; ++k)
        rows[i][j] += A[i][k] * B[k][j];
}
