//===- Launcher.h - Host launchers for gemm.matmul funcs --------*- C++ -*-===//
//
// Each func holding a gemm.matmul becomes a `static bool` host function of
// the same name. Its parameters follow the func's arguments: each memref
// flattens to (pointer, sizes..., strides...) in elements, each scalar stays
// a scalar. It returns false when the caller must run its original loop.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_CODEGEN_LAUNCHER_H
#define GEMM_OPT_CODEGEN_LAUNCHER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::gemm {

/// Prints the runtime include and one launcher per func of `module`.
LogicalResult emitLaunchers(ModuleOp module, llvm::raw_ostream &os);

} // namespace mlir::gemm

#endif // GEMM_OPT_CODEGEN_LAUNCHER_H
