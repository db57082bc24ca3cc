//===- ScheduleSupport.cpp - What the schedule passes share ---------------===//
//
// The target lookup, the parsed schedule options and the model's choice
// that gemm-attach-target, gemm-select-schedule, gemm-add-alternatives and
// gemm-verify-budget have in common.
//
//===----------------------------------------------------------------------===//

#include "ScheduleSupport.h"

#include "gemm-opt/Target/OpModel.h"

using namespace mlir;
using namespace mlir::gemm;

const GpuTarget *mlir::gemm::resolveTarget(ModuleOp module, StringRef name,
                                           StringRef pass) {
  if (name.empty())
    name = targetNameOf(module);
  if (const GpuTarget *gpu = lookupTarget(name))
    return gpu;
  module.emitError() << pass << ": " << unknownTarget(name);
  return nullptr;
}

std::string mlir::gemm::unknownTarget(StringRef name) {
  std::string text = ("unknown target '" + name + "'; known targets:").str();
  for (const GpuTarget &t : getTargets())
    text += " " + t.name.str();
  return text;
}

std::optional<std::string>
mlir::gemm::checkScheduleOptions(ArrayRef<int64_t> block,
                                 ArrayRef<int64_t> thread, StringRef prefetch,
                                 StringRef compute) {
  auto positive = [](ArrayRef<int64_t> list) {
    return llvm::all_of(list, [](int64_t v) { return v > 0; });
  };
  if ((!block.empty() && block.size() != 3) || !positive(block))
    return "block needs 3 positive entries (BM,BN,BK)";
  if ((!thread.empty() && thread.size() != 2) || !positive(thread))
    return "thread needs 2 positive entries (TM,TN)";
  if (!prefetch.empty() && !symbolizePrefetch(prefetch))
    return ("prefetch must be none, smem, regs or async, got '" + prefetch +
            "'")
        .str();
  if (!compute.empty() && !symbolizeCompute(compute))
    return ("compute must be fma or dmma, got '" + compute + "'").str();
  return std::nullopt;
}

FailureOr<std::optional<TuningDb>>
mlir::gemm::loadTuningDb(StringRef path, ModuleOp module, StringRef pass) {
  if (path.empty())
    return std::optional<TuningDb>();
  llvm::Expected<TuningDb> db = TuningDb::load(path);
  if (db)
    return std::optional<TuningDb>(std::move(*db));
  // At the module's location, without the module printed after it.
  emitError(module.getLoc()) << pass << ": " << llvm::toString(db.takeError());
  return failure();
}

TuningMatch
mlir::gemm::findMeasured(MatmulOp op, const GpuTarget &gpu, const TuningDb &db,
                         llvm::function_ref<bool(const TuningKey &)> accepts,
                         StringRef pass, StringRef what) {
  TuningMatch match = db.find(gpu, accepts);
  if (match.stale)
    op.emitRemark() << pass << ": " << match.stale << " row(s) of "
                    << db.path() << " for this " << what
                    << " ignored: " << match.staleReason;
  return match;
}

ScheduleParams ScheduleParams::fromAttr(ScheduleAttr s) {
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

ScheduleParams ScheduleParams::fromSchedule(const Schedule &s) {
  return {{s.blockM, s.blockN, s.blockK},
          {s.threadM, s.threadN},
          s.stages,
          s.vector,
          s.pad,
          s.prefetch,
          s.compute,
          s.occupancy,
          s.transpose};
}

void ScheduleOverrides::parseKinds(StringRef prefetch, StringRef compute) {
  if (!prefetch.empty())
    fixed.prefetch = symbolizePrefetch(prefetch);
  if (!compute.empty())
    fixed.compute = symbolizeCompute(compute);
}

ScheduleParams ScheduleOverrides::apply(ScheduleParams p) const {
  if (!fixed.block.empty())
    p.block = fixed.block;
  if (!fixed.thread.empty())
    p.thread = fixed.thread;
  if (fixed.prefetch) {
    // A prefetch kind fixes the buffer count unless stages says otherwise;
    // a cp.async pipeline keeps its own, or takes the least.
    if (*fixed.prefetch != p.prefetch)
      p.stages = *fixed.prefetch == Prefetch::Smem ||
                         *fixed.prefetch == Prefetch::Async
                     ? 2
                     : 1;
    p.prefetch = *fixed.prefetch;
  }
  if (fixed.stages > 0)
    p.stages = fixed.stages;
  if (fixed.vector > 0)
    p.vector = fixed.vector;
  if (fixed.pad >= 0)
    p.pad = fixed.pad;
  if (fixed.compute)
    p.compute = *fixed.compute;
  if (occupancy > 0)
    p.occupancy = occupancy;
  if (fixed.transpose)
    p.transpose = *fixed.transpose;
  return p;
}

FailureOr<ScheduleAttr> mlir::gemm::buildSchedule(MatmulOp op,
                                                  const GpuTarget &gpu,
                                                  const ScheduleParams &p,
                                                  StringRef pass) {
  // checkScheduleOptions and the model make these.
  assert(p.block.size() == 3 && p.thread.size() == 2 && p.thread[0] > 0 &&
         p.thread[1] > 0 && "schedule parameters were checked");
  int64_t threads = (p.block[0] / p.thread[0]) * (p.block[1] / p.thread[1]);
  auto make = [&](int64_t occupancy) {
    return ScheduleAttr::getChecked(
        [&] { return op.emitError("invalid schedule: "); }, op.getContext(),
        ArrayRef<int64_t>(p.block), ArrayRef<int64_t>(p.thread), threads / 32,
        p.stages, p.vector, p.prefetch, p.pad, p.compute, occupancy,
        p.transpose);
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
    return op.emitError() << pass << ": " << gpu.name << " has no "
                          << stringifyCompute(schedule.getCompute())
                          << " for " << stringifyPrecision(precisionOf(op));
  return schedule;
}

std::optional<ScheduleParams>
mlir::gemm::modelSchedule(MatmulOp op, const GpuTarget &gpu,
                          const ScheduleOverrides &options,
                          SearchCache &searches,
                          llvm::function_ref<void(const CandidateSet &)>
                              explain) {
  Precision precision = precisionOf(op);
  Problem problem = problemOf(op);
  const ScheduleConstraints &fixed = options.constraints();
  // Options that fix every searched parameter are the schedule: the
  // search could only confirm them.
  std::optional<Schedule> best = fixed.only();
  if (explain)
    explain(searches.search(gpu, precision, fixed, problem));
  if (!best || explain)
    if (const Candidate *c =
            searches.first(gpu, precision, fixed, problem, problem))
      best = c->schedule;
  if (!best) {
    const Candidate *unconstrained =
        searches.first(gpu, precision, {}, problem, problem);
    if (!unconstrained)
      return std::nullopt;
    best = unconstrained->schedule;
  }
  return options.apply(ScheduleParams::fromSchedule(*best));
}
