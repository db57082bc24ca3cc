// Loops that count down in every usual spelling are counted loops over the
// same values counted up: a `for` whose body is empty runs its increment as
// its body (`for (int t = K; t--; sum);`), tests that step their counter
// (`--k >= 0`, `0 < k--`, `k-- >= 1`), and the same in inlined helpers (a
// dot product, an axpy that walks pointers with `while (len-- > 0)`, a
// counter stepped mid-body). Near misses: a counter read after the nest, a
// counter read in a non-affine index, a counter stepped twice, unsigned
// tests that may never fail or counters that wrap, and a `do` loop whose
// count may be 0 (versioned).
//
// RUN: gemm-opt %s -o %t.cu -- -std=c++20 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT

// OUT: #line 1 "{{.*}}count-down-loops.cpp"

void use(int);

// A renderer's matrix product: each loop steps in its test, the sum sits in
// the increment.
template <int R, int K, int C> struct Product {
  static void run(const double (&a)[R][K], const double (&b)[K][C],
                  double (&out)[R][C]) {
    // REMARK: :[[@LINE+2]]:5: remark: GEMM recognised: f64, M x N x K = 8 x 6 x 4; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
    // OUT: {{^}}    if (!gemm_opt_nest_0(&a[0][0], 8, 4, 4, 1, &b[0][0], 4, 6, 6, 1, &out[0][0], 8, 6, 6, 1, 1, 1, gemm_opt_instance<
    for (int r = R; r--;)
      for (int c = C; c--;)
        for (int t = K; t--; out[r][c] += a[r][t] * b[t][c]);
  }
};
void fixed(const double (&a)[8][4], const double (&b)[4][6],
           double (&out)[8][6]) {
  Product<8, 4, 6>::run(a, b, out);
}

void spellings(int M, int N, int K, const float *a, const float *b,
               float *c) {
  // The sum and the step in the increment.
  int k;
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(a, M, K, K, 1, b, K, N, N, 1, c, M, N, N, 1, 1, 1)) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      for (k = 0; k < K; c[i * N + j] += a[i * K + k] * b[k * N + j], k++);
  // `--k >= 0` runs its body on K - 1 down to 0, as `0 < k--` and `k-- >= 1`
  // do.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_2(a, M, K, K, 1, b, K, N, N, 1, c, M, N, N, 1, 1, 0)) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      int t = K;
      while (--t >= 0)
        s += a[i * K + t] * b[t * N + j];
      c[i * N + j] = s;
    }
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_3(a, M, K, K, 1, b, K, N, N, 1, c, M, N, N, 1, 1, 0)) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      int t = K;
      while (0 < t--)
        s += a[i * K + t] * b[t * N + j];
      c[i * N + j] = s;
    }
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_4(a, M, K, K, 1, b, K, N, N, 1, c, M, N, N, 1, 1, 1)) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      int t = K;
      while (t-- >= 1)
        c[i * N + j] += a[i * K + t] * b[t * N + j];
    }
}

// Inlined helpers: a dot product whose sum sits in the increment, an axpy
// that walks pointers while `len-- > 0` (a statistics package's product by
// columns), one that steps its counter first and reads it after.
static double dot(const double *x, const double *y, int n, int incy) {
  double r = 0;
  for (int t = n; t--; r += x[t] * y[t * incy]);
  return r;
}
static void axpy(double *y, double s, const double *x, int len) {
  while (len-- > 0) {
    *y++ += s * *x++;
  }
}
static void axpyFromEnd(double *y, double s, const double *x, int n) {
  while (n > 0) {
    n--;
    y[n] += s * x[n];
  }
}
// Runs once before its test: versioned on the count.
static void axpyOnce(double *y, double s, const double *x, int n) {
  do {
    *y++ += s * *x++;
  } while (--n > 0);
}

void helpers(int M, int N, int K, const double *a, const double *b,
             double *c) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates in 'r', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_5 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_5(a, M, K, K, 1, b, K, N, N, 1, c, M, N, N, 1, 1, 0)) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      c[i * N + j] = dot(a + i * K, b + j, K, N);
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = N x M x K; A row-major, B strided, C strided; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_6 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_6(b, N, K, K, 1, a + (-1 + M), K, M, M, -1, c + (-1 + M), N, M, M, -1, 1, 1)) {
  for (int j = 0; j < N; j++)
    for (int k = 0; k < K; k++)
      axpy(c + j * M, b[j * K + k], a + k * M, M);
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_7 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_7(a, M, K, K, 1, b, K, N, N, 1, c, M, N, N, 1, 1, 1)) {
  for (int i = 0; i < M; i++)
    for (int k = 0; k < K; k++)
      axpyFromEnd(c + i * N, a[i * K + k], b + k * N, N);
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = M x N x K; A row-major, B strided, C strided; accumulates into C, alpha = 1, beta = 1; the launcher runs only where N > 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_8 [-Rpass=gemm]
  // OUT: {{^}}  if (!((N > 0) && gemm_opt_nest_8(a, M, K, K, 1, b + (-1 + N), K, N, N, -1, c + (-1 + N), M, N, N, -1, 1, 1))) {
  for (int i = 0; i < M; i++)
    for (int k = 0; k < K; k++)
      axpyOnce(c + i * N, a[i * K + k], b + k * N, N);
}

// OUT-NOT: gemm_opt_nest_9

void nearMisses(int M, int N, int K, const float *a, const float *b,
                float *c, unsigned low) {
  // The count is read after the nest: the rewrite would leave it unset.
  int k;
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'k' is declared outside the nest, assigned in it and used elsewhere; the rewrite would not update it [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      for (k = K; k--; c[i * N + j] += a[i * K + k] * b[k * N + j]);
  use(k);
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: index 'k * k' is not an affine function of the loop indices [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      for (int k = K; k--; c[i * N + j] += a[i * K + k * k] * b[k * N + j]);
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the induction variable 'k' is also changed in the body ('k--') [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      for (int k = K; k--; c[i * N + j] += a[i * K + k] * b[k * N + j], k--);
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the test 'k-- >= 0' may never fail: it compares unsigned values, none below '0' where that is 0 [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      for (unsigned k = K; k-- >= 0; c[i * N + j] += a[i * K + k] * b[k * N + j]);
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the test 'k-- >= low' may never fail: it compares unsigned values, none below 'low' where that is 0 [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      for (int k = K; k-- >= low; c[i * N + j] += a[i * K + k] * b[k * N + j]);
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the test '--k >= 1' steps the unsigned 'k' below 0 where it starts at 0, so the loop wraps [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      for (unsigned k = K; --k >= 1; c[i * N + j] += a[i * K + k] * b[k * N + j]);
}
