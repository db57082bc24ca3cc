//===- Specialize.cpp - Plan each scheduled kernel for its operands -------===//
//
// Turns every schedule of a gemm.matmul into the #gemm.kernel that CodeGen
// prints: lib/Target's KernelPlan of the schedule for the op's layout (the
// same plan the cost model counted), so that no later stage decides packs,
// edges, the C store or fragment groups again.
//
//===----------------------------------------------------------------------===//

#include "gemm-opt/Dialect/Gemm/GemmOps.h"
#include "gemm-opt/Target/KernelPlan.h"
#include "gemm-opt/Target/OpModel.h"
#include "gemm-opt/Transforms/Passes.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMSPECIALIZE
#include "gemm-opt/Transforms/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;

namespace {

TileMoveAttr tileMoveAttr(MLIRContext *context, const TileMovePlan &t) {
  return TileMoveAttr::get(context, t.x, t.xUnit, t.kUnit, t.pack, t.alongK,
                           t.wholeStore, t.packs, t.loads, t.regular);
}

/// The plan of `schedule` for `op`, as an attribute.
KernelAttr kernelAttr(MatmulOp op, ScheduleAttr schedule) {
  KernelPlan k =
      planKernel(precisionOf(op), toSchedule(schedule), problemOf(op));
  MLIRContext *context = op.getContext();
  return KernelAttr::get(
      context, schedule, k.threads, tileMoveAttr(context, k.a),
      tileMoveAttr(context, k.b), k.rowGroup, k.rowStep, k.colGroup,
      k.colStep, k.dmmaDepth, k.dmmaWide, k.dmmaGroupA, k.dmmaGroupB,
      k.cRowUnit, k.cColUnit, k.cByColumns, k.cPack, k.aTileBytes,
      k.sharedBytes);
}

struct GemmSpecialize
    : public mlir::gemm::impl::GemmSpecializeBase<GemmSpecialize> {
  void runOnOperation() override {
    getOperation().walk([](MatmulOp op) {
      SmallVector<Attribute> kernels;
      for (ScheduleAttr schedule : op.getSchedules())
        kernels.push_back(kernelAttr(op, schedule));
      if (!kernels.empty())
        op.setKernelsAttr(ArrayAttr::get(op.getContext(), kernels));
    });
  }
};

} // namespace
