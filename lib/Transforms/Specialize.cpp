//===- Specialize.cpp - Plan each scheduled kernel for its operands -------===//
//
// Turns every schedule of a gemm.matmul into the #gemm.kernel that CodeGen
// prints: lib/Target's KernelPlan of the schedule for the op's layout (the
// same plan the cost model counted), so that no later stage decides packs,
// edges, the C store or fragment groups again.
//
// A packed kernel also compiles a scalar twin, for operands its packs do not
// fit, only where it is some op's first kernel: such calls run the first
// kernel (or one without packs), and a twin compiles as long as its kernel.
// A kernel compiles its stream-K form, which compiles about as long again,
// only where a measurement can choose it (the model never does): an op's
// measured table chose it, a tuning program times it, or `stream-k` asks.
// Both choices are per configuration across the module, so that a kernel
// that is one op's first and another's alternative stays one configuration.
// Each kernel's rates, what the runtime picks by, are written beside it.
//
//===----------------------------------------------------------------------===//

#include "gemm-opt/Dialect/Gemm/GemmOps.h"
#include "gemm-opt/Target/CostModel.h"
#include "gemm-opt/Target/KernelPlan.h"
#include "gemm-opt/Target/OpModel.h"
#include "gemm-opt/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

#include <tuple>

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMSPECIALIZE
#include "gemm-opt/Transforms/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;

namespace {

TileMoveAttr tileMoveAttr(MLIRContext *context, const TileMovePlan &t) {
  return TileMoveAttr::get(context, t.x, t.xUnit, t.kUnit, t.pack, t.alongK,
                           t.wholeStore, t.packs, t.loads, t.regular,
                           t.swizzled, isKInner(t));
}

/// The plan of `schedule` for `op`, as an attribute, with or without its
/// scalar twin and its stream-K form.
KernelAttr kernelAttr(MatmulOp op, ScheduleAttr schedule, bool twin,
                      bool streamed) {
  KernelPlan k =
      planKernel(precisionOf(op), toSchedule(schedule), problemOf(op));
  MLIRContext *context = op.getContext();
  const bool packed = k.a.pack > 1 || k.b.pack > 1 || k.cPack > 1;
  return KernelAttr::get(
      context, schedule, k.threads, tileMoveAttr(context, k.a),
      tileMoveAttr(context, k.b), k.rowGroup, k.rowStep, k.colGroup,
      k.colStep, k.dmmaDepth, k.dmmaWide, k.dmmaGroupA, k.dmmaGroupB,
      k.cRowUnit, k.cColUnit, k.cByColumns, k.cPack, k.aTileBytes,
      k.sharedBytes, twin && packed, streamed);
}

/// The model's rate of `schedule` on a full GPU of the module's target, and
/// its DRAM shares, for the runtime's choice among an op's kernels.
RatesAttr ratesAttr(MatmulOp op, ScheduleAttr schedule) {
  const GpuTarget &target = targetOf(op->getParentOfType<ModuleOp>());
  auto [shareA, shareB] = streamShares(target, precisionOf(op),
                                       toSchedule(schedule), problemOf(op));
  Builder b(op.getContext());
  return RatesAttr::get(op.getContext(),
                        b.getF64FloatAttr(fullRate(target, op, schedule)),
                        b.getF64FloatAttr(shareA), b.getF64FloatAttr(shareB));
}

/// A printed configuration: the kernel (without its twin or stream-K
/// form), T and whether the epilogue is fused, as CodeGen tells
/// configurations apart.
using ConfigKey = std::tuple<Attribute, Type, unsigned>;

ConfigKey configKey(MatmulOp op, ScheduleAttr schedule) {
  return {kernelAttr(op, schedule, false, false), op.getElementType(),
          op.hasEpilogue()};
}

/// The indices of `op`'s schedules whose stream-K form a measurement can
/// choose: those its measured table chose as stream-K (splits 0), or all
/// where a tuning program times them.
llvm::SmallDenseSet<int64_t> measuredStreams(MatmulOp op) {
  llvm::SmallDenseSet<int64_t> streams;
  if (op->hasAttr(GemmDialect::getTuneAttrName())) {
    for (int64_t i = 0, e = op.getSchedules().size(); i < e; ++i)
      streams.insert(i);
  } else if (auto measured = op->getAttrOfType<ArrayAttr>(
                 GemmDialect::getMeasuredAttrName())) {
    for (auto e : measured.getAsRange<MeasuredAttr>())
      if (e.getSplits() == 0)
        streams.insert(e.getKernel());
  }
  return streams;
}

struct GemmSpecialize
    : public mlir::gemm::impl::GemmSpecializeBase<GemmSpecialize> {
  using GemmSpecializeBase::GemmSpecializeBase;

  void runOnOperation() override {
    llvm::DenseSet<ConfigKey> firsts, streamed;
    getOperation().walk([&](MatmulOp op) {
      SmallVector<ScheduleAttr> schedules = op.getSchedules();
      if (!schedules.empty())
        firsts.insert(configKey(op, schedules.front()));
      llvm::SmallDenseSet<int64_t> streams = measuredStreams(op);
      for (auto [i, schedule] : llvm::enumerate(schedules))
        if (streamK || streams.contains(i))
          streamed.insert(configKey(op, schedule));
    });
    getOperation().walk([&](MatmulOp op) {
      SmallVector<Attribute> kernels, rates;
      for (ScheduleAttr schedule : op.getSchedules()) {
        ConfigKey key = configKey(op, schedule);
        kernels.push_back(kernelAttr(op, schedule, firsts.contains(key),
                                     streamed.contains(key)));
        rates.push_back(ratesAttr(op, schedule));
      }
      if (!kernels.empty()) {
        op.setKernelsAttr(ArrayAttr::get(op.getContext(), kernels));
        op.setRatesAttr(ArrayAttr::get(op.getContext(), rates));
      }
    });
  }
};

} // namespace
