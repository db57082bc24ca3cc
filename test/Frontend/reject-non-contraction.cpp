// Index maps that are not a matrix product are left as written: every loop
// must be M (indexes C and A), N (C and B), K (A and B, not C) or one batch
// loop (all three), and different (i, j) must reach different elements of C.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT:     #line 1 "{{.*}}reject-non-contraction.cpp"
// No nest is a GEMM as a whole: the launches are of products through
// temporaries (Temporary.cpp), each in the block that allocates its own.
// OUT-NOT: if (!gemm_opt_nest

double A[64][64], B[64][64], C[64][64];

void maps(int n, const double *a, const double *b, double *c) {
  // B is indexed by C's row: i indexes everything, k only A.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: loop 'k' is not a dimension of a matrix product: its index map is not a contraction [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k)
        C[i][j] += A[i][k] * B[i][j];

  // A diagonal of B: j indexes only C, a batch that A and the vector
  // B[k][k] are broadcast over.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: matrix-vector product (M x K = 64 x 64, batched): it reads each matrix element once, so a GPU call would spend longer copying host data than the loop spends computing; left to the CPU [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k)
        C[i][j] += A[i][k] * B[k][k];

  // The reduction index in C.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: loop 'j' is not a dimension of a matrix product: its index map is not a contraction [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k)
        C[i][k] += A[i][k] * B[k][j];

  // Two reduction loops.
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 64 x 32, batch 32; A row-major, B row-major, C strided; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: index maps are not a contraction: need one loop each for M, N and K, and at most one batch loop; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 32; ++k)
        for (int l = 0; l < 32; ++l)
          C[i][j] += A[i][k + l] * B[k][j + l];

  // A trailing loop that indexes nothing.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: loop 'l' is not a dimension of a matrix product: its index map is not a contraction [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k)
        for (int l = 0; l < 4; ++l)
          C[i][j] += A[i][k] * B[k][j];

  // C[i + j]: the anti-diagonal sums collide on one element of C, though
  // each loop indexes the right operands.
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = n x n x n; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of n x n elements, and the rest of the nest runs as written (the K loop at line [[@LINE+3]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: index maps are not a contraction: loops 'i' and 'j' step C by the same distance, so different elements of the product land on one element of C; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        c[i + j] += a[i * n + k] * b[k * n + j];

  // The same with opposite strides.
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = n x n x n; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of n x n elements, and the rest of the nest runs as written (the K loop at line [[@LINE+3]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: index maps are not a contraction: loops 'i' and 'j' step C by the same distance, so different elements of the product land on one element of C; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        c[n * (i - j) + n * n] += a[i * n + k] * b[k * n + j];

  // A nonlinear index.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: index 'i * j' is not an affine function of the loop indices [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        c[i * j] += a[i * n + k] * b[k * n + j];

  // Indexed by another array.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: index 'A[0][k]' is not an affine function of the loop indices [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        c[i * n + j] += a[i * n + (int)A[0][k]] * b[k * n + j];
}
