//===- Launcher.h - Host launchers for gemm.matmul funcs --------*- C++ -*-===//
//
// Each func holding a gemm.matmul becomes a host function of the same name. Its parameters follow the func's arguments: each memref
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

/// Where the launchers are called from: the source they are printed in front
/// of (one out.cu; `static bool`), or a host file compiled apart
/// (--kernels; `int`, with C linkage but for a template's overloads).
enum class LauncherLinkage { Internal, External };

/// Prints the runtime include and one launcher per func of `module`.
LogicalResult emitLaunchers(ModuleOp module, llvm::raw_ostream &os,
                            LauncherLinkage linkage = LauncherLinkage::Internal);

/// Prints the declarations of the External launchers, valid C and C++, for
/// the host file.
LogicalResult emitLauncherDeclarations(ModuleOp module, llvm::raw_ostream &os);

} // namespace mlir::gemm

#endif // GEMM_OPT_CODEGEN_LAUNCHER_H
