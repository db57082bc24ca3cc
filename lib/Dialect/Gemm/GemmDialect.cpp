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
/// A `gemm.measured` or `gemm.tune` list: on a gemm.matmul, of `Entry`
/// attributes, each naming one of the op's kernels.
template <class Entry>
static LogicalResult verifyChoices(Operation *op, NamedAttribute attr,
                                   StringRef entry) {
  auto matmul = dyn_cast<MatmulOp>(op);
  auto entries = dyn_cast<ArrayAttr>(attr.getValue());
  if (!matmul || !entries ||
      !llvm::all_of(entries, [](Attribute a) { return isa<Entry>(a); }))
    return op->emitError() << "'" << attr.getName().getValue()
                           << "' must be an array of " << entry
                           << " on a gemm.matmul";
  size_t kernels = matmul.getSchedules().size();
  for (auto [i, a] : llvm::enumerate(entries))
    if (size_t(cast<Entry>(a).getKernel()) >= kernels)
      return op->emitError()
             << "'" << attr.getName().getValue() << "' entry " << i
             << " needs one of the " << kernels << " kernel(s) of the op";
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
  if (attr.getName() == getPrecisionAttrName()) {
    auto precision = dyn_cast<StringAttr>(attr.getValue());
    auto matmul = dyn_cast<MatmulOp>(op);
    if (!precision ||
        (precision.getValue() != "tf32" && precision.getValue() != "3xtf32"))
      return op->emitError() << "'" << getPrecisionAttrName()
                             << "' must be \"tf32\" or \"3xtf32\", got "
                             << attr.getValue();
    if (!matmul || !matmul.getElementType().isF32() || matmul.isWidened())
      return op->emitError() << "'" << getPrecisionAttrName()
                             << "' applies to f32 gemm.matmul ops only";
  }
  if (attr.getName() == getMeasuredAttrName())
    return verifyChoices<MeasuredAttr>(op, attr, "#gemm.measured");
  if (attr.getName() == getTuneAttrName())
    return verifyChoices<TuneCaseAttr>(op, attr, "#gemm.tune_case");
  return success();
}
