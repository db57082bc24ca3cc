//===- SearchCache.h - Each schedule search made once -----------*- C++ -*-===//
//
// A file's nests fall into few problem classes (precision, layouts and C's
// strides), and the search is the compiler's most expensive step: the cache
// enumerates the schedules that fit once for every layout and predicts them
// once per class. What it keeps per problem and probe is the model's choice
// alone, so that its memory grows with the classes, not with the nests.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_OPT_TARGET_SEARCHCACHE_H
#define GEMM_OPT_TARGET_SEARCHCACHE_H

#include "gemm-opt/Target/Candidates.h"

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

namespace mlir::gemm {

class SearchCache {
public:
  /// The schedules of `precision` on `target` that match `constraints`,
  /// meet the hard limits and the target's guidelines, ranked by predicted
  /// GFLOP/s on `problem`: for --explain and tuning programs, which read
  /// the ranking. Made anew on each call, and not kept.
  CandidateSet search(const GpuTarget &target, Precision precision,
                      const ScheduleConstraints &constraints,
                      const Problem &problem);

  /// The model's choice for `probe` among the schedules that search()
  /// ranks for `problem` (rankFirst), or null where none fits. The
  /// pointer stays valid as long as the cache.
  const Candidate *first(const GpuTarget &target, Precision precision,
                         const ScheduleConstraints &constraints,
                         const Problem &problem, const Problem &probe);

private:
  /// Everything a step of the search reads: the whole problem for a
  /// choice, its problemClass for the predictions, its footprintClass for
  /// the enumeration.
  using Key =
      std::tuple<std::string, Precision, ScheduleConstraints, Problem>;

  /// The predictions of `problem`'s class, made once per class.
  const SearchSpace &space(const GpuTarget &target, Precision precision,
                           const ScheduleConstraints &constraints,
                           const Problem &problem);

  std::map<Key, FittingSchedules> fitting;
  std::map<Key, SearchSpace> spaces;
  std::map<std::pair<Key, Problem>, std::optional<Candidate>> firsts;
};

} // namespace mlir::gemm

#endif // GEMM_OPT_TARGET_SEARCHCACHE_H
