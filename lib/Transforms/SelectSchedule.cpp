//===- SelectSchedule.cpp - Attach a #gemm.schedule to each matmul --------===//
//
// Asks the cost model of lib/Target for the best schedule of each matmul on
// the module's target, remarks on the choice, and lets pass options fix any
// parameter, so that tests, users and device scripts can ask for each
// kernel variant.
//
//===----------------------------------------------------------------------===//

#include "gemm-opt/Dialect/Gemm/GemmOps.h"
#include "gemm-opt/Target/Explain.h"
#include "gemm-opt/Transforms/Passes.h"

#include "llvm/Support/raw_ostream.h"

#include <map>
#include <tuple>

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMSELECTSCHEDULE
#include "gemm-opt/Transforms/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// The parameters of #gemm.schedule before warps are derived; unlike the
/// model's Schedule they can hold any stage count an option asks for.
struct ScheduleParams {
  SmallVector<int64_t, 3> block;
  SmallVector<int64_t, 2> thread;
  int64_t stages, vector, pad;
  Prefetch prefetch;
  Compute compute;
  /// Blocks per SM of the launch bounds; 0 until the model gives it.
  int64_t occupancy = 0;
};

ScheduleParams fromAttr(ScheduleAttr s) {
  return {SmallVector<int64_t, 3>(s.getBlock()),
          SmallVector<int64_t, 2>(s.getThread()),
          s.getStages(),
          s.getVector(),
          s.getPad(),
          s.getPrefetch(),
          s.getCompute(),
          s.getOccupancy()};
}

ScheduleParams fromSchedule(const Schedule &s) {
  return {{s.blockM, s.blockN, s.blockK},
          {s.threadM, s.threadN},
          s.stages,
          s.vector,
          s.pad,
          s.prefetch,
          s.compute};
}

/// The model's view of a verified schedule.
Schedule toSchedule(ScheduleAttr s) {
  return {s.getBlockM(),  s.getBlockN(), s.getBlockK(),
          s.getThreadM(), s.getThreadN(), s.getVector(),
          s.getPrefetch(), s.getPad(),    s.getCompute(),
          s.getStages()};
}

Precision precisionOf(MatmulOp op) {
  // The op's verifier admits f32 and f64 only.
  return op.getElementType().isF64() ? Precision::F64 : Precision::F32;
}

/// What the op's types tell the model: C's static extents and how A's and
/// B's tiles lie in memory.
Problem problemOf(MatmulOp op) {
  Problem p;
  ArrayRef<int64_t> c = op.getCType().getShape();
  auto known = [](int64_t extent) {
    return ShapedType::isDynamic(extent) ? 0 : extent;
  };
  unsigned row = op.isBatched() ? 1 : 0;
  p.m = known(c[row]);
  p.n = known(c[row + 1]);
  if (op.isBatched())
    p.batch = std::max<int64_t>(known(c[0]), 1);
  p.a = op.getTileStridesA();
  p.b = op.getTileStridesB();
  return p;
}

/// The searches that tell one op's problem from another's.
using SearchKey = std::tuple<Precision, int64_t, int64_t, int64_t, bool, bool,
                             bool, bool>;

SearchKey keyOf(Precision precision, const Problem &p) {
  return {precision, p.m,       p.n,       p.batch,
          p.a.xUnit, p.a.kUnit, p.b.xUnit, p.b.kUnit};
}

struct GemmSelectSchedule
    : public mlir::gemm::impl::GemmSelectScheduleBase<GemmSelectSchedule> {
  using GemmSelectScheduleBase::GemmSelectScheduleBase;

  /// The `compute` option, parsed.
  std::optional<Compute> computeKind;
  /// The searches of this run, each made once.
  std::map<SearchKey, CandidateSet> searches;

  void runOnOperation() override {
    std::optional<Prefetch> prefetchKind;
    if (!prefetch.empty() && !(prefetchKind = symbolizePrefetch(prefetch))) {
      getOperation().emitError("gemm-select-schedule: prefetch must be none, "
                               "smem, regs or async, got '")
          << prefetch << "'";
      return signalPassFailure();
    }
    if (!compute.empty() && !(computeKind = symbolizeCompute(compute))) {
      getOperation().emitError("gemm-select-schedule: compute must be fma "
                               "or dmma, got '")
          << compute << "'";
      return signalPassFailure();
    }
    const GpuTarget *gpu = resolveTarget();
    if (!gpu)
      return signalPassFailure();
    searches.clear();
    WalkResult result = getOperation().walk([&](MatmulOp op) {
      if (failed(select(op, *gpu, prefetchKind)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  /// The `target` option, else the module's #gemm.target, else the default;
  /// the module carries the answer for later passes.
  const GpuTarget *resolveTarget() {
    ModuleOp module = getOperation();
    StringRef name = target;
    auto attr =
        module->getAttrOfType<TargetAttr>(GemmDialect::getTargetAttrName());
    if (name.empty())
      name = attr ? attr.getName() : getDefaultTarget().name;
    const GpuTarget *gpu = lookupTarget(name);
    if (!gpu) {
      InFlightDiagnostic diag = module.emitError()
                                << "gemm-select-schedule: unknown target '"
                                << name << "'; known targets:";
      for (const GpuTarget &t : getTargets())
        diag << " " << t.name;
      return nullptr;
    }
    module->setAttr(GemmDialect::getTargetAttrName(),
                    TargetAttr::get(module.getContext(), gpu->name));
    return gpu;
  }

  /// The searched parameters that options fix.
  ScheduleConstraints constraints(std::optional<Prefetch> prefetchKind) const {
    ScheduleConstraints c;
    c.block.assign(block.begin(), block.end());
    c.thread.assign(thread.begin(), thread.end());
    c.vector = vector;
    c.stages = stages;
    c.pad = pad;
    c.prefetch = prefetchKind;
    c.compute = computeKind;
    return c;
  }

  /// `p` with every parameter that an option gives replaced.
  ScheduleParams applyOptions(ScheduleParams p,
                              std::optional<Prefetch> prefetchKind) const {
    if (!block.empty())
      p.block.assign(block.begin(), block.end());
    if (!thread.empty())
      p.thread.assign(thread.begin(), thread.end());
    if (prefetchKind) {
      // A prefetch kind fixes the buffer count unless stages says otherwise;
      // a cp.async pipeline keeps its own, or takes the least.
      if (*prefetchKind != p.prefetch)
        p.stages = *prefetchKind == Prefetch::Smem ||
                           *prefetchKind == Prefetch::Async
                       ? 2
                       : 1;
      p.prefetch = *prefetchKind;
    }
    if (stages > 0)
      p.stages = stages;
    if (vector > 0)
      p.vector = vector;
    if (pad >= 0)
      p.pad = pad;
    if (computeKind)
      p.compute = *computeKind;
    if (occupancy > 0)
      p.occupancy = occupancy;
    return p;
  }

  /// The model's best schedule for `op` among those that match the options,
  /// else its best overall with the options applied; the search is printed
  /// when `explain` asks for it.
  FailureOr<ScheduleParams> search(MatmulOp op, const GpuTarget &gpu,
                                   std::optional<Prefetch> prefetchKind) {
    Precision precision = precisionOf(op);
    Problem problem = problemOf(op);
    // Ops of one precision and problem see the same search; run it once.
    auto [it, fresh] = searches.try_emplace(keyOf(precision, problem));
    if (fresh)
      it->second =
          searchSchedules(gpu, precision, constraints(prefetchKind), problem);
    const CandidateSet &set = it->second;
    if (explain > 0) {
      auto symbol = op->getParentOfType<SymbolOpInterface>();
      StringRef what = symbol ? symbol.getName() : "gemm.matmul";
      if (explainSchedules)
        printCandidateSchedules(llvm::outs(), gpu, precision, what, set,
                                explain);
      else
        printCandidateTable(llvm::outs(), gpu, precision, what, set, explain);
    }
    if (!set.ranked.empty())
      return applyOptions(fromSchedule(set.ranked.front().schedule),
                          prefetchKind);
    CandidateSet unconstrained = searchSchedules(gpu, precision, {}, problem);
    if (unconstrained.ranked.empty())
      return op.emitError("gemm-select-schedule: no schedule of CodeGen's "
                          "kernels fits the registers and shared memory of ")
             << gpu.name;
    return applyOptions(fromSchedule(unconstrained.ranked.front().schedule),
                        prefetchKind);
  }

  LogicalResult select(MatmulOp op, const GpuTarget &gpu,
                       std::optional<Prefetch> prefetchKind) {
    ScheduleParams p;
    if (ScheduleAttr kept = op.getScheduleAttr()) {
      p = applyOptions(fromAttr(kept), prefetchKind);
    } else {
      FailureOr<ScheduleParams> best = search(op, gpu, prefetchKind);
      if (failed(best))
        return failure();
      p = *best;
    }
    if (p.block.size() != 3 || p.thread.size() != 2 || p.thread[0] <= 0 ||
        p.thread[1] <= 0)
      return op.emitError("gemm-select-schedule: block needs 3 entries and "
                          "thread 2 positive ones");
    int64_t threads = (p.block[0] / p.thread[0]) * (p.block[1] / p.thread[1]);
    auto build = [&](int64_t occupancy) {
      return ScheduleAttr::getChecked(
          [&] { return op.emitError("invalid schedule: "); }, op.getContext(),
          ArrayRef<int64_t>(p.block), ArrayRef<int64_t>(p.thread),
          threads / 32, p.stages, p.vector, p.prefetch, p.pad, p.compute,
          occupancy);
    };
    ScheduleAttr schedule = build(std::max<int64_t>(p.occupancy, 1));
    if (!schedule)
      return failure();
    // The kernel is held to the residency that the model's prediction
    // assumes, so that ptxas cannot trade it for registers.
    if (p.occupancy == 0)
      schedule = build(std::max<int64_t>(
          estimateFootprint(gpu, precisionOf(op), toSchedule(schedule))
              .blocksPerSM,
          1));
    op.setScheduleAttr(schedule);
    if (!gpu.supports(precisionOf(op), schedule.getCompute()))
      return op.emitError("gemm-select-schedule: ")
             << gpu.name << " has no "
             << stringifyCompute(schedule.getCompute()) << " for "
             << stringifyPrecision(precisionOf(op));
    Schedule chosen = toSchedule(schedule);
    op.emitRemark("gemm-select-schedule: ")
        << summarize(gpu, precisionOf(op), chosen,
                     predict(gpu, precisionOf(op), chosen, problemOf(op)));
    return success();
  }
};

} // namespace

void mlir::gemm::buildGemmPipeline(OpPassManager &pm) {
  pm.addPass(createGemmSelectSchedule());
}
