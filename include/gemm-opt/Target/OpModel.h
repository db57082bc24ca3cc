//===- OpModel.h - What the cost model reads off a gemm.matmul --*- C++ -*-===//
//
// The bridge between the IR and lib/Target's plain-integer model: the op's
// precision and problem, a schedule attribute as a model schedule, its
// prediction on the op's problem (what remarks and the record report), and
// the rate the model gives a kernel once the GPU is full (what the
// launcher's run-time choice scales by the fill).
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_OPT_TARGET_OPMODEL_H
#define GEMM_OPT_TARGET_OPMODEL_H

#include "gemm-opt/Dialect/Gemm/GemmOps.h"
#include "gemm-opt/Target/CostModel.h"
#include "gemm-opt/Target/TuningDb.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::gemm {

/// The name in `module`'s #gemm.target, else the default target's.
StringRef targetNameOf(ModuleOp module);

/// The GPU description that `module`'s schedules were selected for (the
/// default target's when the name is unknown).
const GpuTarget &targetOf(ModuleOp module);

/// The op's element type as the model's precision.
Precision precisionOf(MatmulOp op);

/// C's static extents (0 where dynamic) and how A's and B's tiles lie.
Problem problemOf(MatmulOp op);

/// The op's problem as a tuning database keys it, where every extent is
/// static (rows are timed at one size).
std::optional<TuningKey> tuningKeyOf(MatmulOp op);

/// Whether a tuning database's row for `key` times a problem that `op` can
/// be called with: its precision and layout, and its extents where static.
bool admits(MatmulOp op, const TuningKey &key);

/// The model's view of a verified schedule.
Schedule toSchedule(ScheduleAttr schedule);

/// The model's prediction for `schedule` on `op`'s problem (a GPU's worth
/// where an extent is dynamic): what gemm-select-schedule's remark and the
/// optimisation record report.
Prediction predict(const GpuTarget &target, MatmulOp op,
                   ScheduleAttr schedule);

/// The GFLOP/s the model predicts for `schedule` on `op`'s operands when
/// the problem fills every block slot of `target`.
double fullRate(const GpuTarget &target, MatmulOp op, ScheduleAttr schedule);

} // namespace mlir::gemm

#endif // GEMM_OPT_TARGET_OPMODEL_H
