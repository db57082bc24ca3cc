// f2c declares every local of a translated routine static (its `-a` option
// is off by default). A static local is named by its function alone, so
// where its address is never taken no pointer reaches it; and the next call
// cannot see what the nest leaves in it where every path from the entry
// stores it before any use (ReadAfterLoop.cpp, readOnEntry). Near misses:
// a static index read at the entry before its loop sets it, and one whose
// address is taken.
//
// RUN: gemm-opt %s -o %t.c --kernels=%t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:

typedef int integer;
typedef double doublereal;

int dgemm_nn(integer *m, integer *n, integer *k, doublereal *alpha,
             doublereal *a, integer *lda, doublereal *b, integer *ldb,
             doublereal *beta, doublereal *c__, integer *ldc) {
  integer a_dim1, a_offset, b_dim1, b_offset, c_dim1, c_offset, i__1, i__2,
      i__3;
  static integer i__, j, l;
  static doublereal temp;
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
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = (*n) x (*m) x (*k); A row-major, B row-major, C row-major; the beta branches of the reference BLAS (beta == 0 never reads C), alpha = (*alpha), beta = *beta; {{.*}}rewritten
  for (j = 1; j <= i__1; ++j) {
    if (*beta == 0.) {
      i__2 = *m;
      for (i__ = 1; i__ <= i__2; ++i__)
        c__[i__ + j * c_dim1] = 0.;
    } else if (*beta != 1.) {
      i__2 = *m;
      for (i__ = 1; i__ <= i__2; ++i__)
        c__[i__ + j * c_dim1] = *beta * c__[i__ + j * c_dim1];
    }
    i__2 = *k;
    for (l = 1; l <= i__2; ++l) {
      temp = *alpha * b[l + j * b_dim1];
      i__3 = *m;
      for (i__ = 1; i__ <= i__3; ++i__)
        c__[i__ + j * c_dim1] += temp * a[i__ + l * a_dim1];
    }
  }
  return 0;
}

// The previous call's last index decides something in this call.
int read_first(integer m, integer n, integer k, doublereal *a,
               doublereal *b, doublereal *c) {
  static integer i, j, l;
  if (i > 0)
    c[0] += 1;
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'i' is a static local that the nest assigns and a call may read before storing it; the rewrite would not leave it the loop's value
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      for (l = 0; l < k; l++)
        c[i * n + j] += a[i * k + l] * b[l * n + j];
  return 0;
}

// Its address is taken: a pointer may reach it.
int address_taken(integer m, integer n, integer k, doublereal *a,
                  doublereal *b, doublereal *c, doublereal *alpha,
                  doublereal **out) {
  static integer i, j, l;
  static doublereal t;
  *out = &t;
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: '*alpha' is read through a pointer that may reach 't', which the nest assigns (its address is taken), so it is not invariant
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      for (l = 0; l < k; l++) {
        t = *alpha * a[i * k + l];
        c[i * n + j] += t * b[l * n + j];
      }
  return 0;
}
