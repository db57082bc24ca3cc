// 2-D arrays as globals, locals and function parameters (`T X[R][C]`,
// `T (*X)[C]`, `T X[][C]`): the row stride is the declared column count, not
// the loop bound, and the pointer is the address of element [0][0].
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

const double GA[64][100] = {};
const double GB[100][48] = {};
double GC[64][40];

// OUT: #line 1 "{{.*}}arrays-2d.cpp"

// Globals, with loops over a 64 x 40 x 100 corner: the strides are 100, 48
// and 40 though N is 40 and B has 48 columns.
void globals() {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 40 x 100; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_0(&GA[0][0], 64, 100, 100, 1, &GB[0][0], 100, 40, 48, 1, &GC[0][0], 64, 40, 40, 1, 1, 1)) {
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 40; ++j)
      for (int k = 0; k < 100; ++k)
        GC[i][j] += GA[i][k] * GB[k][j];
}

float locals() {
  float a[8][4], b[4][12], c[8][12] = {};
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = 8 x 12 x 4; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(&a[0][0], 8, 4, 4, 1, &b[0][0], 4, 12, 12, 1, &c[0][0], 8, 12, 12, 1, 1, 1)) {
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 12; ++j)
      for (int k = 0; k < 4; ++k)
        c[i][j] += a[i][k] * b[k][j];
  return c[1][2];
}

// The three spellings of an array parameter; all decay to a pointer to rows.
void params(double X[64][16], double (*Y)[32], double Z[][32]) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_2(&X[0][0], 64, 16, 16, 1, &Y[0][0], 16, 32, 32, 1, &Z[0][0], 64, 32, 32, 1, 1, 1)) {
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j)
      for (int k = 0; k < 16; ++k)
        Z[i][j] += X[i][k] * Y[k][j];
}

// OUT-NOT: gemm_opt_nest_{{[3-9]}}

// MLIR: func.func @gemm_opt_nest_0(%arg0: memref<64x100xf64, strided<[100, 1], offset: ?>>, %arg1: memref<100x40xf64, strided<[48, 1], offset: ?>>, %arg2: memref<64x40xf64, strided<[40, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR: func.func @gemm_opt_nest_1(%arg0: memref<8x4xf32, strided<[4, 1], offset: ?>>, %arg1: memref<4x12xf32, strided<[12, 1], offset: ?>>, %arg2: memref<8x12xf32, strided<[12, 1], offset: ?>>, %arg3: f32, %arg4: f32)
// MLIR: func.func @gemm_opt_nest_2(%arg0: memref<64x16xf64, strided<[16, 1], offset: ?>>, %arg1: memref<16x32xf64, strided<[32, 1], offset: ?>>, %arg2: memref<64x32xf64, strided<[32, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR-NOT: func.func
