//===- SelectSchedule.cpp - Attach a #gemm.schedule to each matmul --------===//
//
// Until the cost model chooses schedules from a target description, every
// matmul gets a fixed default per element type; pass options override any
// parameter, so tests and users can ask for each kernel variant.
//
//===----------------------------------------------------------------------===//

#include "gemm-opt/Dialect/Gemm/GemmOps.h"
#include "gemm-opt/Transforms/Passes.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMSELECTSCHEDULE
#include "gemm-opt/Transforms/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// The default schedules: 128x128x8 with 8x8 per thread for f32 and
/// 64x64x16 with 4x4 per thread for f64 (MAGMA's Fermi DGEMM tile), both with
/// 128-bit accesses and two shared-memory buffers.
struct ScheduleParams {
  SmallVector<int64_t, 3> block;
  SmallVector<int64_t, 2> thread;
  int64_t stages, vector, pad;
  Prefetch prefetch;
};

ScheduleParams defaultParams(Type element) {
  if (element.isF64())
    return {{64, 64, 16}, {4, 4}, 2, 2, 2, Prefetch::Smem};
  return {{128, 128, 8}, {8, 8}, 2, 4, 4, Prefetch::Smem};
}

ScheduleParams fromAttr(ScheduleAttr s) {
  return {SmallVector<int64_t, 3>(s.getBlock()),
          SmallVector<int64_t, 2>(s.getThread()),
          s.getStages(),
          s.getVector(),
          s.getPad(),
          s.getPrefetch()};
}

struct GemmSelectSchedule
    : public mlir::gemm::impl::GemmSelectScheduleBase<GemmSelectSchedule> {
  using GemmSelectScheduleBase::GemmSelectScheduleBase;

  void runOnOperation() override {
    std::optional<Prefetch> prefetchKind;
    if (!prefetch.empty() && !(prefetchKind = symbolizePrefetch(prefetch))) {
      getOperation().emitError("gemm-select-schedule: prefetch must be none, "
                               "smem or regs, got '")
          << prefetch << "'";
      return signalPassFailure();
    }
    WalkResult result = getOperation().walk([&](MatmulOp op) {
      if (failed(select(op, prefetchKind)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  LogicalResult select(MatmulOp op, std::optional<Prefetch> prefetchKind) {
    ScheduleParams p = op.getScheduleAttr() ? fromAttr(op.getScheduleAttr())
                                            : defaultParams(op.getElementType());
    if (!block.empty())
      p.block.assign(block.begin(), block.end());
    if (!thread.empty())
      p.thread.assign(thread.begin(), thread.end());
    if (prefetchKind) {
      p.prefetch = *prefetchKind;
      // A prefetch kind fixes the buffer count unless stages says otherwise.
      p.stages = *prefetchKind == Prefetch::Smem ? 2 : 1;
    }
    if (stages > 0)
      p.stages = stages;
    if (vector > 0)
      p.vector = vector;
    if (pad >= 0)
      p.pad = pad;
    if (p.block.size() != 3 || p.thread.size() != 2 || p.thread[0] <= 0 ||
        p.thread[1] <= 0)
      return op.emitError("gemm-select-schedule: block needs 3 entries and "
                          "thread 2 positive ones");
    int64_t threads = (p.block[0] / p.thread[0]) * (p.block[1] / p.thread[1]);
    auto schedule = ScheduleAttr::getChecked(
        [&] { return op.emitError("invalid schedule: "); }, op.getContext(),
        ArrayRef<int64_t>(p.block), ArrayRef<int64_t>(p.thread), threads / 32,
        p.stages, p.vector, p.prefetch, p.pad);
    if (!schedule)
      return failure();
    op.setScheduleAttr(schedule);
    return success();
  }
};

} // namespace

void mlir::gemm::buildGemmPipeline(OpPassManager &pm) {
  pm.addPass(createGemmSelectSchedule());
}
