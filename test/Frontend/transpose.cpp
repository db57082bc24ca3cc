// The four transpose combinations of a row-major C = op(A) * op(B). A
// transposed operand is the same GEMM with swapped strides: the call passes
// (1, ld) instead of (ld, 1), the remark calls it column-major and the memref
// carries strided<[1, ?]>.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

typedef float T;

// OUT: #line 1 "{{.*}}transpose.cpp"

void nn(int m, int n, int k, const T *A, int lda, const T *B, int ldb, T *C, int ldc) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_0(A, m, k, lda, 1, B, k, n, ldb, 1, C, m, n, ldc, 1, 1, 1)) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        C[i * ldc + j] += A[i * lda + l] * B[l * ldb + j];
}

// B is stored n x k.
void nt(int m, int n, int k, const T *A, int lda, const T *B, int ldb, T *C, int ldc) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B column-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(A, m, k, lda, 1, B, k, n, 1, ldb, C, m, n, ldc, 1, 1, 1)) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        C[i * ldc + j] += A[i * lda + l] * B[j * ldb + l];
}

// A is stored k x m.
void tn(int m, int n, int k, const T *A, int lda, const T *B, int ldb, T *C, int ldc) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A column-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_2(A, m, k, 1, lda, B, k, n, ldb, 1, C, m, n, ldc, 1, 1, 1)) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        C[i * ldc + j] += A[l * lda + i] * B[l * ldb + j];
}

void tt(int m, int n, int k, const T *A, int lda, const T *B, int ldb, T *C, int ldc) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A column-major, B column-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_3(A, m, k, 1, lda, B, k, n, 1, ldb, C, m, n, ldc, 1, 1, 1)) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        C[i * ldc + j] += A[l * lda + i] * B[j * ldb + l];
}

// The same on 2-D arrays: TT with static strides, and a transposed C
// (written as C^T[j][i]), which makes C column-major.
double At[16][64], Bt[32][16], Ct[32][64];
void ttArrays() {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A column-major, B column-major, C column-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_4(&At[0][0], 64, 16, 1, 64, &Bt[0][0], 16, 32, 1, 16, &Ct[0][0], 64, 32, 1, 64, 1, 1)) {
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j)
      for (int k = 0; k < 16; ++k)
        Ct[j][i] += At[k][i] * Bt[j][k];
}

// OUT-NOT: gemm_opt_nest_{{[5-9]}}

// MLIR: func.func @gemm_opt_nest_0(%arg0: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg2: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg3: f32, %arg4: f32)
// MLIR: func.func @gemm_opt_nest_1(%arg0: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf32, strided<[1, ?], offset: ?>>, %arg2: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg3: f32, %arg4: f32)
// MLIR: func.func @gemm_opt_nest_2(%arg0: memref<?x?xf32, strided<[1, ?], offset: ?>>, %arg1: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg2: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg3: f32, %arg4: f32)
// MLIR: func.func @gemm_opt_nest_3(%arg0: memref<?x?xf32, strided<[1, ?], offset: ?>>, %arg1: memref<?x?xf32, strided<[1, ?], offset: ?>>, %arg2: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg3: f32, %arg4: f32)
// MLIR: func.func @gemm_opt_nest_4(%arg0: memref<64x16xf64, strided<[1, 64], offset: ?>>, %arg1: memref<16x32xf64, strided<[1, 16], offset: ?>>, %arg2: memref<64x32xf64, strided<[1, 64], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR-NOT: func.func
