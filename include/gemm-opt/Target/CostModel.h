//===- CostModel.h - Analytical performance bounds of a schedule -*- C++
//-*-===//
//
// The three bounds of docs/cost-model.md for one schedule of CodeGen's kernel
// family on one target: the memory-bandwidth bound ([Tan et al. 2011] section 3.1,
// [Lai & Seznec 2012] eq. 10), the instruction-issue bound of the inner loop's
// instruction mix ([Tan et al. 2011] section 3.2, [Lai & Seznec 2012] eq. 11) and the
// latency/occupancy bound ([Volkov & Demmel 2008] section 4.2, [Lai & Seznec 2012] eq. 1). The
// prediction is the least of them.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_OPT_TARGET_COSTMODEL_H
#define GEMM_OPT_TARGET_COSTMODEL_H

#include "gemm-opt/Dialect/Gemm/GemmAttrs.h"
#include "gemm-opt/Target/GpuTarget.h"

#include <tuple>
#include <utility>

namespace mlir::gemm {

/// The parameters of #gemm.schedule as plain integers, so that the
/// enumerator can build millions of them without an MLIRContext.
struct Schedule {
  int64_t blockM, blockN, blockK;
  int64_t threadM, threadN;
  int64_t vector;
  Prefetch prefetch;
  int64_t pad;
  /// Scalar FMAs, or FP64 tensor-core products (each warp an 8TM x 4TN tile).
  Compute compute = Compute::Fma;
  /// Shared-memory buffers: two for a shared-memory prefetch, two or more
  /// for a cp.async pipeline, else one.
  int64_t stages = 1;
  /// The kernel computes C^T = B^T A^T: the tiles are the transposed
  /// problem's (BM along N).
  bool transpose = false;
  /// Blocks per SM that the launch bounds ask for. Past the count that the
  /// register estimate allows, the kernel is squeezed: ptxas must fit it in
  /// fewer registers than the law expects, which only a measurement can
  /// confirm (squeezedOccupancy). 0: the estimate's count.
  int64_t occupancy = 0;

  /// One thread per register tile.
  int64_t threads() const { return (blockM / threadM) * (blockN / threadN); }
  /// Whether a dmma kernel's warps drift apart, meeting at no barrier: a
  /// cp.async pipeline of three buffers or more (gemm_kernels/kernel.cuh).
  bool drifts() const {
    return compute == Compute::Dmma && prefetch == Prefetch::Async &&
           stages >= 3;
  }
};

/// What the model knows of one matmul besides its precision.
struct Problem {
  /// C's rows and columns and the batch count where static; a 0 extent is
  /// a problem large enough that partial tiles and the last wave of blocks
  /// do not matter.
  int64_t m = 0, n = 0, batch = 1;
  /// How A's and B's tiles lie in memory (the default: no tile transposes,
  /// the papers' count).
  TileStrides a, b;
  /// Whether C's column (row) stride is a static 1. With neither, the
  /// epilogue holds a 64-bit offset per column of a thread's tile.
  bool cUnitColumns = true, cUnitRows = false;

  /// Every field, so that caches of the search key on all of them.
  auto tie() const {
    return std::tie(m, n, batch, a.xUnit, a.kUnit, b.xUnit, b.kUnit,
                    cUnitColumns, cUnitRows);
  }
  bool operator<(const Problem &o) const { return tie() < o.tie(); }
};

/// `problem` as `schedule`'s kernel sees it: transposed (M and N, A and B,
/// C's strides swapped) when the schedule computes C^T = B^T A^T.
Problem orient(const Problem &problem, const Schedule &schedule);

/// What a schedule costs on the SM.
struct Footprint {
  /// Registers per thread that residency reserves ([Lai & Seznec 2012] eq. 7, or the
  /// target's law plus a margin for its scatter), or a squeezed kernel's cap.
  int64_t registers;
  /// The fewest registers the kernel is expected to fit without spilling:
  /// `registers` less the margin, which only residency needs.
  int64_t spillFree;
  /// Static shared memory per block, as CodeGen declares it.
  int64_t sharedBytes;
  /// 32-bit words of the next K tile that each thread moves.
  int64_t stagedWords;
  /// Resident blocks and threads per SM; 0 when a block does not fit.
  int64_t blocksPerSM, threadsPerSM;
};

/// What limits a prediction: one of the three bounds, or none of them
/// (the FMA pipes run at their peak).
enum class Bound { Memory, Issue, Latency, Peak };

/// "memory", "issue", "latency" or "peak".
StringRef stringifyBound(Bound bound);

/// The model's verdict on one schedule. Each bound is the rate that one
/// resource alone allows, as a fraction of the FMA pipes' peak; above 1 it
/// is headroom.
struct Prediction {
  Footprint footprint;
  /// FMAs among the FMA, load and store instructions of one K step
  /// ([Tan et al. 2011] section 3.2: 64% with 64-bit, 78% with 128-bit loads).
  double fmaMix;
  /// DRAM (or L2) bandwidth over the traffic of the block tile ([Tan et al. 2011]
  /// RB), or over a streamed operand's (RunTimeTerms.h), whichever is less.
  double memory;
  /// Issue slots and shared-memory accesses over the FMA pipe's needs
  /// ([Lai & Seznec 2012] eq. 11).
  double issue;
  /// Occupancy ([Lai & Seznec 2012] eq. 1) times the global latency that resident
  /// blocks hide from each other ([Volkov & Demmel 2008] section 4.2).
  double latency;

  /// The share of the GPU's block slots that do useful work over the
  /// problem's waves of blocks: below 1 for partial tiles and a partial
  /// last wave (1 for a problem of unknown size).
  double fill = 1;

  /// Peak GFLOP/s of the pipe the schedule multiplies on.
  double peakGFlops;

  /// The least bound, at most 1 (the FMA pipes' peak), times the fill.
  double efficiency() const;
  /// The predicted rate: efficiency times the pipe's peak.
  double gflops() const { return efficiency() * peakGFlops; }
  /// Which bound is least; Peak when none is below 1.
  Bound limiter() const;
};

/// The footprint of `schedule` on `target`.
Footprint estimateFootprint(const GpuTarget &target, Precision precision,
                            const Schedule &schedule, const Problem &problem);

/// The most blocks per SM, past `footprint`'s, at which the register cap
/// still holds the law's estimate less its margin: where ptxas may fit
/// `schedule` into fewer registers than the estimate, for more resident
/// warps (a 128x128x16/8x8 f32 kernel estimated at 154 registers compiled
/// to 146, and at two blocks per SM into 128 without spilling). 0 where
/// none does, or the target has no law.
int64_t squeezedOccupancy(const GpuTarget &target, const Schedule &schedule,
                          const Footprint &footprint);

/// All of `problem` that estimateFootprint reads (whether C has a unit
/// stride), as a problem: the footprint is the same for every problem of
/// the class.
Problem footprintClass(const Problem &problem);

/// 32-bit words of the next K tile that each thread of `schedule` moves
/// (Footprint::stagedWords).
int64_t stagedWords(Precision precision, const Schedule &schedule);

/// Whether a thread that stages `words` per K step stays within the tiles
/// that `compute`'s register law on `target` was fitted to: isFeasible's
/// first test, which needs no footprint.
bool withinRegisterLaw(const GpuTarget &target, Compute compute,
                       int64_t words);

/// Whether `schedule` can run at all: its registers, shared memory and
/// threads fit one block of `target` and CodeGen's static shared memory.
bool isFeasible(const GpuTarget &target, const Footprint &footprint,
                const Schedule &schedule);

/// The shares of DRAM bandwidth at which `schedule`'s tiles of `problem`'s
/// A and B stream (RunTimeTerms.h's streamShare), by the contiguous bytes of a
/// tile row.
std::pair<double, double> streamShares(const GpuTarget &target,
                                       Precision precision,
                                       const Schedule &schedule,
                                       const Problem &problem);

/// The bounds of `schedule` on `target` for `problem`.
Prediction predict(const GpuTarget &target, Precision precision,
                   const Schedule &schedule, const Problem &problem);
/// The same, for a schedule whose footprint on `problem` is known.
Prediction predict(const GpuTarget &target, Precision precision,
                   const Schedule &schedule, const Problem &problem,
                   const Footprint &footprint);

/// The share of the GPU's block slots that `schedule`, of `footprint`,
/// keeps busy on `problem` (Prediction::fill).
double predictFill(const GpuTarget &target, const Schedule &schedule,
                   const Footprint &footprint, const Problem &problem);

/// `prediction`, predict's for a problem of the same operands, for
/// `problem`'s extents instead: only the fill and the memory bound (a
/// streamed operand's) depend on them.
Prediction predictFor(const GpuTarget &target, Precision precision,
                      const Schedule &schedule, Prediction prediction,
                      const Problem &problem);

} // namespace mlir::gemm

#endif // GEMM_OPT_TARGET_COSTMODEL_H
