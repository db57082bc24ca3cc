// const and __restrict on the operands and bounds do not change the GEMM;
// the qualifiers stay in the original loop, and the pointers are passed as
// written.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

// OUT: #line 1 "{{.*}}qualifiers.cpp"

void restrictPointers(const int m, const int n, const int k,
                      const double *__restrict A, const int lda,
                      const double *__restrict B, const int ldb,
                      double *__restrict C, const int ldc) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_0(A, m, k, lda, 1, B, k, n, ldb, 1, C, m, n, ldc, 1, 1, 1)) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        C[i * ldc + j] += A[i * lda + l] * B[l * ldb + j];
}

// const pointers to const, const arrays, a const local bound and alpha.
static const float W[16][8] = {};
void constEverything(const float *const X, float (*const Y)[8]) {
  const int rows = 32;
  const float alpha = 0.5f;
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = 32 x 8 x 16; A row-major, B row-major, C row-major; accumulates into C, alpha = alpha, beta = 1; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(X, 32, 16, 16, 1, &W[0][0], 16, 8, 8, 1, &Y[0][0], 32, 8, 8, 1, alpha, 1)) {
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 16; ++k)
        Y[i][j] += alpha * X[i * 16 + k] * W[k][j];
}

// OUT-NOT: gemm_opt_nest_{{[2-9]}}

// MLIR: func.func @gemm_opt_nest_0(%arg0: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg2: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR: func.func @gemm_opt_nest_1(%arg0: memref<32x16xf32, strided<[16, 1], offset: ?>>, %arg1: memref<16x8xf32, strided<[8, 1], offset: ?>>, %arg2: memref<32x8xf32, strided<[8, 1], offset: ?>>, %arg3: f32, %arg4: f32)
// MLIR-NOT: func.func
