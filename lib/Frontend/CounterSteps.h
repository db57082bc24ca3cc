//===- CounterSteps.h - Loop counters stepped mid-body ----------*- C++ -*-===//
//
// `do { ...; col--; pIn2 = pInB + (N - col); } while (col > 0);` steps its
// counter before the end of its body, so the statements after the step
// read the stepped value. Read as `...; pIn2 = pInB + (N - (col - 1));
// col--;` it steps at the end of each iteration like any counted loop, and
// loop shapes and pointer walks count it as one.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_COUNTERSTEPS_H
#define GEMM_OPT_LIB_FRONTEND_COUNTERSTEPS_H

#include "NestScope.h"

namespace mlir::gemm {

/// Moves to the end of its body the step of each loop of scope.outer that
/// has no step in its header and whose body steps a variable of its test
/// once, in a statement of its own that no later statement of the body
/// follows with a change of that variable; reads after the step become
/// the stepped value. Puts the AST back as it was when destroyed.
class CounterSteps {
public:
  explicit CounterSteps(NestScope &scope);
  ~CounterSteps();
  CounterSteps(const CounterSteps &) = delete;
  CounterSteps &operator=(const CounterSteps &) = delete;

private:
  clang::ASTContext &ctx;
  /// Slots this rewrite changed, with what they held.
  std::vector<std::pair<clang::Stmt **, clang::Stmt *>> slots;

  void sink(clang::Stmt *s);
  /// Reads of `var` in `slot` become `(var op by)`.
  void readStepped(clang::Stmt *&slot, const clang::VarDecl *var,
                   clang::Expr *by, clang::BinaryOperatorKind op);
  void replace(clang::Stmt *&slot, clang::Stmt *with);
};

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_COUNTERSTEPS_H
