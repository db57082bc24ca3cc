//===- VerifyBudget.cpp - Schedules against the target's limits -----------===//
//
// The search only proposes schedules that fit the target, but a schedule
// written into the input or fixed by options does not go through it. This
// pass holds every kernel of every op to what one block of the module's
// target may use, with the cost model's own footprint, so that a kernel
// that cannot launch (or that must spill) is refused at its nest rather
// than at run time.
//
//===----------------------------------------------------------------------===//

#include "ScheduleSupport.h"

#include "gemm-opt/Target/Explain.h"
#include "gemm-opt/Target/OpModel.h"
#include "gemm-opt/Transforms/Passes.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMVERIFYBUDGET
#include "gemm-opt/Transforms/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;

namespace {

struct GemmVerifyBudget
    : public mlir::gemm::impl::GemmVerifyBudgetBase<GemmVerifyBudget> {
  using GemmVerifyBudgetBase::GemmVerifyBudgetBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const GpuTarget *gpu = resolveTarget(module, "", getArgument());
    if (!gpu)
      return signalPassFailure();
    // Every op is checked, so that one run reports every schedule over.
    bool fits = true;
    module.walk([&](MatmulOp op) {
      if (ScheduleAttr schedule = op.getScheduleAttr())
        fits &= succeeded(verify(op, *gpu, schedule, "schedule"));
      if (ArrayAttr alternatives = op.getAlternativesAttr())
        for (auto [index, alternative] : llvm::enumerate(
                 alternatives.getAsRange<ScheduleAttr>()))
          fits &= succeeded(verify(op, *gpu, alternative,
                                   "alternative " + Twine(index + 1)));
    });
    if (!fits)
      signalPassFailure();
  }

  /// Checks the kernel of `schedule` (which `what` names) for `op` against
  /// one block of `gpu`: an error for each limit it exceeds.
  LogicalResult verify(MatmulOp op, const GpuTarget &gpu,
                       ScheduleAttr schedule, const Twine &what) {
    Schedule s = toSchedule(schedule);
    Footprint f = estimateFootprint(gpu, precisionOf(op), s, problemOf(op));
    auto over = [&](StringRef resource, int64_t needed, int64_t limit) {
      op.emitError() << getArgument() << ": " << what << " "
                     << formatScheduleOptions(s) << " needs " << needed << " "
                     << resource << "; " << gpu.name << " has " << limit;
      return failure();
    };
    LogicalResult result = success();
    if (s.threads() > gpu.maxThreadsPerBlock)
      result = over("threads per block", s.threads(), gpu.maxThreadsPerBlock);
    // The estimate without the margin that the search keeps against
    // residency: a kernel that needs more than the cap spills for certain.
    if (f.spillFree > gpu.maxRegistersPerThread)
      result = over("registers per thread", f.spillFree,
                    gpu.maxRegistersPerThread);
    if (f.sharedBytes > gpu.sharedBytesPerBlock)
      result = over("bytes of shared memory per block", f.sharedBytes,
                    gpu.sharedBytesPerBlock);
    return result;
  }
};

} // namespace
