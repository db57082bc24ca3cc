//===- CopiedLocals.h - Locals that copy a value set before the nest -*- C++ -*-===//
#ifndef GEMM_OPT_LIB_FRONTEND_COPIEDLOCALS_H
#define GEMM_OPT_LIB_FRONTEND_COPIEDLOCALS_H

#include "NestScope.h"

namespace mlir::gemm {

/// Once the walk knows what the nest writes: each integer local that the
/// nest reads but never changes, set before it (`int wr = R->nCol;`) to a
/// read of a variable, member, pointee or constant element that is
/// loop-invariant, without side effects and unchanged
/// between that statement and the nest (no statement there writes memory,
/// calls, or changes the local or a variable the value reads), reads as
/// that value (scope.boundValues): `pr[wr * i + j]` and `pr[R->nCol * i +
/// j]` are one element.
void bindCopies(NestScope &scope);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_COPIEDLOCALS_H
