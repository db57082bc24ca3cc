// The sum's first step written ahead of its loop as a plain product, the
// loop starting one step later (PeeledStep.cpp): into C, into a scalar
// accumulator (a float product summed in double, through walked pointers),
// the last step ahead of a loop that counts down, in a loop of its own
// beside the sum's, with alpha, under a guard on a constant, and R's pointer
// walks, whose scalar factor is assigned ahead of each loop. Near misses:
// another element, a skipped step, another alpha, a loop that runs no
// iteration, a factor set again inside the loop that reads it.
//
// RUN: gemm-opt %s -o %t.c --kernels=%t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:

#define KK 8

void into_c(int m, int n, int k, const float *a, const float *b, float *c) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 0; the sum's step before the loop over 't', 'a[i * k] * b[j]', is written ahead of it; the launcher runs only where (-1 + k) >= 0 (
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      c[i * n + j] = a[i * k] * b[j];
      for (int t = 1; t < k; t++)
        c[i * n + j] += a[i * k + t] * b[t * n + j];
    }
}

void walked(float *d, const float *m1, const float *m2, int rows, int cols,
            int inner) {
  int i, j, t;
  const float *p1, *p2;
  double sum;
  p1 = m1;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = rows x cols x inner; summed in double, as the accumulator 'sum' is: the operands are widened to double; A row-major, B row-major, C row-major; accumulates in 'sum', alpha = 1, beta = 0; the sum's step before the loop over 't', 'p1[0] * p2[0]', is written ahead of it; the launcher runs only where (-1 + inner) >= 0 (
  for (i = 0; i < rows; i++) {
    for (j = 0; j < cols; j++) {
      p2 = m2 + j;
      sum = p1[0] * p2[0];
      for (t = 1; t < inner; t++) {
        p2 += cols;
        sum += p1[t] * p2[0];
      }
      *d++ = sum;
    }
    p1 += inner;
  }
}

void last_step(int m, int n, int k, const double *a, const double *b,
               double *c) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; the sum's step after the loop over 't', 'a[i * k + k - 1] * b[(k - 1) * n + j]', is written ahead of it; the launcher runs only where (-1 + k) >= 0 (
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double s = a[i * k + k - 1] * b[(k - 1) * n + j];
      for (int t = k - 2; t >= 0; t--)
        s += a[i * k + t] * b[t * n + j];
      c[i * n + j] = s;
    }
}

void own_loop(int m, int n, int k, const double *a, int lda, const double *b,
              int ldb, double *c, int ldc) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A column-major, B column-major, C column-major; accumulates into C, alpha = 1, beta = 0; the sum's step before the loop over 't', 'a[i] * b[j * ldb]', is written ahead of it; the launcher runs only where (-1 + k) >= 0 (
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < m; i++)
      c[i + j * ldc] = a[i] * b[j * ldb];
    for (int t = 1; t < k; t++)
      for (int i = 0; i < m; i++)
        c[i + j * ldc] += a[i + t * lda] * b[t + j * ldb];
  }
}

void scaled(int m, int n, float alpha, const float (*a)[KK],
            const float (*b)[64], float (*c)[64]) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x 64 x 8; A row-major, B row-major, C row-major; accumulates into C, alpha = alpha, beta = 0; the sum's step before the loop over 't', 'alpha * a[i][0] * b[0][j]', is written ahead of it; rewritten
  for (int i = 0; i < m; i++)
    for (int j = 0; j < 64; j++) {
      if (KK > 0)
        c[i][j] = alpha * a[i][0] * b[0][j];
      for (int t = 1; t < KK; t++)
        c[i][j] += alpha * a[i][t] * b[t][j];
    }
}

// R's style: every operand walked, the first step a loop of its own; the
// scalar factor is set ahead of each loop that reads it.
void mult_bc(double *A, const double *B, const double *C, const int *r,
             const int *c, const int *n) {
  double xx, *ap, *ap1;
  const double *bp;
  int i, j;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = (*c) x (*r) x (*n); A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 0; the sum's step before the loop over 'i', 'xx * *bp', is written ahead of it; the launcher runs only where {{.*}}(-1 + (*n)) >= 0 (
  for (j = 0; j < *c; j++) {
    ap1 = A + *r;
    xx = *C;
    bp = B;
    for (ap = A; ap < ap1; ap++, bp++)
      *ap = xx * *bp;
    C++;
    for (i = 1; i < *n; i++, C++)
      for (xx = *C, ap = A; ap < ap1; ap++, bp++)
        *ap += xx * *bp;
    A = ap1;
  }
}

// The factor is set again in the loop that reads it, after the read: it is
// no one element for the whole loop.
void set_again(int m, int n, int k, const float *a, const float *b,
               float *c) {
  float x;
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: no multiply-accumulate of two array elements (C += A * B) in the nest
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      c[i * n + j] = 0;
      x = a[i * k];
      for (int t = 0; t < k; t++) {
        c[i * n + j] += x * b[t * n + j];
        x = a[i * k + t + 1];
      }
    }
}

void other_element(int m, int n, int k, const float *a, const float *b,
                   float *c) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x (-1 + k); {{.*}}into a temporary{{.*}} since as a whole the nest is no GEMM: 'a[i * k + 1] * b[n + j]' is written ahead of the loop over 't' but is not the product's step before its first iteration or after its last; rewritten
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      c[i * n + j] = a[i * k + 1] * b[n + j];
      for (int t = 1; t < k; t++)
        c[i * n + j] += a[i * k + t] * b[t * n + j];
    }
}

void skipped_step(int m, int n, int k, const float *a, const float *b,
                  float *c) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x (-2 + k); {{.*}}into a temporary{{.*}} since as a whole the nest is no GEMM: 'a[i * k] * b[j]' is written ahead of the loop over 't' but is not the product's step before its first iteration or after its last; rewritten
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = a[i * k] * b[j];
      for (int t = 2; t < k; t++)
        s += a[i * k + t] * b[t * n + j];
      c[i * n + j] = s;
    }
}

void other_alpha(int m, int n, int k, const float *a, const float *b,
                 float *c) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x (-1 + k); {{.*}}into a temporary{{.*}} since as a whole the nest is no GEMM: 'c[i * n + j]' is written besides the accumulation into C (only a zero-init, a scaling of C, a bias element or a step of the sum may be fused); rewritten
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      c[i * n + j] = 2 * a[i * k] * b[j];
      for (int t = 1; t < k; t++)
        c[i * n + j] += a[i * k + t] * b[t * n + j];
    }
}

void no_iteration(int m, int n, const float (*a)[4], const float (*b)[64],
                  float (*c)[64]) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x 64 x (-1); {{.*}}into a temporary{{.*}} since as a whole the nest is no GEMM: 'a[i][0] * b[0][j]' is written ahead of the loop over 't', which runs no iteration; rewritten
  for (int i = 0; i < m; i++)
    for (int j = 0; j < 64; j++) {
      c[i][j] = a[i][0] * b[0][j];
      for (int t = 1; t < 0; t++)
        c[i][j] += a[i][t] * b[t][j];
    }
}
