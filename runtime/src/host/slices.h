//===- slices.h - A split call in slices of K -------------------*- C++ -*-===//
//
// A call split over several GPUs runs in slices of K where each GPU holds
// its rows of C: a slice's rows of B are gathered once and sent to every
// GPU, each GPU's rows of A for the slice's columns go to that GPU, and each
// GPU adds the slice's product into its rows of C as soon as they have
// landed, while the host gathers the next slices. No GPU waits for a whole
// operand, and every element of A, B and C crosses the host once. The last
// slice runs in bands, each sent back and scattered while the next runs.
// The sum over K is then C's partial sums added in slice order; alpha
// scales every slice, beta only the first, the epilogue ends the last.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_SLICES_H
#define GEMM_RUNTIME_SLICES_H

#include "host/gpus.h"

namespace gemm_rt::detail {

/// Runs p (A, B and C host memory; the bias on each share's GPU already,
/// at `biasOn[i]` for share i) as `split` says, on the calling thread.
/// Returns each share's last choice of kernel, once all of C is back.
std::vector<Choice> runSlices(const Problem &p, const Plan &plan,
                              const Split &split,
                              const std::vector<Operand> &biasOn);

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_SLICES_H
