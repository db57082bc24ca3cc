// A GEMM written once as a function template and used for float and
// double, the way header-only C++ libraries write it: both instantiations
// are rewritten, their launchers overload one name. A reference GEMM over
// layout flags that are template parameters (oneDNN's ref_gemm tail), with
// C read only where beta != 0: each instantiation picks its own launcher,
// beta == 0 with C holding NaNs included. A batched product over 5-D
// tensors with one type parameter per operand (tflite's BatchMatMul<Ta,
// Tb, Tout>), instantiated with all float, all double, and int8 inputs
// into int32 (which runs the nest as written); its three batch loops are
// one batch where their strides compose (a broadcast input's are 0), and
// run as written where they do not. A blocked kernel over a size that is
// a non-type template parameter (mmul-harness's block_dgemm<n>), used with
// two sizes: each instantiation calls the launcher of its own size.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s --reference-kernel -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The lifted problems on the CPU (front-end tests: the reference kernel keeps
// nvcc quick).
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
// CHECK-COUNT-4: [-Rpass=gemm]
#include "e2e_util.h"

#include <cmath>
#include <cstdint>
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

/// The stride of batch dimension x of a 5-D shape: 0 where it is 1
/// (broadcast), else the product of the dimensions after it.
static long batchStride(const long *dims, int x) {
  if (dims[x] == 1)
    return 0;
  long s = 1;
  for (int d = x + 1; d < 5; ++d)
    s *= dims[d];
  return s;
}

template <typename Ta, typename Tb, typename Tout>
void batchMatMul(const long *lhs, const Ta *lhsData, const long *rhs,
                 const Tb *rhsData, Tout *outData) {
  const long d0 = lhs[0] == 1 ? rhs[0] : lhs[0];
  const long d1 = lhs[1] == 1 ? rhs[1] : lhs[1];
  const long d2 = lhs[2] == 1 ? rhs[2] : lhs[2];
  const long la0 = batchStride(lhs, 0), la1 = batchStride(lhs, 1),
             la2 = batchStride(lhs, 2);
  const long rb0 = batchStride(rhs, 0), rb1 = batchStride(rhs, 1),
             rb2 = batchStride(rhs, 2);
  const long rows = lhs[3], cols = rhs[4], depth = lhs[4];
  for (long b0 = 0; b0 < d0; ++b0) {
    const Ta *l0 = lhsData + b0 * la0;
    const Tb *r0 = rhsData + b0 * rb0;
    for (long b1 = 0; b1 < d1; ++b1) {
      const Ta *l1 = l0 + b1 * la1;
      const Tb *r1 = r0 + b1 * rb1;
      for (long b2 = 0; b2 < d2; ++b2) {
        const Ta *l2 = l1 + b2 * la2;
        const Tb *r2 = r1 + b2 * rb2;
        Tout *out = outData + ((b0 * d1 + b1) * d2 + b2) * rows * cols;
        for (long j = 0; j < cols; ++j)
          for (long i = 0; i < rows; ++i) {
            Tout total = 0;
            for (long k = 0; k < depth; ++k)
              total += static_cast<Tout>(l2[depth * i + k]) *
                       static_cast<Tout>(r2[j * depth + k]);
            out[rows * j + i] = total;
          }
      }
    }
  }
}

template <typename Ta, typename Tb, typename Tout>
void runBatch(const char *label, unsigned seed, const long *lhs,
              const long *rhs) {
  long lhsSize = 1, rhsSize = 1;
  for (int d = 0; d < 5; ++d)
    lhsSize *= lhs[d], rhsSize *= rhs[d];
  const long batches = (lhs[0] == 1 ? rhs[0] : lhs[0]) *
                       (lhs[1] == 1 ? rhs[1] : lhs[1]) *
                       (lhs[2] == 1 ? rhs[2] : lhs[2]);
  const long rows = lhs[3], cols = rhs[4];
  std::vector<Ta> a(lhsSize);
  std::vector<Tb> b(rhsSize);
  std::vector<Tout> c(batches * rows * cols);
  fillRandom(a.data(), lhsSize, seed);
  fillRandom(b.data(), rhsSize, seed + 1);
  if (sizeof(Ta) == 1) // int8: small integers rather than zeros.
    for (long i = 0; i < lhsSize; ++i)
      a[i] = Ta(i % 7 - 3);
  batchMatMul<Ta, Tb, Tout>(lhs, a.data(), rhs, b.data(), c.data());
  const double scale = frobenius(a.data(), lhsSize) *
                       frobenius(b.data(), rhsSize);
  printMatrix(label, lhs[4], scale, c.data(), batches * cols, rows, rows, 1);
}

template <int n>
void blockGemm(const double *A, const double *B, double *C) {
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

template <int n> void runBlock(const char *label, unsigned seed) {
  std::vector<double> a(n * n), b(n * n), c(n * n), c0;
  fillRandom(a.data(), n * n, seed);
  fillRandom(b.data(), n * n, seed + 1);
  fillRandom(c.data(), n * n, seed + 2);
  c0 = c;
  blockGemm<n>(a.data(), b.data(), c.data());
  const double scale = frobenius(a.data(), n * n) * frobenius(b.data(), n * n) +
                       frobenius(c0.data(), n * n);
  printMatrix(label, n, scale, c.data(), n, n, n, 1);
}

int main() {
  // Each input batched in full; with a leading dimension of 1 (a 4-D
  // tensor extended to 5-D), whose stride is 0 and whose loop runs once;
  // the left one shared by every batch (all its batch dimensions 1); the
  // left one broadcast along one dimension only, where the loops run as
  // written.
  const long full[5] = {2, 3, 2, 13, 11}, fullR[5] = {2, 3, 2, 11, 9};
  const long lead[5] = {1, 3, 2, 13, 11}, leadR[5] = {1, 3, 2, 11, 9};
  const long shared[5] = {1, 1, 1, 13, 11};
  const long partial[5] = {2, 1, 2, 13, 11};
  runBatch<float, float, float>("batch-f32", 23, full, fullR);
  runBatch<float, float, float>("batch-leading", 27, lead, leadR);
  runBatch<double, double, double>("batch-f64", 29, shared, fullR);
  runBatch<float, float, float>("batch-partial", 31, partial, fullR);
  runBatch<int8_t, int8_t, int32_t>("batch-int8", 37, full, fullR);
  run<float>("f32", 1);
  run<double>("f64", 7);
  runFlags<float, false, false>("NN", 11, 0.5f);
  runFlags<float, true, false>("TN", 13, 0.0f);
  runFlags<float, false, true>("NT", 17, -1.0f);
  runFlags<double, true, true>("TT", 19, 0.0);
  runBlock<16>("block-16", 41);
  runBlock<37>("block-37", 43);
  return 0;
}
