//===- rows.h - Operands whose rows are separate allocations ----*- C++ -*-===//
//
// A table of rows (`T **`, a vector of vectors) travels as any host operand
// does, its rows gathered into the pinned ring (pack.h's Table). Its rows
// may lie anywhere, so run() compares C's rows with every row and span of
// the inputs before the GPU may write C, and C's panels go back into
// exactly the elements the loop writes.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_ROWS_H
#define GEMM_RUNTIME_ROWS_H

#include "launch/layout.h"

namespace gemm_rt::detail {

/// Why running p on copies of its tables would change what the loop
/// computes, or null: a row of C overlapping another row of C, a row or
/// span of A, B or the bias, or a scalar the nest reads through a pointer;
/// or a strided C whose layout is not one-to-one.
const char *rowOverlap(const Problem &p, const RowOperands &rows);

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_ROWS_H
