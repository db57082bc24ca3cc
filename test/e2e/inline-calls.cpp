// Products behind calls whose bodies are visible: an index helper, a dot
// product as the K loop, a dot product accumulating through a pointer, an
// axpy as the innermost loop, a matrix class's accessors and conversion,
// lambdas and a method's own accessors. Each is run as written and as
// rewritten; C sits between guard cells, and A and B are printed after the
// call, so a write outside C shows.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The lifted problems, computed on the CPU (GEMM_OPT_DEVICE=cpu), must agree too.
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
// CHECK-COUNT-8: [-Rpass=gemm]
#include "problem.h"

#include <vector>

static inline int idx(int r, int c, int ld) { return r + c * ld; }
// C (m x n, column-major) = A^T B with A stored k x m and B k x n,
// column-major.
static void indexHelper(int m, int n, int k, const float *A, const float *B,
                        float *C) {
  for (int col = 0; col < n; col++)
    for (int row = 0; row < m; row++) {
      float acc = 0.0f;
      for (int l = 0; l < k; l++)
        acc += A[idx(l, row, k)] * B[idx(l, col, k)];
      C[idx(row, col, m)] = acc;
    }
}

static double dot(int n, const double *x, const double *y, int incy) {
  int i;
  double s = 0;
  for (i = 0; i < n; ++i)
    s += x[i] * y[i * incy];
  return s;
}
static void dotHelper(int m, int n, int k, const double *A, const double *B,
                      double *C) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      C[i * n + j] = dot(k, A + i * k, &B[j], n);
}

#define X_(p) x[(p) * incx]
static void addDot(int k, const double *x, int incx, const double *y,
                   double *gamma) {
  for (int p = 0; p < k; p++)
    *gamma += X_(p) * y[p];
}
// Column-major: A is m x k (lda = m), B is k x n (ldb = k), C is m x n.
static void throughPointer(int m, int n, int k, const double *a,
                           const double *b, double *c) {
  for (int j = 0; j < n; j += 1)
    for (int i = 0; i < m; i += 1)
      addDot(k, &a[i], m, &b[j * k], &c[j * m + i]);
}

static inline void saxpy(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}
static void axpyHelper(int M, int N, int K, const float *A, const float *B,
                       float *C) {
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      saxpy(N, A[i * K + k], &B[k * N], &C[i * N]);
}

struct Mat {
  float *d;
  int r, c;
  float &operator()(int i, int j) { return d[i * c + j]; }
  float operator()(int i, int j) const { return d[i * c + j]; }
  const float *operator[](int i) const { return d + i * c; }
  float *row(int i) { return d + i * c; }
  operator const float *() const { return d; }
  int rows() const { return r; }
  int cols() const { return c; }
};
static void accessors(const Mat &A, const Mat &B, Mat &C) {
  for (int i = 0; i < A.rows(); ++i)
    for (int j = 0; j < B.cols(); ++j)
      for (int l = 0; l < A.cols(); ++l)
        C(i, j) += A(i, l) * B(l, j);
}
static void rowsAndConversions(const Mat &A, const Mat &B, Mat &C) {
  for (int i = 0; i < A.r; ++i) {
    float *out = C.row(i);
    for (int j = 0; j < B.c; ++j) {
      const float *b = B;
      float sum = 0;
      for (int l = 0; l < A.c; ++l)
        sum += A[i][l] * b[l * B.c + j];
      out[j] = sum;
    }
  }
}

static void lambdas(int m, int n, int k, const double *a, const double *b,
                    double *c) {
  auto at = [&](int i, int l) { return a[i * k + l]; };
  auto bt = [=](int l, int j) -> const double & { return b[l * n + j]; };
  auto out = [c, n](int i, int j) -> double & { return c[i * n + j]; };
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        out(i, j) += at(i, l) * bt(l, j);
}

struct Layer {
  const float *w, *x;
  float *y;
  int in, out, batch;
  float weight(int o, int i) const { return w[o * in + i]; }
  float &result(int b, int o) { return y[b * out + o]; }
  void forward() {
    for (int b = 0; b < batch; ++b)
      for (int o = 0; o < out; ++o) {
        result(b, o) = 0;
        for (int i = 0; i < in; ++i)
          result(b, o) += x[b * in + i] * weight(o, i);
      }
  }
};

int main() {
  const int sizes[][3] = {{32, 24, 40}, {37, 29, 45}};
  for (const int *s : sizes) {
    int m = s[0], n = s[1], k = s[2];
    {
      Problem<float> p(m, n, k, 1);
      indexHelper(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("index-helper");
    }
    {
      Problem<double> p(m, n, k, 4);
      dotHelper(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("dot-helper");
    }
    {
      Problem<double> p(m, n, k, 7);
      throughPointer(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("through-pointer");
    }
    {
      Problem<float> p(m, n, k, 10);
      axpyHelper(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("axpy-helper");
    }
    {
      Problem<float> p(m, n, k, 13);
      Mat A{p.a.data(), m, k}, B{p.b.data(), k, n}, C{p.C(), m, n};
      accessors(A, B, C);
      p.print("accessors");
    }
    {
      Problem<float> p(m, n, k, 16);
      Mat A{p.a.data(), m, k}, B{p.b.data(), k, n}, C{p.C(), m, n};
      rowsAndConversions(A, B, C);
      p.print("rows-and-conversions");
    }
    {
      Problem<double> p(m, n, k, 19);
      lambdas(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("lambdas");
    }
    {
      // y (batch x out) = x (batch x in) * w^T, w stored out x in.
      Problem<float> p(m, n, k, 22);
      Layer layer{p.b.data(), p.a.data(), p.C(), k, n, m};
      layer.forward();
      p.print("layer");
    }
  }
}
