//===- CostModel.cpp - Analytical performance bounds of a schedule --------===//
//
// Counts what one thread of CodeGen's kernel does per K step (BK deep) and
// turns the counts into three bounds, each a fraction of the target's peak;
// docs/cost-model.md derives every formula from its seed.
//
//===----------------------------------------------------------------------===//

#include "gemm-opt/Target/CostModel.h"
#include "gemm-opt/Target/KernelPlan.h"
#include "gemm-opt-abi/RunTimeTerms.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <array>
#include <cmath>

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// Registers for addresses, indices and the loop bound besides the tiles
/// ([Lai & Seznec 2012] section 4.1, items 4 to 7: 2 + 1 + 2 + 2).
constexpr int64_t kIndexRegisters = 7;
/// Standard deviations of a RegisterLaw's fit added to its estimate, both
/// for residency (a kernel that the launch bounds squeeze below its need
/// spills: at 1.2 and 1.6 the none-prefetch default of
/// test/CodeGen/compile.test did) and against the per-thread cap (ptxas
/// 13.0, sm_90: at 1 and 1.5, 8x16 f32 tiles estimated at 239 and 233
/// registers spilled at 255).
constexpr double kMarginSigmas = 2.0;
/// Registers are allocated to a thread in units of 8.
constexpr int64_t kRegisterUnit = 8;
/// Integer and branch instructions per K step ([Tan et al. 2011] Table 3).
constexpr int64_t kLoopOverhead = 13;

/// Elements of A and B that one thread moves from global to shared memory
/// per K step.
int64_t stagedElements(const Schedule &s) {
  return llvm::divideCeil((s.blockM + s.blockN) * s.blockK, s.threads());
}

/// Block-wide barriers per K step (the pipelines of gemm_kernels/kernel.cuh): one
/// with two shared buffers, two with one. The warps of a cp.async pipeline
/// meet at none: they wait on mbarriers for their data only.
int64_t barriersPerStep(const Schedule &s) {
  if (s.prefetch == Prefetch::Async)
    return 0;
  return s.stages >= 2 ? 1 : 2;
}

/// Instructions per K step that synchronise: a bar.sync per barrier, or
/// the cp.async pipeline's two mbarrier waits (a try_wait, a select and a
/// branch each) and two arrivals.
int64_t syncInstructions(const Schedule &s) {
  return s.prefetch == Prefetch::Async ? 8 : barriersPerStep(s);
}

/// K steps between the issue of a tile's global loads and its use: a
/// prefetch's one. A cp.async pipeline of three buffers or more refills a
/// buffer after its step's multiply, stages - 2 steps before its use, and
/// the last warp to do so may trail the first to use it by a step; one of
/// two buffers refills before the multiply.
int64_t lookahead(const Schedule &s) {
  switch (s.prefetch) {
  case Prefetch::None:
    return 0;
  case Prefetch::Async:
    return s.stages == 2 ? 1 : s.stages - 3;
  case Prefetch::Smem:
  case Prefetch::Regs:
    return 1;
  }
  llvm_unreachable("unknown prefetch kind");
}

/// Shared-memory wavefronts of one warp's dmma fragment read from a tile
/// whose k rows are `stride` doubles apart: lane l reads `group` doubles
/// of row l % 4 from column group * (l / 4) on (the dmma multiply of
/// gemm_kernels/multiply.cuh). 64-bit accesses are served a half warp at a time, 128-bit
/// ones a quarter warp, 16 doubles per wavefront; lanes of a phase that
/// hit the same bank pair at different addresses take a wavefront each.
/// Without conflicts a read takes 2 * group.
int64_t dmmaFragmentWavefronts(int64_t stride, int64_t group) {
  constexpr int64_t kBankPairs = 16;
  int64_t lanes = kBankPairs / group, total = 0;
  for (int64_t phase = 0; phase < 32 / lanes; ++phase) {
    int64_t worst = 0;
    for (int64_t bank = 0; bank < kBankPairs; ++bank) {
      SmallVector<int64_t, 16> addresses;
      for (int64_t lane = lanes * phase; lane < lanes * (phase + 1); ++lane) {
        int64_t address = (lane % 4) * stride + group * (lane / 4);
        for (int64_t d = 0; d < group; ++d)
          if ((address + d) % kBankPairs == bank &&
              !llvm::is_contained(addresses, address))
            addresses.push_back(address);
      }
      worst = std::max<int64_t>(worst, addresses.size());
    }
    total += worst;
  }
  return total;
}

/// dmmaFragmentWavefronts, made once per pattern for a dmma lane's groups
/// (1 and 2). Lanes of different rows (l % 4) meet at no address once the
/// stride exceeds the 7 * group doubles that a row's lanes span, and then
/// only the stride's bank pair matters: 16 + stride % 16 reads alike.
int64_t fragmentWavefronts(int64_t stride, int64_t group) {
  constexpr int64_t kPatterns = 32;
  static const auto table = [] {
    std::array<std::array<int64_t, kPatterns>, 2> t;
    for (int64_t g = 1; g <= 2; ++g)
      for (int64_t pattern = 0; pattern < kPatterns; ++pattern)
        t[g - 1][pattern] = dmmaFragmentWavefronts(pattern, g);
    return t;
  }();
  if (group < 1 || group > 2 || stride < 0)
    return dmmaFragmentWavefronts(stride, group);
  return table[group - 1][stride > 7 * group ? 16 + stride % 16 : stride];
}

/// Bytes of a cache line, which an L1 wavefront serves.
constexpr int64_t kLineBytes = 128;

/// How one thread moves its share of an input's tile per K step
/// (TilePacking), and what that costs the LSU.
struct TileMoves {
  double packs;    ///< Global loads (or pack copies) of the pack width.
  double global;   ///< Global instructions: a load, or a cp.async per
                   ///< piece that lands whole in shared memory.
  double stores;   ///< Shared stores, one per piece (none with cp.async).
  double lsuClocks; ///< Their L1 and shared-memory clocks, per thread.
};

TileMoves countMoves(const GpuTarget &target, Precision precision,
                     const Schedule &s, const TileMovePlan &t) {
  int64_t bytes = elementBytes(precision);
  int64_t x = t.x;
  TileMoves m;
  m.packs = double(t.loads);
  // A pack along k lands in `pack` shared rows one element at a time.
  double pieces = t.wholeStore ? 1.0 : double(t.pack);
  bool async = s.prefetch == Prefetch::Async;
  m.global = async ? m.packs * pieces : m.packs;
  m.stores = async ? 0.0 : m.packs * pieces;
  // A warp's consecutive packs run along the contiguous dimension, so it
  // touches 32 / perRow rows of the matrix, each in its own cache lines
  // (rows are a matrix stride apart), and the L1 serves a line per
  // wavefront; an element-wise cp.async touches all of its pack's lines.
  int64_t perRow = (t.alongK ? s.blockK : x) / t.pack;
  int64_t rows = llvm::divideCeil(32, perRow);
  int64_t lines = rows * llvm::divideCeil(std::min<int64_t>(perRow, 32) *
                                              t.pack * bytes,
                                          kLineBytes);
  double globalClocks =
      std::max(32.0 / double(target.lsuPerClock),
               double(lines * kLineBytes) / double(target.sharedBytesPerClock));
  // Every piece is written to shared memory, by a store or by the copy.
  double writeClocks =
      target.sharedAccessClocks(t.pack * bytes / int64_t(pieces), 32);
  m.lsuClocks = (m.global * globalClocks + m.packs * pieces * writeClocks) /
                32.0;
  return m;
}

/// What one thread executes in one K step.
struct InstructionCounts {
  int64_t depth;         ///< BK: rank-1 updates per step.
  int64_t packA, packB;  ///< Elements per fragment load of A and of B.
  double fma;            ///< TM * TN * BK multiply-adds.
  double products;       ///< Instructions that do them: one FMA each, or
                         ///< one mma.sync per 8 of a thread's.
  double loadsA, loadsB; ///< Shared-memory fragment loads.
  double globalLoads;    ///< Global loads (or cp.async copies) of the
                         ///< next tiles.
  double smemStores;     ///< Their stores to shared memory, which cp.async
                         ///< makes itself.
  double moveClocks;     ///< The LSU clocks of those moves (TileMoves).
  double other;          ///< Loop overhead and barriers.

  double memoryInstructions() const {
    return loadsA + loadsB + globalLoads + smemStores;
  }
  double all() const { return products + memoryInstructions() + other; }
  /// The loads and FMAs of one rank-1 update: the independent work a
  /// thread has while its next fragments load.
  double perUpdate() const {
    return (products + loadsA + loadsB) / double(depth);
  }
};

InstructionCounts countInstructions(const GpuTarget &target,
                                    Precision precision,
                                    const KernelPlan &k) {
  const Schedule &s = k.schedule;
  InstructionCounts c;
  c.depth = s.blockK;
  c.packA = k.rowGroup;
  c.packB = k.colGroup;
  c.fma = double(s.threadM * s.threadN * s.blockK);
  c.products = c.fma;
  c.loadsA = double(s.blockK * (s.threadM / c.packA));
  c.loadsB = double(s.blockK * (s.threadN / c.packB));
  if (s.compute == Compute::Dmma) {
    // A warp's m16n8kK product is 128 K multiply-adds, 4 K per thread
    // (m8n8k4: 8); a lane reads one element of A per 8 rows and one of B
    // per 8 columns per 4 k, in packs of its groups of blocks.
    // A tile stored x-major gives a lane both k of its row in one pack.
    c.packA = isKInner(k.a) ? 2 : k.dmmaGroupA;
    c.packB = isKInner(k.b) ? 2 : k.dmmaGroupB;
    c.products = c.fma / (k.dmmaWide ? 4.0 * double(k.dmmaDepth) : 8.0);
    c.loadsA = double(s.blockK / 4 * s.threadM / c.packA);
    c.loadsB = double(s.blockK / 4 * (s.threadN / 2) / c.packB);
  }
  TileMoves a = countMoves(target, precision, s, k.a);
  TileMoves b = countMoves(target, precision, s, k.b);
  c.globalLoads = a.global + b.global;
  c.smemStores = a.stores + b.stores;
  c.moveClocks = a.lsuClocks + b.lsuClocks;
  c.other = double(kLoopOverhead + syncInstructions(s)) +
            double(target.loadAddressing) * (a.packs + b.packs);
  return c;
}

/// Blocks of `s` that an SM holds by every limit but its registers.
int64_t residencyLimit(const GpuTarget &target, const Schedule &s,
                       int64_t sharedBytes) {
  int64_t threads = s.threads(), warps = llvm::divideCeil(threads, 32);
  return std::min({target.maxBlocksPerSM, target.maxWarpsPerSM / warps,
                   target.maxThreadsPerSM / threads,
                   target.sharedBytesPerSM / sharedBytes});
}

/// Registers per thread that `blocks` resident blocks of `warps` warps
/// leave: with partitioned register files, the fullest partition's file
/// over its warps ([Lai & Seznec 2012] eq. 3).
int64_t registerCap(const GpuTarget &target, int64_t blocks, int64_t warps) {
  int64_t partitions = std::max<int64_t>(target.registerPartitions, 1);
  int64_t perPartition = llvm::divideCeil(blocks * warps, partitions);
  return target.registersPerSM / partitions / (perPartition * 32);
}

/// The most blocks of `s` that an SM holds, up to `limit`, when each thread
/// takes `registers`.
int64_t residentBlocks(const GpuTarget &target, const Schedule &s,
                       int64_t limit, double registers) {
  int64_t warps = llvm::divideCeil(s.threads(), 32), blocks = 0;
  while (blocks < limit &&
         registers <= double(registerCap(target, blocks + 1, warps)))
    ++blocks;
  return blocks;
}

/// Registers per thread: the target's measured law, else [Lai & Seznec 2012] eq. 7;
/// `margin` adds the law's margin.
int64_t estimateRegisters(const GpuTarget &target, Precision precision,
                          const KernelPlan &k, const Problem &problem,
                          bool margin) {
  const Schedule &s = k.schedule;
  int64_t words = elementBytes(precision) / 4;
  int64_t accumulators = s.threadM * s.threadN;
  int64_t staged = stagedElements(s);
  // cp.async copies hold no tile in registers, but the addresses and
  // bounds of every copy stay live as a prefetched tile does (ptxas 13.0:
  // 192x128x24/4x16 f32 spills at 168 registers with column-major A).
  bool prefetched = s.prefetch != Prefetch::None;
  if (const std::optional<RegisterLaw> &law = target.registerLawOf(s.compute)) {
    double perStaged = s.prefetch == Prefetch::Async ? law->stagedCopied
                       : prefetched                  ? law->stagedLive
                                                     : law->stagedDead;
    // Every fragment of the unrolled K step: a dmma lane's per 4 k of its
    // product's depth, an FMA thread's row and column of a rank-1 update.
    int64_t fragments =
        s.compute == Compute::Dmma
            ? k.dmmaDepth / 4 * (s.threadM + s.threadN / 2)
            : s.threadM + s.threadN;
    double estimate =
        law->base +
        double(words) * (double(accumulators) + law->fragment * fragments +
                         perStaged * double(staged)) +
        (problem.cUnitColumns || problem.cUnitRows ? 0.0
                                                   : 2.0 * double(s.threadN)) +
        (margin ? kMarginSigmas * law->sigma : 0.0);
    // Allocation units matter to residency only.
    int64_t registers = int64_t(std::ceil(estimate));
    return margin ? int64_t(llvm::alignTo(registers, kRegisterUnit)) : registers;
  }
  // [Lai & Seznec 2012] eq. 7: the C tile, one fragment held and the other streamed a
  // pack at a time, the prefetched tiles while they wait, and the indices.
  // Without prefetch the staged tiles die before the multiply starts.
  int64_t fragments =
      s.compute == Compute::Dmma
          ? s.threadM + s.threadN / 2
          : std::min(s.threadM + k.colGroup, s.threadN + k.rowGroup);
  int64_t live = prefetched ? fragments + staged : std::max(fragments, staged);
  return words * (accumulators + live) + kIndexRegisters;
}

} // namespace

StringRef mlir::gemm::stringifyBound(Bound bound) {
  switch (bound) {
  case Bound::Memory:
    return "memory";
  case Bound::Issue:
    return "issue";
  case Bound::Latency:
    return "latency";
  case Bound::Peak:
    return "peak";
  }
  llvm_unreachable("unknown bound");
}

double Prediction::efficiency() const {
  return std::min({1.0, memory, issue, latency}) * fill;
}

Bound Prediction::limiter() const {
  if (std::min({memory, issue, latency}) >= 1.0)
    return Bound::Peak;
  if (memory <= issue && memory <= latency)
    return Bound::Memory;
  return issue <= latency ? Bound::Issue : Bound::Latency;
}

Problem mlir::gemm::orient(const Problem &problem, const Schedule &s) {
  if (!s.transpose)
    return problem;
  Problem t = problem;
  std::swap(t.m, t.n);
  std::swap(t.a, t.b);
  std::swap(t.cUnitColumns, t.cUnitRows);
  return t;
}

Footprint mlir::gemm::estimateFootprint(const GpuTarget &target,
                                        Precision precision,
                                        const Schedule &s,
                                        const Problem &given) {
  const Problem problem = orient(given, s);
  const KernelPlan k = planKernel(precision, s, given);
  Footprint f;
  // No thread gets more than the cap, margin or not.
  f.spillFree = estimateRegisters(target, precision, k, problem, /*margin=*/false);
  f.registers =
      std::max(f.spillFree,
               std::min(estimateRegisters(target, precision, k, problem,
                                             /*margin=*/true),
                        target.maxRegistersPerThread));
  f.sharedBytes = kernelSharedBytes(precision, s);
  f.stagedWords = stagedWords(precision, s);
  // Registers are counted a block at a time, up to what the other limits
  // allow.
  int64_t limit = residencyLimit(target, s, f.sharedBytes);
  f.blocksPerSM = residentBlocks(target, s, limit, double(f.registers));
  if (s.occupancy > f.blocksPerSM && s.occupancy <= limit) {
    f.blocksPerSM = s.occupancy;
    f.registers = std::min(
        registerCap(target, s.occupancy, llvm::divideCeil(s.threads(), 32)),
        target.maxRegistersPerThread);
  }
  f.threadsPerSM = f.blocksPerSM * s.threads();
  return f;
}

int64_t mlir::gemm::squeezedOccupancy(const GpuTarget &target,
                                      const Schedule &s, const Footprint &f) {
  const std::optional<RegisterLaw> &law = target.registerLawOf(s.compute);
  if (!law || f.blocksPerSM == 0)
    return 0;
  int64_t blocks =
      residentBlocks(target, s, residencyLimit(target, s, f.sharedBytes),
                     double(f.spillFree) - kMarginSigmas * law->sigma);
  return blocks > f.blocksPerSM ? blocks : 0;
}

Problem mlir::gemm::footprintClass(const Problem &problem) {
  Problem unitC;
  unitC.cUnitColumns = problem.cUnitColumns || problem.cUnitRows;
  unitC.cUnitRows = false;
  return unitC;
}

int64_t mlir::gemm::stagedWords(Precision precision, const Schedule &s) {
  return stagedElements(s) * elementBytes(precision) / 4;
}

bool mlir::gemm::withinRegisterLaw(const GpuTarget &target, Compute compute,
                                   int64_t words) {
  const std::optional<RegisterLaw> &law = target.registerLawOf(compute);
  return !law || words <= law->maxStagedWords;
}

bool mlir::gemm::isFeasible(const GpuTarget &target, const Footprint &f,
                            const Schedule &s) {
  // [Lai & Seznec 2012] eq. 2, and a block that fits the SM: the law's estimate with
  // its margin must fit the cap, on the tiles it was fitted to.
  if (!withinRegisterLaw(target, s.compute, f.stagedWords))
    return false;
  const std::optional<RegisterLaw> &law = target.registerLawOf(s.compute);
  double margin = law ? kMarginSigmas * law->sigma : 0.0;
  return s.threads() <= target.maxThreadsPerBlock &&
         double(f.spillFree) + margin <=
             double(target.maxRegistersPerThread) &&
         f.sharedBytes <= target.sharedBytesPerBlock && f.blocksPerSM >= 1;
}

/// Prediction::fill of `s` with `footprint` for `given`.
double mlir::gemm::predictFill(const GpuTarget &target, const Schedule &s,
                               const Footprint &footprint,
                               const Problem &given) {
  const Problem problem = orient(given, s);
  // Partial tiles and the last wave (the runtime ranks variants with the
  // same term).
  if (footprint.blocksPerSM <= 0)
    return 1;
  if (problem.m > 0 && problem.n > 0)
    return gemm_rt::waveFill(problem.batch, problem.m, problem.n, s.blockM,
                             s.blockN, target.sms * footprint.blocksPerSM);
  // An unknown extent is a large one: its tiles fill the waves, and only a
  // known extent's partial tile remains.
  auto used = [](int64_t extent, int64_t tile) {
    return extent > 0 ? double(extent) / double(llvm::alignTo(extent, tile))
                      : 1.0;
  };
  return used(problem.m, s.blockM) * used(problem.n, s.blockN);
}

std::pair<double, double> mlir::gemm::streamShares(const GpuTarget &target,
                                                   Precision precision,
                                                   const Schedule &s,
                                                   const Problem &problem) {
  // The problem's A tile runs BM along M, or BN where the kernel computes
  // C^T; a tile row is contiguous along its unit-stride side.
  int64_t alongM = s.transpose ? s.blockN : s.blockM,
          alongN = s.transpose ? s.blockM : s.blockN;
  auto share = [&](TileStrides strides, int64_t x) {
    int64_t run = strides.xUnit ? x : strides.kUnit ? s.blockK : 1;
    return gemm_rt::streamShare(run * elementBytes(precision),
                                target.dramLineBytes);
  };
  return {share(problem.a, alongM), share(problem.b, alongN)};
}

/// Prediction::memory of `s` for `problem`, a share of `peakGFlops`.
static double memoryBound(const GpuTarget &target, Precision precision,
                          const Schedule &s, const Problem &problem,
                          double peakGFlops) {
  // [Tan et al. 2011] section 3.1, RB = DF * WB * (1/bm + 1/bn) / 2 <= BW, solved
  // for DF ([Lai & Seznec 2012] eq. 10); BW is the L2's where the target gives it,
  // since a large L2 serves most tile loads of a big GEMM.
  int64_t bytes = elementBytes(precision);
  double tileGBs = target.l2GBs > 0 ? target.l2GBs : target.dramGBs;
  double tileGFlops =
      tileGBs * 2.0 /
      (double(bytes) * (1.0 / double(s.blockM) + 1.0 / double(s.blockN)));
  // A short side of C leaves the other side's operand nothing to share in
  // the L2: it streams from DRAM once, at the pace of the product, in rows
  // as long as its tile's (docs/cost-model.md, "Streamed operands").
  auto [shareA, shareB] = streamShares(target, precision, s, problem);
  double streamed = gemm_rt::streamGFlops(problem.m, problem.n, bytes, shareA,
                                          shareB, target.dramGBs);
  return std::min(tileGFlops, streamed) / peakGFlops;
}

Prediction mlir::gemm::predictFor(const GpuTarget &target, Precision precision,
                                  const Schedule &s, Prediction prediction,
                                  const Problem &problem) {
  prediction.memory =
      memoryBound(target, precision, s, problem, prediction.peakGFlops);
  prediction.fill = predictFill(target, s, prediction.footprint, problem);
  return prediction;
}

Prediction mlir::gemm::predict(const GpuTarget &target, Precision precision,
                               const Schedule &s, const Problem &problem) {
  return predict(target, precision, s, problem,
                 estimateFootprint(target, precision, s, problem));
}

Prediction mlir::gemm::predict(const GpuTarget &target, Precision precision,
                               const Schedule &s, const Problem &problem,
                               const Footprint &footprint) {
  Prediction p;
  p.footprint = footprint;
  int64_t bytes = elementBytes(precision);
  const FmaPipe &pipe = target.pipe(precision, s.compute);
  p.peakGFlops = target.peakGFlops(precision, s.compute);
  KernelPlan k = planKernel(precision, s, problem);
  InstructionCounts c = countInstructions(target, precision, k);

  // [Tan et al. 2011] section 3.2: the FMA share of the inner loop.
  p.fmaMix = c.products / (c.products + c.memoryInstructions());

  // [Lai & Seznec 2012] eq. 11 with the pipes of Figure 2: per K step a thread needs
  // issue slots for every instruction, the FMA pipe for its FMAs and the
  // LSU for its accesses at their width ([Tan et al. 2011]'s register-level
  // bandwidth condition RB <= BW_sm). A warp's threads share
  // 32 / (BN / TN) rows of A and BN / TN columns of B (the thread map of
  // gemm_kernels/kernel.cuh), so its fragment loads hit that many addresses and the rest
  // are broadcasts. The slowest of the three sets the pace.
  int64_t threadsN = s.blockN / s.threadN;
  int64_t addressesA = llvm::divideCeil(32, threadsN);
  int64_t addressesB = std::min<int64_t>(32, threadsN);
  // A dmma lane reads its own element of each 8 x 4 fragment.
  if (s.compute == Compute::Dmma)
    addressesA = addressesB = 32;
  // Tensor-core products run at their shape's rate (sm_90's m8n8k4: half).
  bool dmma = s.compute == Compute::Dmma;
  bool narrow = dmma && !k.dmmaWide;
  double rate = dmma ? target.dmmaPerClock(narrow) : double(pipe.perClock);
  double issueClocks = c.all() / target.issuePerClock(precision);
  double fmaClocks = c.fma / rate;
  // A dmma fragment read takes its wavefronts over the conflict-free ones.
  // A tile stored x-major is read without conflicts (its halves swap,
  // gemm_kernels::element); beside one, a k-major tile's lanes read every
  // other k row (dmmaStep pairs the k).
  const int64_t rows = isKInner(k.a) || isKInner(k.b) ? 2 : 1;
  auto conflict = [&](const TileMovePlan &t, int64_t pack) {
    if (s.compute != Compute::Dmma || isKInner(t))
      return 1.0;
    return double(fragmentWavefronts(rows * (t.x + s.pad), pack)) /
           double(2 * pack);
  };
  double conflictA = conflict(k.a, c.packA), conflictB = conflict(k.b, c.packB);
  double lsuClocks =
      (c.loadsA * conflictA *
           target.sharedAccessClocks(c.packA * bytes, addressesA) +
       c.loadsB * conflictB *
           target.sharedAccessClocks(c.packB * bytes, addressesB)) /
          32.0 +
      c.moveClocks;
  // Where a scheduler's loads and other instructions stall its products,
  // they take turns: the shared loads at the LSU's pace, the rest at the
  // issue rate. The bounds are shares of the pipe's peak, which a narrower
  // product misses.
  double peakClocks = c.fma / double(pipe.perClock);
  double otherClocks =
      (c.all() - c.products - c.loadsA - c.loadsB) /
      target.issuePerClock(precision);
  // Warps that meet at a block barrier every step load together, and so
  // take those turns. A cp.async pipeline of three buffers or more lets
  // them drift apart (gemm_kernels/kernel.cuh), so that the loads and other
  // instructions of some warps issue while others' mma.sync hold the tensor
  // pipe, and the longer of the two sets the pace. FFMAs leave no issue
  // slot to a drifting warp: FFMA kernels gain nothing (measured:
  // docs/cost-model.md, "Measurements behind the code", drifting warps).
  double turns = s.drifts() ? std::max(fmaClocks, lsuClocks + otherClocks)
                       : fmaClocks + lsuClocks + otherClocks;
  double stepClocks = std::max(
      {fmaClocks, issueClocks, target.stallsAdd ? turns : lsuClocks});
  // Warps take the schedulers in turn, each scheduler with its own pipes:
  // the one holding the most warps sets the pace while the others idle
  // (192 threads, one block per SM: 6 warps on 4 schedulers run at 6/8 of
  // 8; measured: docs/cost-model.md, "Measurements behind the code",
  // scheduler balance).
  int64_t warps = std::max<int64_t>(p.footprint.threadsPerSM / 32, 1);
  double balance =
      double(warps) /
      double(target.schedulersPerSM *
             llvm::divideCeil(warps, target.schedulersPerSM));
  p.issue = balance * peakClocks / stepClocks;

  // [Lai & Seznec 2012] eq. 1: T_SM >= 32 * latency / issue interval, the interval
  // being one warp of FMAs (32 / rate), i.e. latency * rate threads. Where
  // the target issues a thread's TM * TN independent FMAs of a rank-1
  // update back to back, each thread covers that many (Volkov, "Better
  // performance at lower occupancy", GTC 2010); an mma.sync issues once for
  // many FMAs.
  // The same law holds for the loads that each step's FMAs wait on, which a
  // thread covers with its own step's instructions. Fewer threads fill that
  // share of the pipe ([Volkov & Demmel 2008] section 4.2: rate grows with occupancy,
  // then saturates); no fewer than a warp per scheduler can issue.
  double loadLatency =
      target.sharedLoadLatency(std::max(c.packA, c.packB) * bytes);
  double productLatency =
      dmma ? target.dmmaLatencyOf(narrow, k.dmmaDepth)
           : pipe.latency / (target.tileCoversLatency
                                     ? double(s.threadM * s.threadN)
                                     : 1.0);
  double needed = std::max(
      {productLatency * rate * c.products / c.fma,
       dmma ? loadLatency * rate / (c.fma / double(c.depth))
            : loadLatency * target.issuePerClock(precision) / c.perUpdate(),
       32.0 * double(target.schedulersPerSM)});
  // Threads that wait do not count. A block's step takes `busy` clocks at
  // the issue bound's pace; after each barrier it waits for its first
  // shared loads, and for the global loads that the prefetch did not cover.
  double busy = stepClocks * double(s.threads());
  double exposed =
      double(barriersPerStep(s)) * target.sharedLoadLatency(4) +
      std::max(0.0, target.globalLatency - double(lookahead(s)) * busy);
  double computing = busy / (busy + exposed);
  double ready = double(p.footprint.threadsPerSM) * computing;
  // The waits of one block overlap the steps of the others only, and the
  // blocks wait at independent times: the SM idles while all of them wait
  // (a lone block's exposed latency adds to its step; measured:
  // docs/cost-model.md, "Measurements behind the code", blocks that wait).
  double active = 1.0 - std::pow(1.0 - computing,
                                 double(p.footprint.blocksPerSM));
  p.latency =
      std::min(ready / needed * (peakClocks / fmaClocks), active * p.issue);
  // Drifting warps keep the tensor pipe less busy with steps of more than
  // one k8 slice, by a share that the counts above do not explain.
  if (s.drifts() && s.blockK > 8) {
    p.issue *= target.deepDriftShare;
    p.latency *= target.deepDriftShare;
  }

  // The memory bound and the fill: the terms that the problem's extents set.
  return predictFor(target, precision, s, p, problem);
}
