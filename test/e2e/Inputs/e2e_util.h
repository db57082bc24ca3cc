//===- e2e_util.h - Helpers for end-to-end test programs --------*- C++ -*-===//
//
// Data and output for the programs under test/e2e. Each program is built twice,
// as written (g++) and from gemm-opt's output (nvcc), and compare.py checks
// their `matrix` lines against a norm-wise GEMM error bound.
//
// Every loop here is one level deep on purpose: a deeper nest that multiplies
// array elements could itself look like a matrix multiply to gemm-opt.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_E2E_UTIL_H
#define GEMM_OPT_E2E_UTIL_H

#include <cmath>
#include <cstdio>

/// Fills p[0..n) with deterministic values in [-1, 1] drawn from `seed`. The
/// first value is nudged away from zero so the data is never all zero.
template <class T> void fillRandom(T *p, long n, unsigned seed) {
  // Knuth's MMIX LCG; the top 53 bits of its state give a double in [0, 1).
  const unsigned long long mul = 6364136223846793005ULL;
  const unsigned long long inc = 1442695040888963407ULL;
  unsigned long long state = seed * mul + inc;
  for (long i = 0; i < n; ++i) {
    state = state * mul + inc;
    double unit = double(state >> 11) * (1.0 / 9007199254740992.0);
    p[i] = T(2 * unit - 1);
  }
  if (n > 0 && p[0] == T(0))
    p[0] = T(0.5);
}

/// The Frobenius norm of p[0..n), accumulated in double.
template <class T> double frobenius(const T *p, long n) {
  double sum = 0;
  for (long i = 0; i < n; ++i)
    sum += double(p[i]) * double(p[i]);
  return std::sqrt(sum);
}

/// Prints the line compare.py reads:
///   matrix <label> <f32|f64> <K> <scale> <rows*cols> v...
/// with element (row, col) at c[row*rowStride + col*colStride], row by row.
/// `scale` is |alpha|*||A||_F*||B||_F + |beta|*||C0||_F of the product that
/// made it.
/// `type` names the precision compare.py bounds it by (f32 or f64 by T
/// where null; tf32 or 3xtf32 for a float product that may run on TF32
/// tensor cores).
template <class T>
void printMatrix(const char *label, long K, double scale, const T *c, long rows,
                 long cols, long rowStride, long colStride,
                 const char *type = nullptr) {
  std::printf("matrix %s %s %ld %.17g %ld", label,
              type                         ? type
              : sizeof(T) == sizeof(float) ? "f32"
                                           : "f64",
              K, scale, rows * cols);
  for (long i = 0; i < rows * cols; ++i)
    std::printf(" %.17g",
                double(c[(i / cols) * rowStride + (i % cols) * colStride]));
  std::printf("\n");
}

#endif // GEMM_OPT_E2E_UTIL_H
