//===- ScheduleSupport.h - What the schedule passes share -------*- C++ -*-===//
//
// The module's target as the passes after gemm-attach-target read it, the
// schedule options of Passes.td's `scheduleOptions` parsed once, and the
// model's choice under them, which gemm-select-schedule writes and
// gemm-add-alternatives recognises.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_TRANSFORMS_SCHEDULESUPPORT_H
#define GEMM_OPT_LIB_TRANSFORMS_SCHEDULESUPPORT_H

#include "gemm-opt/Dialect/Gemm/GemmOps.h"
#include "gemm-opt/Target/Candidates.h"
#include "gemm-opt/Target/SearchCache.h"
#include "gemm-opt/Target/TuningDb.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/AnalysisManager.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace mlir::gemm {

/// The GPU named `name`, else `module`'s #gemm.target, else the default;
/// null after an error at the module that lists the known targets, which
/// `pass` names.
const GpuTarget *resolveTarget(ModuleOp module, StringRef name,
                               StringRef pass);

/// "unknown target 'name'; known targets: ...".
std::string unknownTarget(StringRef name);

/// What is wrong with schedule options as given, before any op sees them: a
/// block or thread list of the wrong length or not positive, a prefetch or
/// compute kind that names nothing; nullopt when nothing is.
std::optional<std::string> checkScheduleOptions(ArrayRef<int64_t> block,
                                                ArrayRef<int64_t> thread,
                                                StringRef prefetch,
                                                StringRef compute);

/// The tuning database at `path` (none for an empty path); an error at
/// `module`, naming `pass`, if it cannot be read.
FailureOr<std::optional<TuningDb>> loadTuningDb(StringRef path,
                                                ModuleOp module,
                                                StringRef pass);

/// The rows of `db` for `op` on `gpu` whose problems `accepts`
/// (TuningDb::find), with a remark at `op`, naming `pass`, on the rows it
/// ignored as stale; `what` names what they were for.
TuningMatch findMeasured(MatmulOp op, const GpuTarget &gpu,
                         const TuningDb &db,
                         llvm::function_ref<bool(const TuningKey &)> accepts,
                         StringRef pass, StringRef what);

/// The searches of one pass-manager run, as an analysis of the module:
/// gemm-select-schedule makes them and gemm-add-alternatives ranks them
/// again for smaller problems. A search reads nothing but its key (the
/// target, precision, options and problem), so no change to the IR
/// invalidates it; it ends with the run, so that split inputs and a
/// driver's files do not pile up searches.
struct ScheduleSearches {
  explicit ScheduleSearches(Operation *) {}
  bool isInvalidated(const AnalysisManager::PreservedAnalyses &) {
    return false;
  }

  SearchCache cache;
};

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

  static ScheduleParams fromAttr(ScheduleAttr schedule);
  static ScheduleParams fromSchedule(const Schedule &schedule);
};

/// The values of Passes.td's `scheduleOptions`: what they fix of a
/// schedule, for the search and after it, and the tuning database.
class ScheduleOverrides {
public:
  /// Reads the options off `pass`, which declares them (and makes this
  /// class its friend); checkScheduleOptions' complaint is an error at
  /// `module`.
  template <typename PassT>
  static FailureOr<ScheduleOverrides> read(PassT &pass, ModuleOp module) {
    ScheduleOverrides o;
    o.fixed.block.assign(pass.block.begin(), pass.block.end());
    o.fixed.thread.assign(pass.thread.begin(), pass.thread.end());
    o.fixed.vector = pass.vector;
    o.fixed.stages = pass.stages;
    o.fixed.pad = pass.pad;
    if (pass.transpose >= 0)
      o.fixed.transpose = pass.transpose == 1;
    o.occupancy = pass.occupancy;
    o.tuningDb = pass.tuningDb;
    if (std::optional<std::string> bad = checkScheduleOptions(
            o.fixed.block, o.fixed.thread, pass.prefetch, pass.compute))
      return module.emitError() << pass.getArgument() << ": " << *bad;
    o.parseKinds(pass.prefetch, pass.compute);
    return o;
  }

  /// The searched parameters that the options fix.
  const ScheduleConstraints &constraints() const { return fixed; }

  /// `p` with every parameter that an option gives replaced.
  ScheduleParams apply(ScheduleParams p) const;

  /// The tuning database's path, or empty.
  StringRef tuningDbPath() const { return tuningDb; }

private:
  /// Sets the kinds that checkScheduleOptions accepted.
  void parseKinds(StringRef prefetch, StringRef compute);

  ScheduleConstraints fixed;
  int64_t occupancy = 0;
  std::string tuningDb;
};

/// Reads `pass`'s schedule options, its tuning database and `module`'s
/// target, then runs `fn` on each gemm.matmul of `module` until one fails.
template <typename PassT>
LogicalResult
forEachMatmul(PassT &pass, ModuleOp module,
              llvm::function_ref<LogicalResult(
                  MatmulOp, const GpuTarget &, const ScheduleOverrides &,
                  const TuningDb *)>
                  fn) {
  FailureOr<ScheduleOverrides> options = ScheduleOverrides::read(pass, module);
  if (failed(options))
    return failure();
  const GpuTarget *gpu = resolveTarget(module, "", pass.getArgument());
  if (!gpu)
    return failure();
  FailureOr<std::optional<TuningDb>> db =
      loadTuningDb(options->tuningDbPath(), module, pass.getArgument());
  if (failed(db))
    return failure();
  const TuningDb *measured = *db ? &**db : nullptr;
  return failure(module
                     .walk([&](MatmulOp op) {
                       return failed(fn(op, *gpu, *options, measured))
                                  ? WalkResult::interrupt()
                                  : WalkResult::advance();
                     })
                     .wasInterrupted());
}

/// `p` as `op`'s schedule attribute on `gpu`, held to the residency that
/// the model's prediction assumes unless `p` gives one, so that ptxas
/// cannot trade it for registers; errors at `op` name `pass`.
FailureOr<ScheduleAttr> buildSchedule(MatmulOp op, const GpuTarget &gpu,
                                      const ScheduleParams &p,
                                      StringRef pass);

/// The model's best schedule for `op` on `gpu` among those that match the
/// options, else its best overall, with the options applied; nullopt when
/// no schedule fits the target at all. `searches` keeps the search. Options that fix every searched
/// parameter are the schedule, and no search runs, unless `explain` asks
/// to see the search: it is given the candidates that match the options.
std::optional<ScheduleParams>
modelSchedule(MatmulOp op, const GpuTarget &gpu,
              const ScheduleOverrides &options, SearchCache &searches,
              llvm::function_ref<void(const CandidateSet &)> explain = {});

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_TRANSFORMS_SCHEDULESUPPORT_H
