//===- guard_cells.h - Guard cells around results of e2e programs -*- C++ -*-===//
//
// A result between GUARD cells of POISON on each side: a rewrite that writes
// outside the result changes them, and checkGuards prints how many changed
// (a line both programs must print alike).
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_E2E_GUARD_CELLS_H
#define GEMM_OPT_E2E_GUARD_CELLS_H

#include <cmath>
#include <cstdio>
#include <vector>

const int GUARD = 5;
const double POISON = 7.0;

/// n cells of `value` (NaN: a result that is never written shows) between
/// guard cells; the result starts at data() + GUARD.
template <class T> std::vector<T> guarded(long n, T value = T(NAN)) {
  std::vector<T> c(n + 2 * GUARD, T(POISON));
  for (long e = 0; e < n; ++e)
    c[GUARD + e] = value;
  return c;
}

/// Prints how many of the guard cells of `c` (made by guarded) changed.
template <class T> void checkGuards(const char *label,
                                    const std::vector<T> &c) {
  long broken = 0;
  for (long e = 0; e < GUARD; ++e)
    broken += c[e] != T(POISON) || c[c.size() - 1 - e] != T(POISON);
  std::printf("guards %s %ld broken\n", label, broken);
}

#endif // GEMM_OPT_E2E_GUARD_CELLS_H
