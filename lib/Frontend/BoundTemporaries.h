//===- BoundTemporaries.h - Values of scalars assigned in the nest -*- C++ -*-===//
#ifndef GEMM_OPT_LIB_FRONTEND_BOUNDTEMPORARIES_H
#define GEMM_OPT_LIB_FRONTEND_BOUNDTEMPORARIES_H

#include "NestScope.h"

namespace mlir::gemm {

/// Finds the integer locals of `function` that the nest sets only by
/// statements `x = e;` and reads only where one such statement reaches the
/// read on every path (f2c's `i__2 = *m;` before each loop it bounds), and
/// that no read after the nest needs: fills scope.boundValues (each read's
/// e) and scope.boundAssignments (which the walk skips).
void bindTemporaries(NestScope &scope, const clang::FunctionDecl *function);

/// Once the walk knows what the nest writes: rejects a bound value that is
/// not loop-invariant.
bool checkBoundValues(NestScope &scope);

/// Whether no value that the nest gives `var` is read after it: every read
/// outside the nest is preceded, on every path from the nest, by an
/// assignment `var = e;` (C89 and f2c code reuse one `temp` in every nest).
bool deadAfterNest(const NestScope &scope, const clang::VarDecl *var,
                   const clang::FunctionDecl *function);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_BOUNDTEMPORARIES_H
