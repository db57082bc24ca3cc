// f32 products over a matrix type that is a vector of vectors, as small
// C++ numerical and ML code writes it: a product, a Gram matrix X X^T (both
// factors from one table, the second read along its columns), a dense layer
// whose weights are a std::vector of row pointers with a bias and a ReLU,
// and a product of a vector of vectors by a flat std::vector. Every row of
// a result is longer than the matrix, its tail poisoned: the tails must
// come back untouched.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The lifted problems, computed on the CPU (GEMM_OPT_DEVICE=cpu), must agree too.
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
// CHECK: vector-of-vectors.cpp:37:3: remark: GEMM recognised: f32, M x N x K = n x m x k; A row vectors, B row vectors, C row vectors; accumulates into C, alpha = 1, beta = 1
// CHECK: vector-of-vectors.cpp:45:3: remark: GEMM recognised: f32, M x N x K = n x n x d; A row vectors, B column vectors, C row vectors; accumulates in 's', alpha = 1, beta = 0
// CHECK: vector-of-vectors.cpp:58:3: remark: GEMM recognised: f32, M x N x K = batch x outputs x inputs; A row vectors, B column pointers, C row vectors; accumulates in 'acc', alpha = 1, beta = 0; epilogue: + 'bias[o]', max with '0.F' (NaN kept)
// CHECK: vector-of-vectors.cpp:70:3: remark: GEMM recognised: f32, M x N x K = n x m x k; A row vectors, B row-major, C row vectors; fused zero-init of C, alpha = 1, beta = 0
#include "e2e_util.h"

#include <algorithm>
#include <vector>

using Matrix = std::vector<std::vector<float>>;

constexpr size_t kTail = 3;
constexpr float kPoison = -12345.25f;

/// rows x cols, each row kTail longer with a poisoned tail.
static Matrix makeMatrix(size_t rows, size_t cols) {
  return Matrix(rows, std::vector<float>(cols + kTail, kPoison));
}

static void multiplyAdd(const Matrix &a, const Matrix &b, Matrix &c, size_t n,
                        size_t k, size_t m) {
  for (size_t i = 0; i < n; ++i)
    for (size_t p = 0; p < k; ++p)
      for (size_t j = 0; j < m; ++j)
        c[i][j] += a[i][p] * b[p][j];
}

/// g = x x^T for the n rows of x, each of d features.
static void gram(const Matrix &x, Matrix &g, size_t n, size_t d) {
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      float s = 0;
      for (size_t f = 0; f < d; ++f)
        s += x[i][f] * x[j][f];
      g[i][j] = s;
    }
}

/// out = relu(in w^T + bias), w given as one pointer per output row.
static void dense(const Matrix &in, const std::vector<const float *> &w,
                  const std::vector<float> &bias, Matrix &out, int batch,
                  int inputs, int outputs) {
  for (int b = 0; b < batch; ++b)
    for (int o = 0; o < outputs; ++o) {
      float acc = bias[o];
      for (int i = 0; i < inputs; ++i)
        acc += in[b][i] * w[o][i];
      out[b][o] = std::max(acc, 0.f);
    }
}

/// c = a * b with b a flat row-major k x m std::vector.
static void multiplyFlat(const Matrix &a, const std::vector<float> &b,
                         Matrix &c, size_t n, size_t k, size_t m) {
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < m; ++j) {
      c[i][j] = 0;
      for (size_t p = 0; p < k; ++p)
        c[i][j] += a[i][p] * b[p * m + j];
    }
}

static void fill(Matrix &x, size_t rows, size_t cols, unsigned seed) {
  std::vector<float> flat(rows * cols);
  fillRandom(flat.data(), long(flat.size()), seed);
  for (size_t i = 0; i < rows * cols; ++i)
    x[i / cols][i % cols] = flat[i];
}

static std::vector<float> flatten(const Matrix &x, size_t rows, size_t cols) {
  std::vector<float> flat(rows * cols);
  for (size_t i = 0; i < rows * cols; ++i)
    flat[i] = x[i / cols][i % cols];
  return flat;
}

static double norm(const Matrix &x, size_t rows, size_t cols) {
  std::vector<float> flat = flatten(x, rows, cols);
  return frobenius(flat.data(), long(flat.size()));
}

static void print(const char *label, long k, double scale, const Matrix &c,
                  size_t rows, size_t cols) {
  std::vector<float> flat = flatten(c, rows, cols);
  printMatrix(label, k, scale, flat.data(), long(rows), long(cols), long(cols),
              1);
}

/// How many tail elements of x's rows lost their poison.
static long tailsChanged(const Matrix &x, size_t cols) {
  long changed = 0;
  for (size_t i = 0; i < x.size() * kTail; ++i)
    changed += x[i / kTail][cols + i % kTail] != kPoison;
  return changed;
}

int main() {
  const size_t n = 70, k = 33, m = 41;
  Matrix a = makeMatrix(n, k), b = makeMatrix(k, m), c = makeMatrix(n, m);
  fill(a, n, k, 1);
  fill(b, k, m, 2);
  fill(c, n, m, 3);
  const double c0 = norm(c, n, m);
  multiplyAdd(a, b, c, n, k, m);
  print("multiply-add", long(k), norm(a, n, k) * norm(b, k, m) + c0, c, n, m);

  Matrix g = makeMatrix(n, n);
  gram(a, g, n, k);
  print("gram", long(k), norm(a, n, k) * norm(a, n, k), g, n, n);

  // 52 samples of 33 features through 41 outputs.
  const int batch = 52;
  Matrix x = makeMatrix(batch, k), y = makeMatrix(batch, m);
  fill(x, batch, k, 4);
  Matrix weights = makeMatrix(m, k);
  fill(weights, m, k, 5);
  std::vector<const float *> w(m);
  for (size_t o = 0; o < m; ++o)
    w[o] = weights[o].data();
  std::vector<float> bias(m);
  fillRandom(bias.data(), long(m), 6);
  dense(x, w, bias, y, batch, int(k), int(m));
  print("dense", long(k),
        norm(x, batch, k) * norm(weights, m, k) +
            frobenius(bias.data(), long(m)) * 8,
        y, batch, m);

  std::vector<float> flatB = flatten(b, k, m);
  Matrix f = makeMatrix(n, m);
  multiplyFlat(a, flatB, f, n, k, m);
  print("flat", long(k), norm(a, n, k) * norm(b, k, m), f, n, m);

  std::printf("tails changed: %ld %ld %ld %ld %ld\n", tailsChanged(c, m),
              tailsChanged(g, n), tailsChanged(y, m), tailsChanged(f, m),
              tailsChanged(a, k));
  return 0;
}
