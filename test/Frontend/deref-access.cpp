// An element read or written as `*(p + e)` is p[e]: the pointer and its
// offset are peeled as a subscript's base is, so the spelling does not
// change the verdict. A bare `*p` stays a scalar read through a pointer.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT

void plain(int n, const float *A, const float *B, float *C) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_0(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 1)) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        *(C + i * n + j) += *(A + i * n + k) * *(B + k * n + j);
}

// Offsets on both sides of the pointer, a pointer from a pointer, and a
// batch that composes with the rows; `*alpha` is a scalar.
void batched(int b, int n, const double *A, const double *B, double *C,
             const double *alpha) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = (b * n) x n x n; A row-major, B column-major, C row-major; accumulates in 's', alpha = (*alpha), beta = 0; {{.*}}rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_1(A, b * n, n, n, 1, B, n, n, 1, n, C, b * n, n, n, 1, (*alpha), 0, alpha)) {
  for (int p = 0; p < b; p++)
    for (int i = 0; i < n; i++) {
      const double *row = A + p * n * n;
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int k = 0; k < n; k++)
          s += *(row + i * n + k) * *(j * n + B + k);
        *(C + p * n * n + i * n + j) = *alpha * s;
      }
    }
}

// Near miss: C's offset does not depend on j, so each element of C is
// written n times over.
void overwritten(int n, const float *A, const float *B, float *C) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of n x n elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: loop 'j' is not a dimension of a matrix product: its index map is not a contraction; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int k = 0; k < n; k++)
        s += *(A + i * n + k) * *(B + k * n + j);
      *(C + i * n) = s;
    }
}
