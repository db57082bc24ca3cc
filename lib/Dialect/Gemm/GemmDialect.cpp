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
  return success();
}
