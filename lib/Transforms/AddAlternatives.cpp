//===- AddAlternatives.cpp - Kernels for smaller problems -----------------===//
//
// A schedule chosen for C's static extents (or for a problem of unknown
// size) wastes most of the GPU on a much smaller call: large tiles leave
// SMs idle. Where the types leave extents open, the op also gets the
// model's first schedules for a few smaller problems, and the launcher
// picks one per call by the fill at the call's extents.
//
//===----------------------------------------------------------------------===//

#include "ScheduleSupport.h"

#include "gemm-opt/Target/Explain.h"
#include "gemm-opt/Target/OpModel.h"
#include "gemm-opt/Transforms/Passes.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMADDALTERNATIVES
#include "gemm-opt/Transforms/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// Problems smaller than a GPU's worth of the largest tiles, whose first
/// schedules differ from a large problem's: squares, 64 rows or columns
/// against a large other side (0: large), batches of small squares.
/// The most kernels a tuning database adds to one op: each costs nvcc about
/// a second and a half.
constexpr unsigned kMeasuredKernels = 8;

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

struct GemmAddAlternatives
    : public mlir::gemm::impl::GemmAddAlternativesBase<GemmAddAlternatives> {
  using GemmAddAlternativesBase::GemmAddAlternativesBase;
  /// ScheduleOverrides::read reads the schedule options it declares.
  friend class mlir::gemm::ScheduleOverrides;

  void runOnOperation() override {
    SearchCache &searches = getAnalysis<ScheduleSearches>().cache;
    auto add = [&](MatmulOp op, const GpuTarget &gpu,
                   const ScheduleOverrides &options, const TuningDb *db) {
      return addAlternatives(op, gpu, options, searches, db);
    };
    if (failed(forEachMatmul(*this, getOperation(), add)))
      signalPassFailure();
  }

  /// Whether `op`'s schedule is the one gemm-select-schedule would choose
  /// under the options. Any other was given, and is the op's one kernel.
  FailureOr<bool> hasModelSchedule(MatmulOp op, const GpuTarget &gpu,
                                   const ScheduleOverrides &options,
                                   SearchCache &searches) {
    std::optional<ScheduleParams> model =
        modelSchedule(op, gpu, options, searches);
    if (!model)
      return false;
    FailureOr<ScheduleAttr> schedule =
        buildSchedule(op, gpu, *model, getArgument());
    if (failed(schedule))
      return failure();
    return *schedule == op.getScheduleAttr();
  }

  /// Adds the fastest kernel of each problem that `db` timed for `op` on
  /// `gpu` to `kernels` (after the op's schedule), up to kMeasuredKernels
  /// new ones, and returns the problems with their kernels' indices and
  /// splits, as gemm.measured holds them.
  FailureOr<SmallVector<Attribute>>
  addMeasured(MatmulOp op, const GpuTarget &gpu,
              const ScheduleOverrides &options, const TuningDb &db,
              SmallVector<Attribute> &kernels) {
    TuningMatch match = findMeasured(
        op, gpu, db, [&](const TuningKey &key) { return admits(op, key); },
        getArgument(), "op");
    SmallVector<Attribute> measured;
    unsigned added = 0;
    for (const TuningRecord *r : match.best) {
      FailureOr<ScheduleAttr> schedule = buildSchedule(
          op, gpu, options.apply(ScheduleParams::fromSchedule(r->schedule)),
          getArgument());
      if (failed(schedule))
        return failure();
      auto *at = llvm::find(kernels, *schedule);
      int64_t index = at - kernels.begin() + 1;
      if (*schedule == op.getScheduleAttr())
        index = 0;
      else if (at == kernels.end() && added++ < kMeasuredKernels)
        kernels.push_back(*schedule);
      else if (at == kernels.end())
        continue;
      measured.push_back(MeasuredAttr::get(op.getContext(), r->key.batch,
                                           r->key.m, r->key.n, r->key.k,
                                           index, r->splits));
    }
    return measured;
  }

  /// Sets the op's alternatives: its candidates ranked first for the
  /// smaller problems that its types allow, options applied, each kernel
  /// once, none its own schedule; then the kernels that `db` measured
  /// fastest for problems the op admits, with gemm.measured.
  LogicalResult addAlternatives(MatmulOp op, const GpuTarget &gpu,
                                const ScheduleOverrides &options,
                                SearchCache &searches, const TuningDb *db) {
    // With every parameter fixed each probe's kernel is the op's own.
    if (alternatives == 0 || options.constraints().only())
      return success();
    SmallVector<Problem> probes = probesFor(op);
    if (probes.empty() || !op.getScheduleAttr() || op.getAlternativesAttr())
      return success();
    FailureOr<bool> chosen = hasModelSchedule(op, gpu, options, searches);
    if (failed(chosen) || !*chosen)
      return failure(failed(chosen));
    Precision precision = precisionOf(op);
    Problem problem = problemOf(op);
    const ScheduleConstraints &fixed = options.constraints();
    // Options that no candidate has were applied to the best schedule
    // overall; their probes have no candidates either.
    if (!searches.first(gpu, precision, fixed, problem, problem))
      return success();
    SmallVector<Attribute> kernels;
    std::string remark;
    llvm::raw_string_ostream what(remark);
    for (const Problem &probe : probes) {
      if (kernels.size() >= alternatives)
        break;
      const Candidate &first =
          *searches.first(gpu, precision, fixed, problem, probe);
      FailureOr<ScheduleAttr> schedule = buildSchedule(
          op, gpu, options.apply(ScheduleParams::fromSchedule(first.schedule)),
          getArgument());
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
    size_t modelKernels = kernels.size();
    SmallVector<Attribute> measured;
    if (db) {
      FailureOr<SmallVector<Attribute>> found =
          addMeasured(op, gpu, options, *db, kernels);
      if (failed(found))
        return failure();
      measured = std::move(*found);
    }
    if (kernels.empty() && measured.empty())
      return success();
    if (!kernels.empty())
      op.setAlternativesAttr(ArrayAttr::get(op.getContext(), kernels));
    if (modelKernels)
      op.emitRemark() << getArgument() << ": for smaller problems: " << remark;
    if (!measured.empty()) {
      op->setAttr(GemmDialect::getMeasuredAttrName(),
                  ArrayAttr::get(op.getContext(), measured));
      op.emitRemark() << getArgument() << ": measured kernels for "
                      << measured.size() << " problem(s) from "
                      << db->path() << ", "
                      << kernels.size() - modelKernels << " of them added";
    }
    return success();
  }
};

} // namespace
