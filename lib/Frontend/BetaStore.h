//===- BetaStore.h - A store that branches on beta --------------*- C++ -*-===//
#ifndef GEMM_OPT_LIB_FRONTEND_BETASTORE_H
#define GEMM_OPT_LIB_FRONTEND_BETASTORE_H

#include "NestScope.h"

namespace mlir::gemm {

/// The reference BLAS's store of a dot product (TN and TT), `if (beta == 0)
/// C = X; else C = X + beta*C;` (the terms and factors in either order, or
/// `!= 0` with the arms swapped), each arm one assignment of the same
/// element: the arm that reads C, which computes both once beta folds into
/// the GEMM's beta, whose beta == 0 never reads C as BLAS requires. Adds a
/// note for the remark. Null for any other branch; for two stores of one
/// element that differ otherwise, with the rejection.
const clang::Stmt *foldBetaStore(const clang::IfStmt *branch,
                                 NestScope &scope);

/// The one assignment `x = e` that an arm holds, braced or not, or null.
const clang::BinaryOperator *soleAssignment(const clang::Stmt *arm);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_BETASTORE_H
