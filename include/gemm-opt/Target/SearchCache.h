//===- SearchCache.h - Each schedule search made once -----------*- C++ -*-===//
//
// A file's nests fall into few problem classes (precision, layouts and C's
// strides), and the search is the compiler's most expensive step: the cache
// enumerates the schedules that fit once for every layout, predicts them
// once per class and ranks them once per problem (and probe).
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_OPT_TARGET_SEARCHCACHE_H
#define GEMM_OPT_TARGET_SEARCHCACHE_H

#include "gemm-opt/Target/Candidates.h"

#include <map>
#include <string>
#include <tuple>
#include <utility>

namespace mlir::gemm {

class SearchCache {
public:
  /// The schedules of `precision` on `target` that match `constraints`,
  /// meet the hard limits and the target's guidelines, ranked by predicted
  /// GFLOP/s on `problem`. The reference stays valid as long as the cache.
  const CandidateSet &search(const GpuTarget &target, Precision precision,
                             const ScheduleConstraints &constraints,
                             const Problem &problem);

  /// rankFirst of that search (which must not be empty) for `probe`.
  const Candidate &first(const GpuTarget &target, Precision precision,
                         const ScheduleConstraints &constraints,
                         const Problem &problem, const Problem &probe);

private:
  /// Everything a step of the search reads: the whole problem for a
  /// ranking, its problemClass for the predictions, its footprintClass for
  /// the enumeration.
  using Key =
      std::tuple<std::string, Precision, ScheduleConstraints, Problem>;

  std::map<Key, FittingSchedules> fitting;
  std::map<Key, SearchSpace> spaces;
  std::map<Key, CandidateSet> rankings;
  std::map<std::pair<Key, Problem>, Candidate> firsts;
};

} // namespace mlir::gemm

#endif // GEMM_OPT_TARGET_SEARCHCACHE_H
