// `if (x != 0)` around the update, as the reference BLAS skips zero terms:
// rewritten when x is a factor of every product the branch accumulates
// (directly or through a scalar it assigns), with a remark that says a
// skipped term differs from the GEMM's only where A or B holds Inf or NaN.
// Other conditions are left as written.
//
// RUN: gemm-opt %s --emit=mlir -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=remark:

void elementSkip(int m, int n, int k, double alpha, const double *a, int lda,
                 const double *b, int ldb, double *c, int ldc) {
  double temp;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64{{.*}}; the terms it skips where 'b[l + j * ldb]' is 0 are 0 unless A or B holds Inf or NaN; rewritten
  for (int j = 0; j < n; j++)
    for (int l = 0; l < k; l++)
      if (b[l + j * ldb] != 0.) {
        temp = alpha * b[l + j * ldb];
        for (int i = 0; i < m; i++)
          c[i + j * ldc] += temp * a[i + l * lda];
      }
}

void scalarSkip(int m, int n, int k, float alpha, const float *a,
                const float *b, float *c) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32{{.*}}; the terms it skips where 'temp' is 0 are 0 unless A or B holds Inf or NaN; rewritten
  for (int i = 0; i < m; i++)
    for (int l = 0; l < k; l++) {
      float temp = alpha * a[i * k + l];
      if (0.0f != temp)
        for (int j = 0; j < n; j++)
          c[i * n + j] = c[i * n + j] + temp * b[l * n + j];
    }
}

void notAFactor(int n, const float *a, const float *b, const float *mask,
                float *c) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'if (mask[i] != 0)' guards 'c[i * n + j]', which does not accumulate a product with 'mask[i]' as a factor
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int l = 0; l < n; l++)
        if (mask[i] != 0)
          c[i * n + j] += a[i * n + l] * b[l * n + j];
}

void readAfter(int n, const float *a, const float *b, float *c) {
  float t = 0;
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 't' is set under 'if (a[i * n + l] != 0)' and read outside it
  for (int i = 0; i < n; i++)
    for (int l = 0; l < n; l++) {
      if (a[i * n + l] != 0)
        t = a[i * n + l];
      for (int j = 0; j < n; j++)
        c[i * n + j] += t * b[l * n + j];
    }
}

void withElse(int n, const float *a, const float *b, float *c) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the branch on 'a[i * n + l] != 0' depends on the loop index 'i'
  for (int i = 0; i < n; i++)
    for (int l = 0; l < n; l++)
      if (a[i * n + l] != 0) {
        for (int j = 0; j < n; j++)
          c[i * n + j] += a[i * n + l] * b[l * n + j];
      } else {
        c[i * n] += 1;
      }
}

void integerCondition(int n, const int *flags, const float *a, const float *b,
                      float *c) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: conditional control flow in the nest body
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int l = 0; l < n; l++)
        if (flags[l] != 0)
          c[i * n + j] += a[i * n + l] * b[l * n + j];
}
