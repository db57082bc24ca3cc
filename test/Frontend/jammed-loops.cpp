// Unroll-and-jam: a loop over j that steps by U holds loops down to one
// whose body is U copies at j, j + 1, ..., j + U - 1. Each copy runs in the
// same loops and the copies share no variable that one of them assigns, so
// the nest is the loop over every j with the first copy's statements. The
// copies must fill the range, which the guard checks where it is not known.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:

#define A(i, j) a[(j) * lda + (i)]
#define B(i, j) b[(j) * ldb + (i)]
#define C(i, j) c[(j) * ldc + (i)]

static void dot(int k, double *x, int incx, double *y, double *gamma) {
  int p;
  for (p = 0; p < k; p++)
    *gamma += x[p * incx] * y[p];
}

// Four calls per row, column-major macros.
void calls(int m, int n, int k, double *a, int lda, double *b, int ldb,
           double *c, int ldc) {
  int i, j;
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A column-major, B column-major, C column-major; accumulates into C, alpha = 1, beta = 1; 'j' is unrolled by 4 and jammed into 'i'; the launcher runs only where n % 4 == 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  for (j = 0; j < n; j += 4)
    for (i = 0; i < m; i += 1) {
      dot(k, &A(i, 0), lda, &B(0, j), &C(i, j));
      dot(k, &A(i, 0), lda, &B(0, j + 1), &C(i, j + 1));
      dot(k, &A(i, 0), lda, &B(0, j + 2), &C(i, j + 2));
      dot(k, &A(i, 0), lda, &B(0, j + 3), &C(i, j + 3));
    }
}

// Two columns per k step, statements with their own indices.
void statements(int M, int N, int K, const float *A, const float *B,
                float *C) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; 'j' is unrolled by 2 and jammed into 'k'; the launcher runs only where N % 2 == 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  for (int j = 0; j < N; j += 2)
    for (int i = 0; i < M; i++)
      for (int k = 0; k < K; k++) {
        C[i * N + j] += A[i * K + k] * B[k * N + j];
        C[i * N + j + 1] += A[i * K + k] * B[k * N + j + 1];
      }
}

// A helper over four columns in one k loop, reached through pointers to
// the block's first elements: column u is `C(0, u)` of `c = &C(i, j)`.
static void fourColumns(int k, double *a, int lda, double *b, int ldb,
                        double *c, int ldc) {
  for (int p = 0; p < k; p++) {
    C(0, 0) += A(0, p) * B(p, 0);
    C(0, 1) += A(0, p) * B(p, 1);
    C(0, 2) += A(0, p) * B(p, 2);
    C(0, 3) += A(0, p) * B(p, 3);
  }
}

void offsets(int m, int n, int k, double *a, int lda, double *b, int ldb,
             double *c, int ldc) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A column-major, B column-major, C column-major; accumulates into C, alpha = 1, beta = 1; 'j' is unrolled by 4 and jammed into 'p'; the launcher runs only where n % 4 == 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  for (int j = 0; j < n; j += 4)
    for (int i = 0; i < m; i++)
      fourColumns(k, &A(i, 0), lda, &B(0, j), ldb, &C(i, j), ldc);
}

// Two loops jammed into one: a 2 x 2 block of C per k step, rows of the
// block one after the other, then columns one after the other.
void block(int M, int N, int K, const double *A, const double *B,
           double *C) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; 'i' is unrolled by 2 and jammed into 'k'; 'j' is unrolled by 2 and jammed into 'k'; the launcher runs only where M % 2 == 0 and N % 2 == 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  for (int i = 0; i < M; i += 2)
    for (int j = 0; j < N; j += 2)
      for (int k = 0; k < K; k++) {
        C[i * N + j] += A[i * K + k] * B[k * N + j];
        C[i * N + j + 1] += A[i * K + k] * B[k * N + j + 1];
        C[(i + 1) * N + j] += A[(i + 1) * K + k] * B[k * N + j];
        C[(i + 1) * N + j + 1] += A[(i + 1) * K + k] * B[k * N + j + 1];
      }
}

void blockByColumns(int M, int N, int K, const double *A, const double *B,
                    double *C) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; 'i' is unrolled by 2 and jammed into 'k'; 'j' is unrolled by 2 and jammed into 'k'; the launcher runs only where M % 2 == 0 and N % 2 == 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  for (int i = 0; i < M; i += 2)
    for (int j = 0; j < N; j += 2)
      for (int k = 0; k < K; k++) {
        C[i * N + j] += A[i * K + k] * B[k * N + j];
        C[(i + 1) * N + j] += A[(i + 1) * K + k] * B[k * N + j];
        C[i * N + j + 1] += A[i * K + k] * B[k * N + j + 1];
        C[(i + 1) * N + j + 1] += A[(i + 1) * K + k] * B[k * N + j + 1];
      }
}

// Near misses.

// A block with one corner at the wrong row.
void blockCorner(int M, int N, int K, const double *A, const double *B,
                 double *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: more than one multiply-accumulate in the nest [-Rpass-missed=gemm]
  for (int i = 0; i < M; i += 2)
    for (int j = 0; j < N; j += 2)
      for (int k = 0; k < K; k++) {
        C[i * N + j] += A[i * K + k] * B[k * N + j];
        C[i * N + j + 1] += A[i * K + k] * B[k * N + j + 1];
        C[(i + 1) * N + j] += A[(i + 1) * K + k] * B[k * N + j];
        C[i * N + j + 1] += A[(i + 1) * K + k] * B[k * N + j + 1];
      }
}

// The last column is `C(0, 2)` again: no copies.
static void columnTwice(int k, double *a, int lda, double *b, int ldb,
                        double *c, int ldc) {
  for (int p = 0; p < k; p++) {
    C(0, 0) += A(0, p) * B(p, 0);
    C(0, 1) += A(0, p) * B(p, 1);
    C(0, 2) += A(0, p) * B(p, 2);
    C(0, 2) += A(0, p) * B(p, 3);
  }
}

void offsetTwice(int m, int n, int k, double *a, int lda, double *b, int ldb,
                 double *c, int ldc) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: more than one multiply-accumulate in the nest [-Rpass-missed=gemm]
  for (int j = 0; j < n; j += 4)
    for (int i = 0; i < m; i++)
      columnTwice(k, &A(i, 0), lda, &B(0, j), ldb, &C(i, j), ldc);
}

// The second copy reads column j, not j + 1: no copies.
void wrongColumn(int M, int N, int K, const float *A, const float *B,
                 float *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: more than one multiply-accumulate in the nest [-Rpass-missed=gemm]
  for (int j = 0; j < N; j += 2)
    for (int i = 0; i < M; i++)
      for (int k = 0; k < K; k++) {
        C[i * N + j] += A[i * K + k] * B[k * N + j];
        C[i * N + j + 1] += A[i * K + k] * B[k * N + j];
      }
}

// The copies share a scalar that each assigns.
void sharedAccumulator(int M, int N, int K, const float *A, const float *B,
                       float *C) {
  float s = 0;
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loop over 'j' is unrolled by 2 and jammed into the loop over 'k', but its copies share 's', which they assign, so they cannot run in another order [-Rpass-missed=gemm]
  for (int j = 0; j < N; j += 2)
    for (int i = 0; i < M; i++)
      for (int k = 0; k < K; k++) {
        s = A[i * K + k] * B[k * N + j];
        C[i * N + j] += s;
        s = A[i * K + k] * B[k * N + j + 1];
        C[i * N + j + 1] += s;
      }
}

// A statement between the loops runs once per pair of columns: it is split
// off the product (SplitOff.cpp), which is jammed without it.
void betweenLoops(int M, int N, int K, const float *A, const float *B,
                  float *C, float *D) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; 'j' is unrolled by 2 and jammed into 'k'; the launcher runs only where N % 2 == 0 (there the loops cover exactly this domain; elsewhere the loop runs); 'D[i * N + j] = 0' runs beside the product: {{.*}}; rewritten to call gemm_opt_nest_5 [-Rpass=gemm]
  for (int j = 0; j < N; j += 2)
    for (int i = 0; i < M; i++) {
      D[i * N + j] = 0;
      for (int k = 0; k < K; k++) {
        C[i * N + j] += A[i * K + k] * B[k * N + j];
        C[i * N + j + 1] += A[i * K + k] * B[k * N + j + 1];
      }
    }
}

// The inner loop's bound reads j.
void boundReadsJ(int M, int N, int K, const float *A, const float *B,
                 float *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: non-rectangular bounds: the bound of 'i' depends on 'j' other than as a tile of it [-Rpass-missed=gemm]
  for (int j = 0; j < N; j += 2)
    for (int i = 0; i < j; i++)
      for (int k = 0; k < K; k++) {
        C[i * N + j] += A[i * K + k] * B[k * N + j];
        C[i * N + j + 1] += A[i * K + k] * B[k * N + j + 1];
      }
}

// Row pointers declared between the loops, which nothing moves: the copies'
// elements are read through them.
void rowPointers(int M, int N, int K, const float *A, const float *B,
                 float *C) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; 'i' is unrolled by 2 and jammed into 'k'; 'j' is unrolled by 2 and jammed into 'k'; the launcher runs only where M % 2 == 0 and N % 2 == 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_6 [-Rpass=gemm]
  for (int i = 0; i < M; i += 2)
    for (int j = 0; j < N; j += 2) {
      const float *a = &A[i * K], *b = B + j;
      float *c = &C[i * N + j];
      for (int k = 0; k < K; k++) {
        c[0] += a[k] * b[k * N];
        c[1] += a[k] * b[k * N + 1];
        c[N] += a[K + k] * b[k * N];
        c[N + 1] += a[K + k] * b[k * N + 1];
      }
    }
}

// A row pointer that each k step moves on for good: the copies' elements
// move with k.
void movedRowPointer(int M, int N, int K, const float *A, const float *B,
                     float *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: {{.*}} [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j += 2) {
      float *c = &C[i * N + j];
      for (int k = 0; k < K; k++) {
        c[0] += A[i * K + k] * B[k * N + j];
        c++;
        c[0] += A[i * K + k] * B[k * N + j + 1];
      }
    }
}
