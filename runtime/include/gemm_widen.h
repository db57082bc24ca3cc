//===- gemm_widen.h - Float matrices summed in double -----------*- C++ -*-===//
//
// A loop that sums float elements in a `double` accumulator computes the
// product in double and rounds each element of C to float once. Its
// launcher runs the double kernels on double copies of the operands: A, B,
// the bias and (where beta reads it) C are widened where they lie (host
// memory on the host, GPU memory by a kernel on their GPU), the double
// problem runs as any other, and C's elements are rounded back to float.
//
// Apart from gemm_runtime.h, since the kernels do not depend on it: a
// tuning database's rows stay valid.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_WIDEN_H
#define GEMM_WIDEN_H

#include "gemm_runtime.h"

namespace gemm_rt {

/// run() for `p`, a problem in double whose A, B, C and bias point at
/// floats. The checks that send a call to its loop (overlaps, the
/// profitability rule) look at the floats, before anything is copied.
bool runWidened(const Problem &p, const Plan &plan);

/// runWidened() with one kernel and no split.
bool runWidened(const Problem &p, LaunchFn launch);

} // namespace gemm_rt

#endif // GEMM_WIDEN_H
