// The reference GEMM as f2c translates it: every argument a pointer, arrays
// shifted for 1-based indexing, each loop bound through a temporary set
// inside the nest (`i__2 = *m;` and later `i__2 = *k;`), the beta branches
// ahead of the NN and NT updates and the store branch on beta after the TN
// and TT dot products. All four cases in float and double, with beta = 0
// (C poisoned with NaN, which must not leak), 1 and another beta, leading
// dimensions larger than the sizes, and guard cells around C.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s --reference-kernel -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
#include "e2e_util.h"

#include <cmath>
#include <vector>

typedef int integer;
typedef float real;
typedef double doublereal;

template <class T>
static int gemm_(bool nota, bool notb, integer *m, integer *n, integer *k,
                 T *alpha, T *a, integer *lda, T *b, integer *ldb, T *beta,
                 T *c__, integer *ldc) {
  integer a_dim1, a_offset, b_dim1, b_offset, c_dim1, c_offset, i__1, i__2,
      i__3;
  integer i__, j, l;
  T temp;

  a_dim1 = *lda;
  a_offset = 1 + a_dim1;
  a -= a_offset;
  b_dim1 = *ldb;
  b_offset = 1 + b_dim1;
  b -= b_offset;
  c_dim1 = *ldc;
  c_offset = 1 + c_dim1;
  c__ -= c_offset;

  if (notb) {
    if (nota) {
      i__1 = *n;
      // CHECK: :[[@LINE+1]]:7: remark: GEMM recognised: {{.*}}the beta branches of the reference BLAS
      for (j = 1; j <= i__1; ++j) {
        if (*beta == 0.f) {
          i__2 = *m;
          for (i__ = 1; i__ <= i__2; ++i__) {
            c__[i__ + j * c_dim1] = 0.f;
          }
        } else if (*beta != 1.f) {
          i__2 = *m;
          for (i__ = 1; i__ <= i__2; ++i__) {
            c__[i__ + j * c_dim1] = *beta * c__[i__ + j * c_dim1];
          }
        }
        i__2 = *k;
        for (l = 1; l <= i__2; ++l) {
          temp = *alpha * b[l + j * b_dim1];
          i__3 = *m;
          for (i__ = 1; i__ <= i__3; ++i__) {
            c__[i__ + j * c_dim1] += temp * a[i__ + l * a_dim1];
          }
        }
      }
    } else {
      i__1 = *n;
      // CHECK: :[[@LINE+1]]:7: remark: GEMM recognised: {{.*}}accumulates in 'temp'{{.*}}the store's branch on '*beta' folds into beta (beta == 0 never reads C)
      for (j = 1; j <= i__1; ++j) {
        i__2 = *m;
        for (i__ = 1; i__ <= i__2; ++i__) {
          temp = 0.f;
          i__3 = *k;
          for (l = 1; l <= i__3; ++l) {
            temp += a[l + i__ * a_dim1] * b[l + j * b_dim1];
          }
          if (*beta == 0.f) {
            c__[i__ + j * c_dim1] = *alpha * temp;
          } else {
            c__[i__ + j * c_dim1] =
                *alpha * temp + *beta * c__[i__ + j * c_dim1];
          }
        }
      }
    }
  } else {
    if (nota) {
      i__1 = *n;
      // CHECK: :[[@LINE+1]]:7: remark: GEMM recognised: {{.*}}the beta branches of the reference BLAS
      for (j = 1; j <= i__1; ++j) {
        if (*beta == 0.f) {
          i__2 = *m;
          for (i__ = 1; i__ <= i__2; ++i__) {
            c__[i__ + j * c_dim1] = 0.f;
          }
        } else if (*beta != 1.f) {
          i__2 = *m;
          for (i__ = 1; i__ <= i__2; ++i__) {
            c__[i__ + j * c_dim1] = *beta * c__[i__ + j * c_dim1];
          }
        }
        i__2 = *k;
        for (l = 1; l <= i__2; ++l) {
          temp = *alpha * b[j + l * b_dim1];
          i__3 = *m;
          for (i__ = 1; i__ <= i__3; ++i__) {
            c__[i__ + j * c_dim1] += temp * a[i__ + l * a_dim1];
          }
        }
      }
    } else {
      i__1 = *n;
      // The store's arms in the other order, tested with != 0.
      // CHECK: :[[@LINE+1]]:7: remark: GEMM recognised: {{.*}}the store's branch on '*beta' folds into beta (beta == 0 never reads C)
      for (j = 1; j <= i__1; ++j) {
        i__2 = *m;
        for (i__ = 1; i__ <= i__2; ++i__) {
          temp = 0.f;
          i__3 = *k;
          for (l = 1; l <= i__3; ++l) {
            temp += a[l + i__ * a_dim1] * b[j + l * b_dim1];
          }
          if (*beta != 0.f)
            c__[i__ + j * c_dim1] =
                *beta * c__[i__ + j * c_dim1] + temp * *alpha;
          else
            c__[i__ + j * c_dim1] = temp * *alpha;
        }
      }
    }
  }
  return 0;
}

template int gemm_<real>(bool, bool, integer *, integer *, integer *, real *,
                         real *, integer *, real *, integer *, real *, real *,
                         integer *);
template int gemm_<doublereal>(bool, bool, integer *, integer *, integer *,
                               doublereal *, doublereal *, integer *,
                               doublereal *, integer *, doublereal *,
                               doublereal *, integer *);

const int GUARD = 5;
const double POISON = 7.0;

template <class T> static void run(const char *label, bool nota, bool notb) {
  integer m = 21, n = 17, k = 29, lda = 33, ldb = 35, ldc = 24;
  std::vector<T> a(lda * 33), b(ldb * 35);
  fillRandom(a.data(), long(a.size()), 3);
  fillRandom(b.data(), long(b.size()), 4);
  double normAB = frobenius(a.data(), long(a.size())) *
                  frobenius(b.data(), long(b.size()));
  for (T beta : {T(0), T(1), T(-0.625)}) {
    std::vector<T> c(ldc * n + 2 * GUARD, T(POISON));
    T *cm = c.data() + GUARD;
    for (int j = 0; j < n * ldc; ++j)
      cm[j] = j % ldc < m ? (beta == 0 ? T(NAN) : T(0.25) * T(j % 7))
                          : T(POISON);
    double normC = beta == 0 ? 0 : frobenius(cm, long(n) * ldc);
    T alpha = T(1.5);
    gemm_<T>(nota, notb, &m, &n, &k, &alpha, a.data(), &lda, b.data(), &ldb,
             &beta, cm, &ldc);
    printMatrix(label, k, 1.5 * normAB + std::fabs(double(beta)) * normC, cm,
                m, n, 1, ldc);
    long broken = 0;
    for (size_t e = 0; e < c.size(); ++e) {
      long at = long(e) - GUARD;
      bool inC = at >= 0 && at < long(n) * ldc && at % ldc < m;
      broken += !inC && c[e] != T(POISON);
    }
    std::printf("guards %s %ld broken\n", label, broken);
  }
}

int main() {
  run<real>("sNN", true, true);
  run<real>("sTN", false, true);
  run<real>("sNT", true, false);
  run<real>("sTT", false, false);
  run<doublereal>("dNN", true, true);
  run<doublereal>("dTN", false, true);
  run<doublereal>("dNT", true, false);
  run<doublereal>("dTT", false, false);
  return 0;
}
