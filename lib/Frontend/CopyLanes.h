//===- CopyLanes.h - One accumulator per copy of a jammed loop --*- C++ -*-===//
//
// Code that reuses a loaded value across several outputs keeps one
// accumulator per output in an array and runs a short loop over the copies
// at each step (llm.c's matmul_forward: `float result[8]`, set in a loop
// over ibt, summed into by `result[ibt] += ...` in a loop over ibt inside
// the K loop, stored in a third loop over ibt). Element ibt belongs to
// copy ibt alone, so the copies can run one after the other: one loop over
// the copies around the statements, each with a scalar accumulator.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_COPYLANES_H
#define GEMM_OPT_LIB_FRONTEND_COPYLANES_H

#include "NestScope.h"

namespace mlir::gemm {

/// In `statements`, one block of the nest, reads each local floating-point
/// array `r` of U elements that is indexed only as `r[x]` inside loops over
/// x in [0, U) (the copy loops) as one scalar per copy: from the first
/// statement that names r to the last, the statements become one loop over
/// the copies, in which the copy loops are their bodies at that copy, `r[x]`
/// is the scalar r, and the loops around copy loops run in each copy.
/// That reorders the copies' effects, so it holds only where copies share
/// nothing they write: a copy loop assigns no variable declared outside it,
/// and the statements outside the copy loops are scalar declarations,
/// assignments `v = e` (e reading no v) and loops around copy loops. Memory the copies write is left to the
/// recognition (only C's elements, which the GEMM proves distinct; the
/// runtime checks that C overlaps no operand). `statements` changes in
/// place, and the AST until the scope ends. An array indexed by a loop
/// index that breaks a rule stays, with the rule in scope.laneObstacles.
void readCopyLanes(NestScope &scope,
                   std::vector<const clang::Stmt *> &statements);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_COPYLANES_H
