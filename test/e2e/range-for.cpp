// Range-`for` loops over std::views::iota and std::ranges::iota_view (C++20)
// as the loops of a GEMM, and the nest inside a range-`for` over a
// container's elements. C sits between guard cells.
//
// RUN: %host_cxx -std=c++20 -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s -o %t.cu -- -std=c++20 -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -std=c++20 -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
// CHECK-COUNT-2: [-Rpass=gemm]
#include "e2e_util.h"

#include <ranges>
#include <vector>

enum { GUARD = 8 };
const float POISON = 7.25f;

static void iota(int m, int n, int k, const float *A, const float *B,
                 float *C) {
  for (int i : std::views::iota(0, m))
    for (int j : std::ranges::views::iota(0, n)) {
      float s = 0;
      for (auto l : std::ranges::iota_view(0, k))
        s += A[i * k + l] * B[l * n + j];
      C[i * n + j] = s;
    }
}

static void perSize(const std::vector<int> &ks, int m, int n, const float *A,
                    const float *B, float *C) {
  for (int k : ks)
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++)
        for (int l = 0; l < k; l++)
          C[i * n + j] += A[i * k + l] * B[l * n + j];
}

int main() {
  const int m = 13, n = 11, k = 17;
  std::vector<float> a(m * k), b(k * n), c(m * n + 2 * GUARD, POISON);
  fillRandom(a.data(), m * k, 1);
  fillRandom(b.data(), k * n, 2);
  float *C = c.data() + GUARD;
  iota(m, n, k, a.data(), b.data(), C);
  printMatrix("iota", k, frobenius(a.data(), m * k) * frobenius(b.data(), k * n),
              C, m, n, n, 1);
  perSize({5, 9}, m, n, a.data(), b.data(), C);
  printMatrix("container", k, 3 * frobenius(a.data(), m * k) * frobenius(b.data(), k * n),
              C, m, n, n, 1);
  long broken = 0;
  for (int g = 0; g < GUARD; ++g)
    broken += (c[g] != POISON) + (c[c.size() - 1 - g] != POISON);
  std::printf("guards %ld broken\n", broken);
  return 0;
}
