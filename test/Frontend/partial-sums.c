// Dot products split into partial sums (PartialSums.cpp): an array of lanes
// summed every U-th term and added up after the K loop, a scalar partial sum
// that the unrolled loop fills and the remainder's sum adds at the end. Each
// is the K loop's sum in another order. Near misses keep the array and name
// what ties its elements: a lane read while the lanes sum, a lane left out of
// the final sum or read after it, a lane that starts at a value, a lane
// chosen at run time, an array sized at run time.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=OUT < %t.cu

// Four lanes over K rounded down to a multiple of 4 (a shift), the rest in
// the remainder's own sum, the lanes added to it: one sum.
static float dot_lanes(int len, const float *u, const float *v) {
  int q, whole = len >> 2 << 2;
  float acc, lane[4];
  lane[0] = lane[1] = lane[2] = lane[3] = 0.0f;
  for (q = 0; q < whole; q += 4) {
    lane[0] += u[q] * v[q];
    lane[1] += u[q + 1] * v[q + 1];
    lane[2] += u[q + 2] * v[q + 2];
    lane[3] += u[q + 3] * v[q + 3];
  }
  for (acc = 0.0f; q < len; ++q)
    acc += u[q] * v[q];
  acc += lane[0] + lane[1] + lane[2] + lane[3];
  return acc;
}
void nt(int rows, int cols, int depth, const float *x, const float *w, float *y) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = rows x cols x depth; A row-major, B column-major, C row-major; accumulates in 'acc', alpha = 1, beta = 0; 'q' is unrolled by 4 with a remainder loop; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_0(x, rows, depth, depth, 1, w, depth, cols, 1, depth, y, rows, cols, cols, 1, 1, 0)) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      y[r * cols + c] = dot_lanes(depth, x + r * depth, w + c * depth);
}
// Lanes declared in the nest, zeroed by their initialiser, `x = x + e`; the
// remainder sums into lane 0 and the lanes are added into C.
void nn_double(int m, int n, int k, const double *a, const double *b, double *c) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates in 'part', alpha = 1, beta = 1; 'p' is unrolled by 2 with a remainder loop; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double part[2] = {0.0, 0.0};
      int p = 0;
      for (; p + 2 <= k; p += 2) {
        part[0] = part[0] + a[i * k + p] * b[p * n + j];
        part[1] = part[1] + a[i * k + p + 1] * b[(p + 1) * n + j];
      }
      for (; p < k; p++)
        part[0] = part[0] + a[i * k + p] * b[p * n + j];
      c[i * n + j] += part[1] + part[0];
    }
}
// No array: a scalar partial sum of the unrolled loop, added into the
// remainder's sum after it.
void scalar_split(int m, int n, int k, const float *a, const float *b, float *c) {
  int i, j, p;
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates in 'sum', alpha = 1, beta = 0; 'p' is unrolled by 2 with a remainder loop; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      float even = 0.0f, sum;
      for (p = 0; p < k - 1; p += 2) {
        even += a[i * k + p] * b[p * n + j];
        even += a[i * k + p + 1] * b[(p + 1) * n + j];
      }
      sum = 0.0f;
      for (; p < k; p++)
        sum += a[i * k + p] * b[p * n + j];
      sum += even;
      c[i * n + j] = sum;
    }
}
// Near misses.
// Lane 1 reads lane 0 while they sum: a dependence between the lanes.
void across(int m, int n, int k, const float *a, const float *b, float *c) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 't[0]' is read in 't[1] += t[0] * a[i * k + p + 1] * b[(p + 1) * n + j]' while the lanes of 't' sum, so they are no independent partial sums [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float t[2] = {0};
      for (int p = 0; p < k; p += 2) {
        t[0] += a[i * k + p] * b[p * n + j];
        t[1] += t[0] * a[i * k + p + 1] * b[(p + 1) * n + j];
      }
      c[i * n + j] = t[0] + t[1];
    }
}
// Lane 3 is summed into but left out of the final sum.
void missing(int m, int n, int k, const float *a, const float *b, float *c) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the lanes of 't' are summed without 't[3]', so the sum is not that of every term [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float t[4] = {0};
      for (int p = 0; p < k; p += 4) {
        t[0] += a[i * k + p] * b[p * n + j];
        t[1] += a[i * k + p + 1] * b[(p + 1) * n + j];
        t[2] += a[i * k + p + 2] * b[(p + 2) * n + j];
        t[3] += a[i * k + p + 3] * b[(p + 3) * n + j];
      }
      c[i * n + j] = t[0] + t[1] + t[2];
    }
}
// An array sized at run time.
void runtime_size(int m, int n, int k, int u, const float *a, const float *b, float *c) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 't' ('float[u]') is sized at run time, so its elements are no fixed set of partial sums [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float t[u];
      t[0] = 0;
      for (int p = 0; p < k; p++)
        t[0] += a[i * k + p] * b[p * n + j];
      c[i * n + j] = t[0];
    }
}
// The lane is chosen by the loop index.
void varying_lane(int m, int n, int k, const float *a, const float *b, float *c) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 't' is indexed by 'p % 4', not by a constant lane, so its elements are no separate partial sums [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float t[4] = {0};
      for (int p = 0; p < k; p++)
        t[p % 4] += a[i * k + p] * b[p * n + j];
      c[i * n + j] = t[0] + t[1] + t[2] + t[3];
    }
}
// A lane that starts at a bias: not zero.
void biased_lane(int m, int n, int k, const float *a, const float *b, const float *bias, float *c) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 't[0]' starts at 'bias[j]', not at zero, so the lanes of 't' are no partial sums of one sum [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float t[2];
      t[0] = bias[j];
      t[1] = 0;
      for (int p = 0; p < k; p += 2) {
        t[0] += a[i * k + p] * b[p * n + j];
        t[1] += a[i * k + p + 1] * b[(p + 1) * n + j];
      }
      c[i * n + j] = t[0] + t[1];
    }
}
// Lanes declared before the nest and read after it: memory the nest writes.
void kept_after(int m, int n, int k, const float *a, const float *b, float *c, float *last) {
  float t[2];
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: more than one multiply-accumulate in the nest [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      t[0] = 0;
      t[1] = 0;
      for (int p = 0; p < k; p += 2) {
        t[0] += a[i * k + p] * b[p * n + j];
        t[1] += a[i * k + p + 1] * b[(p + 1) * n + j];
      }
      c[i * n + j] = t[0] + t[1];
    }
  *last = t[1];
}
// A lane read again after the final sum.
void used_after_sum(int m, int n, int k, const float *a, const float *b, float *c, float *d) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 't[1]' is used after the lanes of 't' are summed in 'c[i * n + j] = t[0] + t[1]' [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float t[2] = {0};
      for (int p = 0; p < k; p += 2) {
        t[0] += a[i * k + p] * b[p * n + j];
        t[1] += a[i * k + p + 1] * b[(p + 1) * n + j];
      }
      c[i * n + j] = t[0] + t[1];
      d[i * n + j] = t[1];
    }
}

/* A block of C kept in an array whose lane is scaled as it is stored: the
 * lanes are no partial sums of one sum, nor a block of C stored whole
 * (register-blocks.c has the block that is). */
void arrayBlock(int m, int n, int k, const float *a, const float *b,
                float *c) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 's[0]' is stored on its own in 'c[r * n + q] = 2 * s[0]', so the lanes of 's' are sums of their own, not partial sums of one; a block of C kept in an array is read as one where each lane is only summed into and stored whole into its element (X = t[c] or X += t[c]) [-Rpass-missed=gemm]
  for (int r = 0; r < m; r += 2)
    for (int q = 0; q < n; ++q) {
      float s[2] = {0};
      for (int d = 0; d < k; ++d) {
        s[0] += a[r * k + d] * b[d * n + q];
        s[1] += a[(r + 1) * k + d] * b[d * n + q];
      }
      c[r * n + q] = 2 * s[0];
      c[(r + 1) * n + q] = s[1];
    }
}
