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

#include <mutex>

namespace gemm_rt::detail {

/// The copies live in buffers that grow and are kept, one per operand and
/// per GPU (and per operand on the host), so that repeated calls allocate
/// nothing; a Widened holds them until it is destroyed, one call at a time.
/// Kernels that use them are ordered on the default stream.
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
  Operand widen(const Operand &op, int64_t rows, int64_t cols, bool read,
                int slot);

  std::unique_lock<std::mutex> lock;
  const Problem &p;
  Problem wide;
  /// Where C lies: the GPU that holds it (-1: host memory), and whether
  /// the host may read it as soon as the call returns (managed memory).
  int cDevice = -1;
  bool cManaged = false;
};

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_WIDEN_H
