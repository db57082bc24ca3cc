//===- Passes.h - gemm-opt passes -------------------------------*- C++ -*-===//
//
// The passes of Passes.td and the pipeline that runs them: each makes one
// decision and writes it into the IR, so that CodeGen only prints.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_TRANSFORMS_PASSES_H
#define GEMM_OPT_TRANSFORMS_PASSES_H

#include "gemm-opt/Dialect/Gemm/GemmDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::gemm {

#define GEN_PASS_DECL
#include "gemm-opt/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gemm-opt/Transforms/Passes.h.inc"

/// The options of the whole pipeline, as the driver's --target and
/// --schedule give them: each goes to the passes that declare it, and each
/// defaults to the passes' own default.
struct GemmPipelineOptions : public PassPipelineOptions<GemmPipelineOptions> {
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("See gemm-attach-target")};
  ListOption<int64_t> block{*this, "block",
                            llvm::cl::desc("Block tile BM,BN,BK")};
  ListOption<int64_t> thread{*this, "thread",
                             llvm::cl::desc("Register tile TM,TN")};
  Option<int64_t> stages{*this, "stages",
                         llvm::cl::desc("See gemm-select-schedule"),
                         llvm::cl::init(GemmSelectScheduleOptions().stages)};
  Option<int64_t> vector{*this, "vector",
                         llvm::cl::desc("See gemm-select-schedule"),
                         llvm::cl::init(GemmSelectScheduleOptions().vector)};
  Option<std::string> prefetch{*this, "prefetch",
                               llvm::cl::desc("See gemm-select-schedule")};
  Option<std::string> compute{*this, "compute",
                              llvm::cl::desc("See gemm-select-schedule")};
  Option<int64_t> pad{*this, "pad", llvm::cl::desc("See gemm-select-schedule"),
                      llvm::cl::init(GemmSelectScheduleOptions().pad)};
  Option<int> transpose{*this, "transpose",
                        llvm::cl::desc("See gemm-select-schedule"),
                        llvm::cl::init(GemmSelectScheduleOptions().transpose)};
  Option<int64_t> occupancy{
      *this, "occupancy", llvm::cl::desc("See gemm-select-schedule"),
      llvm::cl::init(GemmSelectScheduleOptions().occupancy)};
  Option<unsigned> alternatives{
      *this, "alternatives", llvm::cl::desc("See gemm-add-alternatives"),
      llvm::cl::init(GemmAddAlternativesOptions().alternatives)};
  Option<unsigned> explain{*this, "explain",
                           llvm::cl::desc("See gemm-select-schedule"),
                           llvm::cl::init(GemmSelectScheduleOptions().explain)};
  Option<bool> explainSchedules{
      *this, "explain-schedules", llvm::cl::desc("See gemm-select-schedule"),
      llvm::cl::init(GemmSelectScheduleOptions().explainSchedules)};
  Option<std::string> tuningDb{*this, "tuning-db",
                               llvm::cl::desc("See gemm-select-schedule")};
  Option<bool> tune{*this, "tune",
                    llvm::cl::desc("Pick the kernels of a tuning program: "
                                   "gemm-add-tuning-candidates after "
                                   "gemm-add-alternatives")};
  Option<bool> streamK{*this, "stream-k",
                       llvm::cl::desc("See gemm-specialize")};
  ListOption<std::string> tuneProblems{
      *this, "tune-problems",
      llvm::cl::desc("See gemm-add-tuning-candidates' problems")};
  Option<unsigned> tuneTop{
      *this, "tune-top", llvm::cl::desc("See gemm-add-tuning-candidates' top"),
      llvm::cl::init(GemmAddTuningCandidatesOptions().top)};
  Option<unsigned> tuneShapes{
      *this, "tune-shapes",
      llvm::cl::desc("See gemm-add-tuning-candidates' shapes"),
      llvm::cl::init(GemmAddTuningCandidatesOptions().shapes)};
};

/// What is wrong with `options` before any module meets them: an unknown
/// target, a malformed schedule option, a tuning database that cannot be
/// read; the driver reports it as an option error.
llvm::Error checkPipelineOptions(const GemmPipelineOptions &options);

/// The passes that take a lifted module to one CodeGen can print.
void buildGemmPipeline(OpPassManager &pm, const GemmPipelineOptions &options);

/// Registers buildGemmPipeline as `gemm-pipeline`, for .mlir inputs.
void registerGemmPipeline();

} // namespace mlir::gemm

#endif // GEMM_OPT_TRANSFORMS_PASSES_H
