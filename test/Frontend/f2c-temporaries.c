/* f2c's reference BLAS: loop bounds through temporaries assigned inside the
 * nest before each loop they bound (`i__2 = *m;`, reused for `*k`), the
 * store branch on beta after a dot product, and one `temp` reused by every
 * nest of the function. A temporary is forward-substituted only where one
 * assignment in the nest reaches each read and no read after the nest needs
 * its value.
 *
 * RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
 */
typedef int integer;
typedef float real;

int sgemm_tn(integer *m, integer *n, integer *k, real *alpha, real *a,
             integer *lda, real *b, integer *ldb, real *beta, real *c__,
             integer *ldc) {
  integer a_dim1, a_offset, b_dim1, b_offset, c_dim1, c_offset, i__1, i__2,
      i__3;
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
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = (*m) x (*n) x (*k); {{.*}}; accumulates in 'temp', alpha = (*alpha), beta = (*beta); {{.*}}; the store's branch on '*beta' folds into beta (beta == 0 never reads C); rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  for (j = 1; j <= i__1; ++j) {
    i__2 = *m;
    for (i__ = 1; i__ <= i__2; ++i__) {
      temp = 0.f;
      i__3 = *k;
      for (l = 1; l <= i__3; ++l)
        temp += a[l + i__ * a_dim1] * b[l + j * b_dim1];
      if (*beta == 0.f)
        c__[i__ + j * c_dim1] = *alpha * temp;
      else
        c__[i__ + j * c_dim1] = *alpha * temp + *beta * c__[i__ + j * c_dim1];
    }
  }
  /* temp and i__2 are set again before they are read. */
  temp = *alpha;
  i__2 = *m;
  return (int)temp + i__2;
}

/* The GSL's CBLAS style: a const temp and a zero skip, row-major. */
void cblas_nn(int n1, int n2, int K, float alpha, const float *F, int ldf,
              const float *G, int ldg, float *C, int ldc) {
  int i, j, k;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = n1 x n2 x K; {{.*}}the terms it skips where 'temp' is 0 are 0 unless A or B holds Inf or NaN; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  for (i = 0; i < n1; i++) {
    for (k = 0; k < K; k++) {
      const float temp = alpha * F[ldf * i + k];
      if (temp != 0.0f) {
        for (j = 0; j < n2; j++)
          C[ldc * i + j] += temp * G[ldg * k + j];
      }
    }
  }
}

int near_misses(integer *m, integer *n, integer *k, real *a, real *b,
                real *beta, real *c__) {
  integer i__1, i__2, i__, j, l;
  real temp;
  i__1 = *n;
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'i__2' is set to 'j' inside the nest, which depends on the loop index 'j', so the loops it bounds are not a box [-Rpass-missed=gemm]
  for (j = 1; j <= i__1; ++j) {
    i__2 = j;
    for (i__ = 1; i__ <= i__2; ++i__)
      for (l = 1; l <= *k; ++l)
        c__[i__ + j * *m] += a[i__ + l * *m] * b[l + j * *k];
  }
  /* The first column's inner loop reads the value set before the nest. */
  i__2 = *m;
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: bound 'i__2' of 'i__' is written inside the nest [-Rpass-missed=gemm]
  for (j = 1; j <= i__1; ++j) {
    for (l = 1; l <= *k; ++l)
      for (i__ = 1; i__ <= i__2; ++i__)
        c__[i__ + j * *m] += a[i__ + l * *m] * b[l + j * *k];
    i__2 = *m - 1;
  }
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the branches on '*beta' store values to 'c__[i__ + j * *m]' that differ by more than the term '*beta * c__[i__ + j * *m]' [-Rpass-missed=gemm]
  for (j = 1; j <= i__1; ++j)
    for (i__ = 1; i__ <= *m; ++i__) {
      temp = 0.f;
      for (l = 1; l <= *k; ++l)
        temp += a[l + i__ * *k] * b[l + j * *k];
      if (*beta == 0.f)
        c__[i__ + j * *m] = temp;
      else
        c__[i__ + j * *m] = 2.f * temp + *beta * c__[i__ + j * *m];
    }
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'temp' is declared outside the nest, assigned in it and used elsewhere; the rewrite would not update it [-Rpass-missed=gemm]
  for (j = 1; j <= i__1; ++j)
    for (i__ = 1; i__ <= *m; ++i__) {
      temp = 0.f;
      for (l = 1; l <= *k; ++l)
        temp += a[l + i__ * *k] * b[l + j * *k];
      c__[i__ + j * *m] = temp;
    }
  return (int)temp;
}
