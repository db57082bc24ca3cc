//===- problem.h - One product's operands for e2e programs ------*- C++ -*-===//
//
// A (m x k), B (k x n) and C (m x n) filled from a seed, C between guard
// cells; print shows C, whether A and B kept their values and whether the
// guards held, so that a write outside C shows.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_E2E_PROBLEM_H
#define GEMM_OPT_E2E_PROBLEM_H

#include "e2e_util.h"
#include "guard_cells.h"

#include <vector>

template <class T> struct Problem {
  int m, n, k;
  std::vector<T> a, b, a0, b0, c;
  double scale = 0;
  Problem(int m, int n, int k, unsigned seed)
      : m(m), n(n), k(k), a(size_t(m) * k), b(size_t(k) * n),
        c(guarded<T>(long(m) * n)) {
    fillRandom(a.data(), long(a.size()), seed);
    fillRandom(b.data(), long(b.size()), seed + 1);
    fillRandom(C(), long(m) * n, seed + 2);
    a0 = a;
    b0 = b;
    scale = frobenius(a.data(), long(a.size())) *
                frobenius(b.data(), long(b.size())) +
            frobenius(C(), long(m) * n);
  }
  T *C() { return c.data() + GUARD; }
  /// C with element (row, col) at C()[row * rowStride + col * colStride]
  /// (row-major where not given).
  void print(const char *label, long rowStride = 0, long colStride = 1) {
    printMatrix(label, k, scale, C(), m, n, rowStride ? rowStride : n,
                colStride);
    std::printf("inputs %s %s\n", label,
                a == a0 && b == b0 ? "kept" : "changed");
    checkGuards(label, c);
  }
};

#endif // GEMM_OPT_E2E_PROBLEM_H
