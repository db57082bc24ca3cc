// The accumulation's spellings and the scalars inside the product: every
// loop-invariant factor multiplies into alpha (kept as source text), `-=` and
// unary minus negate it, and beta stays 1 because C accumulates.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

struct Params {
  double alpha;
};
double A[8][4], B[4][6], C[8][6];

// OUT: #line 1 "{{.*}}alpha-in-product.cpp"

void forms(double alpha, double beta, Params p) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 8 x 6 x 4; A row-major, B row-major, C row-major; accumulates into C, alpha = alpha, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_0(&A[0][0], 8, 4, 4, 1, &B[0][0], 4, 6, 6, 1, &C[0][0], 8, 6, 6, 1, alpha, 1)) {
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 4; ++k)
        C[i][j] += alpha * A[i][k] * B[k][j];

  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 8 x 6 x 4; A row-major, B row-major, C row-major; accumulates into C, alpha = alpha * 2, beta = 1; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(&A[0][0], 8, 4, 4, 1, &B[0][0], 4, 6, 6, 1, &C[0][0], 8, 6, 6, 1, alpha * 2, 1)) {
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 4; ++k)
        C[i][j] += A[i][k] * B[k][j] * alpha * 2;

  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 8 x 6 x 4; A row-major, B row-major, C row-major; accumulates into C, alpha = -1, beta = 1; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_2(&A[0][0], 8, 4, 4, 1, &B[0][0], 4, 6, 6, 1, &C[0][0], 8, 6, 6, 1, -1, 1)) {
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 4; ++k)
        C[i][j] -= A[i][k] * B[k][j];

  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 8 x 6 x 4; A row-major, B row-major, C row-major; accumulates into C, alpha = -alpha, beta = 1; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_3(&A[0][0], 8, 4, 4, 1, &B[0][0], 4, 6, 6, 1, &C[0][0], 8, 6, 6, 1, -alpha, 1)) {
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 4; ++k)
        C[i][j] -= alpha * A[i][k] * B[k][j];

  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 8 x 6 x 4; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_4(&A[0][0], 8, 4, 4, 1, &B[0][0], 4, 6, 6, 1, &C[0][0], 8, 6, 6, 1, 1, 1)) {
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 4; ++k)
        C[i][j] = C[i][j] + A[i][k] * B[k][j];

  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 8 x 6 x 4; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_5 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_5(&A[0][0], 8, 4, 4, 1, &B[0][0], 4, 6, 6, 1, &C[0][0], 8, 6, 6, 1, 1, 1)) {
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 4; ++k)
        C[i][j] = A[i][k] * B[k][j] + C[i][j];

  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 8 x 6 x 4; A row-major, B row-major, C row-major; accumulates into C, alpha = -alpha, beta = 1; rewritten to call gemm_opt_nest_6 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_6(&A[0][0], 8, 4, 4, 1, &B[0][0], 4, 6, 6, 1, &C[0][0], 8, 6, 6, 1, -alpha, 1)) {
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 4; ++k)
        C[i][j] = C[i][j] - alpha * A[i][k] * B[k][j];

  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 8 x 6 x 4; A row-major, B row-major, C row-major; accumulates into C, alpha = -1, beta = 1; rewritten to call gemm_opt_nest_7 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_7(&A[0][0], 8, 4, 4, 1, &B[0][0], 4, 6, 6, 1, &C[0][0], 8, 6, 6, 1, -1, 1)) {
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 4; ++k)
        C[i][j] += -(A[i][k] * B[k][j]);

  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 8 x 6 x 4; A row-major, B row-major, C row-major; accumulates into C, alpha = (alpha + 1) * beta, beta = 1; rewritten to call gemm_opt_nest_8 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_8(&A[0][0], 8, 4, 4, 1, &B[0][0], 4, 6, 6, 1, &C[0][0], 8, 6, 6, 1, (alpha + 1) * beta, 1)) {
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 4; ++k)
        C[i][j] += (alpha + 1) * A[i][k] * (beta * B[k][j]);

  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 8 x 6 x 4; A row-major, B row-major, C row-major; accumulates into C, alpha = p.alpha, beta = 1; rewritten to call gemm_opt_nest_9 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_9(&A[0][0], 8, 4, 4, 1, &B[0][0], 4, 6, 6, 1, &C[0][0], 8, 6, 6, 1, p.alpha, 1)) {
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 4; ++k)
        C[i][j] -= -p.alpha * A[i][k] * B[k][j];

  // Not an accumulation: C is replaced by A*B - C on every iteration of k.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: no multiply-accumulate of two array elements (C += A * B) in the nest [-Rpass-missed=gemm]
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 4; ++k)
        C[i][j] = A[i][k] * B[k][j] - C[i][j];
}

// OUT-NOT: gemm_opt_nest_{{1[0-9]}}

// MLIR-COUNT-10: func.func @gemm_opt_nest_{{[0-9]}}(%arg0: memref<8x4xf64, strided<[4, 1], offset: ?>>, %arg1: memref<4x6xf64, strided<[6, 1], offset: ?>>, %arg2: memref<8x6xf64, strided<[6, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR-NOT: func.func
