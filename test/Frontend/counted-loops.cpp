// Loops that count without a `for` header of their own: `while` and `do`
// loops whose integer variable a statement before them starts and whose
// body's last statement steps it, and range-`for` loops over
// std::views::iota. A `do` loop runs once before its test, so the launcher
// runs where the range is not empty. Loops that step by more than 1 or
// count down run over the same values as a counted loop.
//
// RUN: gemm-opt %s -o %t.cu -- -std=c++20 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT

#include <ranges>
#include <vector>

// OUT: #line 1 "{{.*}}counted-loops.cpp"

void whiles(int M, int N, int K, const float *a, const float *b, float *c) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_0(a, M, K, K, 1, b, K, N, N, 1, c, M, N, N, 1, 1, 0)) {
  for (int i = 0; i < M; i++) {
    int j = 0;
    while (j < N) {
      float s = 0;
      int k = 0;
      while (k < K) {
        s += a[i * K + k] * b[k * N + j];
        k += 1;
      }
      c[i * N + j] = s;
      ++j;
    }
  }
}

void doWhile(int M, int N, int K, const float *a, const float *b, float *c) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; the launcher runs only where K > 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!((K > 0) && gemm_opt_nest_1(a, M, K, K, 1, b, K, N, N, 1, c, M, N, N, 1, 1, 0))) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      int k = 0;
      do {
        s += a[i * K + k] * b[k * N + j];
        k++;
      } while (k < K);
      c[i * N + j] = s;
    }
}

void ranges(int M, int N, int K, const float *a, const float *b, float *c) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_2(a, M, K, K, 1, b, K, N, N, 1, c, M, N, N, 1, 1, 0)) {
  for (int i : std::views::iota(0, M))
    for (int j : std::ranges::views::iota(0, N)) {
      float s = 0;
      for (auto k : std::ranges::iota_view(0, K))
        s += a[i * K + k] * b[k * N + j];
      c[i * N + j] = s;
    }
}

// The outermost loop a `while`: its start stays before the guard.
void outerWhile(int M, int N, int K, const float *a, const float *b,
                float *c) {
  int i = 0;
  // REMARK: :[[@LINE+4]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // OUT:      {{^}}  int i = 0;
  // OUT-NEXT: {{^}}  if (!gemm_opt_nest_3(a, M, K, K, 1, b, K, N, N, 1, c, M, N, N, 1, 1, 1)) {
  // OUT:      {{^}}  while (i < M) {
  while (i < M) {
    for (int j = 0; j < N; j++)
      for (int k = 0; k < K; k++)
        c[i * N + j] += a[i * K + k] * b[k * N + j];
    i++;
  }
}

double A[64][16], B[16][32], C[64][32];

// Every other row of A and C: the rows' stride doubles.
void strided() {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 32 x 32 x 16; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_4(&A[0][0], 32, 16, 32, 1, &B[0][0], 16, 32, 32, 1, &C[0][0], 32, 32, 64, 1, 1, 1)) {
  for (int i = 0; i < 64; i += 2)
    for (int j = 0; j < 32; ++j)
      for (int k = 0; k < 16; ++k)
        C[i][j] += A[i][k] * B[k][j];

  // Rows 1, 4, ..., 61: 21 rows, every third.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 21 x 32 x 16; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_5 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_5((&A[0][0]) + 16, 21, 16, 48, 1, &B[0][0], 16, 32, 32, 1, (&C[0][0]) + 32, 21, 32, 96, 1, 1, 1)) {
  for (int i = 1; i < 64; i += 3)
    for (int j = 0; j < 32; ++j)
      for (int k = 0; k < 16; ++k)
        C[i][j] += A[i][k] * B[k][j];
}

// Counting down covers the same values as counting up.
void down(int m, int n, int p, const float *a, const float *b, float *c) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = m x n x p; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_6 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_6(a, m, p, p, 1, b, p, n, n, 1, c, m, n, n, 1, 1, 1)) {
  for (int i = m - 1; i >= 0; i--)
    for (unsigned j = n; j > 0; --j)
      for (int k = p; k != 0; k -= 1)
        c[i * n + j - 1] += a[i * p + k - 1] * b[(k - 1) * n + j - 1];
}

// A range-`for` over a container's elements is no counted loop: the nest
// inside it is tried on its own, its bound fixed while it runs.
void container(std::vector<int> &sizes) {
  for (int n : sizes) {
    // REMARK: :[[@LINE+2]]:5: remark: GEMM recognised: f64, M x N x K = 64 x 32 x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_7 [-Rpass=gemm]
    // OUT: {{^}}    if (!gemm_opt_nest_7(&A[0][0], 64, n, 16, 1, &B[0][0], n, 32, 32, 1, &C[0][0], 64, 32, 32, 1, 1, 1)) {
    for (int i = 0; i < 64; i++)
      for (int j = 0; j < 32; j++)
        for (int k = 0; k < n; k++)
          C[i][j] += A[i][k] * B[k][j];
  }
}

// A loop that counts nothing (iterations until convergence) around a GEMM:
// the nest inside it is tried on its own.
void converge(double tol, double *err) {
  while (*err > tol) {
    // REMARK: :[[@LINE+2]]:5: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_8 [-Rpass=gemm]
    // OUT: {{^}}    if (!gemm_opt_nest_8(&A[0][0], 64, 16, 16, 1, &B[0][0], 16, 32, 32, 1, &C[0][0], 64, 32, 32, 1, 1, 1)) {
    for (int i = 0; i < 64; i++)
      for (int j = 0; j < 32; j++)
        for (int k = 0; k < 16; k++)
          C[i][j] += A[i][k] * B[k][j];
    *err = *err / 2;
  }
}

// OUT-NOT: gemm_opt_nest_9

// Counters stepped down by their tests, each to 0: `while (k--)` runs its
// body on K - 1 down to 0, `while (--k > 0)` down to 1, `do ... while
// (k-- != 0)` on K down to 0 and `do ... while (--k)` down to 1, the last
// two only where that range is not empty (else the loops, which run once).
// The values counted up are the same.
void steppedByTests(int M, int N, int K, const float *a, const float *b,
                    float *c) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_9 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_9(a, M, K, K, 1, b, K, N, N, 1, c, M, N, N, 1, 1, 0)) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      int k = K;
      while (k--)
        s += a[i * K + k] * b[k * N + j];
      c[i * N + j] = s;
    }
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = M x N x (-1 + K); A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_10 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_10(a + 1, M, -1 + K, K, 1, b + N, -1 + K, N, N, 1, c, M, N, N, 1, 1, 0)) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      int k = K;
      while (--k > 0)
        s += a[i * K + k] * b[k * N + j];
      c[i * N + j] = s;
    }
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = M x N x (1 + K); A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; the launcher runs only where (1 + K) > 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_11 [-Rpass=gemm]
  // OUT: {{^}}  if (!(((1 + K) > 0) && gemm_opt_nest_11(a, M, 1 + K, K, 1, b, 1 + K, N, N, 1, c, M, N, N, 1, 1, 0))) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      int k = K;
      do
        s += a[i * K + k] * b[k * N + j];
      while (k-- != 0);
      c[i * N + j] = s;
    }
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; the launcher runs only where K > 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_12 [-Rpass=gemm]
  // OUT: {{^}}  if (!((K > 0) && gemm_opt_nest_12(a + 1, M, K, K, 1, b + N, K, N, N, 1, c, M, N, N, 1, 1, 0))) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      int k = K;
      do {
        s += a[i * K + k] * b[k * N + j];
      } while (--k);
      c[i * N + j] = s;
    }
}
