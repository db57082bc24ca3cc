// Products that go through a temporary (Temporary.cpp): each K loop sums a
// clean product, and the nest uses the sum in a way no epilogue covers: a
// bias scaled with the sum, ncnn's gemm_transB (C broadcast into the sum by
// a chain of ifs, then alpha, then a store that a flag transposes), and
// rows pushed into a local vector of vectors, a per-column scale read
// through a pointer that a flag moves. The launcher computes the
// product into the temporary, then the nest runs as written with its K
// loop reading it. A store into B's memory makes the run-time check run
// the loop as written. Guard cells around every array must keep their
// values.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The lifted problems, computed on the CPU (GEMM_OPT_DEVICE=cpu), must agree too.
// RUN: env GEMM_OPT_DEVICE=cpu GEMM_OPT_TRACE=1 %t.gpu > %t.lifted 2> %t.trace
// RUN: %python %S/compare.py %t.expected %t.lifted
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace
// CHECK-COUNT-4: the product goes through a temporary of {{.*}} [-Rpass=gemm]
// The scaled bias, the scales twice, gemm_transB twice (the overlapping call
// runs the loop), and the vector of vectors.
// TRACE-COUNT-6: ran on the CPU reference
// TRACE-NOT: ran on the CPU reference
#include "e2e_util.h"

#include <cstddef>
#include <vector>

static const float poison = -7.0f;
static const long guard = 8;

// A quantised layer's reference: the bias is scaled with the sum.
static void scaledBias(float *out, const float *x, const float *w,
                       const float *qBias, float scale, int M, int N, int K) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float sum = qBias[j];
      for (int k = 0; k < K; k++)
        sum += x[i * K + k] * w[j * K + k];
      out[i * N + j] = sum * scale;
    }
}

// ncnn's gemm_transB.
static void gemmTransB(const float *a, const float *b, const float *c,
                       float *top, int M, int N, int K, int broadcastC,
                       float alpha, float beta, int transposed, int ldTop) {
  for (int i = 0; i < M; i++) {
    for (int j = 0; j < N; j++) {
      float sum = 0.f;
      if (c) {
        if (broadcastC == 0)
          sum = c[0] * beta;
        if (broadcastC == 1)
          sum = c[i] * beta;
        if (broadcastC == 3)
          sum = c[i * N + j] * beta;
        if (broadcastC == 4)
          sum = c[j] * beta;
      }
      for (int k = 0; k < K; k++)
        sum += a[i * K + k] * b[j * K + k];
      sum *= alpha;
      if (transposed)
        top[j * ldTop + i] = sum;
      else
        top[i * ldTop + j] = sum;
    }
  }
}

// A per-column scale read through a pointer that a flag moves.
static void perColumn(float *out, const float *x, const float *w,
                      const float *scales, int perChannel, int M, int N,
                      int K) {
  for (int i = 0; i < M; i++) {
    const float *sp = scales;
    for (int j = 0; j < N; j++) {
      float sum = 0;
      for (int k = 0; k < K; k++)
        sum += x[i * K + k] * w[j * K + k];
      out[i * N + j] = sum * *sp;
      if (perChannel)
        sp++;
    }
  }
}

using Rows = std::vector<std::vector<double>>;

static Rows multiply(const Rows &A, const Rows &B) {
  Rows C;
  std::size_t n = B[0].size();
  for (std::size_t i = 0; i < A.size(); i++) {
    std::vector<double> row;
    for (std::size_t j = 0; j < n; j++) {
      double s = 0;
      for (std::size_t k = 0; k < B.size(); k++)
        s += A[i][k] * B[k][j];
      row.push_back(s);
    }
    C.push_back(row);
  }
  return C;
}

/// A buffer of n floats with `guard` poisoned cells on each side.
static std::vector<float> guarded(long n) {
  return std::vector<float>(n + 2 * guard, poison);
}

static void checkGuards(const char *label, const std::vector<float> &v) {
  long n = long(v.size());
  for (long i = 0; i < guard; ++i)
    if (v[i] != poison || v[n - 1 - i] != poison)
      std::printf("guard of %s overwritten\n", label);
}

int main() {
  const int M = 37, N = 29, K = 45;
  std::vector<float> x = guarded(long(M) * K), w = guarded(long(N) * K),
                     bias = guarded(N), out = guarded(long(M) * N);
  fillRandom(x.data() + guard, long(M) * K, 3);
  fillRandom(w.data() + guard, long(N) * K, 5);
  fillRandom(bias.data() + guard, N, 7);
  scaledBias(out.data() + guard, x.data() + guard, w.data() + guard,
             bias.data() + guard, 0.75f, M, N, K);
  double xw = frobenius(x.data() + guard, long(M) * K) *
              frobenius(w.data() + guard, long(N) * K);
  printMatrix("scaled_bias", K, 0.75 * xw + 0.75 * M, out.data() + guard, M,
              N, N, 1);
  for (const auto *v : {&x, &w, &bias, &out})
    checkGuards("scaledBias", *v);

  // The scale per column, then one scale for all.
  for (int pass = 0; pass < 2; ++pass) {
    perColumn(out.data() + guard, x.data() + guard, w.data() + guard,
              bias.data() + guard, pass == 0, M, N, K);
    printMatrix(pass ? "one_scale" : "per_column", K, xw, out.data() + guard,
                M, N, N, 1);
    for (const auto *v : {&x, &w, &bias, &out})
      checkGuards("perColumn", *v);
  }

  // gemm_transB: C broadcast per row, output transposed with a padded
  // leading dimension; then per element, not transposed.
  const int ld = M + 3;
  std::vector<float> c = guarded(long(M) * N), top = guarded(long(N) * ld);
  fillRandom(c.data() + guard, long(M) * N, 11);
  for (int pass = 0; pass < 2; ++pass) {
    std::fill(top.begin() + guard, top.end() - guard, 0.5f);
    gemmTransB(x.data() + guard, w.data() + guard, c.data() + guard,
               top.data() + guard, M, N, K, pass ? 3 : 1, 1.5f, 0.25f,
               pass == 0, pass ? N : ld);
    if (pass == 0)
      printMatrix("transB_transposed", K, 1.5 * xw + 1.5 * M, top.data() + guard,
                  M, N, 1, ld);
    else
      printMatrix("transB", K, 1.5 * xw + 1.5 * M * N, top.data() + guard, M,
                  N, N, 1);
    for (const auto *v : {&x, &w, &c, &top})
      checkGuards("gemmTransB", *v);
  }

  // The output written over B's rows: B is read after the nest's stores
  // begin, so the run-time check runs the loop as written.
  std::vector<float> ab = guarded(long(N) * K + long(M) * N);
  fillRandom(ab.data() + guard, long(N) * K + long(M) * N, 13);
  float *bAndTop = ab.data() + guard;
  gemmTransB(x.data() + guard, bAndTop, nullptr, bAndTop + 2 * K, M, N, K, 0,
             1.0f, 0.0f, 0, N);
  printMatrix("transB_over_B", K, 4 * xw + 4.0, bAndTop, K + M, N, N, 1);
  checkGuards("gemmTransB over B", ab);

  // The vector of vectors.
  const int m = 13, n = 17, k = 19;
  Rows A(m, std::vector<double>(k)), B(k, std::vector<double>(n));
  for (int r = 0; r < m; ++r)
    fillRandom(A[r].data(), k, 17 + r);
  for (int r = 0; r < k; ++r)
    fillRandom(B[r].data(), n, 41 + r);
  Rows C = multiply(A, B);
  std::vector<double> flat;
  for (const auto &row : C)
    flat.insert(flat.end(), row.begin(), row.end());
  printMatrix("vector_of_vectors", k, double(m) * k * n, flat.data(), m, n, n,
              1);
  return 0;
}
