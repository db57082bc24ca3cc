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

std::optional<TuningKey> mlir::gemm::tuningKeyOf(MatmulOp op) {
  Problem p = problemOf(op);
  int64_t k = op.getAType().getShape().back();
  bool dynamicBatch =
      op.isBatched() && ShapedType::isDynamic(op.getCType().getShape()[0]);
  if (p.m == 0 || p.n == 0 || ShapedType::isDynamic(k) || dynamicBatch)
    return std::nullopt;
  return TuningKey{precisionOf(op), layoutClass(p), p.batch, p.m, p.n, k};
}

Schedule mlir::gemm::toSchedule(ScheduleAttr s) {
  return {s.getBlockM(),   s.getBlockN(), s.getBlockK(),
          s.getThreadM(),  s.getThreadN(), s.getVector(),
          s.getPrefetch(), s.getPad(),     s.getCompute(),
          s.getStages(),   s.getTranspose()};
}

double mlir::gemm::fullRate(const GpuTarget &target, MatmulOp op,
                            ScheduleAttr schedule) {
  Problem full = problemOf(op);
  full.m = full.n = 0;
  full.batch = 1;
  return predict(target, precisionOf(op), toSchedule(schedule), full)
      .gflops();
}
