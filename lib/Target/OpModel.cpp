//===- OpModel.cpp - What the cost model reads off a gemm.matmul ----------===//

#include "gemm-opt/Target/OpModel.h"

using namespace mlir;
using namespace mlir::gemm;

StringRef mlir::gemm::targetNameOf(ModuleOp module) {
  auto attr =
      module->getAttrOfType<TargetAttr>(GemmDialect::getTargetAttrName());
  return attr ? attr.getName() : getDefaultTarget().name;
}

const GpuTarget &mlir::gemm::targetOf(ModuleOp module) {
  const GpuTarget *target = lookupTarget(targetNameOf(module));
  return target ? *target : getDefaultTarget();
}

Precision mlir::gemm::precisionOf(MatmulOp op) {
  // The op's verifier admits f32 and f64 only.
  return op.getElementType().isF64() ? Precision::F64 : Precision::F32;
}

Problem mlir::gemm::problemOf(MatmulOp op) {
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
  p.cUnitColumns = hasUnitStride(op.getCType(), row + 1);
  p.cUnitRows = hasUnitStride(op.getCType(), row);
  return p;
}

/// The op's key with 0 for each dynamic extent.
static TuningKey partialKey(MatmulOp op) {
  Problem p = problemOf(op);
  auto known = [](int64_t extent) {
    return ShapedType::isDynamic(extent) ? 0 : extent;
  };
  int64_t batch = op.isBatched() ? known(op.getCType().getShape()[0]) : 1;
  return {precisionOf(op), layoutClass(p), batch, p.m, p.n,
          known(op.getAType().getShape().back())};
}

std::optional<TuningKey> mlir::gemm::tuningKeyOf(MatmulOp op) {
  TuningKey key = partialKey(op);
  if (!key.batch || !key.m || !key.n || !key.k)
    return std::nullopt;
  return key;
}

bool mlir::gemm::admits(MatmulOp op, const TuningKey &row) {
  TuningKey own = partialKey(op);
  auto fits = [](int64_t extent, int64_t timed) {
    return extent == 0 || extent == timed;
  };
  return own.precision == row.precision && own.layout == row.layout &&
         fits(own.batch, row.batch) && fits(own.m, row.m) &&
         fits(own.n, row.n) && fits(own.k, row.k);
}

Schedule mlir::gemm::toSchedule(ScheduleAttr s) {
  return {s.getBlockM(),   s.getBlockN(), s.getBlockK(),
          s.getThreadM(),  s.getThreadN(), s.getVector(),
          s.getPrefetch(), s.getPad(),     s.getCompute(),
          s.getStages(),   s.getTranspose(), s.getOccupancy()};
}

Prediction mlir::gemm::predict(const GpuTarget &target, MatmulOp op,
                               ScheduleAttr schedule) {
  return predict(target, precisionOf(op), toSchedule(schedule), problemOf(op));
}

double mlir::gemm::fullRate(const GpuTarget &target, MatmulOp op,
                            ScheduleAttr schedule) {
  Problem full = problemOf(op);
  full.m = full.n = 0;
  full.batch = 1;
  return predict(target, precisionOf(op), toSchedule(schedule), full)
      .gflops();
}
