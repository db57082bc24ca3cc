//===- Candidates.cpp - Enumerate, prune and rank schedules ---------------===//
//
// [Kurzak et al. 2011] Algorithm 2 walks the thread grid (Mdim x Ndim), the block tile
// (Mblk, Nblk in steps of the grid, Kblk) and, for CodeGen's kernel family,
// the vector width and the prefetch kind. Algorithm 3 rejects what cannot
// run or load its tiles without idle threads, and what misses the target's
// guidelines (Table 1); the cost model ranks the rest.
//
//===----------------------------------------------------------------------===//

#include "gemm-opt/Target/Candidates.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <tuple>
#include <vector>

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// Loop bounds of Algorithm 2: thread-grid and block sides up to 256 and K
/// steps up to 64 ([Kurzak et al. 2011] section 5.3.3).
constexpr int64_t kMaxSide = 256;
constexpr int64_t kMaxBlockK = 64;
/// The widest access CodeGen packs: 128 bits.
constexpr int64_t kMaxAccessBytes = 16;
/// The deepest cp.async pipeline searched: more stages only add shared
/// memory once the copies cover the global latency.
constexpr int64_t kMaxAsyncStages = 4;
/// Significant bits that ranking compares of a rate: one part in a
/// billion, far below any difference a prediction can show, and far above
/// the rounding of doubles, so that one quantity counted through different
/// sums is one value.
constexpr int kRankBits = 30;

/// Algorithm 3, first section, for CodeGen's packs of `v` elements: the K
/// steps (bit BK - 1) whose tiles of A and B split into packs evenly over
/// the threads of a BM x BN block. Its sides must be whole packs; then
/// BM * BK / v packs split evenly where BK / v is a multiple of
/// T / gcd(T, BM), and likewise for BN.
uint64_t evenSteps(int64_t blockM, int64_t blockN, int64_t threads,
                   int64_t v) {
  if (threads % 32 != 0 || blockM % v != 0 || blockN % v != 0)
    return 0;
  int64_t step = v * std::lcm(threads / std::gcd(threads, blockM),
                              threads / std::gcd(threads, blockN));
  uint64_t steps = 0;
  for (int64_t bk = step; bk <= kMaxBlockK; bk += step)
    steps |= uint64_t(1) << (bk - 1);
  return steps;
}

/// The warp tiles of the dmma multiply (gemm_kernels/multiply.cuh): 8 * TM x 4 * TN, in
/// steps of 4 k (the schedule verifier's rule).
bool fitsDmma(const Schedule &s) {
  return s.blockM % (8 * s.threadM) == 0 && s.blockN % (4 * s.threadN) == 0 &&
         s.threadN % 2 == 0 && s.blockK % 4 == 0;
}

/// Whether a dmma kernel of a target whose warps take turns with their
/// loads (stallsAdd) has a warp tile that measured able to keep the tensor
/// pipe busy: at most 64 x 32 (TM, TN <= 8). A schedule that fails is
/// tuning-only (Candidate::rule). The model rates wider tiles at the peak
/// too, but they ran slower (measured: docs/cost-model.md, "Measurements behind the code",
/// `keepsTensorPipe`).
bool keepsTensorPipe(const GpuTarget &target, const Schedule &s) {
  if (s.compute != Compute::Dmma || !target.stallsAdd)
    return true;
  return s.threadM <= 8 && s.threadN <= 8;
}

/// Whether the pipeline suits the kind of product. FFMA kernels of a target
/// whose warps take turns with their loads (stallsAdd) skip cp.async but in
/// tuning (Candidate::rule): their FMAs fill the issue slots that drifting
/// warps would share, and the copies measured slower than a
/// register-staged prefetch, which the counts do not show (measured:
/// docs/cost-model.md, "Measurements behind the code", `feedsCompute`).
bool feedsCompute(const GpuTarget &target, Prefetch prefetch,
                  Compute compute) {
  return !(compute == Compute::Fma && prefetch == Prefetch::Async &&
           target.stallsAdd);
}

/// The measured rule that a schedule of `shape`'s tiles and compute with
/// `prefetch` breaks (Candidate::rule), or empty.
StringRef brokenRule(const GpuTarget &target, const Schedule &shape,
                     Prefetch prefetch) {
  if (!keepsTensorPipe(target, shape))
    return "wide dmma warp tile";
  if (!feedsCompute(target, prefetch, shape.compute))
    return "cp.async FMA";
  return {};
}

/// Resident blocks as Algorithm 3 counts them from one resource: at most
/// `perSM / perBlock`, the hardware's block limit and its warp limit.
int64_t guidelineBlocks(const GpuTarget &target, int64_t perSM,
                        int64_t perBlock, int64_t warpsPerBlock) {
  int64_t blocks = std::min(perSM / perBlock, target.maxBlocksPerSM);
  int64_t warps = std::min(blocks * warpsPerBlock, target.maxWarpsPerSM);
  return warps / warpsPerBlock;
}

/// Algorithm 3, sections two to four, with the target's Table 1 values:
/// minimum blocks and threads per SM by shared memory and by Algorithm 3's
/// own register estimate (the tiles plus the prefetched stripes of A and B,
/// as written in the paper), and minimum register reuse.
bool meetsGuidelines(const GpuTarget &target, Precision precision,
                     const Schedule &s, const Footprint &f) {
  const SearchGuidelines &g = target.pipe(precision).guidelines;
  int64_t threads = s.threads(), warpsPerBlock = threads / 32;
  auto enough = [&](int64_t blocks) {
    return blocks >= g.minBlocksPerSM && blocks * threads >= g.minThreadsPerSM;
  };
  if (!enough(guidelineBlocks(target, target.sharedBytesPerSM, f.sharedBytes,
                              warpsPerBlock)))
    return false;
  int64_t regsPerBlock =
      ((s.threadM * s.threadN + s.threadM + s.threadN) * threads +
       (s.blockM + s.blockN) * s.blockK) *
      (elementBytes(precision) / 4);
  if (!enough(guidelineBlocks(target, target.registersPerSM, regsPerBlock,
                              warpsPerBlock)))
    return false;
  double reuse = double(s.threadM * s.threadN) / double(s.threadM + s.threadN);
  return reuse >= g.minRegisterReuse;
}

/// `x` to kRankBits significant bits. A relative precision, unlike a
/// fixed one, keeps the differences of small rates: on a problem that
/// fills 2% of the GPU, 0.1% of the peak is a twentieth of the rate.
double significant(double x) {
  int exponent;
  double mantissa = std::frexp(x, &exponent);
  return std::ldexp(std::round(std::ldexp(mantissa, kRankBits)),
                    exponent - kRankBits);
}

/// The rates that each bound allows on the problem (times the fill, in
/// GFLOP/s, so that the pipes compare), ascending. They keep their
/// headroom above the peak, so that among schedules that all reach it the
/// one with the most slack in its tightest resource wins ([Tan et al. 2011]
/// section 3.1 minimises RB for the same reason).
std::array<double, 3> sortedBounds(const Prediction &p) {
  std::array<double, 3> bounds = {p.memory, p.issue, p.latency};
  for (double &b : bounds)
    b = significant(b * p.fill * p.peakGFlops);
  std::sort(bounds.begin(), bounds.end());
  return bounds;
}

/// What ranksBefore compares of a prediction, rounded once.
struct RankKey {
  double gflops;
  std::array<double, 3> bounds;
  double fmaMix;
  int64_t registers, sharedBytes;
};

RankKey rankKey(const Prediction &p) {
  return {significant(p.gflops()), sortedBounds(p), significant(p.fmaMix),
          p.footprint.registers, p.footprint.sharedBytes};
}

/// Better first: the predicted rate (across pipes too, FMA and tensor
/// cores), then the bounds from the least (the headroom of schedules that
/// reach the same rate), then the larger share of FMAs among the
/// instructions ([Tan et al. 2011] section 3.2: the same bounds with fewer loads),
/// and only for candidates equal in all of these the smaller footprint.
bool ranksBefore(const RankKey &a, const RankKey &b) {
  if (a.gflops != b.gflops)
    return a.gflops > b.gflops;
  if (a.bounds != b.bounds)
    return std::lexicographical_compare(b.bounds.begin(), b.bounds.end(),
                                        a.bounds.begin(), a.bounds.end());
  if (a.fmaMix != b.fmaMix)
    return a.fmaMix > b.fmaMix;
  if (a.registers != b.registers)
    return a.registers < b.registers;
  return a.sharedBytes < b.sharedBytes;
}

} // namespace

bool ScheduleConstraints::allowsBlock(size_t index, int64_t value) const {
  return block.empty() || (block.size() == 3 && block[index] == value);
}

bool ScheduleConstraints::allowsThread(size_t index, int64_t value) const {
  return thread.empty() || (thread.size() == 2 && thread[index] == value);
}

bool ScheduleConstraints::matches(const Schedule &s) const {
  if (!allowsBlock(0, s.blockM) || !allowsBlock(1, s.blockN) ||
      !allowsBlock(2, s.blockK) || !allowsThread(0, s.threadM) ||
      !allowsThread(1, s.threadN))
    return false;
  if (vector && vector != s.vector)
    return false;
  if (stages && stages != s.stages)
    return false;
  if (pad >= 0 && pad != s.pad)
    return false;
  if (compute && *compute != s.compute)
    return false;
  if (transpose && *transpose != s.transpose)
    return false;
  return !prefetch || *prefetch == s.prefetch;
}

std::optional<Schedule> ScheduleConstraints::only() const {
  if (block.size() != 3 || thread.size() != 2 || vector <= 0 || stages <= 0 ||
      pad < 0 || !prefetch || !compute || !transpose)
    return std::nullopt;
  return Schedule{block[0], block[1], block[2], thread[0], thread[1],
                  vector,   *prefetch, pad,     *compute, stages,
                  *transpose};
}

bool ScheduleConstraints::operator<(const ScheduleConstraints &o) const {
  return std::tie(block, thread, vector, stages, pad, prefetch, compute,
                  transpose) < std::tie(o.block, o.thread, o.vector, o.stages,
                                        o.pad, o.prefetch, o.compute,
                                        o.transpose);
}

Problem mlir::gemm::problemClass(const Problem &problem) {
  Problem unsized = problem;
  unsized.m = unsized.n = 0;
  unsized.batch = 1;
  return unsized;
}

FittingSchedules mlir::gemm::enumerateSchedules(const GpuTarget &target,
                                                Precision precision,
                                                const ScheduleConstraints &c,
                                                const Problem &problem) {
  FittingSchedules fitting;
  Problem footprints = footprintClass(problem);
  int64_t words = elementBytes(precision) / 4;
  // Pipelines: the prefetch kinds with their buffer counts.
  std::vector<std::pair<Prefetch, int64_t>> pipelines = {
      {Prefetch::None, 1}, {Prefetch::Regs, 1}, {Prefetch::Smem, 2}};
  if (target.asyncCopies)
    for (int64_t stages = 2; stages <= kMaxAsyncStages; ++stages)
      pipelines.push_back({Prefetch::Async, stages});
  // Vector widths up to 128 bits.
  SmallVector<int64_t, 4> widths;
  for (int64_t v = 1; v * elementBytes(precision) <= kMaxAccessBytes; v *= 2)
    widths.push_back(v);
  // The C tile alone must fit a thread's registers.
  int64_t maxTileRegisters = target.maxRegistersPerThread / words;
  for (int64_t ndim = 1; ndim <= kMaxSide; ++ndim) {
    for (int64_t mdim = 1; mdim <= kMaxSide; ++mdim) {
      int64_t threads = mdim * ndim;
      if (threads > target.maxThreadsPerBlock)
        break;
      if (threads % 32 != 0)
        continue;
      for (int64_t tm = 1; mdim * tm <= kMaxSide; ++tm) {
        // Options cut each loop that fixes one of their parameters.
        if (!c.allowsThread(0, tm) || !c.allowsBlock(0, mdim * tm))
          continue;
        for (int64_t tn = 1; ndim * tn <= kMaxSide; ++tn) {
          if (tm * tn > maxTileRegisters)
            break;
          if (!c.allowsThread(1, tn) || !c.allowsBlock(1, ndim * tn))
            continue;
          // The tile's shape alone decides whether its loads split evenly:
          // found once here for every K step and width, not tested once
          // per pipeline below.
          SmallVector<uint64_t, 4> even;
          uint64_t anyEven = 0;
          for (int64_t v : widths)
            anyEven |= even.emplace_back(
                evenSteps(mdim * tm, ndim * tn, threads, v));
          for (int64_t bk = 1; anyEven && bk <= kMaxBlockK; ++bk) {
            if (!(anyEven >> (bk - 1) & 1) || !c.allowsBlock(2, bk))
              continue;
            for (auto [v, steps] : llvm::zip_equal(widths, even)) {
              if (!(steps >> (bk - 1) & 1))
                continue;
              Schedule shape{mdim * tm, ndim * tn, bk, tm, tn, v,
                             Prefetch::None, 0};
              for (Compute compute : {Compute::Fma, Compute::Dmma}) {
                shape.compute = compute;
                // The last test needs no footprint: made once here for
                // every pipeline below, as isFeasible would make it.
                if (!target.supports(precision, compute) ||
                    (compute == Compute::Dmma && !fitsDmma(shape)) ||
                    !withinRegisterLaw(target, compute,
                                       stagedWords(precision, shape)))
                  continue;
                // Rows padded by one pack keep the packs aligned and shift
                // each row across the banks. A dmma fragment read also
                // tries 4 doubles: every row stride of a BM (BN) that is a
                // multiple of 8 is then 4 or 12 mod 16, which the read
                // takes without conflicts; the model counts the wavefronts.
                SmallVector<int64_t, 2> pads = {v};
                if (compute == Compute::Dmma && v != 4)
                  pads.push_back(4);
                for (auto [prefetch, stages] : pipelines) {
                  StringRef rule = brokenRule(target, shape, prefetch);
                  for (int64_t pad : pads) {
                    // Both orientations: predictSchedules keeps the
                    // transposed ones where the operands need them.
                    for (bool transpose : {false, true}) {
                      Schedule s{mdim * tm, ndim * tn, bk,      tm,
                                 tn,        v,         prefetch, pad,
                                 compute,   stages,    transpose};
                      if (!c.matches(s))
                        continue;
                      Footprint f =
                          estimateFootprint(target, precision, s, footprints);
                      if (!isFeasible(target, f, s))
                        continue;
                      ++fitting.feasible[transpose];
                      if (!meetsGuidelines(target, precision, s, f))
                        continue;
                      fitting.kept.push_back({s, f, rule});
                      // A rule's schedule is measured as it is: its twin
                      // would double what tuning times of it.
                      int64_t blocks = squeezedOccupancy(target, s, f);
                      if (blocks && rule.empty()) {
                        s.occupancy = blocks;
                        fitting.kept.push_back(
                            {s,
                             estimateFootprint(target, precision, s,
                                               footprints),
                             rule});
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  return fitting;
}

Candidate SearchSpace::candidate(const GpuTarget &target, size_t index,
                                 const Problem &extents) const {
  const Entry &e = kept[index];
  const FittingSchedule &f = fitting->kept[e.fitting];
  Prediction p;
  p.footprint = f.footprint;
  p.fmaMix = e.fmaMix;
  p.issue = e.issue;
  p.latency = e.latency;
  p.peakGFlops = target.peakGFlops(precision, f.schedule.compute);
  return {f.schedule, predictFor(target, precision, f.schedule, p, extents),
          f.rule};
}

SearchSpace mlir::gemm::predictSchedules(const GpuTarget &target,
                                         Precision precision,
                                         const FittingSchedules &fitting,
                                         const Problem &problem) {
  // Operands whose tiles lie differently may move better the other way
  // round (C^T = B^T A^T); with alike ones the transposed kernel is the
  // same kernel.
  bool transposes = !(problem.a == problem.b);
  SearchSpace space;
  space.precision = precision;
  space.fitting = &fitting;
  space.feasible = fitting.feasible[0] + (transposes ? fitting.feasible[1] : 0);
  Problem unsized = problemClass(problem);
  space.kept.reserve(fitting.kept.size());
  for (auto [index, f] : llvm::enumerate(fitting.kept))
    if (transposes || !f.schedule.transpose) {
      Prediction p =
          predict(target, precision, f.schedule, unsized, f.footprint);
      space.kept.push_back({uint32_t(index), p.fmaMix, p.issue, p.latency});
    }
  space.kept.shrink_to_fit();
  return space;
}

CandidateSet mlir::gemm::rankSchedules(const GpuTarget &target,
                                       const SearchSpace &space,
                                       const Problem &problem) {
  CandidateSet set;
  set.precision = space.precision;
  set.problem = problem;
  set.feasible = space.feasible;
  std::vector<Candidate> candidates;
  candidates.reserve(space.kept.size());
  for (size_t index = 0; index < space.kept.size(); ++index)
    candidates.push_back(space.candidate(target, index, problem));
  // Sorting keys next to their positions moves less than sorting
  // candidates; the order is the same stable sort's.
  std::vector<std::pair<RankKey, size_t>> order;
  order.reserve(candidates.size());
  for (auto [index, c] : llvm::enumerate(candidates))
    order.push_back({rankKey(c.prediction), index});
  llvm::stable_sort(order, [](const auto &a, const auto &b) {
    return ranksBefore(a.first, b.first);
  });
  set.ranked.reserve(order.size());
  for (const auto &[key, index] : order)
    set.ranked.push_back(candidates[index]);
  return set;
}

std::optional<Candidate> mlir::gemm::rankFirst(const GpuTarget &target,
                                               const SearchSpace &space,
                                               const Problem &problem,
                                               const Problem &probe) {
  // Where the user's options leave only tuning-only candidates, the
  // options decide.
  bool choosable = llvm::any_of(space.kept, [&](const SearchSpace::Entry &e) {
    const FittingSchedule &f = space.fitting->kept[e.fitting];
    return !Candidate{f.schedule, {}, f.rule}.tuningOnly();
  });
  // The best so far, its key for `probe`, and its key for `problem`, made
  // only where a tie needs it: rankSchedules' order for `problem` is that
  // key, then the index.
  std::optional<Candidate> best;
  size_t bestIndex = 0;
  RankKey bestKey;
  std::optional<RankKey> bestOwnKey;
  auto ownKey = [&](size_t index) {
    return rankKey(space.candidate(target, index, problem).prediction);
  };
  for (size_t index = 0; index < space.kept.size(); ++index) {
    const SearchSpace::Entry &e = space.kept[index];
    const FittingSchedule &f = space.fitting->kept[e.fitting];
    if (choosable && Candidate{f.schedule, {}, f.rule}.tuningOnly())
      continue;
    // The rate without the memory bound is at least the rate, and takes no
    // streamed operands' bound: most candidates fall short of the best on
    // it alone.
    if (best) {
      double bound = std::min({1.0, e.issue, e.latency}) *
                     predictFill(target, f.schedule, f.footprint, probe) *
                     target.peakGFlops(space.precision, f.schedule.compute);
      if (significant(bound) < bestKey.gflops)
        continue;
    }
    Candidate c = space.candidate(target, index, probe);
    RankKey key = rankKey(c.prediction);
    std::optional<RankKey> own;
    if (best && !ranksBefore(key, bestKey)) {
      if (ranksBefore(bestKey, key))
        continue;
      if (!bestOwnKey)
        bestOwnKey = ownKey(bestIndex);
      own = ownKey(index);
      if (!ranksBefore(*own, *bestOwnKey))
        continue;
    }
    best = c;
    bestIndex = index;
    bestKey = key;
    bestOwnKey = own;
  }
  return best;
}
