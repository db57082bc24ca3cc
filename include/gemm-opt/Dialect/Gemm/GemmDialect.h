//===- GemmDialect.h - The gemm dialect -------------------------*- C++ -*-===//
//
// Declares the gemm dialect. Include GemmOps.h for its operations and
// GemmAttrs.h for its attributes.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_OPT_DIALECT_GEMM_GEMMDIALECT_H
#define GEMM_OPT_DIALECT_GEMM_GEMMDIALECT_H

#include "mlir/IR/Dialect.h"

#include "gemm-opt/Dialect/Gemm/GemmDialect.h.inc"

#endif // GEMM_OPT_DIALECT_GEMM_GEMMDIALECT_H
