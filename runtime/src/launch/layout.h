//===- layout.h - Address arithmetic on strided operands --------*- C++ -*-===//
//
// run() must prove, before the GPU writes C, that C shares no byte with A or B
// and that no two elements of C share an address; otherwise the result would
// depend on the order in which threads run.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_LAYOUT_H
#define GEMM_RUNTIME_LAYOUT_H

#include "gemm_runtime.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gemm_rt::detail {

/// The shape of one operand: batch x rows x cols elements.
struct Extents {
  int64_t batch, rows, cols;
};

/// The bytes [begin, end) from an operand's lowest to its highest element,
/// including whatever lies between them.
struct Span {
  uintptr_t begin, end;

  size_t size() const { return end - begin; }
  bool overlaps(const Span &other) const {
    return begin < other.end && other.begin < end;
  }
};

/// Bytes per element of `dtype`.
size_t elementSize(DType dtype);

/// `op` from its element (b0, r0, c0) on: the operand of a slice of the
/// matrices. Integer arithmetic, so a null `op` (a choice weighed on no
/// data) stays defined.
Operand operandAt(const Operand &op, int64_t b0, int64_t r0, int64_t c0,
                  size_t elementSize);

/// Rows [row0, row0 + rows) of each of p's C matrices, with the rows of A
/// and of the bias that make them: a product of its own, of the same K.
Problem rowSlice(const Problem &p, int64_t row0, int64_t rows);

/// The span of `op` with extents `e` (all positive); strides may be any sign.
Span spanOf(const Operand &op, const Extents &e, size_t elementSize);

/// True if no two elements of `op` share an address. The test is sufficient,
/// not necessary: each stride must step past everything the smaller strides
/// reach, which holds for every row- or column-major layout.
bool isOneToOne(const Operand &op, const Extents &e);

/// Why C, whose bytes are `c`, must not be written by anything but the
/// loop, or null: one of `c` holds a scalar of `reads`, which the loop would
/// read as it rewrites it.
const char *holdsRead(const std::vector<Span> &c, const ScalarReads &reads);

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_LAYOUT_H
