// Pointers declared without initialiser at the top of a block (C89 style,
// one declaration for several names) and set before their first use: first
// in the loop that reads them, so in each of its iterations, or as a
// statement of the block. Each is the declaration with that initialiser, at
// the assignment (LateInit.cpp; PointerWalk.cpp reads the values set). Near
// misses name the dependence: a pointer read before it is set in an
// iteration, and one read after the loop that sets it.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:

// C += A * B, column-major, the column of B chosen in the j loop.
void columns(int m, int n, int k, const double *a, int lda, const double *b,
             int ldb, double *c, int ldc) {
  int i, j, p;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A column-major, B column-major, C column-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  for (j = 0; j < n; j++) {
    const double *bcol;
    bcol = b + j * ldb;
    for (i = 0; i < m; i++)
      for (p = 0; p < k; p++)
        c[j * ldc + i] += a[p * lda + i] * bcol[p];
  }
}

// Row pointers of A and C set first in the body of the i loop.
void rows(int m, int n, int k, const float *a, const float *b, float *c) {
  int i, j, p;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  for (i = 0; i < m; i++) {
    const float *arow;
    float *crow, s;
    arow = a + i * k;
    crow = c + i * n;
    for (j = 0; j < n; j++) {
      s = 0.0f;
      for (p = 0; p < k; p++)
        s += arow[p] * b[p * n + j];
      crow[j] = s;
    }
  }
}

// A helper's pointer, declared at its top and set first in its loop: the
// helper is inlined (Inline.cpp), so the pointer is the loop's local.
static void dot_column(int k, const double *a, int lda, const double *b,
                       double *c) {
  int p;
  const double *ap;
  for (p = 0; p < k; p++) {
    ap = &a[p * lda];
    *c += ap[0] * b[p];
  }
}
void helper(int m, int n, int k, const double *a, int lda, const double *b,
            int ldb, double *c, int ldc) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A column-major, B column-major, C column-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++)
      dot_column(k, &a[i], lda, &b[j * ldb], &c[j * ldc + i]);
}

// A hoisted factor declared at the top of the outer loop and set first two
// loops down, through a loop body without braces.
void hoisted(int m, int n, int k, const float *a, const float *b, float *c) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  for (int p = 0; p < k; p++) {
    float t;
    for (int j = 0; j < n; j++)
      for (int i = 0; i < m; i++) {
        t = b[p * n + j];
        c[i * n + j] += a[i * k + p] * t;
      }
  }
}

// Set first in a loop of a block of its own (a `while` started there),
// counted down by its test.
void inBlock(int m, int n, int k, const float *a, const float *b, float *c) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  for (int p = 0; p < k; p++) {
    float t;
    {
      int j = n;
      while (j-- > 0)
        for (int i = 0; i < m; i++) {
          t = b[p * n + j];
          c[i * n + j] += a[i * k + p] * t;
        }
    }
  }
}

// Near misses.
// Read before it is set in the iteration: the last iteration's value.
void stale(int m, int n, int k, const float *a, const float *b, float *c) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'arow' is read before the statement that sets it in each iteration of the loop over 'p', so it holds what the iteration before left [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++) {
    const float *arow;
    for (int j = 0; j < n; j++)
      for (int p = 0; p < k; p++) {
        c[i * n + j] += arow[p] * b[p * n + j];
        arow = a + i * k;
      }
  }
}

// Set in the loop and read after it.
void after(int m, int n, int k, const float *a, const float *b, float *c,
           float *last) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'brow' is read after the loop over 'p' that sets it, where it holds what the last iteration left [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++) {
    const float *brow;
    for (int p = 0; p < k; p++) {
      brow = b + p * n;
      for (int j = 0; j < n; j++)
        c[i * n + j] += a[i * k + p] * brow[j];
    }
    last[i] = brow[0];
  }
}
