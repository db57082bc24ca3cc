//===- LoopHeader.h - The values a loop's variable takes --------*- C++ -*-===//
//
// A source loop as written (its variable, start, test, step) and as the
// values it takes: affine forms over the loops around it (LoopHeader.cpp),
// read by LoopShape.cpp, which groups loops into dimensions.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_LOOPHEADER_H
#define GEMM_OPT_LIB_FRONTEND_LOOPHEADER_H

#include "NestScope.h"

namespace mlir::gemm {

/// A loop's header as forms over the source loops around it.
struct LoopHeader {
  /// The start; none where the loop continues from the loop before it.
  std::optional<AffineForm> start;
  /// Counting up: iv < every bound. Counting down: iv >= the one bound.
  std::vector<AffineForm> bounds;
  SymExpr step; ///< Added by each iteration; -1 for a loop counting down.
  /// The test reads iv itself (`k < K`), not iv plus an offset.
  bool plainTest = false;
};

/// A step of an integer variable: `++v`, `v--`, `v += e`, `v -= e`, `v =
/// v + e`, `v = e + v`, `v = v - e`.
struct Step {
  const clang::VarDecl *var;
  const clang::Expr *amount; ///< Null for 1.
  bool down;
};
std::optional<Step> asStep(const clang::Stmt *s);

/// A write of `var` in `s`: an assignment, an increment, or its address
/// taken (a pointer could then change it); null if none.
const clang::Expr *findChange(const clang::Stmt *s, const clang::VarDecl *var);

/// The loop `s` as written: its induction variable, start (`start` where a
/// statement before a `while` or `do` sets it), test and step; the step of
/// a loop without one in its header is its body's last statement; a loop
/// that runs a pointer to an end counts the pointer's steps
/// (PointerBounds.h). Rejects loops that count nothing (no integer stepped
/// at the end of each iteration) and bodies that change the variable
/// besides its step.
std::optional<SourceLoop> parseLoop(const clang::Stmt *s, NestScope &scope,
                                    const clang::Expr *start);

/// The header of source loop `loop`, or a rejection that says why its
/// iterations are no counted range (a step of 0, a test that a step jumps
/// over, a counter that wraps, a bound that varies other than with the
/// loops around it).
std::optional<LoopHeader> readHeader(NestScope &scope, int loop);

/// `bound` (a start, step or term of a bound) as a form over the source
/// loops around `loop` (and `loop` itself where `self`), or a rejection that
/// says what makes it vary.
std::optional<AffineForm> boundForm(NestScope &scope, const clang::Expr *bound,
                                    int loop, bool self = false);

/// The source loops around `loop`, outermost first.
std::vector<int> loopsAround(const NestScope &scope, int loop);

/// The form of `loop`'s induction variable over `size` source loops.
AffineForm ivForm(size_t size, int loop);

/// `'text'`, for messages.
std::string quoted(const std::string &text);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_LOOPHEADER_H
