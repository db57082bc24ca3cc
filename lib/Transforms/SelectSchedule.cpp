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
#include "gemm-opt/Target/OpModel.h"
#include "gemm-opt/Target/SearchCache.h"
#include "gemm-opt/Transforms/Passes.h"

#include "llvm/Support/raw_ostream.h"

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
  bool transpose = false;
};

ScheduleParams fromAttr(ScheduleAttr s) {
  return {SmallVector<int64_t, 3>(s.getBlock()),
          SmallVector<int64_t, 2>(s.getThread()),
          s.getStages(),
          s.getVector(),
          s.getPad(),
          s.getPrefetch(),
          s.getCompute(),
          s.getOccupancy(),
          s.getTranspose()};
}

ScheduleParams fromSchedule(const Schedule &s) {
  return {{s.blockM, s.blockN, s.blockK},
          {s.threadM, s.threadN},
          s.stages,
          s.vector,
          s.pad,
          s.prefetch,
          s.compute,
          /*occupancy=*/0,
          s.transpose};
}

/// Problems smaller than a GPU's worth of the largest tiles, whose first
/// schedules differ from a large problem's: squares, 64 rows or columns
/// against a large other side (0: large), batches of small squares.
constexpr Problem kProbes[] = {
    {1024, 1024, 1}, {0, 64, 1}, {64, 0, 1}, {64, 64, 256}, {256, 256, 16},
    {256, 256, 1}};

/// The probes that `op`'s types leave open: each with the op's static
/// extents and tile strides; none when every extent is static.
SmallVector<Problem> probesFor(MatmulOp op) {
  Problem own = problemOf(op);
  ArrayRef<int64_t> c = op.getCType().getShape();
  bool dynamicBatch = op.isBatched() && ShapedType::isDynamic(c[0]);
  SmallVector<Problem> probes;
  if (own.m > 0 && own.n > 0 && !dynamicBatch)
    return probes;
  for (Problem probe : kProbes) {
    if (probe.batch > 1 && !op.isBatched())
      continue;
    probe.m = own.m > 0 ? own.m : probe.m;
    probe.n = own.n > 0 ? own.n : probe.n;
    probe.batch = dynamicBatch ? probe.batch : own.batch;
    probe.a = own.a;
    probe.b = own.b;
    probes.push_back(probe);
  }
  return probes;
}

struct GemmSelectSchedule
    : public mlir::gemm::impl::GemmSelectScheduleBase<GemmSelectSchedule> {
  using GemmSelectScheduleBase::GemmSelectScheduleBase;

  /// The `compute` option, parsed.
  std::optional<Compute> computeKind;
  /// The searches made, each once; keyed on all that they read, they hold
  /// across runs.
  SearchCache searches;

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
    StringRef name = target.empty() ? targetNameOf(module) : StringRef(target);
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
    if (transpose >= 0)
      c.transpose = transpose == 1;
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
    if (transpose >= 0)
      p.transpose = transpose == 1;
    return p;
  }

  /// The model's best schedule for `op` among those that match the options,
  /// else its best overall with the options applied; the search is printed
  /// when `explain` asks for it.
  FailureOr<ScheduleParams> search(MatmulOp op, const GpuTarget &gpu,
                                   std::optional<Prefetch> prefetchKind) {
    Precision precision = precisionOf(op);
    Problem problem = problemOf(op);
    ScheduleConstraints fixed = constraints(prefetchKind);
    // Options that fix every searched parameter are the schedule: the
    // search could only confirm them; it runs for --explain alone.
    std::optional<Schedule> best = fixed.only();
    if (!best || explain > 0) {
      const CandidateSet &set =
          searches.search(gpu, precision, fixed, problem);
      if (explain > 0) {
        auto symbol = op->getParentOfType<SymbolOpInterface>();
        StringRef what = symbol ? symbol.getName() : "gemm.matmul";
        if (explainSchedules)
          printCandidateSchedules(llvm::outs(), gpu, precision, what, set,
                                  explain);
        else
          printCandidateTable(llvm::outs(), gpu, precision, what, set,
                              explain);
      }
      if (!set.ranked.empty())
        best = set.ranked.front().schedule;
    }
    if (!best) {
      const CandidateSet &unconstrained =
          searches.search(gpu, precision, {}, problem);
      if (unconstrained.ranked.empty())
        return op.emitError("gemm-select-schedule: no schedule of CodeGen's "
                            "kernels fits the registers and shared memory "
                            "of ")
               << gpu.name;
      best = unconstrained.ranked.front().schedule;
    }
    return applyOptions(fromSchedule(*best), prefetchKind);
  }

  /// `p` as the op's schedule attribute on `gpu`, held to the residency
  /// that the model's prediction assumes unless `p` gives one, so that
  /// ptxas cannot trade it for registers.
  FailureOr<ScheduleAttr> build(MatmulOp op, const GpuTarget &gpu,
                                const ScheduleParams &p) {
    if (p.block.size() != 3 || p.thread.size() != 2 || p.thread[0] <= 0 ||
        p.thread[1] <= 0)
      return op.emitError("gemm-select-schedule: block needs 3 entries and "
                          "thread 2 positive ones");
    int64_t threads = (p.block[0] / p.thread[0]) * (p.block[1] / p.thread[1]);
    auto make = [&](int64_t occupancy) {
      return ScheduleAttr::getChecked(
          [&] { return op.emitError("invalid schedule: "); }, op.getContext(),
          ArrayRef<int64_t>(p.block), ArrayRef<int64_t>(p.thread),
          threads / 32, p.stages, p.vector, p.prefetch, p.pad, p.compute,
          occupancy, p.transpose);
    };
    ScheduleAttr schedule = make(std::max<int64_t>(p.occupancy, 1));
    if (!schedule)
      return failure();
    if (p.occupancy == 0)
      schedule = make(std::max<int64_t>(
          estimateFootprint(gpu, precisionOf(op), toSchedule(schedule),
                            problemOf(op))
              .blocksPerSM,
          1));
    if (!gpu.supports(precisionOf(op), schedule.getCompute()))
      return op.emitError("gemm-select-schedule: ")
             << gpu.name << " has no "
             << stringifyCompute(schedule.getCompute()) << " for "
             << stringifyPrecision(precisionOf(op));
    return schedule;
  }

  LogicalResult select(MatmulOp op, const GpuTarget &gpu,
                       std::optional<Prefetch> prefetchKind) {
    ScheduleParams p;
    bool kept = op.getScheduleAttr() != nullptr;
    if (kept) {
      p = applyOptions(fromAttr(op.getScheduleAttr()), prefetchKind);
    } else {
      FailureOr<ScheduleParams> best = search(op, gpu, prefetchKind);
      if (failed(best))
        return failure();
      p = *best;
    }
    FailureOr<ScheduleAttr> schedule = build(op, gpu, p);
    if (failed(schedule))
      return failure();
    op.setScheduleAttr(*schedule);
    Schedule chosen = toSchedule(*schedule);
    op.emitRemark("gemm-select-schedule: ")
        << summarize(gpu, precisionOf(op), chosen,
                     predict(gpu, precisionOf(op), chosen, problemOf(op)));
    // An op that came with its schedule keeps its kernels.
    return kept ? success() : selectAlternatives(op, gpu, prefetchKind);
  }

  /// The op's candidates ranked first for smaller problems than its types
  /// allow, options applied, each kernel once, as the op's alternatives.
  LogicalResult selectAlternatives(MatmulOp op, const GpuTarget &gpu,
                                   std::optional<Prefetch> prefetchKind) {
    ScheduleConstraints fixed = constraints(prefetchKind);
    // With every parameter fixed each probe's kernel is the op's own.
    if (fixed.only())
      return success();
    Precision precision = precisionOf(op);
    Problem problem = problemOf(op);
    if (searches.search(gpu, precision, fixed, problem).ranked.empty())
      return success();
    SmallVector<Attribute> kernels;
    std::string remark;
    llvm::raw_string_ostream what(remark);
    for (const Problem &probe : probesFor(op)) {
      if (kernels.size() >= alternatives)
        break;
      const Candidate &first =
          searches.first(gpu, precision, fixed, problem, probe);
      FailureOr<ScheduleAttr> schedule = build(
          op, gpu, applyOptions(fromSchedule(first.schedule), prefetchKind));
      if (failed(schedule))
        return failure();
      if (*schedule == op.getScheduleAttr() ||
          llvm::is_contained(kernels, *schedule))
        continue;
      kernels.push_back(*schedule);
      what << (kernels.size() == 1 ? "" : "; ")
           << formatScheduleOptions(first.schedule) << " for " << probe.m
           << "x" << probe.n;
      if (probe.batch > 1)
        what << " x" << probe.batch;
    }
    if (kernels.empty())
      return success();
    op.setAlternativesAttr(ArrayAttr::get(op.getContext(), kernels));
    op.emitRemark("gemm-select-schedule: for smaller problems: ") << remark;
    return success();
  }
};

} // namespace

void mlir::gemm::buildGemmPipeline(OpPassManager &pm) {
  pm.addPass(createGemmSelectSchedule());
  pm.addPass(createGemmSpecialize());
}
