// Products whose loops run a pointer until it reaches an end pointer (a
// physics engine's small-matrix style, rows padded to a multiple of 4):
// out = lhs * rhs, lhs^T * rhs and lhs * rhs^T, an interleaved row read
// with `p < end; p += 2`, a `while` loop, rows walked by their padded
// length, and dot products walked backwards. Each is run as written and as rewritten; the outputs, their
// padding and guard cells must agree.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The lifted problems, computed on the CPU (GEMM_OPT_DEVICE=cpu), must agree too.
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
// CHECK-COUNT-7: [-Rpass=gemm]
#include "e2e_util.h"
#include "guard_cells.h"

#include <vector>

static unsigned padded(unsigned n) { return n > 1 ? (n + 3) & ~3u : n; }

// out (m x n) = lhs (m x k) * rhs (k x n).
static void timesPlain(double *out, const double *lhs, const double *rhs,
                       unsigned m, unsigned k, unsigned n) {
  const unsigned lk = padded(k), ln = padded(n);
  double *orow = out;
  const double *lrow = lhs;
  for (unsigned i = m; i != 0; orow += ln, lrow += lk, --i) {
    double *o = orow;
    const double *col = rhs, *colEnd = rhs + n;
    for (; col != colEnd; ++o, ++col) {
      double acc = 0.0;
      const double *r = col, *l = lrow, *lEnd = lrow + k;
      for (; l != lEnd; r += ln, ++l)
        acc += (*l) * (*r);
      *o = acc;
    }
  }
}

// out (m x n) = lhs^T * rhs, lhs stored k x m.
static void timesLeftT(double *out, const double *lhs, const double *rhs,
                       unsigned m, unsigned k, unsigned n) {
  const unsigned lm = padded(m), ln = padded(n);
  double *orow = out;
  const double *lcol = lhs, *lcolEnd = lhs + m;
  for (; lcol != lcolEnd; orow += ln, ++lcol) {
    double *o = orow;
    const double *col = rhs, *colEnd = rhs + n;
    for (; col != colEnd; ++o, ++col) {
      double acc = 0.0;
      const double *l = lcol, *r = col;
      for (unsigned t = k; t != 0; l += lm, r += ln, --t)
        acc += (*l) * (*r);
      *o = acc;
    }
  }
}

// out (m x n) = lhs * rhs^T, rhs stored n x k; the output pointer and its
// end declared in the loop's header.
static void timesRightT(double *out, const double *lhs, const double *rhs,
                        unsigned m, unsigned k, unsigned n) {
  const unsigned lk = padded(k), ln = padded(n);
  double *orow = out;
  const double *lrow = lhs;
  for (unsigned i = m; i != 0; orow += ln, lrow += lk, --i) {
    const double *rrow = rhs;
    for (double *o = orow, *oEnd = orow + n; o != oEnd; rrow += lk, ++o) {
      double acc = 0.0;
      const double *l = lrow, *r = rrow, *rEnd = rrow + k;
      for (; r != rEnd; ++l, ++r)
        acc += (*l) * (*r);
      *o = acc;
    }
  }
}

// out (m x n) = lhs * rhs with lhs's rows interleaved with another
// matrix's (every other element), read up to the row's end by 2.
static void timesInterleaved(float *out, const float *lhs, const float *rhs,
                             int m, int k, int n) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float acc = 0;
      const float *r = rhs + j;
      for (const float *l = lhs + 2 * i * k; l < lhs + 2 * (i + 1) * k;
           l += 2) {
        acc += *l * *r;
        r += n;
      }
      out[i * n + j] = acc;
    }
}

// out (m x n) = lhs * rhs, each row of out walked by a `while` loop.
static void timesWhile(float *out, const float *lhs, const float *rhs, int m,
                       int k, int n) {
  for (int i = 0; i < m; i++) {
    float *o = out + i * n;
    const float *oEnd = o + n;
    const float *col = rhs;
    while (o != oEnd) {
      float acc = 0;
      const float *r = col;
      for (int t = 0; t < k; t++) {
        acc += lhs[i * k + t] * *r;
        r += n;
      }
      *o = acc;
      ++col;
      ++o;
    }
  }
}

// out = lhs * rhs, out's and lhs's rows walked by their padded lengths
// (variable steps) to the end of the last.
static void timesRowSteps(float *out, const float *lhs, const float *rhs,
                          int m, int k, int n, int ldo, int ldl) {
  const float *lrow = lhs;
  for (float *o = out, *oEnd = out + m * ldo; o != oEnd;
       o += ldo, lrow += ldl)
    for (int j = 0; j < n; j++) {
      float acc = 0;
      for (const float *l = lrow, *r = rhs + j; l != lrow + k; ++l, r += n)
        acc += *l * *r;
      o[j] = acc;
    }
}

// out = lhs * rhs, each dot product summed from its last term down to
// its first (`p >= first; --p`).
static void timesBackwards(double *out, const double *lhs, const double *rhs,
                           int m, int k, int n) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double acc = 0;
      const double *r = rhs + (k - 1) * n + j;
      for (const double *l = lhs + i * k + k - 1; l >= lhs + i * k;
           --l, r -= n)
        acc += *l * *r;
      out[i * n + j] = acc;
    }
}

/// A rows x cols matrix in rows of `ld` elements, between guard cells, its
/// padding POISON too.
template <class T> struct Padded {
  long rows, cols, ld;
  std::vector<T> cells;
  Padded(long rows, long cols, long ld, unsigned seed)
      : rows(rows), cols(cols), ld(ld), cells(guarded<T>(rows * ld, T(POISON))) {
    for (long i = 0; i < rows; ++i)
      fillRandom(at() + i * ld, cols, seed + unsigned(i));
  }
  T *at() { return cells.data() + GUARD; }
  double norm() {
    double sum = 0;
    for (long i = 0; i < rows; ++i)
      sum += frobenius(at() + i * ld, cols) * frobenius(at() + i * ld, cols);
    return std::sqrt(sum);
  }
  /// Prints the matrix, then how many padding cells changed.
  void print(const char *label, long k, double scale) {
    printMatrix(label, k, scale, at(), rows, cols, ld, 1);
    long changed = 0;
    for (long e = 0; e < rows * ld; ++e)
      changed += e % ld >= cols && at()[e] != T(POISON);
    std::printf("padding %s %ld changed\n", label, changed);
    checkGuards(label, cells);
  }
};

int main() {
  const unsigned sizes[][3] = {{37, 29, 45}, {1, 7, 3}, {13, 1, 17}, {6, 11, 1}};
  for (const unsigned *s : sizes) {
    unsigned m = s[0], k = s[1], n = s[2];
    {
      Padded<double> lhs(m, k, padded(k), 1), rhs(k, n, padded(n), 100),
          out(m, n, padded(n), 200);
      timesPlain(out.at(), lhs.at(), rhs.at(), m, k, n);
      out.print("plain", k, lhs.norm() * rhs.norm());
    }
    {
      Padded<double> lhs(k, m, padded(m), 300), rhs(k, n, padded(n), 400),
          out(m, n, padded(n), 500);
      timesLeftT(out.at(), lhs.at(), rhs.at(), m, k, n);
      out.print("left-t", k, lhs.norm() * rhs.norm());
    }
    {
      Padded<double> lhs(m, k, padded(k), 600), rhs(n, k, padded(k), 700),
          out(m, n, padded(n), 800);
      timesRightT(out.at(), lhs.at(), rhs.at(), m, k, n);
      out.print("right-t", k, lhs.norm() * rhs.norm());
    }
    {
      Padded<float> lhs(m, 2 * k, 2 * k, 900), rhs(k, n, n, 1000),
          out(m, n, n, 1100);
      timesInterleaved(out.at(), lhs.at(), rhs.at(), int(m), int(k), int(n));
      out.print("interleaved", k, lhs.norm() * rhs.norm());
    }
    {
      Padded<float> lhs(m, k, k, 1200), rhs(k, n, n, 1300), out(m, n, n, 1400);
      timesWhile(out.at(), lhs.at(), rhs.at(), int(m), int(k), int(n));
      out.print("while", k, lhs.norm() * rhs.norm());
    }
    {
      Padded<float> lhs(m, k, padded(k), 1500), rhs(k, n, n, 1600),
          out(m, n, padded(n), 1700);
      timesRowSteps(out.at(), lhs.at(), rhs.at(), int(m), int(k), int(n),
                    int(padded(n)), int(padded(k)));
      out.print("row-steps", k, lhs.norm() * rhs.norm());
    }
    {
      Padded<double> lhs(m, k, k, 1800), rhs(k, n, n, 1900),
          out(m, n, n, 2000);
      timesBackwards(out.at(), lhs.at(), rhs.at(), int(m), int(k), int(n));
      out.print("backwards", k, lhs.norm() * rhs.norm());
    }
  }
  return 0;
}
