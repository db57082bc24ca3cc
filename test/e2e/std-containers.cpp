// Products over the standard containers besides std::vector, as teaching
// and numerical C++ writes them: flat std::valarray and std::array
// matrices, tables of std::valarray rows (TheAlgorithms' mat_mul, with the
// result passed as a pointer and indexed `OUT[0][i][j]`), a std::vector of
// valarray rows, and `(*out)[i][j]` of a pointer to a vector of vectors. A
// valarray has no data(): its buffer is std::begin, and a table of its rows
// goes to the launcher as the row pointers that the call makes. Results
// must match the original's.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
#include "e2e_util.h"

#include <array>
#include <valarray>
#include <vector>

// CHECK: std-containers.cpp:[[# @LINE + 4]]:3: remark: GEMM recognised: f64, M x N x K = n x n x k; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten
static void flatValarray(const std::valarray<double> &a,
                         const std::valarray<double> &b, std::valarray<double> &c,
                         int n, int k) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int l = 0; l < k; l++)
        c[i * n + j] += a[i * k + l] * b[l * n + j];
}

// CHECK: std-containers.cpp:[[# @LINE + 5]]:3: remark: GEMM recognised: f64, {{.*}} A row valarrays, B row valarrays, C row valarrays; fused zero-init of C, alpha = 1, beta = 0; rewritten
static void matMul(const std::valarray<std::valarray<double>> &A,
                   const std::valarray<std::valarray<double>> &B,
                   std::valarray<std::valarray<double>> *OUT) {
  int R1 = A.size(), C1 = A[0].size(), C2 = B[0].size();
  for (int i = 0; i < R1; i++)
    for (int j = 0; j < C2; j++) {
      OUT[0][i][j] = 0.f;
      for (int k = 0; k < C1; k++)
        OUT[0][i][j] += A[i][k] * B[k][j];
    }
}

// CHECK: std-containers.cpp:[[# @LINE + 4]]:3: remark: GEMM recognised: f32, {{.*}} A row valarrays, B row-major, C row vectors; accumulates in 's', alpha = 1, beta = 0; rewritten
static void rowsOfValarrays(const std::vector<std::valarray<float>> &x,
                            const std::array<float, 12 * 7> &w,
                            std::vector<std::vector<float>> *out, int m) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < 7; j++) {
      float s = 0;
      for (int l = 0; l < 12; l++)
        s += x[i][l] * w[l * 7 + j];
      (*out)[i][j] = s;
    }
}

int main() {
  const int n = 19, k = 23, m = 13;
  std::valarray<double> a(n * k), b(k * n), c(n * n);
  fillRandom(&a[0], long(a.size()), 1);
  fillRandom(&b[0], long(b.size()), 2);
  fillRandom(&c[0], long(c.size()), 3);
  double cNorm = frobenius(&c[0], long(c.size()));
  flatValarray(a, b, c, n, k);
  printMatrix("flat-valarray", k,
              frobenius(&a[0], long(a.size())) * frobenius(&b[0], long(b.size())) +
                  cNorm,
              &c[0], n, n, n, 1);

  std::valarray<std::valarray<double>> A(std::valarray<double>(k), n),
      B(std::valarray<double>(n), k), OUT(std::valarray<double>(-7.0, n), n);
  double na = 0, nb = 0;
  for (int i = 0; i < n; i++) {
    fillRandom(&A[i][0], k, 10 + i);
    na += frobenius(&A[i][0], k) * frobenius(&A[i][0], k);
  }
  for (int i = 0; i < k; i++) {
    fillRandom(&B[i][0], n, 40 + i);
    nb += frobenius(&B[i][0], n) * frobenius(&B[i][0], n);
  }
  matMul(A, B, &OUT);
  std::vector<double> flat;
  for (auto &row : OUT)
    flat.insert(flat.end(), std::begin(row), std::end(row));
  printMatrix("valarray-rows", k, std::sqrt(na * nb), flat.data(), n, n, n, 1);

  std::vector<std::valarray<float>> x(m, std::valarray<float>(12));
  std::array<float, 12 * 7> w;
  std::vector<std::vector<float>> out(m, std::vector<float>(7, -7.0f));
  double nx = 0;
  for (int i = 0; i < m; i++) {
    fillRandom(&x[i][0], 12, 70 + i);
    nx += frobenius(&x[i][0], 12) * frobenius(&x[i][0], 12);
  }
  fillRandom(w.data(), long(w.size()), 99);
  rowsOfValarrays(x, w, &out, m);
  std::vector<float> flatF;
  for (auto &row : out)
    flatF.insert(flatF.end(), row.begin(), row.end());
  printMatrix("vector-of-valarrays", 12,
              std::sqrt(nx) * frobenius(w.data(), long(w.size())), flatF.data(),
              m, 7, 7, 1);
  return 0;
}
