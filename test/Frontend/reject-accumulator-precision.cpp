// The loop rounds each partial sum to its accumulator's type, and each
// factor to the type it is cast or stored to. A kernel computes in the
// element type of A, B and C, or in double for float matrices summed in a
// double accumulator (the launcher widens them); a nest whose arithmetic
// rounds to another type is left as written, and the remark names the
// types. Rounding to a wider type (a double literal in a float nest) stays
// within the element type's error bound and is rewritten.
//
// RUN: gemm-opt %s --reference-kernel -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:

void floatSumOfDoubles(int n, const double *a, const double *b, double *c) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: accumulator 's' is 'float' but A, B and C are 'double': the loop rounds each partial sum to 'float', the kernel would sum in 'double' [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int k = 0; k < n; ++k)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}

void doubleSumOfFloats(int n, const float *a, const float *b, float *c) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; summed in double, as the accumulator 'acc' is: the operands are widened to double; {{.*}}rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double acc = 0.0;
      for (int k = 0; k < n; ++k)
        acc += a[i * n + k] * b[k * n + j];
      c[i * n + j] = acc;
    }
}

// Rows that are separate allocations are gathered as they are, not widened.
void doubleSumOfFloatRows(int n, float *const *a, const float *b, float *c) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: accumulator 'acc' sums float rows in double, and the rows are separate allocations (a table of rows), which the launcher cannot widen to double [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double acc = 0.0;
      for (int k = 0; k < n; ++k)
        acc += a[i][k] * b[k * n + j];
      c[i * n + j] = acc;
    }
}

void roundedFactor(int n, const double *a, const double *b, double *c) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the product rounds 'a[i * n + k]' from 'double' to 'float'; the kernel would compute without that rounding [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) {
      float t = a[i * n + k];
      for (int j = 0; j < n; ++j)
        c[i * n + j] += t * b[k * n + j];
    }
}

void roundedProduct(int n, const double *a, const double *b, double *c) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the product rounds '(a[i * n + k] * b[k * n + j])' from 'double' to 'float'; the kernel would compute without that rounding [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        c[i * n + j] += (float)(a[i * n + k] * b[k * n + j]);
}

void widerLiteral(int n, const float *a, const float *b, float *c) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        c[i * n + j] += 0.5 * a[i * n + k] * b[k * n + j];
}
