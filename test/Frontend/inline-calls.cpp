// Calls whose bodies are visible are read as their bodies: index helpers,
// dot-product helpers as the K loop (a plain loop, or accumulating through
// a pointer parameter), axpy helpers as the innermost loop, accessors of a
// matrix class (operator(), row(), operator[], a conversion operator, a
// size), lambdas and methods that call methods. The launcher receives the
// operands in the caller's terms.
//
// RUN: gemm-opt %s --reference-kernel -o %t.cu -- -std=c++17 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: FileCheck --check-prefix=OUT %s < %t.cu

static inline int idx(int r, int c, int ld) { return r + c * ld; }

// CHECK: :[[@LINE+3]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A column-major, B column-major, C column-major; accumulates in 'acc', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
// OUT: gemm_opt_nest_0(W, m, k, 1, m, X, k, n, 1, k, C, m, n, 1, m, 1, 0)
void indexHelper(int m, int n, int k, const float *W, const float *X, float *C) {
  for (int col = 0; col < n; col++)
    for (int row = 0; row < m; row++) {
      float acc = 0.0f;
      for (int l = 0; l < k; l++) {
        float w = W[idx(row, l, m)];
        acc += w * X[idx(l, col, k)];
      }
      C[idx(row, col, m)] = acc;
    }
}

static float dot(int n, const float *x, const float *y, int incy) {
  int i;
  float s = 0.0f;
  for (i = 0; i < n; ++i)
    s += x[i] * y[i * incy];
  return s;
}
// CHECK: :[[@LINE+3]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
// OUT: gemm_opt_nest_1(A, m, k, k, 1, B, k, n, n, 1, C, m, n, n, 1, 1, 0)
void dotHelper(int m, int n, int k, const float *A, const float *B, float *C) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      C[i * n + j] = dot(k, A + i * k, &B[j], n);
}

// Two calls in one statement: each helper's locals are its own.
// CHECK: :[[@LINE+2]]:3: remark: loop nest not rewritten: more than one multiply-accumulate in the nest [-Rpass-missed=gemm]
void twoDots(int m, int n, int k, const float *A, const float *B, float *C) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      C[i * n + j] = dot(k, A + i * k, B + j, n) + dot(k, A + i * k, B + j, n);
}

#define X_(p) x[(p) * incx]
static void addDot(int k, double *x, int incx, double *y, double *gamma) {
  for (int p = 0; p < k; p++)
    *gamma += X_(p) * y[p];
}
#define A_(i, j) a[(j) * lda + (i)]
#define B_(i, j) b[(j) * ldb + (i)]
#define C_(i, j) c[(j) * ldc + (i)]
// CHECK: :[[@LINE+3]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A column-major, B column-major, C column-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
// OUT: gemm_opt_nest_2(a, m, k, 1, lda, b, k, n, 1, ldb, c, m, n, 1, ldc, 1, 1)
void throughPointer(int m, int n, int k, double *a, int lda, double *b, int ldb, double *c, int ldc) {
  for (int j = 0; j < n; j += 1)
    for (int i = 0; i < m; i += 1)
      addDot(k, &A_(i, 0), lda, &B_(0, j), &C_(i, j));
}

static inline void saxpy(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}
// CHECK: :[[@LINE+3]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A column-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
// OUT: gemm_opt_nest_3(A, M, K, 1, M, B, K, N, N, 1, C, M, N, N, 1, 1, 1)
void axpyHelper(int M, int N, int K, const float *A, const float *B, float *C) {
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < M; ++i)
      saxpy(N, A[k * M + i], &B[k * N], &C[i * N]);
}

class Mat {
public:
  Mat(float *d, int rows, int cols) : d(d), r(rows), c(cols) {}
  float &operator()(int i, int j) { return d[i * c + j]; }
  float operator()(int i, int j) const { return d[i * c + j]; }
  const float *operator[](int i) const { return d + i * c; }
  float *row(int i) { return d + i * c; }
  const float *row(int i) const { return at(i, 0); }
  operator const float *() const { return d; }
  int rows() const { return r; }
  int cols() const { return c; }
  const float *at(int i, int j) const { return &d[i * c + j]; }
  float *d;
  int r, c;
};
// CHECK: :[[@LINE+3]]:3: remark: GEMM recognised: f32, M x N x K = A.rows() x B.cols() x A.cols(); A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
// OUT: gemm_opt_nest_4(A.d, A.rows(), A.cols(), A.c, 1, B.d, A.cols(), B.cols(), B.c, 1, C.d, A.rows(), B.cols(), C.c, 1, 1, 1)
void accessors(const Mat &A, const Mat &B, Mat &C) {
  for (int i = 0; i < A.rows(); ++i)
    for (int j = 0; j < B.cols(); ++j)
      for (int l = 0; l < A.cols(); ++l)
        C(i, j) += A(i, l) * B(l, j);
}
// CHECK: :[[@LINE+3]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates in 'sum', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_5 [-Rpass=gemm]
// OUT: gemm_opt_nest_5(A.d, m, k, A.c, 1, B.d, k, n, n, 1, C.d, m, n, C.c, 1, 1, 0)
void rowsAndConversions(int m, int n, int k, const Mat &A, const Mat &B, Mat &C) {
  for (int i = 0; i < m; ++i) {
    float *out = C.row(i);
    for (int j = 0; j < n; ++j) {
      const float *b = B;
      float sum = 0;
      for (int l = 0; l < k; ++l)
        sum += A[i][l] * b[l * n + j];
      out[j] = sum;
    }
  }
}
// CHECK: :[[@LINE+6]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B column-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_6 [-Rpass=gemm]
// OUT: gemm_opt_nest_6(a, n, n, n, 1, b, n, n, 1, n, c, n, n, n, 1, 1, 1)
void lambdas(int n, const float *a, const float *b, float *c) {
  auto at = [&](int i, int j) { return a[i * n + j]; };
  auto bt = [=](int i, int j) -> const float & { return b[j * n + i]; };
  auto out = [c, n](int i, int j) -> float & { return c[i * n + j]; };
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < n; ++l)
        out(i, j) += at(i, l) * bt(l, j);
}

// A method whose nest calls the object's own accessors.
struct Layer {
  double *w, *x, *y;
  int in, out, batch;
  double weight(int o, int i) const { return w[o * in + i]; }
  double &result(int b, int o) { return y[b * out + o]; }
  // CHECK: :[[@LINE+3]]:5: remark: GEMM recognised: f64, M x N x K = this->batch x this->out x this->in; A row-major, B column-major, C row-major; fused zero-init of C, alpha = 1, beta = 0; rewritten to call gemm_opt_nest_7 [-Rpass=gemm]
  // OUT: gemm_opt_nest_7(this->x, this->batch, this->in, this->in, 1, this->w, this->in, this->out, 1, this->in, this->y, this->batch, this->out, this->out, 1, 1, 0)
  void forward() {
    for (int b = 0; b < batch; ++b)
      for (int o = 0; o < out; ++o) {
        result(b, o) = 0;
        for (int i = 0; i < in; ++i)
          result(b, o) += x[b * in + i] * weight(o, i);
      }
  }
};
void runLayer(Layer &l) { l.forward(); }
