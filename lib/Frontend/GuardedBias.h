//===- GuardedBias.h - A bias assigned under a test -------------*- C++ -*-===//
//
// `float v = 0; if (bias) v = bias[o];` (or `if (bias_term)`, a layer's
// flag) gives v the value `bias ? bias[o] : 0`, which the contraction reads
// as a bias under its guard. GuardedBias makes the declaration say so for
// the time of one recognition: the `if` becomes an empty statement and the
// declaration's initialiser the `?:`. `if (bias) acc += bias[o];` after the
// K loop becomes `acc += bias ? bias[o] : 0` the same way.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_GUARDEDBIAS_H
#define GEMM_OPT_LIB_FRONTEND_GUARDEDBIAS_H

#include "NestScope.h"

#include "clang/AST/Decl.h"

namespace mlir::gemm {

/// Folds every `T x = 0; if (g) x = e;` and `if (g) x += e;` of
/// scope.outer in place (the `if` with no else, and no branch that a
/// versioned recognition fixes), and puts the AST back as it was when
/// destroyed.
class GuardedBias {
public:
  explicit GuardedBias(NestScope &scope);
  ~GuardedBias();
  GuardedBias(const GuardedBias &) = delete;
  GuardedBias &operator=(const GuardedBias &) = delete;

private:
  clang::ASTContext &ctx;
  /// Block slots and initialisers this fold changed, with what they held.
  std::vector<std::pair<clang::Stmt **, clang::Stmt *>> slots;
  std::vector<std::pair<clang::VarDecl *, clang::Expr *>> inits;

  void fold(clang::Stmt *s);
  /// Puts `x op= g ? e : 0` in `slot` for `branch`, `if (g) x op= e;`
  /// (`assign`), where op is + or - on floating-point values.
  bool addsGuarded(clang::Stmt **slot, clang::IfStmt *branch,
                   const clang::BinaryOperator *assign);
};

/// Where `e` is `g ? x : 0` (or `g ? 0 : x`) with g not loop-invariant,
/// why: "whether 'acc' starts at 'bias[j]' depends on 'flag', which is
/// assigned inside the nest" (`what` says what the choice decides).
std::optional<std::string> varyingGuard(const clang::Expr *e, NestScope &scope,
                                        const std::string &what);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_GUARDEDBIAS_H
