//===- MLIRGen.h - Lift recognised nests to the gemm dialect ----*- C++ -*-===//
#ifndef GEMM_OPT_FRONTEND_MLIRGEN_H
#define GEMM_OPT_FRONTEND_MLIRGEN_H

#include "gemm-opt/Frontend/Nest.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir::gemm {

/// One func per nest, named after its launcher, taking A, B, C as strided
/// memrefs and alpha, beta as scalars, holding one gemm.matmul located at
/// the nest's outermost `for`.
OwningOpRef<ModuleOp> buildModule(MLIRContext &context,
                                  const FrontendResult &result);

} // namespace mlir::gemm

#endif // GEMM_OPT_FRONTEND_MLIRGEN_H
