//===- Candidates.h - Enumerate, prune and rank schedules -------*- C++ -*-===//
//
// The search space generator of seeds/003 (Algorithm 2) over the parameters
// CodeGen implements, pruned by its constraints (Algorithm 3) and the
// target's guidelines (Table 1), and ranked by the cost model.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_OPT_TARGET_CANDIDATES_H
#define GEMM_OPT_TARGET_CANDIDATES_H

#include "gemm-opt/Target/CostModel.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>

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

  bool matches(const Schedule &schedule) const;
};

/// A schedule and the model's verdict on it.
struct Candidate {
  Schedule schedule;
  Prediction prediction;
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

/// Enumerates the schedules of `precision` on `target` that match
/// `constraints`, keeps those that meet the hard limits and the target's
/// guidelines, and ranks them by predicted GFLOP/s on `problem`.
CandidateSet searchSchedules(const GpuTarget &target, Precision precision,
                             const ScheduleConstraints &constraints,
                             const Problem &problem);

/// The first of `set` (which must not be empty) when its candidates are
/// ranked for `problem` instead: its extents change the fill and the
/// streamed operands' bound.
Candidate rankFirst(const GpuTarget &target, const CandidateSet &set,
                    const Problem &problem);

} // namespace mlir::gemm

#endif // GEMM_OPT_TARGET_CANDIDATES_H
