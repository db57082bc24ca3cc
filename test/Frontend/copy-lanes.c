// One accumulator per copy (CopyLanes.cpp): an array of U accumulators that
// loops over copies 0..U-1 set, sum into (inside the K loop, reusing a loaded
// value across the copies) and store, each touching only its own element.
// Copy x owns element x, so the copies run one after another, each with a
// scalar accumulator: a loop over the copies around the statements. Near
// misses keep the array and name what ties the copies together.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=OUT < %t.cu

#include <stddef.h>

// Rows stepped by a tile, one accumulator per row of the tile (a const int
// sizes the array, which makes it a variable-length array in C), the weight
// loaded once per K step for every row, a bias that may be null.
void dense_forward(float *y, const float *x, const float *w, const float *b,
                   int rows, int in, int out) {
  const int TILE = 4;
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = rows x out x in; A row-major, B column-major, C row-major; accumulates in 'acc', alpha = 1, beta = 0; 'r0 + t' runs over one dimension in tiles; 'acc[t]' is one accumulator per copy of the loops over 't', which run one copy after another; the launcher runs only where rows % 4 == 0 (there the loops cover exactly this domain; elsewhere the loop runs); epilogue: + 'b[o]' (none if null); rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  for (int r0 = 0; r0 < rows; r0 += TILE) {
    for (int o = 0; o < out; o++) {
      float acc[TILE];
      for (int t = 0; t < TILE; t++) {
        acc[t] = (b != NULL) ? b[o] : 0.0f;
      }
      for (int i = 0; i < in; i++) {
        float wi = w[i + o * in];
        for (int t = 0; t < TILE; t++) {
          int r = r0 + t;
          acc[t] += x[r * in + i] * wi;
        }
      }
      for (int t = 0; t < TILE; t++) {
        int r = r0 + t;
        y[r * out + o] = acc[t];
      }
    }
  }
}

// C89: indices declared at the top, a macro size, the array started at zero
// by its initialiser, the copy loop around the K loop.
#define LANES 8
void tiles_c89(int m, int n, int k, const float *a, const float *bt, float *c) {
  int i0, j, t, p;
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B column-major, C row-major; accumulates in 's', alpha = 1, beta = 0; 'i0 + t' runs over one dimension in tiles; 's[t]' is one accumulator per copy of the loops over 't', which run one copy after another; the launcher runs only where m % 8 == 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  for (i0 = 0; i0 < m; i0 += LANES)
    for (j = 0; j < n; j++) {
      float s[LANES] = {0};
      for (t = 0; t < LANES; t++)
        for (p = 0; p < k; p++)
          s[t] += a[(i0 + t) * k + p] * bt[j * k + p];
      for (t = 0; t < LANES; t++)
        c[(i0 + t) * n + j] = s[t];
    }
}

// Copies along the columns of C, doubles, alpha and beta in the store, the
// array declared with the scalar that holds A's element, set in each K step.
void columns(int m, int n, int k, double alpha, const double *a,
             const double *b, double beta, double *c) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates in 'sum', alpha = alpha, beta = beta; 'j0 + u' runs over one dimension in tiles; 'sum[u]' is one accumulator per copy of the loops over 'u', which run one copy after another; the launcher runs only where n % 4 == 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  for (int j0 = 0; j0 < n; j0 += 4)
    for (int i = 0; i < m; i++) {
      double sum[4], aip;
      for (int u = 0; u < 4; ++u)
        sum[u] = 0;
      for (int p = 0; p < k; p++) {
        aip = a[i * k + p];
        for (int u = 0; u < 4; ++u)
          sum[u] += aip * b[p * n + j0 + u];
      }
      for (int u = 0; u < 4; ++u)
        c[i * n + j0 + u] = alpha * sum[u] + beta * c[i * n + j0 + u];
    }
}

// Near misses.
#define U 4
void reads_lane0(float *y, const float *x, const float *w, int rows, int in, int out) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'acc' is indexed by '0' inside the loop over 't', so copy 't' touches other copies' elements [-Rpass-missed=gemm]
  for (int r0 = 0; r0 < rows; r0 += U)
    for (int o = 0; o < out; o++) {
      float acc[U];
      for (int t = 0; t < U; t++) acc[t] = 0.0f;
      for (int i = 0; i < in; i++)
        for (int t = 0; t < U; t++) acc[t] += x[(r0 + t) * in + i] * w[o * in + i] * acc[0];
      for (int t = 0; t < U; t++) y[(r0 + t) * out + o] = acc[t];
    }
}
void reversed(float *y, const float *x, const float *w, int rows, int in, int out) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'acc' is indexed by '4 - 1 - t' inside the loop over 't', so copy 't' touches other copies' elements [-Rpass-missed=gemm]
  for (int r0 = 0; r0 < rows; r0 += U)
    for (int o = 0; o < out; o++) {
      float acc[U];
      for (int t = 0; t < U; t++) acc[t] = 0.0f;
      for (int i = 0; i < in; i++)
        for (int t = 0; t < U; t++) acc[t] += x[(r0 + t) * in + i] * w[o * in + i];
      for (int t = 0; t < U; t++) y[(r0 + t) * out + o] = acc[U - 1 - t];
    }
}
void fewer_stores(float *y, const float *x, const float *w, int rows, int in, int out) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loops over the copies of 'acc' run over 4 and 2 copies, so some copies have no statement in the others [-Rpass-missed=gemm]
  for (int r0 = 0; r0 < rows; r0 += U)
    for (int o = 0; o < out; o++) {
      float acc[U];
      for (int t = 0; t < U; t++) acc[t] = 0.0f;
      for (int i = 0; i < in; i++)
        for (int t = 0; t < U; t++) acc[t] += x[(r0 + t) * in + i] * w[o * in + i];
      for (int t = 0; t < 2; t++) y[(r0 + t) * out + o] = acc[t];
    }
}
void shared_scalar(float *y, const float *x, const float *w, int rows, int in, int out) {
  float last = 0.0f;
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loop over 't' assigns 'last', which every copy of 'acc' shares, so the copies depend on each other [-Rpass-missed=gemm]
  for (int r0 = 0; r0 < rows; r0 += U)
    for (int o = 0; o < out; o++) {
      float acc[U];
      for (int t = 0; t < U; t++) acc[t] = 0.0f;
      for (int i = 0; i < in; i++)
        for (int t = 0; t < U; t++) { acc[t] += x[(r0 + t) * in + i] * w[o * in + i]; last = acc[t]; }
      for (int t = 0; t < U; t++) y[(r0 + t) * out + o] = acc[t];
    }
  y[0] = last;
}
void once_between(float *y, const float *x, const float *w, int rows, int in, int out) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'y[o] = 0.F' runs between the loops over the copies of 'acc', once, not per copy [-Rpass-missed=gemm]
  for (int r0 = 0; r0 < rows; r0 += U)
    for (int o = 0; o < out; o++) {
      float acc[U];
      for (int t = 0; t < U; t++) acc[t] = 0.0f;
      y[o] = 0.0f;
      for (int i = 0; i < in; i++)
        for (int t = 0; t < U; t++) acc[t] += x[(r0 + t) * in + i] * w[o * in + i];
      for (int t = 0; t < U; t++) y[(r0 + t) * out + o] = acc[t];
    }
}
void past_the_end(float *y, const float *x, const float *w, int rows, int in, int out) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loop over 't' runs past the 4 elements of 'acc' [-Rpass-missed=gemm]
  for (int r0 = 0; r0 < rows; r0 += U)
    for (int o = 0; o < out; o++) {
      float acc[U];
      for (int t = 0; t <= U; t++) acc[t] = 0.0f;
      for (int i = 0; i < in; i++)
        for (int t = 0; t <= U; t++) acc[t] += x[(r0 + t) * in + i] * w[o * in + i];
      for (int t = 0; t <= U; t++) y[(r0 + t) * out + o] = acc[t];
    }
}
void from_one(float *y, const float *x, const float *w, int rows, int in, int out) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loop over 't' indexes 'acc' but is no loop over its copies (one that counts by 1 from 0 to a constant) [-Rpass-missed=gemm]
  for (int r0 = 0; r0 < rows; r0 += U)
    for (int o = 0; o < out; o++) {
      float acc[U];
      for (int t = 0; t < U; t++) acc[t] = 0.0f;
      for (int i = 0; i < in; i++)
        for (int t = 1; t < U; t++) acc[t] += x[(r0 + t) * in + i] * w[o * in + i];
      for (int t = 0; t < U; t++) y[(r0 + t) * out + o] = acc[t];
    }
}
void index_read_between(float *y, const float *x, const float *w, int rows, int in, int out) {
  int t;
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the copy index 't' is read between the loops over the copies of 'acc' [-Rpass-missed=gemm]
  for (int r0 = 0; r0 < rows; r0 += U)
    for (int o = 0; o < out; o++) {
      float acc[U];
      for (t = 0; t < U; t++) acc[t] = 0.0f;
      for (int i = t - U; i < in; i++)
        for (t = 0; t < U; t++) acc[t] += x[(r0 + t) * in + i] * w[o * in + i];
      for (t = 0; t < U; t++) y[(r0 + t) * out + o] = acc[t];
    }
}
void one_element(float *y, const float *x, const float *w, int rows, int in, int out) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'y[r0 * out + o]' reads 'r0' and 't' apart; only their sum 'r0 + t' runs over one dimension [-Rpass-missed=gemm]
  for (int r0 = 0; r0 < rows; r0 += U)
    for (int o = 0; o < out; o++) {
      float acc[U];
      for (int t = 0; t < U; t++) acc[t] = 0.0f;
      for (int i = 0; i < in; i++)
        for (int t = 0; t < U; t++) acc[t] += x[(r0 + t) * in + i] * w[o * in + i];
      for (int t = 0; t < U; t++) y[r0 * out + o] = acc[t];
    }
}

// The launchers are called with the loops as their fallback.
// OUT: if (!((rows % 4 == 0) && gemm_opt_nest_0(
// OUT: if (!((m % 8 == 0) && gemm_opt_nest_1(
// OUT: if (!((n % 4 == 0) && gemm_opt_nest_2(
