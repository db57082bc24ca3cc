// Loops unrolled by hand: a loop that steps by U over U copies of a body,
// with a remainder loop that finishes the range, is one dimension over the
// whole range. The copies are statements or the terms of one sum; the
// remainder continues from where the unrolled loop stopped or starts there
// itself. Without a remainder the copies must fill the range exactly, which
// the guard checks where it is not known here.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT

// OUT: #line 1 "{{.*}}unrolled-loops.cpp"

// A dot product unrolled by 4 into one sum, then its remainder.
void sumOfCopies(int M, int N, int K, const float *a, const float *b,
                 float *c) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; 'k' is unrolled by 4 with a remainder loop; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_0(a, M, K, K, 1, b, K, N, N, 1, c, M, N, N, 1, 1, 0)) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      int k;
      for (k = 0; k + 4 <= K; k += 4)
        s += a[i * K + k] * b[k * N + j] +
             a[i * K + k + 1] * b[(k + 1) * N + j] +
             a[i * K + k + 2] * b[(k + 2) * N + j] +
             a[i * K + k + 3] * b[(k + 3) * N + j];
      for (; k < K; k++)
        s += a[i * K + k] * b[k * N + j];
      c[i * N + j] = s;
    }
}

// Copies as statements, the terms in any order, `k < K - 1` and a `while`
// remainder.
void statements(int M, int N, int K, const double *A, const double *B,
                double *C) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = M x N x K; A row-major, B column-major, C row-major; accumulates in 't', alpha = 1, beta = 1; 'k' is unrolled by 2 with a remainder loop; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(A, M, K, K, 1, B, K, N, 1, K, C, M, N, N, 1, 1, 1)) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double t = 0;
      int k = 0;
      for (; k < K - 1; k += 2) {
        t += A[i * K + k] * B[j * K + k];
        t += A[i * K + k + 1] * B[j * K + k + 1];
      }
      while (k < K) {
        t += A[i * K + k] * B[j * K + k];
        k++;
      }
      C[i * N + j] += t;
    }
}

// The remainder starts where the unrolled loop stops, spelled two ways.
void ownStart(int M, int N, int K, const float *a, const float *b, float *c) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; {{.*}}; 'k' is unrolled by 4 with a remainder loop; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_2(a, M, K, K, 1, b, K, N, N, 1, c, M, N, N, 1, 1, 0)) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int k = 0; k + 4 <= K; k += 4)
        s += a[i * K + k] * b[k * N + j] +
             a[i * K + k + 3] * b[(k + 3) * N + j] +
             a[i * K + k + 1] * b[(k + 1) * N + j] +
             a[i * K + k + 2] * b[(k + 2) * N + j];
      for (int kr = K / 4 * 4; kr < K; kr++)
        s += a[i * K + kr] * b[kr * N + j];
      c[i * N + j] = s;
    }
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; {{.*}}; 'k' is unrolled by 2 with a remainder loop; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_3(a, M, K, K, 1, b, K, N, N, 1, c, M, N, N, 1, 1, 0)) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int k = 0; k < K - 1; k += 2)
        s += a[i * K + k] * b[k * N + j] + a[i * K + k + 1] * b[(k + 1) * N + j];
      for (int kr = K - K % 2; kr < K; kr++)
        s += a[i * K + kr] * b[kr * N + j];
      c[i * N + j] = s;
    }
}

float X[64][64], Y[64][64], Z[64][64];

// No remainder: 4 divides 64, so the copies cover the range.
void fixedSize() {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = 64 x 64 x 64; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; 'k' is unrolled by 4; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_4(&X[0][0], 64, 64, 64, 1, &Y[0][0], 64, 64, 64, 1, &Z[0][0], 64, 64, 64, 1, 1, 0)) {
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 64; j++) {
      float s = 0;
      for (int k = 0; k < 64; k += 4)
        s += X[i][k] * Y[k][j] + X[i][k + 1] * Y[k + 1][j] +
             X[i][k + 2] * Y[k + 2][j] + X[i][k + 3] * Y[k + 3][j];
      Z[i][j] = s;
    }

  // Unrolled along j, copies as statements.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = 64 x 64 x 64; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; 'j' is unrolled by 2; rewritten to call gemm_opt_nest_5 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_5(&X[0][0], 64, 64, 64, 1, &Y[0][0], 64, 64, 64, 1, &Z[0][0], 64, 64, 64, 1, 1, 1)) {
  for (int i = 0; i < 64; i++)
    for (int k = 0; k < 64; k++)
      for (int j = 0; j < 64; j += 2) {
        Z[i][j] += X[i][k] * Y[k][j];
        Z[i][j + 1] += X[i][k] * Y[k][j + 1];
      }
}

// No remainder, K not known here: the launcher runs where 4 divides K.
void noRemainder(int M, int N, int K, const float *a, const float *b,
                 float *c) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; {{.*}}; 'k' is unrolled by 4; the launcher runs only where K % 4 == 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_6 [-Rpass=gemm]
  // OUT: {{^}}  if (!((K % 4 == 0) && gemm_opt_nest_6(a, M, K, K, 1, b, K, N, N, 1, c, M, N, N, 1, 1, 0))) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int k = 0; k + 4 <= K; k += 4)
        s += a[i * K + k] * b[k * N + j] +
             a[i * K + k + 1] * b[(k + 1) * N + j] +
             a[i * K + k + 2] * b[(k + 2) * N + j] +
             a[i * K + k + 3] * b[(k + 3) * N + j];
      c[i * N + j] = s;
    }

  // `k < K` in steps of 4 passes K unless 4 divides it: its remainder
  // runs only then, empty.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; {{.*}}; 'k' is unrolled by 4 with a remainder loop; the launcher runs only where K % 4 == 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_7 [-Rpass=gemm]
  // OUT: {{^}}  if (!((K % 4 == 0) && gemm_opt_nest_7(a, M, K, K, 1, b, K, N, N, 1, c, M, N, N, 1, 1, 0))) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      int k;
      for (k = 0; k < K; k += 4) {
        s += a[i * K + k] * b[k * N + j];
        s += a[i * K + k + 1] * b[(k + 1) * N + j];
        s += a[i * K + k + 2] * b[(k + 2) * N + j];
        s += a[i * K + k + 3] * b[(k + 3) * N + j];
      }
      for (; k < K; k++)
        s += a[i * K + k] * b[k * N + j];
      c[i * N + j] = s;
    }
}

// OUT-NOT: gemm_opt_nest_8
