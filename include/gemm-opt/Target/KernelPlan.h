//===- KernelPlan.h - Every fact of one kernel, computed once ---*- C++ -*-===//
//
// A schedule says how to tile; the plan says what the kernel that tiles so
// does on one operand layout: how each input tile moves (pack width and
// direction, whether packs land in shared memory whole, whether a thread's
// packs lie a fixed step apart), how a thread's fragments group, the FP64
// tensor-core shape, how C is stored and how much shared memory it all
// takes. The cost model counts these facts and CodeGen prints them as the
// configuration of runtime/include/gemm_kernels; neither derives them again.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_TARGET_KERNELPLAN_H
#define GEMM_OPT_TARGET_KERNELPLAN_H

#include "gemm-opt/Target/CostModel.h"

namespace mlir::gemm {

/// How one input tile moves from global to shared memory, where it is
/// stored k-major (`tile[k][x]`; x runs along M for A and N for B), or, if
/// its packs run along k and land whole, x-major (isKInner).
struct TileMovePlan {
  int64_t x = 0;           ///< The tile's extent along x (BM or BN).
  bool xUnit = true;       ///< x neighbours are a static 1 apart.
  bool kUnit = false;      ///< k neighbours are.
  int64_t pack = 1;        ///< Elements per global access.
  bool alongK = false;     ///< Packs run along k, else along x.
  /// A pack lands in shared memory whole (along x, with rows padded to
  /// keep it aligned, or along k into a tile stored x-major); otherwise its
  /// elements go one by one.
  bool wholeStore = false;
  int64_t packs = 0;       ///< Packs in one K tile.
  int64_t loads = 0;       ///< Packs per thread, rounded up.
  /// Every thread has the same number of packs and they cover whole lines
  /// of the packed dimension, so a thread's pack i lies a fixed address
  /// step from its pack 0.
  bool regular = false;
  /// The tile's columns are swizzled: in rows 8-15 of every 32 x is stored
  /// at x ^ 8, in rows 16-23 at x ^ 4 and in rows 24-31 at x ^ 12, so that
  /// a warp's element stores of packs along k reach 32 banks
  /// (gemm_kernels::column).
  bool swizzled = false;
};

/// Whether a tile is stored x-major, `tile[x][k]` in rows of BK: a dmma
/// tile whose packs run along k (gemm_kernels::element). Its lanes then
/// read the two k of a row that they multiply as one 16-byte pack, and the
/// kernel pairs its k so (multiply.cuh, dmmaStep).
inline bool isKInner(const TileMovePlan &t) {
  return t.alongK && t.wholeStore;
}

/// Everything one kernel variant does, for one schedule, precision and
/// layout. Fields named after the configuration constants of
/// runtime/include/gemm_kernels/config.cuh.
struct KernelPlan {
  Schedule schedule;
  int64_t threads = 0;
  /// The input tiles as the kernel sees them (B^T and A^T when the schedule
  /// computes C^T = B^T A^T).
  TileMovePlan a, b;
  /// A thread's rows of C come in groups of rowGroup adjacent rows, rowStep
  /// apart, read from shared memory as one pack; likewise its columns.
  int64_t rowGroup = 1, rowStep = 1, colGroup = 1, colStep = 1;
  /// FP64 tensor cores: the k depth of one mma.sync, whether row blocks pair
  /// into m16n8kK products, and the 8-row (8-column) blocks a lane reads as
  /// one pack.
  int64_t dmmaDepth = 0;
  bool dmmaWide = false;
  int64_t dmmaGroupA = 1, dmmaGroupB = 1;
  /// C as the kernel stores it: which of its strides are a static 1, and
  /// whether it is stored by columns (only its rows are contiguous), in
  /// packs of cPack elements.
  bool cRowUnit = false, cColUnit = true, cByColumns = false;
  int64_t cPack = 1;
  /// Dynamic shared memory: the A tiles rounded up to 32 bytes, then the B
  /// tiles.
  int64_t aTileBytes = 0, sharedBytes = 0;
};

/// Static shared memory that `schedule`'s tiles take, in bytes.
int64_t kernelSharedBytes(Precision precision, const Schedule &schedule);

/// The plan of `schedule` for `problem`'s layout (as the source has it: the
/// plan orients it when the schedule computes C^T).
KernelPlan planKernel(Precision precision, const Schedule &schedule,
                      const Problem &problem);

} // namespace mlir::gemm

#endif // GEMM_OPT_TARGET_KERNELPLAN_H
