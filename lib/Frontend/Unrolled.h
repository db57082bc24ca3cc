//===- Unrolled.h - Bodies that are copies of one body ----------*- C++ -*-===//
#ifndef GEMM_OPT_LIB_FRONTEND_UNROLLED_H
#define GEMM_OPT_LIB_FRONTEND_UNROLLED_H

#include "NestScope.h"

namespace mlir::gemm {

/// Whether `body`, the statements of source loop `within` inside the loop
/// `loop` that steps by `count`, is `count` copies of one body with the
/// induction variable of `loop` moved on by 0, 1, ..., count - 1: the body
/// of `loop` unrolled and jammed into `within`. The copies follow each
/// other, or interleave where each copy's statements keep the order of the
/// first's (a register block written row pair by row pair); `copyOf`
/// receives each statement's copy. The copies share no variable that one
/// of them assigns, but for loop induction variables, so they may run in
/// any order.
bool areJammedCopies(NestScope &scope, llvm::ArrayRef<const clang::Stmt *> body,
                     int loop, int within, int64_t count,
                     std::vector<int64_t> &copyOf);

/// Appends the terms of the sum `e` (`t1 + t2 + ...`, any grouping) to
/// `terms`, looking through parentheses, and through implicit casts too
/// where `implicitCasts` says so.
void sumTerms(const clang::Expr *e, std::vector<const clang::Expr *> &terms,
              bool implicitCasts = false);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_UNROLLED_H
