//===- gemm_fill.h - The cost model's fill term, shared with run() -*- C++ -*-===//
//
// The one part of gemm-opt's cost model (docs/cost-model.md, "Partial tiles
// and waves") that depends on a problem's run-time extents. The compiler
// ranks schedules of static problems with it; the runtime ranks a nest's
// kernel variants and split-K factors with it. Plain C++, no CUDA.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_FILL_H
#define GEMM_FILL_H

#include <cstdint>

namespace gemm_rt {

/// The share of the GPU's block slots that do useful work when `batch`
/// m x n products run as blockM x blockN tiles on `slots` resident blocks:
/// blocks run in waves of one per slot, and a wave costs its tiles whole,
/// used or not.
inline double waveFill(int64_t batch, int64_t m, int64_t n, int64_t blockM,
                       int64_t blockN, int64_t slots) {
  const int64_t blocks =
      batch * ((m + blockM - 1) / blockM) * ((n + blockN - 1) / blockN);
  const int64_t waves = (blocks + slots - 1) / slots;
  return double(batch * m * n) / (double(waves * slots) * blockM * blockN);
}

} // namespace gemm_rt

#endif // GEMM_FILL_H
