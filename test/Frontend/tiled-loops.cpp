// Strip-mined and tiled loops: a loop over tiles and the loop within each
// tile are one dimension when their tiles partition its range. Tiles clipped
// at the bound (std::min, a MIN macro, a conditional) always do; unclipped
// tiles do when the step divides the range, which is decided here for
// constants and checked by the guard before the launch otherwise.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

#include <algorithm>

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define TILE 16

// OUT: #line 1 "{{.*}}tiled-loops.cpp"

void clipped(int n, const float *A, const float *B, float *C) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; 'i' runs within the tiles of 'ii'; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_0(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 1)) {
  for (int ii = 0; ii < n; ii += 32)
    for (int i = ii; i < std::min(ii + 32, n); i++)
      for (int j = 0; j < n; j++)
        for (int k = 0; k < n; k++)
          C[i * n + j] += A[i * n + k] * B[k * n + j];
}

// Classic cache blocking: six loops, each of i, j and k in tiles, the tiles
// of k accumulating into C. Three spellings of the clip, a macro step.
void blocked(int n, const double *A, const double *B, double *C) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; 'i' runs within the tiles of 'ii'; 'j' runs within the tiles of 'jj'; 'k' runs within the tiles of 'kk'; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 1)) {
  for (int ii = 0; ii < n; ii += TILE)
    for (int jj = 0; jj < n; jj += TILE)
      for (int kk = 0; kk < n; kk += TILE)
        for (int i = ii; i < MIN(ii + TILE, n); i++)
          for (int j = jj; j < (jj + TILE < n ? jj + TILE : n); j++)
            for (int k = kk; k < std::min(kk + TILE, n); k++)
              C[i * n + j] += A[i * n + k] * B[k * n + j];
}

// The sum over each tile of k in a scalar, added into C: partial sums.
void partialSums(int m, int n, int p, const double *A, const double *B,
                 double *C) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = m x n x p; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 1; 'i' runs within the tiles of 'ii'; 'k' runs within the tiles of 'kk'; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_2(A, m, p, p, 1, B, p, n, n, 1, C, m, n, n, 1, 1, 1)) {
  for (int kk = 0; kk < p; kk += 64)
    for (int ii = 0; ii < m; ii += 8)
      for (int i = ii; i < std::min(m, ii + 8); ++i)
        for (int j = 0; j < n; ++j) {
          double s = 0;
          for (int k = kk; k < std::min(kk + 64, p); ++k)
            s += A[i * p + k] * B[k * n + j];
          C[i * n + j] += s;
        }
}

float X[96][64], Y[64][80], Z[96][80];

// Unclipped tiles whose step divides the range: nothing to check.
void divides() {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = 96 x 80 x 64; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; 'i' runs within the tiles of 'ii'; 'j' runs within the tiles of 'jj'; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_3(&X[0][0], 96, 64, 64, 1, &Y[0][0], 64, 80, 80, 1, &Z[0][0], 96, 80, 80, 1, 1, 1)) {
  for (int ii = 0; ii < 96; ii += 32)
    for (int jj = 0; jj < 80; jj += 16)
      for (int i = ii; i < ii + 32; i++)
        for (int j = jj; j < jj + 16; j++)
          for (int k = 0; k < 64; k++)
            Z[i][j] += X[i][k] * Y[k][j];
}

// Unclipped tiles of a range not known here: the launcher runs only where
// the step divides it, the loop everywhere else.
void unclipped(int lo, int n, const float *A, const float *B, float *C) {
  // REMARK: :[[@LINE+4]]:3: remark: GEMM recognised: f32, M x N x K = (-lo + n) x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; 'i' runs within the tiles of 'ii'; the launcher runs only where (-lo + n) % 8 == 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  // OUT:      {{^}}  if (!(((-lo + n) % 8 == 0) && gemm_opt_nest_4(A + (lo * n), -lo + n, n, n, 1, B, n, n, n, 1, C + (lo * n), -lo + n, n, n, 1, 1, 1))) {
  // OUT-NEXT: {{^}}#line [[@LINE+2]] "{{.*}}tiled-loops.cpp"
  // OUT-NEXT: {{^}}  for (int ii = lo; ii < n; ii += 8)
  for (int ii = lo; ii < n; ii += 8)
    for (int i = ii; i < ii + 8; i++)
      for (int j = 0; j < n; j++)
        for (int k = 0; k < n; k++)
          C[i * n + j] += A[i * n + k] * B[k * n + j];
}

// A tile size known only at run time must be positive, as the loop assumes.
void runtimeTile(int n, int bs, const float *A, const float *B, float *C) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; {{.*}}; 'k' runs within the tiles of 'kk'; the launcher runs only where bs > 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_5 [-Rpass=gemm]
  // OUT: {{^}}  if (!((bs > 0) && gemm_opt_nest_5(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 1))) {
  for (int kk = 0; kk < n; kk += bs)
    for (int i = 0; i < n; i++)
      for (int k = kk; k < std::min(kk + bs, n); k++)
        for (int j = 0; j < n; j++)
          C[i * n + j] += A[i * n + k] * B[k * n + j];
}

// Strip-mined with the index rebuilt in the body (llm.c's matmul_forward):
// obt + ibt runs over one dimension, 0..BT.
void stripMined(int BT, int Cin, int OC, const float *inp, const float *w,
                float *out) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = BT x OC x Cin; A row-major, B column-major, C row-major; accumulates in 'val', alpha = 1, beta = 0; 'obt + ibt' runs over one dimension in tiles; the launcher runs only where BT % 4 == 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_6 [-Rpass=gemm]
  // OUT: {{^}}  if (!((BT % 4 == 0) && gemm_opt_nest_6(inp, BT, Cin, Cin, 1, w, Cin, OC, 1, Cin, out, BT, OC, OC, 1, 1, 0))) {
  for (int obt = 0; obt < BT; obt += 4)
    for (int ibt = 0; ibt < 4; ibt++) {
      int bt = obt + ibt;
      for (int o = 0; o < OC; o++) {
        float val = 0.0f;
        for (int i = 0; i < Cin; i++)
          val += inp[bt * Cin + i] * w[o * Cin + i];
        out[bt * OC + o] = val;
      }
    }

  // The same with the last strip clipped: no condition.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = BT x OC x Cin; {{.*}}; 'obt + ibt' runs over one dimension in tiles; rewritten to call gemm_opt_nest_7 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_7(inp, BT, Cin, Cin, 1, w, Cin, OC, 1, Cin, out, BT, OC, OC, 1, 1, 0)) {
  for (int obt = 0; obt < BT; obt += 4)
    for (int ibt = 0; ibt < std::min(4, BT - obt); ibt++)
      for (int o = 0; o < OC; o++) {
        float val = 0.0f;
        for (int i = 0; i < Cin; i++)
          val += inp[(obt + ibt) * Cin + i] * w[o * Cin + i];
        out[(obt + ibt) * OC + o] = val;
      }
}

// A fused zero-init in the same tiles as the accumulation: each tile of C
// is zeroed before its own accumulation.
void tiledInit(int n, const float *A, const float *B, float *C) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; fused zero-init of C, alpha = 1, beta = 0; 'i' runs within the tiles of 'ii'; rewritten to call gemm_opt_nest_8 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_8(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 0)) {
  for (int ii = 0; ii < n; ii += 16) {
    for (int i = ii; i < std::min(ii + 16, n); i++)
      for (int j = 0; j < n; j++)
        C[i * n + j] = 0;
    for (int i = ii; i < std::min(ii + 16, n); i++)
      for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
          C[i * n + j] += A[i * n + k] * B[k * n + j];
  }
}

// A zero-init before the tiles: it zeroes all of C before any tile sums.
void initBeforeTiles(int n, const float *A, const float *B, float *C) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; fused zero-init of C, alpha = 1, beta = 0; 'j' runs within the tiles of 'jj'; rewritten to call gemm_opt_nest_9 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_9(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 0)) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++)
      C[i * n + j] = 0;
    for (int k = 0; k < n; k++)
      for (int jj = 0; jj < n; jj += 8)
        for (int j = jj; j < std::min(jj + 8, n); j++)
          C[i * n + j] += A[i * n + k] * B[k * n + j];
  }
}

// OUT-NOT: gemm_opt_nest_11

// MLIR: func.func @gemm_opt_nest_3(%arg0: memref<96x64xf32, strided<[64, 1], offset: ?>>, %arg1: memref<64x80xf32, strided<[80, 1], offset: ?>>, %arg2: memref<96x80xf32, strided<[80, 1], offset: ?>>, %arg3: f32, %arg4: f32)

// Tiles clipped by a second test rather than a minimum (ggml's `ii < i +
// blck_m && ii < m1`), in either order, the tile sizes held in locals.
void clippedByTests(int m, int n, int k, const float *a, const float *b,
                    float *c) {
  long bm = 16, bn = 8;
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B column-major, C row-major; accumulates in 's', alpha = 1, beta = 0; 'ii' runs within the tiles of 'i'; 'jj' runs within the tiles of 'j'; the launcher runs only where bm > 0 and bn > 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_10 [-Rpass=gemm]
  for (int j = 0; j < n; j += bn)
    for (int i = 0; i < m; i += bm)
      for (int ii = i; ii < i + bm && ii < m; ii++)
        for (int jj = j; n > jj && jj < j + bn; jj++) {
          float s = 0;
          for (int p = 0; p < k; p++)
            s += a[ii * k + p] * b[jj * k + p];
          c[ii * n + jj] = s;
        }
}
