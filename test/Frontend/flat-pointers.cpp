// Flat pointers with runtime leading dimensions: C-style row-major
// `A[i*lda + k]` and BLAS-style column-major `a[i + l*lda]`. The strides are
// the leading dimensions as written, the sizes the loop extents.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

// OUT: #line 1 "{{.*}}flat-pointers.cpp"

void rowMajor(int m, int n, int k, const double *A, int lda, const double *B,
              int ldb, double *C, int ldc) {
  // REMARK: :[[@LINE+4]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT:      {{^}}  if (!gemm_opt_nest_0(A, m, k, lda, 1, B, k, n, ldb, 1, C, m, n, ldc, 1, 1, 1)) {
  // OUT-NEXT: {{^}}#line [[@LINE+2]] "{{.*}}flat-pointers.cpp"
  // OUT-NEXT: {{^}}  for (int i = 0; i < m; ++i)
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        C[i * ldc + j] += A[i * lda + l] * B[l * ldb + j];
  // OUT-NEXT: {{^}}    for (int j = 0; j < n; ++j)
  // OUT-NEXT: {{^}}      for (int l = 0; l < k; ++l)
  // OUT-NEXT: {{^}}        C[i * ldc + j] += A[i * lda + l] * B[l * ldb + j]; }
}

// The reference BLAS loop order (j, l, i) on column-major operands.
void colMajor(int m, int n, int k, const float *a, int lda, const float *b,
              int ldb, float *c, int ldc) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A column-major, B column-major, C column-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(a, m, k, 1, lda, b, k, n, 1, ldb, c, m, n, 1, ldc, 1, 1)) {
  for (int j = 0; j < n; ++j)
    for (int l = 0; l < k; ++l)
      for (int i = 0; i < m; ++i)
        c[i + j * ldc] += a[i + l * lda] * b[l + j * ldb];
}

// A product of the leading dimensions is a stride too.
void packed(int m, int n, int k, const double *A, const double *B, double *C) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_2(A, m, k, k, 1, B, k, n, n, 1, C, m, n, n, 1, 1, 1)) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        C[i * n + j] += A[i * k + l] * B[l * n + j];
}

// OUT-NOT: gemm_opt_nest_{{[3-9]}}

// MLIR: func.func @gemm_opt_nest_0(%arg0: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg2: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR-NEXT: gemm.matmul %arg0, %arg1, %arg2, %arg3, %arg4
// MLIR: func.func @gemm_opt_nest_1(%arg0: memref<?x?xf32, strided<[1, ?], offset: ?>>, %arg1: memref<?x?xf32, strided<[1, ?], offset: ?>>, %arg2: memref<?x?xf32, strided<[1, ?], offset: ?>>, %arg3: f32, %arg4: f32)
// MLIR: func.func @gemm_opt_nest_2(%arg0: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg2: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR-NOT: func.func
