//===- GemmDialect.cpp - The gemm dialect ---------------------------------===//
//
// Registers the gemm dialect's attributes and operations and checks the
// discardable `gemm.*` attributes that it owns.
//
//===----------------------------------------------------------------------===//

#include "gemm-opt/Dialect/Gemm/GemmDialect.h"
#include "gemm-opt/Dialect/Gemm/GemmAttrs.h"
#include "gemm-opt/Dialect/Gemm/GemmOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::gemm;

#include "gemm-opt/Dialect/Gemm/GemmDialect.cpp.inc"

void GemmDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "gemm-opt/Dialect/Gemm/GemmOps.cpp.inc"
      >();
}

/// CodeGen prints each entry of `gemm.measured` as a run-time choice, so a
/// bad one would pick a kernel the launcher does not hold.
static LogicalResult verifyMeasured(Operation *op, Attribute value) {
  auto matmul = dyn_cast<MatmulOp>(op);
  auto entries = dyn_cast<DenseI64ArrayAttr>(value);
  if (!matmul || !entries || entries.size() % 6 != 0)
    return op->emitError()
           << "'" << GemmDialect::getMeasuredAttrName()
           << "' must be an array<i64> of (batch, m, n, k, kernel, splits) "
              "entries on a gemm.matmul";
  size_t kernels = matmul.getSchedules().size();
  ArrayRef<int64_t> e = entries.asArrayRef();
  for (size_t i = 0; i < e.size(); i += 6)
    if (llvm::any_of(e.slice(i, 4), [](int64_t x) { return x <= 0; }) ||
        e[i + 4] < 0 || size_t(e[i + 4]) >= kernels || e[i + 5] < 1)
      return op->emitError()
             << "'" << GemmDialect::getMeasuredAttrName() << "' entry "
             << i / 6 << " needs positive extents and splits and one of the "
             << kernels << " kernel(s) of the op";
  return success();
}

LogicalResult GemmDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  // Passes look the target up by this name, so a wrong kind of value would
  // only surface later as a missing target.
  if (attr.getName() == getTargetAttrName() &&
      !isa<TargetAttr>(attr.getValue()))
    return op->emitError() << "'" << getTargetAttrName()
                           << "' must be a #gemm.target attribute, got "
                           << attr.getValue();
  if (attr.getName() == getLauncherAttrName() &&
      !isa<StringAttr>(attr.getValue()))
    return op->emitError() << "'" << getLauncherAttrName()
                           << "' must be a string, got " << attr.getValue();
  if (attr.getName() == getMeasuredAttrName())
    return verifyMeasured(op, attr.getValue());
  return success();
}
