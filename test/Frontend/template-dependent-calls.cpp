// In a template, a call that depends on the template's parameters has no
// callee until it is instantiated: a nest whose product is in such a call
// (a row's `plus_assign` of a scaled row, a uBLAS-style axpy product) is a
// candidate where some instantiation's call is a product loop, and gets
// its remark.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:

#include <cstddef>
#include <vector>

struct Mat {
  std::size_t r, c;
  std::vector<double> d;
  double operator()(std::size_t i, std::size_t j) const { return d[i * c + j]; }
};
struct ScaledRow {
  double s;
  const double *p;
  std::size_t n;
};
struct RowRef {
  double *p;
  std::size_t n;
  void plus_assign(const ScaledRow &e) {
    for (std::size_t j = 0; j < n; ++j)
      p[j] += e.s * e.p[j];
  }
};
inline ScaledRow operator*(double s, const RowRef &r) {
  return ScaledRow{s, r.p, r.n};
}
inline RowRef row(Mat &m, std::size_t i) { return RowRef{&m.d[i * m.c], m.c}; }
inline RowRef row(const Mat &m, std::size_t i) {
  return RowRef{const_cast<double *>(&m.d[i * m.c]), m.c};
}

template <class M, class E1, class E2>
M &axpy_mm(const E1 &a, const E2 &b, M &m) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: no instantiation of its template in this file is a float or double GEMM
  for (std::size_t i = 0; i < a.r; ++i)
    for (std::size_t k = 0; k < a.c; ++k)
      row(m, i).plus_assign(a(i, k) * row(b, k));
  return m;
}

// A template whose instantiations call nothing that multiplies: no
// candidate, no remark.
template <class M> void scale_rows(M &m) {
  for (std::size_t i = 0; i < m.r; ++i)
    for (std::size_t j = 0; j < m.c; ++j)
      m.d[i * m.c + j] = m(i, j);
}

void use(const Mat &a, const Mat &b, Mat &m) {
  axpy_mm(a, b, m);
  scale_rows(m);
}
