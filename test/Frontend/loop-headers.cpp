// Loop headers: int/long/long long/unsigned/size_t/short induction variables,
// `<`, `<=`, `!=` and their reversed forms, the four unit increments, and
// constant or runtime lower bounds, which offset the operand pointers; other
// steps, up or down (counted-loops.cpp has more).
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

#include <cstddef>

double A[64][16], B[16][32], C[64][32];

// OUT: #line 1 "{{.*}}loop-headers.cpp"

void spellings() {
  // `<=` runs to the bound itself: 0..63 is 64 rows.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_0(&A[0][0], 64, 16, 16, 1, &B[0][0], 16, 32, 32, 1, &C[0][0], 64, 32, 32, 1, 1, 1)) {
  for (long i = 0; i <= 63; i++)
    for (std::size_t k = 0; k != 16; k += 1)
      for (unsigned j = 0; 32 > j; j = j + 1)
        C[i][j] += A[i][k] * B[k][j];

  // Reversed `!=` and `>=`, `1 + i`.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(&A[0][0], 64, 16, 16, 1, &B[0][0], 16, 32, 32, 1, &C[0][0], 64, 32, 32, 1, 1, 1)) {
  for (unsigned long i = 0; 64 != i; i = 1 + i)
    for (short j = 0; 31 >= j; ++j)
      for (long long k = 0; k < 16; k++)
        C[i][j] += A[i][k] * B[k][j];
}

void lowerBounds(int lo, int hi) {
  // i in [2, 64), j in [1, 31], k in [4, 16): the views start at A[2][4]
  // (2*16 + 4 = 36), B[4][1] (4*32 + 1 = 129) and C[2][1] (2*32 + 1 = 65).
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 62 x 31 x 12; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_2((&A[0][0]) + 36, 62, 12, 16, 1, (&B[0][0]) + 129, 12, 31, 32, 1, (&C[0][0]) + 65, 62, 31, 32, 1, 1, 1)) {
  for (int i = 2; i < 64; ++i)
    for (int j = 1; j <= 31; ++j)
      for (int k = 4; k < 16; ++k)
        C[i][j] += A[i][k] * B[k][j];

  // Runtime bounds: A starts at A[lo][lo], that is 16*lo + lo.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = (hi - lo) x 32 x (hi - lo); A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_3((&A[0][0]) + (17 * lo), hi - lo, hi - lo, 16, 1, (&B[0][0]) + (32 * lo), hi - lo, 32, 32, 1, (&C[0][0]) + (32 * lo), hi - lo, 32, 32, 1, 1, 1)) {
  for (int i = lo; i < hi; ++i)
    for (int j = 0; j < 32; ++j)
      for (int k = lo; k < hi; ++k)
        C[i][j] += A[i][k] * B[k][j];
}

// Steps other than +1: every other row (A's and C's row strides double),
// and counting down over the same rows as counting up.
void steps() {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 32 x 32 x 16; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_4(&A[0][0], 32, 16, 32, 1, &B[0][0], 16, 32, 32, 1, &C[0][0], 32, 32, 64, 1, 1, 1)) {
  for (int i = 0; i < 64; i += 2)
    for (int j = 0; j < 32; ++j)
      for (int k = 0; k < 16; ++k)
        C[i][j] += A[i][k] * B[k][j];

  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_5 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_5(&A[0][0], 64, 16, 16, 1, &B[0][0], 16, 32, 32, 1, &C[0][0], 64, 32, 32, 1, 1, 1)) {
  for (int i = 63; i >= 0; --i)
    for (int j = 0; j < 32; ++j)
      for (int k = 0; k < 16; ++k)
        C[i][j] += A[i][k] * B[k][j];
}

// OUT-NOT: gemm_opt_nest_{{[6-9]}}

void rejected() {
  // A floating-point counter is no induction variable.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the induction variable 'k' is 'double', not an integer, so it does not count iterations exactly [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j)
      for (double k = 0; k < 16; ++k)
        C[i][j] += A[i][(int)k] * B[(int)k][j];
}

// MLIR: func.func @gemm_opt_nest_0(%arg0: memref<64x16xf64, strided<[16, 1], offset: ?>>, %arg1: memref<16x32xf64, strided<[32, 1], offset: ?>>, %arg2: memref<64x32xf64, strided<[32, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR: func.func @gemm_opt_nest_1(%arg0: memref<64x16xf64, strided<[16, 1], offset: ?>>, %arg1: memref<16x32xf64, strided<[32, 1], offset: ?>>, %arg2: memref<64x32xf64, strided<[32, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR: func.func @gemm_opt_nest_2(%arg0: memref<62x12xf64, strided<[16, 1], offset: ?>>, %arg1: memref<12x31xf64, strided<[32, 1], offset: ?>>, %arg2: memref<62x31xf64, strided<[32, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR: func.func @gemm_opt_nest_3(%arg0: memref<?x?xf64, strided<[16, 1], offset: ?>>, %arg1: memref<?x32xf64, strided<[32, 1], offset: ?>>, %arg2: memref<?x32xf64, strided<[32, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR: func.func @gemm_opt_nest_4(%arg0: memref<32x16xf64, strided<[32, 1], offset: ?>>, %arg1: memref<16x32xf64, strided<[32, 1], offset: ?>>, %arg2: memref<32x32xf64, strided<[64, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR: func.func @gemm_opt_nest_5(%arg0: memref<64x16xf64, strided<[16, 1], offset: ?>>, %arg1: memref<16x32xf64, strided<[32, 1], offset: ?>>, %arg2: memref<64x32xf64, strided<[32, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR-NOT: func.func
