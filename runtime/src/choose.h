//===- choose.h - A nest's kernel variant and split-K per problem -*- C++ -*-===//
//
// gemm-opt emits, for a nest whose extents are known only at run time, the
// model's best kernel for several problem sizes; run() picks among them here
// with the model's own terms, once the extents are known.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_CHOOSE_H
#define GEMM_RUNTIME_CHOOSE_H

#include "gemm_runtime.h"

namespace gemm_rt::detail {

/// A variant of a plan and how many ways K is split.
struct Choice {
  int variant;
  int64_t splits;
};

/// The variant and split of `plan` with the least predicted time for `p` on
/// a GPU of `sms` SMs: the variant's rate, at most what DRAM can stream to
/// it, times its fill over the problem's tiles (gemm_fill.h), plus the
/// split's workspace and C traffic at DRAM speed and its second kernel.
/// A plan of one variant without a rate runs as given. GEMM_OPT_CHOICE="v,s"
/// overrides the model where the plan has variant v and K splits s ways,
/// for experiments that time each choice (bench/bench.cu --choices).
Choice choose(const Problem &p, const Plan &plan, int sms);

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_CHOOSE_H
