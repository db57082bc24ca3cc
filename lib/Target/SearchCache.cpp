//===- SearchCache.cpp - Each schedule search made once -------------------===//

#include "gemm-opt/Target/SearchCache.h"

using namespace mlir;
using namespace mlir::gemm;

const SearchSpace &SearchCache::space(const GpuTarget &target,
                                      Precision precision,
                                      const ScheduleConstraints &constraints,
                                      const Problem &problem) {
  Key key{target.name.str(), precision, constraints, problemClass(problem)};
  auto [space, freshSpace] = spaces.try_emplace(key);
  if (freshSpace) {
    std::get<Problem>(key) = footprintClass(problem);
    auto [fits, freshFits] = fitting.try_emplace(key);
    if (freshFits)
      fits->second =
          enumerateSchedules(target, precision, constraints, problem);
    space->second =
        predictSchedules(target, precision, fits->second, problem);
  }
  return space->second;
}

CandidateSet SearchCache::search(const GpuTarget &target, Precision precision,
                                 const ScheduleConstraints &constraints,
                                 const Problem &problem) {
  return rankSchedules(target, space(target, precision, constraints, problem),
                       problem);
}

const Candidate *SearchCache::first(const GpuTarget &target,
                                    Precision precision,
                                    const ScheduleConstraints &constraints,
                                    const Problem &problem,
                                    const Problem &probe) {
  Key key{target.name.str(), precision, constraints, problem};
  auto [it, fresh] = firsts.try_emplace({key, probe});
  if (fresh)
    it->second = rankFirst(
        target, space(target, precision, constraints, problem), problem,
        probe);
  return it->second ? &*it->second : nullptr;
}
