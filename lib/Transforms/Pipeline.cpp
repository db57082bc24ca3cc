//===- Pipeline.cpp - The passes from a lifted module to CodeGen ----------===//
//
// buildGemmPipeline, which the driver runs on every module and a .mlir
// input names as `gemm-pipeline`, with each of its options handed to the
// passes that declare it.
//
//===----------------------------------------------------------------------===//

#include "ScheduleSupport.h"

#include "gemm-opt/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// The options of Passes.td's `scheduleOptions` out of `o`, for a pass
/// whose options struct is `PassOptions`. Its lists refer to `o`'s.
template <typename PassOptions>
PassOptions scheduleOptions(const GemmPipelineOptions &o) {
  PassOptions p;
  p.block = ArrayRef<int64_t>(o.block);
  p.thread = ArrayRef<int64_t>(o.thread);
  p.stages = o.stages;
  p.vector = o.vector;
  p.prefetch = o.prefetch;
  p.compute = o.compute;
  p.pad = o.pad;
  p.transpose = o.transpose;
  p.occupancy = o.occupancy;
  p.tuningDb = o.tuningDb;
  return p;
}

} // namespace

llvm::Error mlir::gemm::checkPipelineOptions(const GemmPipelineOptions &o) {
  if (!o.target.empty() && !lookupTarget(o.target))
    return llvm::createStringError("--target: " + unknownTarget(o.target));
  if (std::optional<std::string> bad =
          checkScheduleOptions(o.block, o.thread, o.prefetch, o.compute))
    return llvm::createStringError("--schedule: " + *bad);
  if (!o.tuningDb.empty())
    if (llvm::Expected<TuningDb> db = TuningDb::load(o.tuningDb); !db)
      return db.takeError();
  return llvm::Error::success();
}

void mlir::gemm::buildGemmPipeline(OpPassManager &pm,
                                   const GemmPipelineOptions &options) {
  pm.addPass(createGemmAttachTarget({options.target}));
  // No layout pass precedes the search: the product's orientation (C or
  // C^T = B^T A^T) is a schedule parameter that the model weighs both ways
  // (docs/cost-model.md, "Orientation").
  auto select = scheduleOptions<GemmSelectScheduleOptions>(options);
  select.explain = options.explain;
  select.explainSchedules = options.explainSchedules;
  pm.addPass(createGemmSelectSchedule(select));
  auto alternatives = scheduleOptions<GemmAddAlternativesOptions>(options);
  alternatives.alternatives = options.alternatives;
  pm.addPass(createGemmAddAlternatives(alternatives));
  if (options.tune) {
    auto tuning = scheduleOptions<GemmAddTuningCandidatesOptions>(options);
    tuning.problems = ArrayRef<std::string>(options.tuneProblems);
    tuning.top = options.tuneTop;
    tuning.shapes = options.tuneShapes;
    pm.addPass(createGemmAddTuningCandidates(tuning));
  }
  pm.addPass(createGemmSpecialize({options.streamK}));
  pm.addPass(createGemmVerifyBudget());
}

void mlir::gemm::registerGemmPipeline() {
  PassPipelineRegistration<GemmPipelineOptions>(
      "gemm-pipeline",
      "The passes of gemm-opt's driver: attach-target, select-schedule, "
      "add-alternatives, add-tuning-candidates (with tune), specialize, "
      "verify-budget",
      buildGemmPipeline);
}
