//===- AttachTarget.cpp - Put the target GPU on the module ----------------===//
//
// The first decision of the pipeline: which GPU the cost model tunes for
// and CodeGen prints for. Every later pass reads it off the module.
//
//===----------------------------------------------------------------------===//

#include "ScheduleSupport.h"

#include "gemm-opt/Transforms/Passes.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMATTACHTARGET
#include "gemm-opt/Transforms/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;

namespace {

struct GemmAttachTarget
    : public mlir::gemm::impl::GemmAttachTargetBase<GemmAttachTarget> {
  using GemmAttachTargetBase::GemmAttachTargetBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const GpuTarget *gpu = resolveTarget(module, target, getArgument());
    if (!gpu)
      return signalPassFailure();
    module->setAttr(GemmDialect::getTargetAttrName(),
                    TargetAttr::get(module.getContext(), gpu->name));
  }
};

} // namespace
