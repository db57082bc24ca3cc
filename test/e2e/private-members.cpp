// Operands behind accessors that read private members: ParRes's
// prk::vector (a class template, plain and tiled i-k-j loops), oopack's
// Matrix (a private pointer, public sizes, the nest in another class's
// method) and a column-major view whose leading dimension is private too
// (in an `extern "C"` function). The launcher call reads the members
// through member pointers (PrivateMembers.h). Each is run as written and as
// rewritten; C sits between guard cells, and A and B are printed after the
// call, so a write outside C shows.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The lifted problems, computed on the CPU (GEMM_OPT_DEVICE=cpu), must agree too.
// RUN: env GEMM_OPT_DEVICE=cpu GEMM_OPT_TRACE=1 %t.gpu > %t.lifted 2> %t.trace
// RUN: %python %S/compare.py %t.expected %t.lifted
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace
// CHECK-COUNT-4: [-Rpass=gemm]
// Four products at two sizes.
// TRACE-COUNT-8: ran on the CPU reference
// TRACE-NOT: ran on the CPU reference
#include "problem.h"

#include <vector>

namespace prk {
template <typename T> class vector {
private:
  T *data_;
  size_t size_;

public:
  vector(T *data, size_t n) : data_(data), size_(n) {}
  T &operator[](size_t i) { return data_[i]; }
  const T &operator[](size_t i) const { return data_[i]; }
};
} // namespace prk

// Square products, C += A B, as ParRes writes them.
static void prk_dgemm(const int order, const prk::vector<double> &A,
                      const prk::vector<double> &B, prk::vector<double> &C) {
  for (int i = 0; i < order; ++i)
    for (int k = 0; k < order; ++k)
      for (int j = 0; j < order; ++j)
        C[i * order + j] += A[i * order + k] * B[k * order + j];
}
static void prk_dgemm(const int order, const int tile,
                      const prk::vector<double> &A,
                      const prk::vector<double> &B, prk::vector<double> &C) {
  for (int it = 0; it < order; it += tile)
    for (int kt = 0; kt < order; kt += tile)
      for (int jt = 0; jt < order; jt += tile) {
        int iend = it + tile < order ? it + tile : order;
        int jend = jt + tile < order ? jt + tile : order;
        int kend = kt + tile < order ? kt + tile : order;
        for (int i = it; i < iend; ++i)
          for (int k = kt; k < kend; ++k)
            for (int j = jt; j < jend; ++j)
              C[i * order + j] += A[i * order + k] * B[k * order + j];
      }
}

class Matrix {
private:
  double *data;

public:
  int rows, cols;
  Matrix(int rows_, int cols_, double *data_)
      : data(data_), rows(rows_), cols(cols_) {}
  double &operator()(int i, int j) { return data[cols * i + j]; }
};
class Bench {
public:
  int m, n, k;
  double *A, *B, *C;
  void oopStyle() const;
};
void Bench::oopStyle() const {
  Matrix a(m, k, A), b(k, n, B), c(m, n, C);
  for (int i = 0; i < c.rows; i++)
    for (int j = 0; j < c.cols; j++) {
      double sum = 0;
      for (int l = 0; l < a.cols; l++)
        sum += a(i, l) * b(l, j);
      c(i, j) = sum;
    }
}

class ColView {
  float *d;
  int ld;

public:
  ColView(float *d, int ld) : d(d), ld(ld) {}
  float &operator()(int i, int j) const { return d[i + j * ld]; }
};
extern "C" {
void colProduct(int m, int n, int k, const ColView &A, const ColView &B,
                const ColView &C) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      float s = 0;
      for (int p = 0; p < k; ++p)
        s += A(i, p) * B(p, j);
      C(i, j) = 0.5f * C(i, j) + s;
    }
}
}

int main() {
  for (int order : {24, 37}) {
    {
      Problem<double> p(order, order, order, 1);
      prk::vector<double> A(p.a.data(), p.a.size()), B(p.b.data(), p.b.size()),
          C(p.C(), size_t(order) * order);
      prk_dgemm(order, A, B, C);
      p.print("prk");
    }
    {
      Problem<double> p(order, order, order, 4);
      prk::vector<double> A(p.a.data(), p.a.size()), B(p.b.data(), p.b.size()),
          C(p.C(), size_t(order) * order);
      prk_dgemm(order, 8, A, B, C);
      p.print("prk-tiled");
    }
    {
      Problem<double> p(order, order + 3, order - 5, 7);
      Bench bench{p.m, p.n, p.k, p.a.data(), p.b.data(), p.C()};
      bench.oopStyle();
      p.print("oopack");
    }
    {
      // A is m x k, B k x n, C m x n, all column-major.
      Problem<float> p(order + 1, order - 2, order + 4, 10);
      ColView A(p.a.data(), p.m), B(p.b.data(), p.k), C(p.C(), p.m);
      colProduct(p.m, p.n, p.k, A, B, C);
      p.print("column-view", 1, p.m);
    }
  }
  return 0;
}
