// A scalar accumulator: zeroed per element of C, summed over K, then stored.
// The store decides beta (C = s: 0; C += s: 1; C = alpha*s + beta*C: beta),
// and the factors of the store and of the sum multiply into alpha.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

double A[64][16], B[16][32], C[64][32];

// OUT: #line 1 "{{.*}}scalar-accumulator.cpp"

void forms(double alpha, double beta) {
  // REMARK: :[[@LINE+4]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT:      {{^}}  if (!gemm_opt_nest_0(&A[0][0], 64, 16, 16, 1, &B[0][0], 16, 32, 32, 1, &C[0][0], 64, 32, 32, 1, 1, 0)) {
  // OUT-NEXT: {{^}}#line [[@LINE+2]] "{{.*}}scalar-accumulator.cpp"
  // OUT-NEXT: {{^}}  for (int i = 0; i < 64; ++i)
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      double s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
  // OUT-NEXT: {{^}}    for (int j = 0; j < 32; ++j) {
  // OUT-NEXT: {{^}}      double s = 0;
  // OUT-NEXT: {{^}}      for (int k = 0; k < 16; ++k)
  // OUT-NEXT: {{^}}        s += A[i][k] * B[k][j];
  // OUT-NEXT: {{^}}      C[i][j] = s;
  // OUT-NEXT: {{^}}    } }

  // `-=` into the accumulator, `+=` into C.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; accumulates in 'acc', alpha = -1, beta = 1; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(&A[0][0], 64, 16, 16, 1, &B[0][0], 16, 32, 32, 1, &C[0][0], 64, 32, 32, 1, -1, 1)) {
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      double acc = 0.0;
      for (int k = 0; k < 16; ++k)
        acc -= A[i][k] * B[k][j];
      C[i][j] += acc;
    }

  // Declared without a value, zeroed by assignment, `s = s + ...`, and the
  // BLAS epilogue.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; accumulates in 's', alpha = alpha, beta = beta; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_2(&A[0][0], 64, 16, 16, 1, &B[0][0], 16, 32, 32, 1, &C[0][0], 64, 32, 32, 1, alpha, beta)) {
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      double s;
      s = 0;
      for (int k = 0; k < 16; ++k)
        s = s + A[i][k] * B[k][j];
      C[i][j] = alpha * s + beta * C[i][j];
    }

  // Epilogue terms the other way round, a factor in the sum as well.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; accumulates in 's', alpha = 2. * alpha, beta = beta; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_3(&A[0][0], 64, 16, 16, 1, &B[0][0], 16, 32, 32, 1, &C[0][0], 64, 32, 32, 1, 2. * alpha, beta)) {
  for (int j = 0; j < 32; ++j)
    for (int i = 0; i < 64; ++i) {
      double s = 0;
      for (int k = 0; k < 16; ++k)
        s += 2.0 * A[i][k] * B[k][j];
      C[i][j] = C[i][j] * beta + s * alpha;
    }

  // An accumulator declared outside the nest is fine while nothing reads it
  // afterwards.
  double u;
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; accumulates in 'u', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_4(&A[0][0], 64, 16, 16, 1, &B[0][0], 16, 32, 32, 1, &C[0][0], 64, 32, 32, 1, 1, 0)) {
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      u = 0;
      for (int k = 0; k < 16; ++k)
        u += A[i][k] * B[k][j];
      C[i][j] = u;
    }

  // C -= s subtracts the sum.
  // OUT: {{^}}  if (!gemm_opt_nest_5(&A[0][0], 64, 16, 16, 1, &B[0][0], 16, 32, 32, 1, &C[0][0], 64, 32, 32, 1, -1, 1)) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; {{.*}}; accumulates in 'd', alpha = -1, beta = 1; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      double d = 0;
      for (int k = 0; k < 16; ++k)
        d += A[i][k] * B[k][j];
      C[i][j] -= d;
    }
}

// Beta on C before the sum: the accumulator starts at beta * C (or at C),
// or C is scaled before the sum is added to it.
void betaFirst(double alpha, double beta) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = beta; rewritten to call gemm_opt_nest_6 [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      double s = beta * C[i][j];
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; accumulates in 'u', alpha = 1, beta = 1; rewritten to call gemm_opt_nest_7 [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      double u = C[i][j];
      for (int k = 0; k < 16; ++k)
        u += A[i][k] * B[k][j];
      C[i][j] = u;
    }
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; accumulates in 's', alpha = alpha, beta = beta; rewritten to call gemm_opt_nest_8 [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      C[i][j] *= beta;
      double s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] += alpha * s;
    }

  // Near misses. The start reads another element of C than the store
  // writes:
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 32 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 32 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: accumulator 's' starts at 'beta * C[j][i]', none of zero, a bias element, beta * C or a step of the sum (of the element it is stored to); rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) {
      double s = beta * C[j][i];
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
  // the store scales the start too:
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: accumulator 's' starts at 'beta * C[i][j]', and its store scales it or adds C again: only C = s may store it; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      double s = beta * C[i][j];
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = alpha * s;
    }
  // the scaled element is overwritten:
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+5]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: 'C[i][j]' is scaled before the sum and then overwritten by its store: only C += s may follow a scaling; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      C[i][j] *= beta;
      double s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
  // another element is scaled:
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 32 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 32 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+5]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: 'C[j][i]' is written besides the accumulator and its store (only a zero-init or a scaling of the stored element may come before the sum); rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) {
      C[j][i] *= beta;
      double s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] += s;
    }
}

// Later nests are no GEMM as a whole; some products go through a
// temporary (Temporary.cpp).
// OUT-NOT: if (!gemm_opt_nest_{{9|1[0-9]}}

void rejected() {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: accumulator 's' starts at none of zero, a bias element, beta * C or a step of the sum; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      double s = 1;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }

  // Zeroed once before the nest: it sums across elements of C.
  double t = 0;
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+3]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: accumulator 't' is not set to zero in the nest; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      for (int k = 0; k < 16; ++k)
        t += A[i][k] * B[k][j];
      C[i][j] = t;
    }

  // Zeroed per row, not per element.
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: accumulator 'r' is not zeroed, summed and stored once per element of C; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i) {
    double r = 0;
    for (int j = 0; j < 32; ++j) {
      for (int k = 0; k < 16; ++k)
        r += A[i][k] * B[k][j];
      C[i][j] = r;
    }
  }

  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: unsupported store of accumulator 's': expected C = alpha*s + beta*C, C = s, C += s or C -= s, with an optional bias term and activation; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      double s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s * s;
    }

  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it), since as a whole the nest is no GEMM: the sum in 's' is never stored to an array; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      double s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
    }

  // The last sum is read after the nest, which the rewrite would not set.
  double v;
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'v' is declared outside the nest, assigned in it and used elsewhere; the rewrite would not update it [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      v = 0;
      for (int k = 0; k < 16; ++k)
        v += A[i][k] * B[k][j];
      C[i][j] = v;
    }
  C[0][0] = v;
}

// MLIR-COUNT-9: func.func @gemm_opt_nest_{{[0-8]}}(%arg0: memref<64x16xf64, strided<[16, 1], offset: ?>>, %arg1: memref<16x32xf64, strided<[32, 1], offset: ?>>, %arg2: memref<64x32xf64, strided<[32, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// The near misses' products go through temporaries.
// MLIR-COUNT-9: func.func @gemm_opt_nest_{{9|1[0-7]}}(
// MLIR-NOT: func.func
