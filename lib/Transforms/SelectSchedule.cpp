//===- SelectSchedule.cpp - Attach a #gemm.schedule to each matmul --------===//
//
// Asks the cost model of lib/Target for the best schedule of each matmul on
// the module's target (or a tuning database for the fastest one measured),
// remarks on the choice, and lets pass options fix any
// parameter, so that tests, users and device scripts can ask for each
// kernel variant. --explain's tables are this search's.
//
//===----------------------------------------------------------------------===//

#include "ScheduleSupport.h"

#include "gemm-opt/Target/Explain.h"
#include "gemm-opt/Target/OpModel.h"
#include "gemm-opt/Transforms/Passes.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMSELECTSCHEDULE
#include "gemm-opt/Transforms/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;

namespace {

struct GemmSelectSchedule
    : public mlir::gemm::impl::GemmSelectScheduleBase<GemmSelectSchedule> {
  using GemmSelectScheduleBase::GemmSelectScheduleBase;
  /// ScheduleOverrides::read reads the schedule options it declares.
  friend class mlir::gemm::ScheduleOverrides;

  void runOnOperation() override {
    SearchCache &searches = getAnalysis<ScheduleSearches>().cache;
    auto select = [&](MatmulOp op, const GpuTarget &gpu,
                   const ScheduleOverrides &options, const TuningDb *db) {
      return selectSchedule(op, gpu, options, searches, db);
    };
    if (failed(forEachMatmul(*this, getOperation(), select)))
      signalPassFailure();
  }

  /// Prints the candidates that `op`'s search ranked, as `explain` asks.
  void printSearch(MatmulOp op, const GpuTarget &gpu,
                   const CandidateSet &set) {
    auto symbol = op->getParentOfType<SymbolOpInterface>();
    StringRef what = symbol ? symbol.getName() : "gemm.matmul";
    if (explainSchedules)
      printCandidateSchedules(llvm::outs(), gpu, precisionOf(op), what, set,
                              explain);
    else
      printCandidateTable(llvm::outs(), gpu, precisionOf(op), what, set,
                          explain);
  }

  /// The fastest row of `db` for `op`'s problem, null, with a remark on
  /// the rows it ignored, if none.
  const TuningRecord *measured(MatmulOp op, const GpuTarget &gpu,
                               const TuningDb &db) {
    std::optional<TuningKey> key = tuningKeyOf(op);
    if (!key)
      return nullptr;
    TuningMatch match = findMeasured(
        op, gpu, db, [&](const TuningKey &row) { return row == *key; },
        getArgument(), "problem");
    return match.best.empty() ? nullptr : match.best.front();
  }

  /// "measured on <device> (<file>:<line>): <rate>[, <ratio> of
  /// cuBLAS][ with K split s ways| as stream-K]", for the remark and
  /// --explain.
  static std::string describeMeasured(const TuningRecord &r,
                                      const TuningDb &db) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "measured on " << r.device << " (" << db.path() << ":" << r.line
       << "): " << llvm::formatv("{0:F0} GFLOP/s", r.gflops).str();
    if (r.cublasGFlops > 0)
      os << llvm::formatv(", {0:F3} of cuBLAS", r.gflops / r.cublasGFlops)
                .str();
    if (r.splits > 1)
      os << " with K split " << r.splits << " ways";
    else if (r.splits == 0)
      os << " as stream-K";
    return text;
  }

  /// Gives `op` the measured schedule of `db` or the model's, or keeps its
  /// own with the options applied, and remarks on it.
  LogicalResult selectSchedule(MatmulOp op, const GpuTarget &gpu,
                               const ScheduleOverrides &options,
                               SearchCache &searches, const TuningDb *db) {
    std::optional<ScheduleParams> p;
    const TuningRecord *r = nullptr;
    if (ScheduleAttr kept = op.getScheduleAttr()) {
      p = options.apply(ScheduleParams::fromAttr(kept));
    } else {
      r = db ? measured(op, gpu, *db) : nullptr;
      // --explain shows the model's search even where a measurement wins.
      auto print = [&](const CandidateSet &set) { printSearch(op, gpu, set); };
      if (!r || explain > 0)
        p = modelSchedule(op, gpu, options, searches,
                          explain > 0 ? llvm::function_ref<void(
                                            const CandidateSet &)>(print)
                                      : nullptr);
      if (r) {
        p = options.apply(ScheduleParams::fromSchedule(r->schedule));
        op.emitRemark() << getArgument() << ": " << describeMeasured(*r, *db);
        if (explain > 0 && !explainSchedules)
          llvm::outs() << "  chosen: " << describeMeasured(*r, *db) << ": "
                       << formatScheduleOptions(r->schedule) << "\n";
      } else if (!p) {
        return op.emitError() << getArgument()
                              << ": no schedule of CodeGen's kernels fits "
                                 "the registers and shared memory of "
                              << gpu.name;
      }
    }
    FailureOr<ScheduleAttr> schedule =
        buildSchedule(op, gpu, *p, getArgument());
    if (failed(schedule))
      return failure();
    op.setScheduleAttr(*schedule);
    op.emitRemark() << getArgument() << ": "
                    << summarize(gpu, precisionOf(op), toSchedule(*schedule),
                                 predict(gpu, op, *schedule));
    return success();
  }
};

} // namespace
