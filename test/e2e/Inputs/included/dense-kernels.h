// A header of inline GEMM kernels with an include guard, included by the
// main file and again by another header (the second inclusion is skipped).
#ifndef E2E_DENSE_KERNELS_H
#define E2E_DENSE_KERNELS_H

// C = A^T * B, with C column-major.
inline void gemmAtB(int m, int n, int k, const double *a, int lda,
                    const double *b, int ldb, double *c, int ldc) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double s = 0;
      for (int l = 0; l < k; ++l)
        s += a[l * lda + i] * b[l * ldb + j];
      c[j * ldc + i] = s;
    }
}

// A template the main file instantiates for float and double.
template <class T>
void addProduct(int m, int n, int k, const T *a, const T *b, T *c) {
  for (int i = 0; i < m; ++i)
    for (int l = 0; l < k; ++l)
      for (int j = 0; j < n; ++j)
        c[i * n + j] += a[i * k + l] * b[l * n + j];
}

#endif
