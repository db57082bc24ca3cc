//===- NestLocals.h - Variables the nest sets before every use --*- C++ -*-===//
//
// C89 code declares its variables at the top of the function and sets them
// in the loops: pointers also under a branch (`pc = broadcast(c, y, oy);`
// in a bias branch), where pointer walks, which follow a pointer through
// the whole nest, cannot; integer indices from the loop indices (`i_col =
// i * n;`). Such a pointer or integer that the nest sets, each set a
// statement of its own, before every use of it in the nest, and that no
// code after the nest reads, is the nest's local: each such set reads as
// the declaration of a fresh variable, and the uses it reaches as that
// variable, as if the code declared it there.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_NESTLOCALS_H
#define GEMM_OPT_LIB_FRONTEND_NESTLOCALS_H

#include "NestScope.h"

namespace mlir::gemm {

/// Declares the pointers that scope.outer sets under a branch, and the
/// integers it sets from what it changes, before every use, where it
/// leaves them dead; puts the AST back when destroyed.
class NestLocals {
public:
  explicit NestLocals(NestScope &scope);
  ~NestLocals();
  NestLocals(const NestLocals &) = delete;
  NestLocals &operator=(const NestLocals &) = delete;

private:
  /// Slots this rewrite changed, with what they held.
  std::vector<std::pair<clang::Stmt **, clang::Stmt *>> slots;
};

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_NESTLOCALS_H
