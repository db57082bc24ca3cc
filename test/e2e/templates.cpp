// A GEMM written once as a function template and used for float and
// double, the way header-only C++ libraries write it: both instantiations
// are rewritten, their launchers overload one name. A reference GEMM over
// layout flags that are template parameters (oneDNN's ref_gemm tail), with
// C read only where beta != 0: each instantiation picks its own launcher,
// beta == 0 with C holding NaNs included.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s --reference-kernel -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The lifted problems on the CPU (front-end tests: the reference kernel keeps
// nvcc quick).
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
// CHECK-COUNT-2: [-Rpass=gemm]
#include "e2e_util.h"

#include <cmath>
#include <vector>

template <typename T>
void gemmTN(int m, int n, int k, T alpha, const T *a, int lda, const T *b,
            int ldb, T beta, T *c, int ldc) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      T sum = 0;
      for (int l = 0; l < k; ++l)
        sum += a[l * lda + i] * b[l * ldb + j];
      c[i * ldc + j] = alpha * sum + beta * c[i * ldc + j];
    }
}

template <typename T> void run(const char *label, unsigned seed) {
  const int m = 37, n = 29, k = 41, lda = m + 3, ldb = n + 1, ldc = n + 5;
  std::vector<T> a(k * lda), b(k * ldb), c(m * ldc), c0;
  fillRandom(a.data(), long(a.size()), seed);
  fillRandom(b.data(), long(b.size()), seed + 1);
  fillRandom(c.data(), long(c.size()), seed + 2);
  c0 = c;
  const T alpha = T(1.5), beta = T(-0.5);
  gemmTN<T>(m, n, k, alpha, a.data(), lda, b.data(), ldb, beta, c.data(), ldc);
  const double scale = 1.5 * frobenius(a.data(), long(a.size())) *
                           frobenius(b.data(), long(b.size())) +
                       0.5 * frobenius(c0.data(), long(c0.size()));
  // Every element, the padding of each row included.
  printMatrix(label, k, scale, c.data(), m, ldc, ldc, 1);
}

template <typename data_t, bool isTransA, bool isTransB>
void refGemm(long M, long N, long K, const data_t *A, long lda,
             const data_t *B, long ldb, data_t *C, long ldc, data_t alpha,
             data_t beta) {
  for (long i = 0; i < M; i++)
    for (long j = 0; j < N; j++) {
      data_t c = beta == static_cast<data_t>(0.) ? static_cast<data_t>(0.)
                                                 : beta * C[i + j * ldc];
      for (long p = 0; p < K; p++) {
        data_t b = isTransB ? B[j + p * ldb] : B[p + j * ldb];
        data_t a = isTransA ? A[p + i * lda] : A[i + p * lda];
        c += alpha * a * b;
      }
      C[i + j * ldc] = c;
    }
}

template <typename T, bool ta, bool tb>
void runFlags(const char *label, unsigned seed, T beta) {
  const long m = 23, n = 31, k = 19, ld = 40, ldc = m + 2;
  std::vector<T> a(ld * ld), b(ld * ld), c(n * ldc), c0;
  fillRandom(a.data(), long(a.size()), seed);
  fillRandom(b.data(), long(b.size()), seed + 1);
  fillRandom(c.data(), long(c.size()), seed + 2);
  if (beta == T(0))
    for (long j = 0; j < n; ++j)
      for (long i = 0; i < m; ++i)
        c[i + j * ldc] = T(NAN);
  c0 = c;
  refGemm<T, ta, tb>(m, n, k, a.data(), ld, b.data(), ld, c.data(), ldc,
                     T(0.75), beta);
  const double scale = frobenius(a.data(), long(a.size())) *
                       frobenius(b.data(), long(b.size()));
  printMatrix(label, k, scale, c.data(), n, ldc, ldc, 1);
}

int main() {
  run<float>("f32", 1);
  run<double>("f64", 7);
  runFlags<float, false, false>("NN", 11, 0.5f);
  runFlags<float, true, false>("TN", 13, 0.0f);
  runFlags<float, false, true>("NT", 17, -1.0f);
  runFlags<double, true, true>("TT", 19, 0.0);
  return 0;
}
