//===- widen.h - Double copies of float operands ----------------*- C++ -*-===//
//
// runWidened's copies (gemm_widen.h). Each operand's whole span, from its
// lowest to its highest element, is copied in place order, so that the copy
// keeps the operand's strides and the double problem reads what the float
// one would. C is rounded back element by element: bytes between C's
// elements (padding, other data) are never written.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_WIDEN_H
#define GEMM_RUNTIME_WIDEN_H

#include "gemm_runtime.h"

#include <vector>

namespace gemm_rt::detail {

class Widened {
public:
  /// Double copies of `p`'s float operands, each where the operand lies
  /// (host memory, or the GPU that holds it). C's values are copied only
  /// where beta reads them.
  explicit Widened(const Problem &p);
  ~Widened();
  Widened(const Widened &) = delete;
  Widened &operator=(const Widened &) = delete;

  /// The problem on the copies.
  const Problem &problem() const { return wide; }
  /// Rounds the copy of C into p's C, once the problem has run on it.
  void narrowC() const;

private:
  /// One copy: its buffer, and the GPU it is on (-1: host memory).
  struct Copy {
    double *buffer;
    int device;
  };

  Operand widen(const Operand &op, int64_t rows, int64_t cols, bool read);

  const Problem &p;
  Problem wide;
  std::vector<Copy> copies;
  int cDevice = -1;
};

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_WIDEN_H
