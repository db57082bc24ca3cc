// Tiled loops whose tiles do not partition the range, or whose tile index
// the body reads on its own: each remark names what breaks the tiling.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT-NOT: gemm_opt_nest
// OUT:     #line 1 "{{.*}}reject-tiled-loops.cpp"
// OUT-NOT: gemm_opt_nest

#include <algorithm>

float A[100][100], B[100][100], C[100][100];

void steps(int n) {
  // The step is larger than a tile.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the tiles of 'ii' leave gaps: each runs 'i' over '8' values from 'ii', which steps by '16' [-Rpass-missed=gemm]
  for (int ii = 0; ii < n; ii += 16)
    for (int i = ii; i < std::min(ii + 8, n); i++)
      for (int j = 0; j < n; j++)
        for (int k = 0; k < n; k++)
          C[i][j] += A[i][k] * B[k][j];

  // The tiles overlap: elements are summed twice.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the tiles of 'ii' overlap: each runs 'i' over '16' values from 'ii', which steps by '8' [-Rpass-missed=gemm]
  for (int ii = 0; ii < n; ii += 8)
    for (int i = ii; i < std::min(ii + 16, n); i++)
      for (int j = 0; j < n; j++)
        for (int k = 0; k < n; k++)
          C[i][j] += A[i][k] * B[k][j];

  // The tile's bound off by one.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the tiles of 'jj' overlap: each runs 'j' over '9' values from 'jj', which steps by '8' [-Rpass-missed=gemm]
  for (int i = 0; i < n; i++)
    for (int jj = 0; jj < n; jj += 8)
      for (int j = jj; j <= std::min(jj + 8, n); j++)
        for (int k = 0; k < n; k++)
          C[i][j] += A[i][k] * B[k][j];

  // A symbolic width that is not the step.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the tiles of 'kk' may overlap or leave gaps: each runs 'k' over 'n' values from 'kk', which steps by '8' [-Rpass-missed=gemm]
  for (int i = 0; i < 100; i++)
    for (int j = 0; j < 100; j++)
      for (int kk = 0; kk < 100; kk += 8)
        for (int k = kk; k < kk + n; k++)
          C[i][j] += A[i][k] * B[k][j];
}

void covers(int n, int m) {
  // Unclipped tiles of 8 over 100 rows run past row 99.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the tiles of 'ii' do not cover '0..100' exactly: the step '8' of 'ii' does not divide '100' and 'i' is not clipped at '100' [-Rpass-missed=gemm]
  for (int ii = 0; ii < 100; ii += 8)
    for (int i = ii; i < ii + 8; i++)
      for (int j = 0; j < 100; j++)
        for (int k = 0; k < 100; k++)
          C[i][j] += A[i][k] * B[k][j];

  // Clipped at another bound than the tile loop's.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the tiles of 'ii' are clipped at 'm', not at the bound 'n' of 'ii' [-Rpass-missed=gemm]
  for (int ii = 0; ii < n; ii += 8)
    for (int i = ii; i < std::min(ii + 8, m); i++)
      for (int j = 0; j < 100; j++)
        for (int k = 0; k < 100; k++)
          C[i][j] += A[i][k] * B[k][j];

  // The point loop starts past the tile's start.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: non-rectangular bounds: the bound of 'i' depends on 'ii', but 'i' starts neither at 'ii' nor at 0 [-Rpass-missed=gemm]
  for (int ii = 0; ii < n; ii += 8)
    for (int i = ii + 1; i < std::min(ii + 8, n); i++)
      for (int j = 0; j < 100; j++)
        for (int k = 0; k < 100; k++)
          C[i][j] += A[i][k] * B[k][j];
}

void reads(int n) {
  // The body reads the tile index itself.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'A[ii][k]' reads 'ii', the index of the tiles that 'i' runs within, itself; only 'i' runs over the dimension [-Rpass-missed=gemm]
  for (int ii = 0; ii < 100; ii += 10)
    for (int i = ii; i < ii + 10; i++)
      for (int j = 0; j < 100; j++)
        for (int k = 0; k < 100; k++)
          C[i][j] += A[ii][k] * B[k][j];

  // A strip and its offset read apart.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'A[o][i]' reads 'o' and 'i' apart; only their sum 'o + i' runs over one dimension [-Rpass-missed=gemm]
  for (int o = 0; o < 100; o += 4)
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 100; j++)
        for (int k = 0; k < 100; k++)
          C[o + i][j] += A[o][i] * B[k][j];

  // Two loops within the same tiles, one inside the other.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loops 'i' and 'j' both run within the tiles of 'ii' [-Rpass-missed=gemm]
  for (int ii = 0; ii < n; ii += 8)
    for (int i = ii; i < std::min(ii + 8, n); i++)
      for (int j = ii; j < std::min(ii + 8, n); j++)
        for (int k = 0; k < 100; k++)
          C[i][j] += A[i][k] * B[k][j];

  // Tiles of tiles.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loop 'ii' over the tiles of 'i' runs within the tiles of 'iii'; one level of tiling is lifted [-Rpass-missed=gemm]
  for (int iii = 0; iii < 96; iii += 32)
    for (int ii = iii; ii < iii + 32; ii += 8)
      for (int i = ii; i < ii + 8; i++)
        for (int j = 0; j < 100; j++)
          for (int k = 0; k < 100; k++)
            C[i][j] += A[i][k] * B[k][j];
}

void perTile(int n) {
  // Each tile of k overwrites C with its partial sum.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'C[i][j] = s' runs once per tile of 'kk', outside the loop within its tiles; per tile, only a partial sum may be zeroed and added into C (s = 0; ...; C += s) [-Rpass-missed=gemm]
  for (int kk = 0; kk < 100; kk += 10)
    for (int i = 0; i < 100; i++)
      for (int j = 0; j < 100; j++) {
        float s = 0;
        for (int k = kk; k < kk + 10; k++)
          s += A[i][k] * B[k][j];
        C[i][j] = s;
      }

  // A partial sum that starts at one per tile adds one per tile; the tile's
  // end beside it, an int local that the nest never assigns, is read as its
  // initialiser and stops nothing (test/e2e/loop-shapes.cpp).
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: accumulator 's' starts at none of zero, a bias element, beta * C or a step of the sum [-Rpass-missed=gemm]
  for (int kk = 0; kk < 100; kk += 10)
    for (int i = 0; i < 100; i++)
      for (int j = 0; j < 100; j++) {
        const int ke = kk + 10;
        float s = 1;
        for (int k = kk; k < ke; k++)
          s += A[i][k] * B[k][j];
        C[i][j] += s;
      }

  // A zero-init inside the tiles of k wipes the earlier tiles' sums.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'C[i][j] = 0' runs once per tile of 'kk', outside the loop within its tiles; per tile, only a partial sum may be zeroed and added into C (s = 0; ...; C += s) [-Rpass-missed=gemm]
  for (int kk = 0; kk < 100; kk += 10)
    for (int i = 0; i < 100; i++)
      for (int j = 0; j < 100; j++) {
        C[i][j] = 0;
        for (int k = kk; k < kk + 10; k++)
          C[i][j] += A[i][k] * B[k][j];
      }
}

// Tiles of ii zero rows of C but accumulate into columns: a later tile's
// zeroing wipes the sums an earlier tile added to its rows.
void initInOtherTiles(int n) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the fused init of 'C[i][j]' does not cover C exactly once before the accumulation [-Rpass-missed=gemm]
  for (int ii = 0; ii < 100; ii += 10) {
    for (int i = ii; i < ii + 10; i++)
      for (int j = 0; j < 100; j++)
        C[i][j] = 0;
    for (int i = 0; i < 100; i++)
      for (int k = 0; k < 100; k++)
        for (int j = ii; j < ii + 10; j++)
          C[i][j] += A[i][k] * B[k][j];
  }
}

// A tile clipped by a second test at another bound than the tile loop's.
void clippedByTestElsewhere(int m, int n, int k, const float *a,
                            const float *b, float *c) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the tiles of 'i' are clipped at '-1 + m', not at the bound 'm' of 'i' [-Rpass-missed=gemm]
  for (int i = 0; i < m; i += 8)
    for (int ii = i; ii < i + 8 && ii < m - 1; ii++)
      for (int jj = 0; jj < n; jj++) {
        float s = 0;
        for (int p = 0; p < k; p++)
          s += a[ii * k + p] * b[jj * k + p];
        c[ii * n + jj] = s;
      }
}

// Two tests of which one bounds iv from below and one from above: no
// minimum of bounds.
void testsBothWays(int m, int n, int k, const float *a, const float *b,
                   float *c) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loop over 'ii' tests 'ii < m && ii <= n', which is no bound below every one of several values [-Rpass-missed=gemm]
  for (int ii = 0; ii < m && ii <= n; ii++)
    for (int jj = 0; jj < n; jj++) {
      float s = 0;
      for (int p = 0; p < k; p++)
        s += a[ii * k + p] * b[jj * k + p];
      c[ii * n + jj] = s;
    }
}

// A tile's end clamped by a conditional that is no minimum (m - 1 where
// the tile runs past m): the branch varies with the tile.
void nearMin(int m, int n, int k, const float *A, const float *B, float *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the branch on '(ii + 8 > m)' depends on the loop index 'ii' [-Rpass-missed=gemm]
  for (int ii = 0; ii < m; ii += 8) {
    int i_max = (ii + 8 > m) ? m - 1 : ii + 8;
    for (int i = ii; i < i_max; i++)
      for (int j = 0; j < n; j++)
        for (int l = 0; l < k; l++)
          C[i * n + j] += A[i * k + l] * B[l * n + j];
  }
}

// A's element read ahead of the loop within a tile, then overwritten: the
// value read once per tile is no longer A's.
void valueThenWrite(int m, int n, int k, float *A, const float *B, float *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'A[i * k + l]' is written besides the accumulation into C {{.*}} [-Rpass-missed=gemm]
  for (int jj = 0; jj < n; jj += 8)
    for (int i = 0; i < m; i++)
      for (int l = 0; l < k; l++) {
        float a = A[i * k + l];
        A[i * k + l] = 0;
        for (int j = jj; j < (jj + 8 < n ? jj + 8 : n); j++)
          C[i * n + j] += a * B[l * n + j];
      }
}
