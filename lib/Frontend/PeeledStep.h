//===- PeeledStep.h - A step of the sum ahead of its loop ----*- C++ -*-===//
//
// Code that avoids zeroing C computes the sum's first step as a plain
// product ahead of the reduction loop and starts that loop one step later
// (`C[i][j] = A[i][0] * B[0][j]; for (k = 1; k < K; ++k) C[i][j] += ...`;
// the same with a scalar `double s = a[i*q] * b[j];`). That product is a
// GEMM over the whole reduction where it multiplies the elements that the
// loop's product reads one step before its first iteration (or after its
// last, for loops that count down): K is then extended by that step.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_PEELEDSTEP_H
#define GEMM_OPT_LIB_FRONTEND_PEELEDSTEP_H

#include "Contraction.h"

namespace mlir::gemm {

/// Extends dimension `k` (the reduction, of extent `extent`: one loop's)
/// over the step `peeled` computes, moving `x` and `y` (the product's
/// factors) to start there, where `peeled` multiplies their elements at
/// that step. `matched`
/// pairs the peeled statement's own loops with the product's loops they
/// run alongside (a fused init's, Recognizer::checkInit). The step runs
/// even where the loop runs no iteration, so the launcher runs only where
/// the loop's extent is not negative (a precondition). Else rejects.
bool foldPeeledStep(NestScope &scope, const PeeledStep &peeled,
                    const std::vector<std::pair<int, int>> &matched, int k,
                    Access &x, Access &y, SymExpr &extent);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_PEELEDSTEP_H
