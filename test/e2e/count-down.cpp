// Products whose loops count down: a renderer's fixed-size product whose
// loops step in their tests (`for (int t = K; t--; sum);`, the body in the
// increment), a column-major product built from an axpy helper that walks
// pointers with `while (len-- > 0)`, and the other spellings (`while (--n >=
// 0)`, `0 < n--`, `n-- >= 1`, `do ... while (--n)`, `k >= 0`, `k > 0` read
// as k - 1, a body and step in a `for`'s increment). The sums run in
// another order, within the bound of a reordered sum; C sits between guard
// cells that must come out untouched, and the inputs must come out as they
// went in.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The lifted problems, computed on the CPU (GEMM_OPT_DEVICE=cpu), must agree too.
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
// CHECK-COUNT-7: [-Rpass=gemm]
#include "problem.h"

// out (R x C) += a (R x K) * b (K x C), every loop counted down in its test.
template <int R, int K, int C>
static void fixedProduct(const double *a, const double *b, double *out) {
  for (int r = R; r--;)
    for (int c = C; c--;)
      for (int t = K; t--; out[r * C + c] += a[r * K + t] * b[t * C + c]);
}

// y[0..len) += scale * x[0..len), counted down by the test.
static void vecAxpy(double *y, double scale, const double *x, int len) {
  while (len-- > 0) {
    *y++ += scale * *x++;
  }
}

// Column-major out (rows x cols) += x (rows x inner) * y (inner x cols).
static void colMajor(double *out, const double *x, int rows, int inner,
                     const double *y, int cols) {
  double *o = out;
  for (int c = 0; c < cols; c++) {
    for (int p = 0; p < inner; p++)
      vecAxpy(o, y[p], x + p * rows, rows);
    o += rows;
    y += inner;
  }
}

static void prefixAtLeast(int m, int n, int k, const float *a, const float *b,
                          float *c) {
  for (int i = m - 1; i >= 0; i--)
    for (int j = n; j > 0; j--) {
      const float *pa = a + i * k, *pb = b + (j - 1);
      float s = 0;
      int left = k;
      while (--left >= 0) {
        s += *pa++ * *pb;
        pb += n;
      }
      c[i * n + j - 1] += s;
    }
}

static void boundFirst(int m, int n, int k, const float *a, const float *b,
                       float *c) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      int t = k;
      while (0 < t--)
        s += a[i * k + t] * b[t * n + j];
      c[i * n + j] = s;
    }
}

static void postfixAtLeast(int m, int n, int k, const float *a,
                           const float *b, float *c) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      int t = k;
      while (t-- >= 1)
        c[i * n + j] += a[i * k + t] * b[t * n + j];
    }
}

// Runs once before its test: the launcher runs where k > 0.
static void doWhile(int m, int n, int k, const double *a, const double *b,
                    double *c) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      int t = k;
      do
        s += a[i * k + t - 1] * b[(t - 1) * n + j];
      while (--t);
      c[i * n + j] = 2 * s;
    }
}

static void inIncrement(int m, int n, int k, const float *a, const float *b,
                        float *c) {
  int t;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      for (t = 0; t < k; c[i * n + j] -= a[i * k + t] * b[t * n + j], t++)
        ;
}

int main() {
  {
    Problem<double> p(8, 8, 8, 1);
    fixedProduct<8, 8, 8>(p.a.data(), p.b.data(), p.C());
    p.print("fixed", 8, 1);
  }
  const int sizes[][3] = {{32, 24, 40}, {37, 29, 45}, {1, 7, 3}};
  for (const int *s : sizes) {
    int m = s[0], n = s[1], k = s[2];
    {
      Problem<double> p(m, n, k, 4);
      colMajor(p.C(), p.a.data(), m, k, p.b.data(), n);
      p.print("col-major", 1, m);
    }
    {
      Problem<float> p(m, n, k, 7);
      prefixAtLeast(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("prefix-at-least", n, 1);
    }
    {
      Problem<float> p(m, n, k, 10);
      boundFirst(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("bound-first", n, 1);
    }
    {
      Problem<float> p(m, n, k, 13);
      postfixAtLeast(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("postfix-at-least", n, 1);
    }
    {
      Problem<double> p(m, n, k, 16);
      doWhile(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("do-while", n, 1);
    }
    {
      Problem<float> p(m, n, k, 19);
      inIncrement(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("in-increment", n, 1);
    }
  }
  return 0;
}
