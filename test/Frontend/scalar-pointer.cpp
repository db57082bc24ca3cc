// Floating-point scalars read through pointers (f2c's `*alpha`, `*beta`):
// the launcher takes their values, read before the nest, and their
// addresses, and the runtime runs the loop where C holds one. A scalar that
// the nest assigns and a pointer could reach (a global, or a local whose
// address is taken) makes such reads vary, as they may in the loop.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR
//
// OUT-NOT: gemm_opt_nest_2

#include <cmath>

typedef int integer;
typedef float real;

// The reference BLAS's SGEMM (NN) as f2c writes it: 1-based, every
// argument a pointer (the bounds read in place of f2c's i__2 = *m).
int sgemm_nn(integer *m, integer *n, integer *k, real *alpha, real *a,
             integer *lda, real *b, integer *ldb, real *beta, real *c__,
             integer *ldc) {
  integer a_dim1, a_offset, b_dim1, b_offset, c_dim1, c_offset, i__1;
  integer i__, j, l;
  real temp;
  a_dim1 = *lda;
  a_offset = 1 + a_dim1;
  a -= a_offset;
  b_dim1 = *ldb;
  b_offset = 1 + b_dim1;
  b -= b_offset;
  c_dim1 = *ldc;
  c_offset = 1 + c_dim1;
  c__ -= c_offset;
  i__1 = *n;
  // REMARK: :[[@LINE+3]]:3: remark: GEMM recognised: f32, {{.*}}; the beta branches of the reference BLAS (beta == 0 never reads C), alpha = (*alpha), beta = *beta; reads '*alpha' before the nest (the loop runs where C holds it); reads '*beta' before the nest (the loop runs where C holds it); rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_0({{.*}}, (*ldc), 1, (*alpha), *beta, alpha, beta)) {
  // MLIR: reads(%arg5, %arg6 : memref<f32>, memref<f32>)
  for (j = 1; j <= i__1; ++j) {
    if (*beta == 0.f) {
      for (i__ = 1; i__ <= *m; ++i__)
        c__[i__ + j * c_dim1] = 0.f;
    } else if (*beta != 1.f) {
      for (i__ = 1; i__ <= *m; ++i__)
        c__[i__ + j * c_dim1] = *beta * c__[i__ + j * c_dim1];
    }
    for (l = 1; l <= *k; ++l) {
      temp = *alpha * b[l + j * b_dim1];
      for (i__ = 1; i__ <= *m; ++i__)
        c__[i__ + j * c_dim1] += temp * a[i__ + l * a_dim1];
    }
  }
  return 0;
}

// `C[i + j*ldc] += *alpha * temp`, double, with a clamp bound read through
// a pointer too.
void dgemm_acc(int m, int n, int k, const double *alpha, const double *lo,
               const double *a, const double *b, double *c, int ldc) {
  // REMARK: :[[@LINE+3]]:3: remark: GEMM recognised: f64, {{.*}} alpha = (*alpha), beta = 0; reads '*lo' before{{.*}}; reads '*alpha' before{{.*}}; epilogue: max with '*lo'; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_1({{.*}}, (*alpha), 0, *lo, lo, alpha)) {
  // MLIR: params(%arg5 : f64) reads(%arg6, %arg7 : memref<f64>, memref<f64>)
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double temp = 0;
      for (int l = 0; l < k; ++l)
        temp += a[i + l * m] * b[l + j * k];
      c[i + j * ldc] = fmax(*alpha * temp, *lo);
    }
}

float global_temp;

void rejected(int m, int n, int k, const float *alpha, const float *a,
              const float *b, float *c) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: '*alpha' is read through a pointer that may reach 'global_temp', which the nest assigns (it is no local), so it is not invariant [-Rpass-missed=gemm]
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      global_temp = 0;
      for (int l = 0; l < k; ++l)
        global_temp += *alpha * a[i * k + l] * b[l * n + j];
      c[i * n + j] = global_temp;
    }

  float s;
  float *escape = &s;
  (void)escape;
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: '*alpha' is read through a pointer that may reach 's', which the nest assigns (its address is taken), so it is not invariant [-Rpass-missed=gemm]
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      s = 0;
      for (int l = 0; l < k; ++l)
        s += *alpha * a[i * k + l] * b[l * n + j];
      c[i * n + j] = s;
    }
}
