// f64 GEMMs over std::vector (operator[] and data()) and struct members,
// with bounds taken from the structs, and a K of 1.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The lifted problems, computed on the CPU (GEMM_OPT_DEVICE=cpu), must agree too.
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
// CHECK-COUNT-2: [-Rpass=gemm]
#include "e2e_util.h"

#include <vector>

struct Matrix {
  long rows, cols;
  std::vector<double> data;
  Matrix(long r, long c) : rows(r), cols(c), data(r * c) {}
};

static void multiply(const Matrix &x, const Matrix &y, Matrix &z) {
  for (long i = 0; i < z.rows; ++i)
    for (long j = 0; j < z.cols; ++j) {
      double sum = 0;
      for (long l = 0; l < x.cols; ++l)
        sum += x.data[i * x.cols + l] * y.data[l * y.cols + j];
      z.data[i * z.cols + j] = sum;
    }
}

static void multiplyAdd(size_t n, const std::vector<double> &x,
                        const std::vector<double> &y, std::vector<double> &z) {
  const double *xp = x.data();
  for (size_t i = 0; i < n; i++)
    for (size_t l = 0; l < n; l++)
      for (size_t j = 0; j < n; j++)
        z[i * n + j] += xp[i * n + l] * y[l * n + j];
}

int main() {
  Matrix x(71, 23), y(23, 19), z(71, 19);
  fillRandom(x.data.data(), 71 * 23, 21);
  fillRandom(y.data.data(), 23 * 19, 22);
  multiply(x, y, z);
  printMatrix("struct", 23, frobenius(x.data.data(), 71 * 23) * frobenius(y.data.data(), 23 * 19),
              z.data.data(), 71, 19, 19, 1);

  const size_t n = 50;
  std::vector<double> p(n * n), q(n * n), r(n * n);
  fillRandom(p.data(), n * n, 23);
  fillRandom(q.data(), n * n, 24);
  fillRandom(r.data(), n * n, 25);
  double scale = frobenius(p.data(), n * n) * frobenius(q.data(), n * n) +
                 frobenius(r.data(), n * n);
  multiplyAdd(n, p, q, r);
  printMatrix("vector", n, scale, r.data(), n, n, n, 1);

  // An outer product: K = 1.
  Matrix u(40, 1), v(1, 33), w(40, 33);
  fillRandom(u.data.data(), 40, 26);
  fillRandom(v.data.data(), 33, 27);
  multiply(u, v, w);
  printMatrix("k1", 1, frobenius(u.data.data(), 40) * frobenius(v.data.data(), 33),
              w.data.data(), 40, 33, 33, 1);
  return 0;
}
