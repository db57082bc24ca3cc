//===- Candidates.h - Enumerate, prune and rank schedules -------*- C++ -*-===//
//
// The search space generator of [Kurzak et al. 2011] (Algorithm 2) over the parameters
// CodeGen implements, pruned by its constraints (Algorithm 3) and the
// target's guidelines (Table 1), and ranked by the cost model.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_OPT_TARGET_CANDIDATES_H
#define GEMM_OPT_TARGET_CANDIDATES_H

#include "gemm-opt/Target/CostModel.h"

#include "llvm/ADT/SmallVector.h"

#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace mlir::gemm {

/// Parameters fixed by the user: only candidates that match them are kept.
struct ScheduleConstraints {
  /// [BM, BN, BK], or empty.
  SmallVector<int64_t, 3> block;
  /// [TM, TN], or empty.
  SmallVector<int64_t, 2> thread;
  /// Elements per access, or 0.
  int64_t vector = 0;
  /// Shared-memory buffers, or 0.
  int64_t stages = 0;
  /// Row padding in elements, or -1.
  int64_t pad = -1;
  std::optional<Prefetch> prefetch;
  std::optional<Compute> compute;
  std::optional<bool> transpose;

  /// Whether block side `index` (thread tile side `index`) may be `value`:
  /// the search tests each side as soon as its loop fixes it.
  bool allowsBlock(size_t index, int64_t value) const;
  bool allowsThread(size_t index, int64_t value) const;
  bool matches(const Schedule &schedule) const;
  /// The one schedule that matches when every searched parameter is fixed.
  std::optional<Schedule> only() const;

  bool operator<(const ScheduleConstraints &o) const;
};

/// A schedule and the model's verdict on it.
struct Candidate {
  Schedule schedule;
  Prediction prediction;

  /// The measured rule of the search that the schedule breaks
  /// (Candidates.cpp: a cp.async pipeline feeding FMAs, or a dmma warp tile
  /// too wide to keep the tensor pipe busy), or empty. The rules hold on
  /// the GPUs they were measured on; such schedules rank among the others,
  /// so that tuning programs time them on each GPU and its rows decide.
  StringRef rule;

  /// Whether the schedule is a kept one's twin with more blocks per SM
  /// than its register estimate allows (squeezedOccupancy). Twins rank
  /// among the others, so that tuning programs time them; the model never
  /// chooses one, since ptxas may spill it.
  bool squeezed() const { return schedule.occupancy > 0; }
  /// Whether only a measurement may choose the schedule: a squeezed twin,
  /// or one that breaks a measured rule.
  bool tuningOnly() const { return squeezed() || !rule.empty(); }
};

/// One schedule that fits, with its footprint and the measured rule it
/// breaks (Candidate::rule).
struct FittingSchedule {
  Schedule schedule;
  Footprint footprint;
  StringRef rule;
};

/// The schedules that fit a target whatever the operands' layout: those
/// feasible and within the guidelines, in the order of enumeration (which
/// ranking ties keep), in both orientations, with their footprints.
struct FittingSchedules {
  /// Feasible schedules computing C = A B, and C^T = B^T A^T.
  std::array<int64_t, 2> feasible = {0, 0};
  SmallVector<FittingSchedule> kept;
};

/// What a search finds before the problem's extents are known: the kept
/// schedules of `fitting` (enumerateSchedules'), in its order, with the
/// model's bounds that hold for every problem of a class. The extents change
/// only the fill and the streamed operands' bound (predictFor), so one space
/// serves every problem of the class. Each entry names its schedule in
/// `fitting`, which must outlive the space: a file's classes keep a space
/// each, and a Candidate per schedule would take hundreds of MB.
struct SearchSpace {
  /// The bounds that predict() gives for any extents.
  struct Entry {
    uint32_t fitting;
    double fmaMix, issue, latency;
  };

  Precision precision;
  const FittingSchedules *fitting = nullptr;
  /// Schedules that fit the target's hard limits.
  int64_t feasible = 0;
  /// The ones that also meet the guidelines.
  std::vector<Entry> kept;

  /// Entry `index` as a candidate for `extents`, a problem of the class.
  Candidate candidate(const GpuTarget &target, size_t index,
                      const Problem &extents) const;
};

/// The outcome of one search.
struct CandidateSet {
  /// The element type and the problem the candidates were ranked for.
  Precision precision;
  Problem problem;
  /// Schedules that fit the target's hard limits.
  int64_t feasible = 0;
  /// The kept ones (those that also meet the guidelines), best first.
  SmallVector<Candidate> ranked;
};

/// `problem` without its extents: a problem of unknown size, all that
/// predictSchedules reads.
Problem problemClass(const Problem &problem);

/// Enumerates the schedules of `precision` on `target` that match
/// `constraints` and keeps those that meet the hard limits and the target's
/// guidelines for problems of `footprintClass(problem)`.
FittingSchedules enumerateSchedules(const GpuTarget &target,
                                    Precision precision,
                                    const ScheduleConstraints &constraints,
                                    const Problem &problem);

/// The schedules of `fitting` (enumerateSchedules' for `problem`) that
/// `problem`'s operands need, predicted for `problemClass(problem)`.
SearchSpace predictSchedules(const GpuTarget &target, Precision precision,
                             const FittingSchedules &fitting,
                             const Problem &problem);

/// The candidates of `space` ranked for `problem`, one of its class, best
/// first.
CandidateSet rankSchedules(const GpuTarget &target, const SearchSpace &space,
                           const Problem &problem);

/// The model's choice among the candidates of `space` (predictSchedules'
/// for `problem`) for `probe`, a problem of the same class: the one ranked
/// first for `probe`, skipping tuning-only candidates unless all are, and
/// of those that tie, the one ranked first for `problem` (rankSchedules'
/// order). nullopt for an empty space. A scan, without a ranking: a file's
/// problems and probes each ask for one.
std::optional<Candidate> rankFirst(const GpuTarget &target,
                                   const SearchSpace &space,
                                   const Problem &problem,
                                   const Problem &probe);

} // namespace mlir::gemm

#endif // GEMM_OPT_TARGET_CANDIDATES_H
