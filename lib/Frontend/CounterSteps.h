//===- CounterSteps.h - Loop counters stepped mid-body ----------*- C++ -*-===//
//
// `do { ...; col--; pIn2 = pInB + (N - col); } while (col > 0);` steps its
// counter before the end of its body, so the statements after the step
// read the stepped value. Read as `...; pIn2 = pInB + (N - (col - 1));
// col--;` it steps at the end of each iteration like any counted loop, and
// loop shapes and pointer walks count it as one. A `for` whose body is
// empty runs its increment as its body (`for (int k = K; k--; c += a[k] *
// b[k]);` is `for (int k = K; k--;) c += a[k] * b[k];`).
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
/// the stepped value. A `for` with an empty body and an increment first
/// gets the increment's parts as its body. Puts the AST back as it was
/// when destroyed.
class CounterSteps {
public:
  explicit CounterSteps(NestScope &scope);
  ~CounterSteps();
  CounterSteps(const CounterSteps &) = delete;
  CounterSteps &operator=(const CounterSteps &) = delete;

  /// The same for the statements of an inlined call (Inline.h), changed
  /// until `scope` ends.
  static void sinkInlined(NestScope &scope,
                          llvm::ArrayRef<const clang::Stmt *> statements);

private:
  CounterSteps(NestScope &scope, bool untilScopeEnds)
      : scope(scope), ctx(scope.ctx), untilScopeEnds(untilScopeEnds) {}

  NestScope &scope;
  clang::ASTContext &ctx;
  /// Whether changes go to the scope's restore list, not to `slots`.
  bool untilScopeEnds;
  /// Slots this rewrite changed, with what they held.
  std::vector<std::pair<clang::Stmt **, clang::Stmt *>> slots;

  void sink(clang::Stmt *s);
  /// `for (init; cond; e)` with an empty body as `for (init; cond;) e;`.
  void incrementAsBody(clang::ForStmt *loop);
  /// Reads of `var` in `slot` become `(var op by)`.
  void readStepped(clang::Stmt *&slot, const clang::VarDecl *var,
                   clang::Expr *by, clang::BinaryOperatorKind op);
  void replace(clang::Stmt *&slot, clang::Stmt *with);
};

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_COUNTERSTEPS_H
