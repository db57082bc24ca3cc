// Hand-blocked products whose point loops run from 0 to the block size
// inside two tile loops that step by it (MachSuite's bbgemm: `jj` and `kk`
// by block_size, over `k` and `j`): the header of neither point loop says
// which tiles it runs within, the accesses do (`k + kk`, `j + jj`). A value
// set ahead of the loop over j (`temp_x = m1[...]`) runs once per tile of
// `jj` with the same value each time. Near misses: a point loop read with
// the other tile loop, tiles that leave gaps, and per-tile values that are
// not the same in each tile.
//
// RUN: gemm-opt %s -o %t.c --kernels=%t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:

#define ROWS 64
#define BLOCK 8

void bbgemm(double m1[ROWS * ROWS], double m2[ROWS * ROWS],
            double prod[ROWS * ROWS]) {
  int i, k, j, jj, kk;
  int i_row, k_row;
  double temp_x, mul;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 64 x 64; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; 'kk + k' runs over one dimension in tiles; 'jj + j' runs over one dimension in tiles; rewritten
  for (jj = 0; jj < ROWS; jj += BLOCK)
    for (kk = 0; kk < ROWS; kk += BLOCK)
      for (i = 0; i < ROWS; ++i)
        for (k = 0; k < BLOCK; ++k) {
          i_row = i * ROWS;
          k_row = (k + kk) * ROWS;
          temp_x = m1[i_row + k + kk];
          for (j = 0; j < BLOCK; ++j) {
            mul = temp_x * m2[k_row + j + jj];
            prod[i_row + j + jj] += mul;
          }
        }
}

// The same block size, a variable; the tiles in the other order.
void same_size(const float *a, const float *b, float *c, int n, int bs) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 1; 'jj + j' runs over one dimension in tiles; 'kk + k' runs over one dimension in tiles; the launcher runs only where n % bs == 0 and bs > 0
  for (int kk = 0; kk < n; kk += bs)
    for (int jj = 0; jj < n; jj += bs)
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < bs; ++j) {
          float s = 0;
          for (int k = 0; k < bs; ++k)
            s += a[i * n + kk + k] * b[(kk + k) * n + jj + j];
          c[i * n + jj + j] += s;
        }
}

// Block sizes that differ, and all three dimensions blocked by one size.
void other_sizes(const float *a, const float *b, float *c, int n) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; 'kk + k' runs over one dimension in tiles; 'jj + j' runs over one dimension in tiles; the launcher runs only where n % 4 == 0 and n % 16 == 0
  for (int jj = 0; jj < n; jj += 16)
    for (int kk = 0; kk < n; kk += 4)
      for (int i = 0; i < n; ++i)
        for (int k = 0; k < 4; ++k)
          for (int j = 0; j < 16; ++j)
            c[i * n + j + jj] += a[i * n + k + kk] * b[(k + kk) * n + j + jj];
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; 'ii + i' runs over one dimension in tiles; 'kk + k' runs over one dimension in tiles; 'jj + j' runs over one dimension in tiles; the launcher runs only where n % 8 == 0
  for (int ii = 0; ii < n; ii += 8)
    for (int jj = 0; jj < n; jj += 8)
      for (int kk = 0; kk < n; kk += 8)
        for (int i = 0; i < 8; ++i)
          for (int k = 0; k < 8; ++k)
            for (int j = 0; j < 8; ++j)
              c[(ii + i) * n + j + jj] +=
                  a[(ii + i) * n + k + kk] * b[(k + kk) * n + j + jj];
}

// Near misses.
void near_misses(double *m1, double *m2, double *prod, int n) {
  int i, k, j, jj, kk;
  double temp_x = 1;
  // B's row reads 'k' with 'jj'.
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'm2[(k + jj) * 64 + j + jj]' reads 'kk' and 'k' apart; only their sum 'kk + k' runs over one dimension
  for (jj = 0; jj < ROWS; jj += BLOCK)
    for (kk = 0; kk < ROWS; kk += BLOCK)
      for (i = 0; i < ROWS; ++i)
        for (k = 0; k < BLOCK; ++k)
          for (j = 0; j < BLOCK; ++j)
            prod[i * ROWS + j + jj] +=
                m1[i * ROWS + k + kk] * m2[(k + jj) * ROWS + j + jj];
  // The tiles of 'jj' step by 12, but 'j' covers 8 of them.
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loops 'k' and 'j' both run within the tiles of 'kk'
  for (jj = 0; jj < n; jj += 12)
    for (kk = 0; kk < n; kk += 8)
      for (i = 0; i < n; ++i)
        for (k = 0; k < 8; ++k)
          for (j = 0; j < 8; ++j)
            prod[i * n + j + jj] += m1[i * n + k + kk] * m2[(k + kk) * n + j + jj];
  // The value set ahead of 'j' reads the tile of 'j'.
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'm1[i * 64 + k + kk + jj]' reads 'jj' and 'j' apart; only their sum 'jj + j' runs over one dimension
  for (jj = 0; jj < ROWS; jj += BLOCK)
    for (kk = 0; kk < ROWS; kk += BLOCK)
      for (i = 0; i < ROWS; ++i)
        for (k = 0; k < BLOCK; ++k) {
          temp_x = m1[i * ROWS + k + kk + jj];
          for (j = 0; j < BLOCK; ++j)
            prod[i * ROWS + j + jj] += temp_x * m2[(k + kk) * ROWS + j + jj];
        }
  // The value set ahead of 'j' carries from one tile to the next.
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'temp_x' is scaled by '0.5' at every step of 'temp_x * 0.5 + m1[i * 64 + k + kk]', so it sums no plain products
  for (jj = 0; jj < ROWS; jj += BLOCK)
    for (kk = 0; kk < ROWS; kk += BLOCK)
      for (i = 0; i < ROWS; ++i)
        for (k = 0; k < BLOCK; ++k) {
          temp_x = temp_x * 0.5 + m1[i * ROWS + k + kk];
          for (j = 0; j < BLOCK; ++j)
            prod[i * ROWS + j + jj] += temp_x * m2[(k + kk) * ROWS + j + jj];
        }
}
