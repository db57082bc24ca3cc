// A hoisted element of A: `t = alpha * A[i][k]` declared between the K loop
// and the N loop, then `C[i][j] += t * B[k][j]`. The scalar is replaced by its
// initialiser, so A is still an operand and alpha folds out.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

// OUT: #line 1 "{{.*}}hoisted-scalar.cpp"

void hoisted(float alpha, float A[32][48], float B[48][40], float C[32][40]) {
  // REMARK: :[[@LINE+4]]:3: remark: GEMM recognised: f32, M x N x K = 32 x 40 x 48; A row-major, B row-major, C row-major; accumulates into C, alpha = alpha, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT:      {{^}}  if (!gemm_opt_nest_0(&A[0][0], 32, 48, 48, 1, &B[0][0], 48, 40, 40, 1, &C[0][0], 32, 40, 40, 1, alpha, 1)) {
  // OUT-NEXT: {{^}}#line [[@LINE+2]] "{{.*}}hoisted-scalar.cpp"
  // OUT-NEXT: {{^}}  for (int i = 0; i < 32; ++i)
  for (int i = 0; i < 32; ++i)
    for (int k = 0; k < 48; ++k) {
      float t = alpha * A[i][k];
      for (int j = 0; j < 40; ++j)
        C[i][j] += t * B[k][j];
    }
  // OUT-NEXT: {{^}}    for (int k = 0; k < 48; ++k) {
  // OUT-NEXT: {{^}}      float t = alpha * A[i][k];
}

void flat(int n, double alpha, const double *A, const double *B, double *C) {
  // Without alpha, const.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 1)) {
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) {
      const double aik = A[i * n + k];
      for (int j = 0; j < n; ++j)
        C[i * n + j] += aik * B[k * n + j];
    }

  // Subtracted, alpha after the element, k outermost.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = -alpha, beta = 1; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_2(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, -alpha, 1)) {
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i) {
      double t = A[i * n + k] * alpha;
      for (int j = 0; j < n; ++j)
        C[i * n + j] -= t * B[k * n + j];
    }
}

// OUT-NOT: gemm_opt_nest_{{[3-9]}}

void rejected(int n, double alpha, const double *A, const double *B, double *C) {
  // The scalar is reassigned, so it is not its initialiser any more.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: no multiply-accumulate of two array elements (C += A * B) in the nest [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) {
      double t = alpha * A[i * n + k];
      t = t * 2;
      for (int j = 0; j < n; ++j)
        C[i * n + j] += t * B[k * n + j];
    }
}

// MLIR: func.func @gemm_opt_nest_0(%arg0: memref<32x48xf32, strided<[48, 1], offset: ?>>, %arg1: memref<48x40xf32, strided<[40, 1], offset: ?>>, %arg2: memref<32x40xf32, strided<[40, 1], offset: ?>>, %arg3: f32, %arg4: f32)
// MLIR: func.func @gemm_opt_nest_1(%arg0: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg2: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR: func.func @gemm_opt_nest_2(%arg0: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg2: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR-NOT: func.func
