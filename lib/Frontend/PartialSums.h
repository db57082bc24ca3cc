//===- PartialSums.h - Partial sums of one sum, read as it ------*- C++ -*-===//
//
// A dot product is often split into partial sums to break its chain of
// additions: an array of lanes (`float t[8]`, each lane summing every 8th
// term of an unrolled K loop, then t[0] + ... + t[7] added to the result),
// or a scalar that the unrolled loop sums and the remainder loop's sum adds
// at the end. Each is the same sum in another order, which is within the
// error bound that any reordering of the K loop has (the GEMM's too).
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_PARTIALSUMS_H
#define GEMM_OPT_LIB_FRONTEND_PARTIALSUMS_H

#include "NestScope.h"

namespace mlir::gemm {

/// Reads the partial sums of `statements`, one block of the nest, as the
/// sum they split:
/// - an array of lanes declared in the block, each started at zero, summed
///   into only by `t[c] += e` (c a constant lane, e reading no lane) and
///   read only as the sum of all its lanes after that, becomes one scalar
///   `t` (the lanes' sum is the sum of every term);
/// - a scalar started at zero, summed into only, and read only by one
///   `s += t` where s starts at zero in the block and is summed into only
///   in between, becomes s (s's own start and `s += t` go).
/// `statements` changes in place, and the AST until the scope ends. A
/// floating-point array of the block that is no set of partial sums stays,
/// with the dependence that keeps it one in scope.laneObstacles.
void readPartialSums(NestScope &scope,
                     std::vector<const clang::Stmt *> &statements);

/// Whether `s` names `v` only as the target of `v += e`, `v -= e` or
/// `v = v + e`, with e reading neither v nor `w` (where given).
bool accumulatesOnly(const clang::Stmt *s, const clang::VarDecl *v,
                     const clang::VarDecl *w);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_PARTIALSUMS_H
