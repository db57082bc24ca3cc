//===- GemmAttrs.h - gemm dialect attributes --------------------*- C++ -*-===//
//
// Declares #gemm.target, #gemm.schedule and the Prefetch enum.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_OPT_DIALECT_GEMM_GEMMATTRS_H
#define GEMM_OPT_DIALECT_GEMM_GEMMATTRS_H

#include "gemm-opt/Dialect/Gemm/GemmDialect.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "gemm-opt/Dialect/Gemm/GemmEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "gemm-opt/Dialect/Gemm/GemmAttrs.h.inc"

namespace mlir::gemm {

/// Which dimensions of an input's tile have a static unit stride in memory:
/// x (M for A, N for B) and k.
struct TileStrides {
  bool xUnit = true, kUnit = false;

  bool operator==(const TileStrides &o) const {
    return xUnit == o.xUnit && kUnit == o.kUnit;
  }
};

} // namespace mlir::gemm

#endif // GEMM_OPT_DIALECT_GEMM_GEMMATTRS_H
