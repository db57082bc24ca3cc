// Tables of rows: a vector of vectors, a pointer to row pointers, an array
// and a std::vector of row pointers, and a row pointer hoisted out of the
// inner loops. The launcher takes the table's first row the nest reads and
// the index of the first element it reads in each row; the memref types
// describe the contiguous copy the runtime gathers the rows into. What is
// still rejected is in reject-rows.cpp.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

#include <vector>

using Matrix = std::vector<std::vector<double>>;

// OUT: static bool gemm_opt_nest_0(const std::vector<double> *a, long long /*a_size0*/, long long a_size1, long long a_offset,
// OUT-NEXT: const std::vector<double> *b, long long /*b_size0*/, long long /*b_size1*/, long long b_offset,
// OUT-NEXT: std::vector<double> *c, long long c_size0, long long c_size1, long long c_offset,
// OUT:      {nullptr, 0, 0, 0}, {nullptr, 0, 0, 0}, {nullptr, 0, 0, 0},
// OUT:      const std::vector<const void *> a_rows = gemm_rt::rowStarts(a, problem.m, a_offset);
// OUT-NEXT: const std::vector<const void *> b_rows = gemm_rt::rowStarts(b, problem.k, b_offset);
// OUT-NEXT: const std::vector<const void *> c_rows = gemm_rt::rowStarts(c, problem.m, c_offset);
// OUT-NEXT: const gemm_rt::RowOperands rows = {{[{][{]}}a_rows.data(), false}, {b_rows.data(), false}, {c_rows.data(), false{{[}][}]}};
// OUT:      return gemm_rt::run(problem, rows, gemm_rt::Plan{variants,

// The table of B runs along its columns: its rows count n; C is strided.
// OUT: static bool gemm_opt_nest_1(const float *const *a, long long /*a_size0*/, long long a_size1, long long a_offset,
// OUT-NEXT: const float *const *b, long long /*b_size0*/, long long /*b_size1*/, long long b_offset,
// OUT-NEXT: float *c, long long c_size0, long long c_size1, long long c_stride0, long long c_stride1,
// OUT:      {nullptr, 0, 0, 0}, {nullptr, 0, 0, 0}, {c, 0, c_stride0, c_stride1},
// OUT:      const gemm_rt::RowOperands rows = {{[{][{]}}a_rows.data(), false}, {b_rows.data(), true}, {}};

// OUT: #line 1 "{{.*}}row-tables.cpp"

// MLIR-LABEL: func.func @gemm_opt_nest_0(
// MLIR-SAME: memref<?x?xf64, strided<[?, 1], offset: ?>>
// MLIR: gemm.matmul
// MLIR-SAME: rows = [#gemm.rows<vectors>, #gemm.rows<vectors>, #gemm.rows<vectors>]
void vectorOfVectors(int n, const Matrix &A, const Matrix &B, Matrix &C) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = n x n x n; A row vectors, B row vectors, C row vectors; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_0(A.data(), n, n, 0, B.data(), n, n, 0, C.data(), n, n, 0, 1, 1)) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i][j] += A[i][k] * B[k][j];
}

// MLIR-LABEL: func.func @gemm_opt_nest_1(
// MLIR-SAME: %arg0: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf32, strided<[1, ?], offset: ?>>
// MLIR: gemm.matmul
// MLIR-SAME: rows = [#gemm.rows<pointers>, #gemm.rows<pointers>, #gemm.rows<none>]
void transposedPointers(int m, int n, int k, float **A, float **Bt, float *C) {
  // REMARK: :[[@LINE+3]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row pointers, B column pointers, C row-major; accumulates in 's', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // The cast makes C accept a `float **`.
  // OUT: {{^}}  if (!gemm_opt_nest_1((const float *const *)(A), m, k, 0, (const float *const *)(Bt), k, n, 0, C, m, n, n, 1, 1, 0)) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int l = 0; l < k; ++l)
        s += A[i][l] * Bt[j][l];
      C[i * n + j] = s;
    }
}

// A block of an array of row pointers: the table starts at row i0, each
// row at element j0; C's rows are hoisted, A's are a std::vector.
void block(double *C[64], const std::vector<const double *> &A,
           double B[64][64], int i0, int i1, int j0, int j1) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = (-i0 + i1) x (-j0 + j1) x 64; A row pointers, B row-major, C row pointers; accumulates into C, alpha = -1, beta = 1; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_2((const double *const *)(A.data() + i0), -i0 + i1, 64, 0, (&B[0][0]) + j0, 64, -j0 + j1, 64, 1, C + i0, -i0 + i1, -j0 + j1, j0, -1, 1)) {
  for (int i = i0; i < i1; ++i) {
    double *ci = C[i];
    for (int k = 0; k < 64; ++k)
      for (int j = j0; j < j1; ++j)
        ci[j] -= A[i][k] * B[k][j];
  }
}
