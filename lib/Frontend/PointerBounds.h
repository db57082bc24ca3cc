//===- PointerBounds.h - Loops that run a pointer to an end -----*- C++ -*-===//
//
// `for (; cc != ccend; ++a, ++cc)` (ODE's matrix products) counts no
// integer: it runs a pointer that it steps until the pointer reaches an end
// pointer. Where the end is the pointer's start plus n elements and each
// iteration moves the pointer by a constant s, the loop runs n / s times
// (rounded as its test says): the rest of the front end reads it as a
// loop counting those iterations, and pointer walks (PointerWalk.cpp)
// follow the pointer as any bumped pointer.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_POINTERBOUNDS_H
#define GEMM_OPT_LIB_FRONTEND_POINTERBOUNDS_H

#include "NestScope.h"

namespace mlir::gemm {

/// Whether `cond` compares two pointers with `<`, `<=`, `>`, `>=` or `!=`.
bool comparesPointers(const clang::Expr *cond);

/// `loop`, whose test `cond` compares pointers (parseLoop has read its
/// statement, body and kind; `inc` is a `for`'s increment), as a loop over
/// a counter of its iterations, from 0 by 1 below their number. Or a
/// rejection that says why the pointer's steps count no iterations: the
/// end moves in the loop or is not the start plus a number of elements,
/// the pointer moves other than by a constant once per iteration, or a
/// step may jump over the end.
std::optional<SourceLoop> readPointerBound(SourceLoop loop,
                                           const clang::Expr *cond,
                                           const clang::Stmt *inc,
                                           NestScope &scope);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_POINTERBOUNDS_H
