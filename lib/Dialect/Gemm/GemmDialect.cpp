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

/// CodeGen prints each entry of `gemm.measured` and `gemm.tune` as a
/// choice of the launcher's kernels, so a bad one would pick a kernel the
/// launcher does not hold. An entry is (batch, m, n, k, kernel), then the
/// splits where `splits` is set: 0 for the kernel's stream-K form.
static LogicalResult verifyChoices(Operation *op, NamedAttribute attr,
                                   bool splits) {
  auto matmul = dyn_cast<MatmulOp>(op);
  auto entries = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
  const size_t width = splits ? 6 : 5;
  if (!matmul || !entries || entries.size() % width != 0)
    return op->emitError() << "'" << attr.getName().getValue()
                           << "' must be an array<i64> of (batch, m, n, k, "
                           << (splits ? "kernel, splits" : "kernel")
                           << ") entries on a gemm.matmul";
  size_t kernels = matmul.getSchedules().size();
  ArrayRef<int64_t> e = entries.asArrayRef();
  for (size_t i = 0; i < e.size(); i += width)
    if (llvm::any_of(e.slice(i, 4), [](int64_t x) { return x <= 0; }) ||
        e[i + 4] < 0 || size_t(e[i + 4]) >= kernels ||
        (splits && e[i + 5] < 0))
      return op->emitError()
             << "'" << attr.getName().getValue() << "' entry " << i / width
             << " needs positive extents"
             << (splits ? ", splits of 0 (stream-K) or more" : "")
             << " and one of the " << kernels << " kernel(s) of the op";
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
  if (attr.getName() == getMeasuredAttrName() ||
      attr.getName() == getTuneAttrName())
    return verifyChoices(op, attr, attr.getName() == getMeasuredAttrName());
  return success();
}
