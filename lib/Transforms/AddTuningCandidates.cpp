//===- AddTuningCandidates.cpp - The kernels a tuning program times -------===//
//
// The model prunes thousands of schedules well but ranks its last few
// poorly (docs/tuning.md), so a tuning program times its first `top` for
// each problem on the GPU, and its best of `shapes` further tile shapes.
// This pass picks them and writes them into the op as alternatives, with
// gemm.tune saying which problem times which.
//
//===----------------------------------------------------------------------===//

#include "ScheduleSupport.h"

#include "gemm-opt/Target/OpModel.h"
#include "gemm-opt/Transforms/Passes.h"

#include <array>
#include <set>

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMADDTUNINGCANDIDATES
#include "gemm-opt/Transforms/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// A problem of the `problems` option: its extents, whether it names a
/// batch (then it is for batched ops only, else for the others), and,
/// where given, the only layout class it applies to.
struct ListedProblem {
  std::string layout;
  int64_t batch, m, n, k;
  bool batched;
};

/// "[LAYOUT:][BATCHx]MxNxK"; nullopt unless every extent is a positive
/// integer and the layout three of 'r', 'c' and 'g'.
std::optional<ListedProblem> parseProblem(StringRef text) {
  ListedProblem problem{"", 1, 0, 0, 0, false};
  if (text.contains(':')) {
    auto [layout, rest] = text.split(':');
    if (layout.size() != 3 ||
        layout.find_first_not_of("rcg") != StringRef::npos)
      return std::nullopt;
    problem.layout = layout.str();
    text = rest;
  }
  SmallVector<StringRef, 4> parts;
  text.split(parts, 'x');
  if (parts.size() != 3 && parts.size() != 4)
    return std::nullopt;
  int64_t *extents[] = {&problem.batch, &problem.m, &problem.n, &problem.k};
  problem.batched = parts.size() == 4;
  size_t first = 4 - parts.size();
  for (auto [i, part] : llvm::enumerate(parts))
    if (part.trim().getAsInteger(10, *extents[first + i]) ||
        *extents[first + i] <= 0)
      return std::nullopt;
  return problem;
}

struct GemmAddTuningCandidates
    : public mlir::gemm::impl::GemmAddTuningCandidatesBase<
          GemmAddTuningCandidates> {
  using GemmAddTuningCandidatesBase::GemmAddTuningCandidatesBase;
  /// ScheduleOverrides::read reads the schedule options it declares.
  friend class mlir::gemm::ScheduleOverrides;

  void runOnOperation() override {
    SmallVector<ListedProblem> listed;
    for (const std::string &text : problems) {
      std::optional<ListedProblem> problem = parseProblem(text);
      if (!problem) {
        getOperation().emitError()
            << getArgument() << ": problem '" << text
            << "' must be [LAYOUT:][BATCHx]MxNxK with positive extents, "
               "LAYOUT as tuning databases write it (rrr, rcr, ...)";
        return signalPassFailure();
      }
      listed.push_back(*problem);
    }
    SearchCache &searches = getAnalysis<ScheduleSearches>().cache;
    auto add = [&](MatmulOp op, const GpuTarget &gpu,
                   const ScheduleOverrides &options, const TuningDb *) {
      return addCandidates(op, gpu, options, searches, listed);
    };
    if (failed(forEachMatmul(*this, getOperation(), add)))
      signalPassFailure();
  }

  /// The problems to time `op` on: its own where every extent is static,
  /// else those of `listed` that it admits.
  SmallVector<TuningKey> problemsOf(MatmulOp op,
                                    ArrayRef<ListedProblem> listed) {
    if (std::optional<TuningKey> own = tuningKeyOf(op))
      return {*own};
    SmallVector<TuningKey> keys;
    std::string layout = layoutClass(problemOf(op));
    for (const ListedProblem &p : listed) {
      TuningKey key{precisionOf(op), p.layout.empty() ? layout : p.layout,
                    p.batch, p.m, p.n, p.k};
      if (p.batched == op.isBatched() && admits(op, key))
        keys.push_back(key);
    }
    return keys;
  }

  /// Sets `op`'s alternatives to the model's first `top` schedules of each
  /// of its problems and its best of `shapes` further tile shapes, and
  /// gemm.tune to which kernels each problem times.
  LogicalResult addCandidates(MatmulOp op, const GpuTarget &gpu,
                              const ScheduleOverrides &options,
                              SearchCache &searches,
                              ArrayRef<ListedProblem> listed) {
    if (!op.getScheduleAttr())
      return op.emitError() << getArgument()
                            << " needs a schedule: run gemm-select-schedule "
                               "first";
    SmallVector<TuningKey> keys = problemsOf(op, listed);
    if (keys.empty()) {
      op.emitRemark() << getArgument() << ": no problem to tune on: give "
                      << "--tune-problems that fit its extents";
      return success();
    }
    // The kernels the launcher already has (gemm-add-alternatives') are
    // what run() would choose among without the database: each problem
    // times them too, so that a measured choice is never one the model's
    // would beat.
    SmallVector<Attribute> kernels;
    if (ArrayAttr alternatives = op.getAlternativesAttr())
      llvm::append_range(kernels, alternatives);
    size_t launcherKernels = kernels.size() + 1;
    SmallVector<Attribute> tune;
    // Records that the problem times `index`, once.
    auto time = [&](const TuningKey &key, int64_t index) {
      Attribute entry = TuneCaseAttr::get(op.getContext(), key.batch, key.m,
                                          key.n, key.k, index);
      if (!llvm::is_contained(tune, entry))
        tune.push_back(entry);
    };
    // Records that the problem times candidate `c`'s kernel.
    auto timeCandidate = [&](const TuningKey &key, const Candidate &c) {
      FailureOr<ScheduleAttr> schedule = buildSchedule(
          op, gpu, options.apply(ScheduleParams::fromSchedule(c.schedule)),
          getArgument());
      if (failed(schedule))
        return failure();
      int64_t index = 0;
      if (*schedule != op.getScheduleAttr()) {
        auto *at = llvm::find(kernels, *schedule);
        index = at - kernels.begin() + 1;
        if (at == kernels.end())
          kernels.push_back(*schedule);
      }
      // Options applied to two candidates may make them one kernel.
      time(key, index);
      return success();
    };
    // Tile shapes (block and thread tile), and the launcher's.
    auto tileOf = [](const Schedule &s) {
      return std::array<int64_t, 5>{s.blockM, s.blockN, s.blockK, s.threadM,
                                    s.threadN};
    };
    std::set<std::array<int64_t, 5>> launcherTiles = {
        tileOf(toSchedule(op.getScheduleAttr()))};
    for (Attribute kernel : kernels)
      launcherTiles.insert(tileOf(toSchedule(cast<ScheduleAttr>(kernel))));
    for (const TuningKey &key : keys) {
      for (size_t index = 0; index < launcherKernels; ++index)
        time(key, index);
      Problem problem = problemOf(op);
      problem.batch = key.batch;
      problem.m = key.m;
      problem.n = key.n;
      const CandidateSet &set = searches.search(
          gpu, precisionOf(op), options.constraints(), problem);
      // The model's first `top`, then its best of each further tile shape
      // that the launcher does not have; and of the schedules that break a
      // measured rule of the search, which rank apart from those, the best
      // of each rule (with any `top` at all), so that each GPU's rows test
      // the rule.
      std::set<std::array<int64_t, 5>> tiles = launcherTiles;
      std::set<StringRef> rules;
      unsigned added = 0, rank = 0;
      for (const Candidate &c : set.ranked) {
        if (!c.rule.empty()) {
          if (top > 0 && rules.insert(c.rule).second &&
              failed(timeCandidate(key, c)))
            return failure();
          continue;
        }
        if (rank >= top && added == shapes)
          continue;
        bool newTile = tiles.insert(tileOf(c.schedule)).second;
        if (rank >= top) {
          if (!newTile)
            continue;
          ++added;
        }
        ++rank;
        if (failed(timeCandidate(key, c)))
          return failure();
      }
    }
    if (!kernels.empty())
      op.setAlternativesAttr(ArrayAttr::get(op.getContext(), kernels));
    op->setAttr(GemmDialect::getTuneAttrName(),
                ArrayAttr::get(op.getContext(), tune));
    op.emitRemark() << getArgument() << ": " << kernels.size() + 1
                    << " kernel(s) to time on " << keys.size()
                    << " problem(s)";
    return success();
  }
};

} // namespace
