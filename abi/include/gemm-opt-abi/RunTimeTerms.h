//===- RunTimeTerms.h - The cost model's run-time terms --------*- C++ -*-===//
//
// The parts of gemm-opt's cost model (docs/cost-model.md, "Partial tiles
// and waves" and "Streamed operands") that depend on a problem's run-time
// extents. The compiler ranks schedules of static problems with them; the
// runtime ranks a nest's kernel variants and split-K factors with them.
// Plain C++, no CUDA and no LLVM: the model owns these terms, and the
// runtime's build includes them from here.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_ABI_RUNTIMETERMS_H
#define GEMM_OPT_ABI_RUNTIMETERMS_H

#include <cstdint>
#include <limits>

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

/// The share of DRAM bandwidth that an operand's tile rows of `runBytes`
/// contiguous bytes get where DRAM serves whole lines of `lineBytes` (0:
/// rows of any length stream at the full rate): a shorter row costs a
/// line's time all the same.
inline double streamShare(int64_t runBytes, int64_t lineBytes) {
  return lineBytes > 0 && runBytes < lineBytes
             ? double(runBytes) / double(lineBytes)
             : 1.0;
}

/// The GFLOP/s at which `dramGBs` of DRAM bandwidth can feed m x n products
/// of `elementBytes` elements whose A and B stream at `shareA` and `shareB`
/// of it (streamShare): every element of A serves n columns and every one
/// of B m rows, and must come from DRAM at least once. An extent of 0 is a
/// large one, whose operand bounds nothing; with both, nothing does
/// (infinity).
inline double streamGFlops(int64_t m, int64_t n, int64_t elementBytes,
                           double shareA, double shareB, double dramGBs) {
  double bytesPerFlop = 0;
  if (n > 0)
    bytesPerFlop += double(elementBytes) / (2.0 * double(n) * shareA);
  if (m > 0)
    bytesPerFlop += double(elementBytes) / (2.0 * double(m) * shareB);
  return bytesPerFlop > 0 ? dramGBs / bytesPerFlop
                          : std::numeric_limits<double>::infinity();
}

} // namespace gemm_rt

#endif // GEMM_OPT_ABI_RUNTIMETERMS_H
