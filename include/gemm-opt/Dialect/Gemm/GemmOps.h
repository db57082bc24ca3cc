//===- GemmOps.h - gemm dialect operations ----------------------*- C++ -*-===//
//
// Declares gemm.matmul. Including this header brings in the whole dialect.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_OPT_DIALECT_GEMM_GEMMOPS_H
#define GEMM_OPT_DIALECT_GEMM_GEMMOPS_H

#include "gemm-opt/Dialect/Gemm/GemmAttrs.h"
#include "gemm-opt/Dialect/Gemm/GemmDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "gemm-opt/Dialect/Gemm/GemmOps.h.inc"

namespace mlir::gemm {

/// Whether dimension `dim` of `type` has a static stride of 1.
bool hasUnitStride(MemRefType type, unsigned dim);

} // namespace mlir::gemm

#endif // GEMM_OPT_DIALECT_GEMM_GEMMOPS_H
