//===- rows.h - Operands whose rows are separate allocations ----*- C++ -*-===//
//
// A table of rows (`T **`, a vector of vectors) reaches the GPU as a
// contiguous host copy, which then travels as any host operand does. Its
// rows may lie anywhere, so run() compares C's rows with every row and span
// of the inputs before the GPU may write C, and the copy of C goes back
// into exactly the elements the loop writes.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_ROWS_H
#define GEMM_RUNTIME_ROWS_H

#include "layout.h"

#include <vector>

namespace gemm_rt::detail {

/// Why running p on copies of its tables would change what the loop
/// computes, or null: a row of C overlapping another row of C, a row or
/// span of A, B or the bias, or a scalar the nest reads through a pointer.
const char *rowOverlap(const Problem &p, const RowOperands &rows);

/// The contiguous host copy of a table of rows: row r of the table at
/// r * (its length) elements. Its copies run on the copy threads (pack.h),
/// which serve one caller at a time: the caller serialises them.
class RowCopy {
public:
  RowCopy(const Rows &rows, const Extents &extents, size_t elementSize);

  /// The copy as a strided operand.
  Operand dense() const;
  /// Copies the rows into the copy; scatter copies them back.
  void gather();
  void scatter() const;

private:
  template <bool toCopy> void copy(unsigned char *data) const;

  Rows rows;
  int64_t count, length; ///< Rows of the table, elements of each.
  size_t element;
  std::vector<unsigned char> data;
};

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_ROWS_H
