// A zero-init or beta scaling of C fused into the nest (an imperfect nest)
// folds into beta: `C = 0` gives beta = 0, `C *= beta` and `C = beta * C`
// give beta. The init must reach every element of C once, before its
// accumulation, and outside the reduction loop.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

// OUT: #line 1 "{{.*}}fused-init.cpp"

// PolyBench gemm: a scaling loop and the accumulation loops inside one i.
void kernel_gemm(int ni, int nj, int nk, double alpha, double beta,
                 double C[20][25], double A[20][30], double B[30][25]) {
  // REMARK: :[[@LINE+4]]:3: remark: GEMM recognised: f64, M x N x K = ni x nj x nk; A row-major, B row-major, C row-major; fused scaling of C, alpha = alpha, beta = beta; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT:      {{^}}  if (!gemm_opt_nest_0(&A[0][0], ni, nk, 30, 1, &B[0][0], nk, nj, 25, 1, &C[0][0], ni, nj, 25, 1, alpha, beta)) {
  // OUT-NEXT: {{^}}#line [[@LINE+2]] "{{.*}}fused-init.cpp"
  // OUT-NEXT: {{^}}  for (int i = 0; i < ni; i++) {
  for (int i = 0; i < ni; i++) {
    for (int j = 0; j < nj; j++)
      C[i][j] *= beta;
    for (int k = 0; k < nk; k++) {
      for (int j = 0; j < nj; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
    }
  }
  // OUT-NEXT: {{^}}    for (int j = 0; j < nj; j++)
  // OUT-NEXT: {{^}}      C[i][j] *= beta;
  // OUT-NEXT: {{^}}    for (int k = 0; k < nk; k++) {
  // OUT-NEXT: {{^}}      for (int j = 0; j < nj; j++)
  // OUT-NEXT: {{^}}        C[i][j] += alpha * A[i][k] * B[k][j];
  // OUT-NEXT: {{^}}    }
  // OUT-NEXT: {{^}}  } }
}

// The PolyBench original declares i, j, k once: the two j loops share one
// variable.
void kernel_gemm_c89(int ni, int nj, int nk, double alpha, double beta,
                     double C[20][25], double A[20][30], double B[30][25]) {
  int i, j, k;
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = ni x nj x nk; A row-major, B row-major, C row-major; fused scaling of C, alpha = alpha, beta = beta; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(&A[0][0], ni, nk, 30, 1, &B[0][0], nk, nj, 25, 1, &C[0][0], ni, nj, 25, 1, alpha, beta)) {
  for (i = 0; i < ni; i++) {
    for (j = 0; j < nj; j++)
      C[i][j] *= beta;
    for (k = 0; k < nk; k++)
      for (j = 0; j < nj; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
}

void forms(double beta, double C[20][25], double A[20][30], double B[30][25]) {
  // A zero-init statement before the reduction loop.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 20 x 25 x 30; A row-major, B row-major, C row-major; fused zero-init of C, alpha = 1, beta = 0; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_2(&A[0][0], 20, 30, 30, 1, &B[0][0], 30, 25, 25, 1, &C[0][0], 20, 25, 25, 1, 1, 0)) {
  for (int i = 0; i < 20; i++)
    for (int j = 0; j < 25; j++) {
      C[i][j] = 0;
      for (int k = 0; k < 30; k++)
        C[i][j] += A[i][k] * B[k][j];
    }

  // A zero-init loop, then k-j order.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 20 x 25 x 30; A row-major, B row-major, C row-major; fused zero-init of C, alpha = 1, beta = 0; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_3(&A[0][0], 20, 30, 30, 1, &B[0][0], 30, 25, 25, 1, &C[0][0], 20, 25, 25, 1, 1, 0)) {
  for (int i = 0; i < 20; i++) {
    for (int j = 0; j < 25; j++)
      C[i][j] = 0.0;
    for (int k = 0; k < 30; k++)
      for (int j = 0; j < 25; j++)
        C[i][j] += A[i][k] * B[k][j];
  }

  // `C = beta * C` with j outermost and a subtraction.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 20 x 25 x 30; A row-major, B row-major, C row-major; fused scaling of C, alpha = -1, beta = beta; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_4(&A[0][0], 20, 30, 30, 1, &B[0][0], 30, 25, 25, 1, &C[0][0], 20, 25, 25, 1, -1, beta)) {
  for (int j = 0; j < 25; j++)
    for (int i = 0; i < 20; i++) {
      C[i][j] = beta * C[i][j];
      for (int k = 0; k < 30; k++)
        C[i][j] -= A[i][k] * B[k][j];
    }
}

// Later nests are no GEMM as a whole; some products go through a
// temporary (Temporary.cpp).
// OUT-NOT: if (!gemm_opt_nest_{{[5-9]}}

void rejected(double beta, double C[20][25], double A[20][30], double B[30][25]) {
  // Zeroed again on every k: only the last product survives.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the fused init of 'C[i][j]' does not cover C exactly once before the accumulation (it runs inside the reduction loop) [-Rpass-missed=gemm]
  for (int i = 0; i < 20; i++)
    for (int k = 0; k < 30; k++) {
      for (int j = 0; j < 25; j++)
        C[i][j] = 0;
      for (int j = 0; j < 25; j++)
        C[i][j] += A[i][k] * B[k][j];
    }

  // Scales 16 of the 25 columns.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the fused init of 'C[i][j]' does not cover C exactly once before the accumulation [-Rpass-missed=gemm]
  for (int i = 0; i < 20; i++) {
    for (int j = 0; j < 16; j++)
      C[i][j] *= beta;
    for (int k = 0; k < 30; k++)
      for (int j = 0; j < 25; j++)
        C[i][j] += A[i][k] * B[k][j];
  }

  // Scales after the accumulation: beta would multiply the product too.
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 20 x 25 x 30; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 20 x 25 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+3]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: 'C[i][j]' is written besides the accumulation into C (only a zero-init, a scaling of C, a bias element or a step of the sum may be fused); rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 20; i++)
    for (int j = 0; j < 25; j++) {
      for (int k = 0; k < 30; k++)
        C[i][j] += A[i][k] * B[k][j];
      C[i][j] *= beta;
    }

  // Initialises a neighbouring element.
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 20 x 24 x 30; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 20 x 24 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: 'C[i][j + 1]' is written besides the accumulation into C (only a zero-init, a scaling of C, a bias element or a step of the sum may be fused); rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 20; i++)
    for (int j = 0; j < 24; j++) {
      C[i][j + 1] = 0;
      for (int k = 0; k < 30; k++)
        C[i][j] += A[i][k] * B[k][j];
    }

  // A nonzero init is no beta.
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 20 x 25 x 30; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 20 x 25 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: 'C[i][j]' is written besides the accumulation into C (only a zero-init, a scaling of C, a bias element or a step of the sum may be fused); rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 20; i++)
    for (int j = 0; j < 25; j++) {
      C[i][j] = 1;
      for (int k = 0; k < 30; k++)
        C[i][j] += A[i][k] * B[k][j];
    }

  // Two inits.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'C[i][j]' is written besides the accumulation into C (only a zero-init, a scaling of C, a bias element or a step of the sum may be fused) [-Rpass-missed=gemm]
  for (int i = 0; i < 20; i++) {
    for (int j = 0; j < 25; j++)
      C[i][j] = 0;
    for (int j = 0; j < 25; j++)
      C[i][j] *= beta;
    for (int k = 0; k < 30; k++)
      for (int j = 0; j < 25; j++)
        C[i][j] += A[i][k] * B[k][j];
  }
}

// A zero-init in loops of its own over t keeps b and t apart (an init
// inside both lets them merge: test/e2e/dense-layer.cpp), and two loops
// along C's rows are no contraction.
void initApart(const float *x, const float *w, float *y, int B, int T, int C,
               int O) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: index maps are not a contraction: need one loop each for M, N and K, and at most one batch loop [-Rpass-missed=gemm]
  for (int b = 0; b < B; ++b) {
    for (int t = 0; t < T; ++t)
      for (int o = 0; o < O; ++o)
        y[(b * T + t) * O + o] = 0;
    for (int t = 0; t < T; ++t)
      for (int o = 0; o < O; ++o)
        for (int c = 0; c < C; ++c)
          y[(b * T + t) * O + o] += x[(b * T + t) * C + c] * w[o * C + c];
  }
}

// MLIR-COUNT-2: func.func @gemm_opt_nest_{{[01]}}(%arg0: memref<?x?xf64, strided<[30, 1], offset: ?>>, %arg1: memref<?x?xf64, strided<[25, 1], offset: ?>>, %arg2: memref<?x?xf64, strided<[25, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR-COUNT-3: func.func @gemm_opt_nest_{{[2-4]}}(%arg0: memref<20x30xf64, strided<[30, 1], offset: ?>>, %arg1: memref<30x25xf64, strided<[25, 1], offset: ?>>, %arg2: memref<20x25xf64, strided<[25, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// The near misses' products go through temporaries.
// MLIR-COUNT-3: func.func @gemm_opt_nest_{{[5-7]}}(
// MLIR-NOT: func.func
