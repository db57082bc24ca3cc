//===- Passes.h - gemm-opt passes -------------------------------*- C++ -*-===//
#ifndef GEMM_OPT_TRANSFORMS_PASSES_H
#define GEMM_OPT_TRANSFORMS_PASSES_H

#include "gemm-opt/Dialect/Gemm/GemmDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::gemm {

#define GEN_PASS_DECL
#include "gemm-opt/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gemm-opt/Transforms/Passes.h.inc"

/// The passes that take a lifted module to one CodeGen can print.
void buildGemmPipeline(OpPassManager &pm);

} // namespace mlir::gemm

#endif // GEMM_OPT_TRANSFORMS_PASSES_H
