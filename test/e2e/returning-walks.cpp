// Walks that return to where they started (a row pointer moved forward per
// K step and back by the row's bytes per column) and CMSIS-style counters
// (an integer stepped like a pointer, a column counter stepped before the
// end of the body, B's column re-based for the next column), run as written
// and as rewritten on the same inputs.
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

typedef unsigned long uptr;

static void rowBack(unsigned n, const double *A, const double *B, double *C) {
  uptr rowBytes = n << 3;
  const double *a = A;
  for (unsigned i = 0; i < n; i++) {
    for (unsigned j = 0; j < n; j++) {
      double s = 0;
      for (unsigned p = 0; p < n; p++)
        s += *a++ * B[p * n + j];
      a = (const double *)((uptr)a - rowBytes);
      C[i * n + j] = s;
    }
    a += n;
  }
}

static void rebased(const float *pA, const float *pB, float *pC, unsigned M, unsigned N, unsigned K) {
  unsigned i = 0, row = M, col, c;
  do {
    float *px = pC + i;
    const float *pIn2 = pB;
    col = N;
    do {
      const float *pIn1 = pA;
      float sum = 0.f;
      c = K;
      while (c > 0U) {
        sum += *pIn1++ * *pIn2;
        pIn2 += N;
        c--;
      }
      *px++ = sum;
      col--;
      pIn2 = pB + (N - col);
    } while (col > 0U);
    i = i + N;
    pA = pA + K;
    row--;
  } while (row > 0U);
}

int main() {
  const unsigned sizes[][3] = {{24, 24, 24}, {37, 29, 45}, {1, 7, 3}};
  for (const unsigned *s : sizes) {
    unsigned m = s[0], n = s[1], k = s[2];
    std::vector<double> a(size_t(m) * m), b(size_t(m) * m), c(size_t(m) * m);
    fillRandom(a.data(), long(a.size()), 1);
    fillRandom(b.data(), long(b.size()), 2);
    rowBack(m, a.data(), b.data(), c.data());
    double scale = frobenius(a.data(), long(a.size())) *
                   frobenius(b.data(), long(b.size()));
    printMatrix("row-back", m, scale, c.data(), m, m, m, 1);
    std::vector<float> fa(size_t(m) * k), fb(size_t(k) * n), fc(size_t(m) * n);
    fillRandom(fa.data(), long(fa.size()), 3);
    fillRandom(fb.data(), long(fb.size()), 4);
    rebased(fa.data(), fb.data(), fc.data(), m, n, k);
    scale = frobenius(fa.data(), long(fa.size())) *
            frobenius(fb.data(), long(fb.size()));
    printMatrix("rebased", k, scale, fc.data(), m, n, n, 1);
  }
  return 0;
}
