// An outer batch loop indexes A, B and C: one batched GEMM whose operands get
// a leading batch dimension with its own stride, from 3-D arrays or from flat
// batch strides.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

// OUT: #line 1 "{{.*}}batch.cpp"

void arrays(double C[4][8][8], double A[4][8][16], double B[4][16][8]) {
  // Batch strides 8*16 = 128, 16*8 = 128 and 8*8 = 64.
  // REMARK: :[[@LINE+4]]:3: remark: GEMM recognised: f64, M x N x K = 8 x 8 x 16, batch 4; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT:      {{^}}  if (!gemm_opt_nest_0(&A[0][0][0], 4, 8, 16, 128, 16, 1, &B[0][0][0], 4, 16, 8, 128, 8, 1, &C[0][0][0], 4, 8, 8, 64, 8, 1, 1, 1)) {
  // OUT-NEXT: {{^}}#line [[@LINE+2]] "{{.*}}batch.cpp"
  // OUT-NEXT: {{^}}  for (int b = 0; b < 4; b++)
  for (int b = 0; b < 4; b++)
    for (int i = 0; i < 8; i++)
      for (int j = 0; j < 8; j++)
        for (int k = 0; k < 16; k++)
          C[b][i][j] += A[b][i][k] * B[b][k][j];

  // The batch loop need not be outermost.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 8 x 8 x 16, batch 4; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(&A[0][0][0], 4, 8, 16, 128, 16, 1, &B[0][0][0], 4, 16, 8, 128, 8, 1, &C[0][0][0], 4, 8, 8, 64, 8, 1, 1, 1)) {
  for (int i = 0; i < 8; i++)
    for (int b = 0; b < 4; b++)
      for (int k = 0; k < 16; k++)
        for (int j = 0; j < 8; j++)
          C[b][i][j] += A[b][i][k] * B[b][k][j];
}

void flat(int nb, int m, int n, int k, const float *A, long sA, int lda,
          const float *B, long sB, int ldb, float *C, long sC, int ldc,
          float alpha) {
  // Explicit batch strides, B transposed, through an accumulator.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k, batch nb; A row-major, B column-major, C row-major; accumulates in 's', alpha = alpha, beta = 0; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_2(A, nb, m, k, sA, lda, 1, B, nb, k, n, sB, 1, ldb, C, nb, m, n, sC, ldc, 1, alpha, 0)) {
  for (int b = 0; b < nb; b++)
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++) {
        float s = 0;
        for (int l = 0; l < k; l++)
          s += A[b * sA + i * lda + l] * B[b * sB + j * ldb + l];
        C[b * sC + i * ldc + j] = alpha * s;
      }

  // Packed batches: the batch stride is the matrix size.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k, batch nb; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_3(A, nb, m, k, k * m, k, 1, B, nb, k, n, k * n, n, 1, C, nb, m, n, m * n, n, 1, 1, 1)) {
  for (int b = 0; b < nb; b++)
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++)
        for (int l = 0; l < k; l++)
          C[(b * m + i) * n + j] += A[(b * m + i) * k + l] * B[(b * k + l) * n + j];
}

// Two batch loops over a 4-D tensor's leading dimensions, each with its
// own stride in A and B (0 where an input is broadcast): one batch of nb *
// nc where the strides compose, which C's do as written and the guard
// tests for A's and B's before the nest (the outer loop may also run
// once, whatever its strides); elsewhere the loops run.
void batchLoops(int nb, int nc, int m, int n, int k, const float *A, long a0,
                long a1, const float *B, long b0, long b1, float *C) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k, batch (nb * nc); A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; the launcher runs only where nb == 1 || (a0 == (a1 * nc) && b0 == (b1 * nc)) (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  // OUT: {{^}}  if (!((nb == 1 || (a0 == (a1 * nc) && b0 == (b1 * nc))) && gemm_opt_nest_4(A, nb * nc, m, k, a1, k, 1, B, nb * nc, k, n, b1, n, 1, C, nb * nc, m, n, m * n, n, 1, 1, 1))) {
  for (int b = 0; b < nb; b++)
    for (int c = 0; c < nc; c++)
      for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
          for (int l = 0; l < k; l++)
            C[((b * nc + c) * m + i) * n + j] +=
                A[b * a0 + c * a1 + i * k + l] * B[b * b0 + c * b1 + l * n + j];
}

// OUT-NOT: gemm_opt_nest_{{[5-9]}}

// MLIR: func.func @gemm_opt_nest_0(%arg0: memref<4x8x16xf64, strided<[128, 16, 1], offset: ?>>, %arg1: memref<4x16x8xf64, strided<[128, 8, 1], offset: ?>>, %arg2: memref<4x8x8xf64, strided<[64, 8, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR: func.func @gemm_opt_nest_1(%arg0: memref<4x8x16xf64, strided<[128, 16, 1], offset: ?>>, %arg1: memref<4x16x8xf64, strided<[128, 8, 1], offset: ?>>, %arg2: memref<4x8x8xf64, strided<[64, 8, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR: func.func @gemm_opt_nest_2(%arg0: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, %arg1: memref<?x?x?xf32, strided<[?, 1, ?], offset: ?>>, %arg2: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, %arg3: f32, %arg4: f32)
// MLIR: func.func @gemm_opt_nest_3(%arg0: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, %arg1: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, %arg2: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, %arg3: f32, %arg4: f32)
// MLIR: func.func @gemm_opt_nest_4(%arg0: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, %arg1: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, %arg2: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, %arg3: f32, %arg4: f32)
// MLIR-NOT: func.func
