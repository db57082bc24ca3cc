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

/// The same rule for a `?:` (`beta == 0 ? X : X + beta*C`, or `beta == 0 ?
/// 0 : beta*C` where an accumulator starts), for the time of one
/// recognition: each such `?:` of scope.outer reads as the arm that reads
/// C. C is the left side of the assignment that stores the `?:`; where the
/// zero arm is 0, any element, which the accumulator's check then requires
/// to be the one it is stored to. The AST is put back when destroyed.
class BetaChoices {
public:
  explicit BetaChoices(NestScope &scope);
  ~BetaChoices();
  BetaChoices(const BetaChoices &) = delete;
  BetaChoices &operator=(const BetaChoices &) = delete;

private:
  NestScope &scope;
  std::vector<std::pair<clang::Stmt **, clang::Stmt *>> slots;

  void fold(clang::Stmt *s, const clang::Expr *target);
};

/// The one assignment `x = e` that an arm holds, braced or not, or null.
const clang::BinaryOperator *soleAssignment(const clang::Stmt *arm,
                                            bool compound = false);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_BETASTORE_H
