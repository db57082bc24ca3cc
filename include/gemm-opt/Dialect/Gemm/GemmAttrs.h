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

#endif // GEMM_OPT_DIALECT_GEMM_GEMMATTRS_H
