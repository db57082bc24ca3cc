// A moved operand pointer tested for null (Tengine's style): `q + i` (or
// `&q[i]`) is null only where `q` is, so the test is `q == NULL` in every
// iteration; the launcher runs where q is not null, and elsewhere the loop
// runs and takes the branch as written. A pointer read from a table, or a
// test with an `else`, stays a branch of the batch loop: the product inside
// it is rewritten alone, once per batch, with no such condition.
//
// RUN: gemm-opt %s -o %t.c --kernels=%t.cu --reference-kernel 2>&1 | FileCheck %s --implicit-check-not=remark:
#include <stddef.h>

int moved(int batch, int m, int n, int k, const float *a, const float *b,
          float *c) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k, batch batch; {{.*}}; the launcher runs only where (b) != 0 {{.*}}[-Rpass=gemm]
  for (int i = 0; i < batch; ++i) {
    const float *y = b + i * k * n;
    if (y == NULL)
      return -1;
    for (int r = 0; r < m; r++)
      for (int s = 0; s < n; s++) {
        float t = 0;
        for (int l = 0; l < k; l++)
          t += a[(i * m + r) * k + l] * y[l * n + s];
        c[(i * m + r) * n + s] = t;
      }
  }
  return 0;
}

int addressed(int batch, int m, int n, int k, const float *a, const float *b,
              float *c) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k, batch batch; {{.*}}; the launcher runs only where (a) != 0 {{.*}}[-Rpass=gemm]
  for (int i = 0; i < batch; ++i) {
    const float *x = &a[i * m * k];
    if (!x) {
      return -1;
    }
    for (int r = 0; r < m; r++)
      for (int s = 0; s < n; s++)
        for (int l = 0; l < k; l++)
          c[(i * m + r) * n + s] += x[r * k + l] * b[(i * k + l) * n + s];
  }
  return 0;
}

// A pointer of the nest that walks A, tested for null where it starts:
// A's test, not the walking pointer's (which the launcher cannot see).
void walked(int m, int n, int k, const double *A, const double *B, double *C,
            int lda) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, {{.*}}; the launcher runs only where (A) != 0 {{.*}}[-Rpass=gemm]
  for (int l = 0; l < k; l++)
    for (int j = 0; j < n; j++) {
      const double *pa = &A[l * lda];
      if (pa == 0)
        return;
      for (int i = 0; i < m; i++) {
        C[i + j * m] += *pa * B[j * k + l];
        pa += 1;
      }
    }
}

int fromTable(int batch, int m, int n, int k, const float *const *as,
              const float *b, float *c) {
  for (int i = 0; i < batch; ++i) {
    const float *x = as[i];
    if (x == NULL)
      return -1;
    // CHECK: :[[@LINE+1]]:5: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B column-major, C row-major; accumulates in 't', alpha = 1, beta = 0; rewritten to call {{.*}} [-Rpass=gemm]
    for (int r = 0; r < m; r++)
      for (int s = 0; s < n; s++) {
        float t = 0;
        for (int l = 0; l < k; l++)
          t += x[r * k + l] * b[(i * n + s) * k + l];
        c[(i * m + r) * n + s] = t;
      }
  }
  return 0;
}

int withElse(int batch, int m, int n, int k, const float *a, const float *b,
             float *c, int *skipped) {
  for (int i = 0; i < batch; ++i) {
    const float *y = b + i * k * n;
    if (y == NULL)
      return -1;
    else
      ++*skipped;
    // CHECK: :[[@LINE+1]]:5: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call {{.*}} [-Rpass=gemm]
    for (int r = 0; r < m; r++)
      for (int s = 0; s < n; s++)
        for (int l = 0; l < k; l++)
          c[(i * m + r) * n + s] += a[(i * m + r) * k + l] * y[l * n + s];
  }
  return 0;
}
