// C's own term scaled by the literal 1 (Pluto's examples/matmul:
// `C[i][j] = beta * C[i][j] + alpha * A[i][k] * B[k][j]` with `#define beta 1`)
// is C; scaled by anything else at every step of K, it is no GEMM, and the
// remark says so.
//
// RUN: gemm-opt %s -o %t.c --kernels=%t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:

#define alpha 1
#define beta 1
double A[64][64], B[64][64], C[64][64];

void macros(void) {
  int i, j, k;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 64 x 64; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call {{.*}} [-Rpass=gemm]
  for (i = 0; i < 64; i++)
    for (j = 0; j < 64; j++)
      for (k = 0; k < 64; k++)
        C[i][j] = beta * C[i][j] + alpha * A[i][k] * B[k][j];
}

void unitRight(int n, float x[n][n], float y[n][n], float z[n][n]) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call {{.*}} [-Rpass=gemm]
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        z[i][j] = x[i][k] * y[k][j] + z[i][j] * 1.0f;
}

// Near misses: C scaled by a variable or by 2 at every step of K.
void scaled(int n, double s, double x[n][n], double y[n][n], double z[n][n]) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'z[i][j]' is scaled by 's' at every step of 's * z[i][j] + x[i][k] * y[k][j]', so it sums no plain products [-Rpass-missed=gemm]
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        z[i][j] = s * z[i][j] + x[i][k] * y[k][j];
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'z[i][j]' is scaled by '2' at every step of 'x[i][k] * y[k][j] + z[i][j] * 2', so it sums no plain products [-Rpass-missed=gemm]
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        z[i][j] = x[i][k] * y[k][j] + z[i][j] * 2;
}
