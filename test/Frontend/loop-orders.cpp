// All six loop orders of one product are the same GEMM: M is the loop that
// indexes C and the first factor, N the one that indexes C and the second, K
// the one C lacks. The loop order must not change the operands, sizes or
// strides (no silent transposition to C^T = B^T * A^T); only the order of
// the factors does.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

double A[64][16], B[16][32], C[64][32];

// OUT: #line 1 "{{.*}}loop-orders.cpp"

void ijk() {
  // REMARK: :[[@LINE+4]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT:      {{^}}  if (!gemm_opt_nest_0(&A[0][0], 64, 16, 16, 1, &B[0][0], 16, 32, 32, 1, &C[0][0], 64, 32, 32, 1, 1, 1)) {
  // OUT-NEXT: {{^}}#line [[@LINE+2]] "{{.*}}loop-orders.cpp"
  // OUT-NEXT: {{^}}  for (int i = 0; i < 64; ++i)
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j)
      for (int k = 0; k < 16; ++k)
        C[i][j] += A[i][k] * B[k][j];
  // OUT-NEXT: {{^}}    for (int j = 0; j < 32; ++j)
  // OUT-NEXT: {{^}}      for (int k = 0; k < 16; ++k)
  // OUT-NEXT: {{^}}        C[i][j] += A[i][k] * B[k][j]; }
}

void ikj() {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(&A[0][0], 64, 16, 16, 1, &B[0][0], 16, 32, 32, 1, &C[0][0], 64, 32, 32, 1, 1, 1)) {
  for (int i = 0; i < 64; ++i)
    for (int k = 0; k < 16; ++k)
      for (int j = 0; j < 32; ++j)
        C[i][j] += A[i][k] * B[k][j];
}

void jik() {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_2(&A[0][0], 64, 16, 16, 1, &B[0][0], 16, 32, 32, 1, &C[0][0], 64, 32, 32, 1, 1, 1)) {
  for (int j = 0; j < 32; ++j)
    for (int i = 0; i < 64; ++i)
      for (int k = 0; k < 16; ++k)
        C[i][j] += A[i][k] * B[k][j];
}

void jki() {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_3(&A[0][0], 64, 16, 16, 1, &B[0][0], 16, 32, 32, 1, &C[0][0], 64, 32, 32, 1, 1, 1)) {
  for (int j = 0; j < 32; ++j)
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 64; ++i)
        C[i][j] += A[i][k] * B[k][j];
}

void kij() {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_4(&A[0][0], 64, 16, 16, 1, &B[0][0], 16, 32, 32, 1, &C[0][0], 64, 32, 32, 1, 1, 1)) {
  for (int k = 0; k < 16; ++k)
    for (int i = 0; i < 64; ++i)
      for (int j = 0; j < 32; ++j)
        C[i][j] += A[i][k] * B[k][j];
}

void kji() {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_5 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_5(&A[0][0], 64, 16, 16, 1, &B[0][0], 16, 32, 32, 1, &C[0][0], 64, 32, 32, 1, 1, 1)) {
  for (int k = 0; k < 16; ++k)
    for (int j = 0; j < 32; ++j)
      for (int i = 0; i < 64; ++i)
        C[i][j] += A[i][k] * B[k][j];
}

// The factor written first is A. Written the other way round, the nest is
// the transposed problem C^T = B^T * A^T, on column-major views.
void swappedFactors() {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 32 x 64 x 16; A column-major, B column-major, C column-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_6 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_6(&B[0][0], 32, 16, 1, 32, &A[0][0], 16, 64, 1, 16, &C[0][0], 32, 64, 1, 32, 1, 1)) {
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j)
      for (int k = 0; k < 16; ++k)
        C[i][j] += B[k][j] * A[i][k];
}

// OUT-NOT: gemm_opt_nest_{{[7-9]}}

// Every order lifts to the same op on the same row-major views.
// MLIR-COUNT-6: func.func @gemm_opt_nest_{{[0-5]}}(%arg0: memref<64x16xf64, strided<[16, 1], offset: ?>>, %arg1: memref<16x32xf64, strided<[32, 1], offset: ?>>, %arg2: memref<64x32xf64, strided<[32, 1], offset: ?>>, %arg3: f64, %arg4: f64) {
// MLIR: func.func @gemm_opt_nest_6(%arg0: memref<32x16xf64, strided<[1, 32], offset: ?>>, %arg1: memref<16x64xf64, strided<[1, 16], offset: ?>>, %arg2: memref<32x64xf64, strided<[1, 32], offset: ?>>, %arg3: f64, %arg4: f64) {
// MLIR-NOT: func.func
