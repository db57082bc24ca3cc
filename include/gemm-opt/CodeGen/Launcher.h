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

#include <map>
#include <string>

namespace mlir::gemm {

/// --kernel-dir: each kernel printed into files of its own, named after its
/// text (the templates' hash with its configuration's body), so that every
/// rewritten file of a program that runs it shares one compile of it, which
/// a build keeps until the text changes. The launchers' file includes the
/// kernels' headers and lists the sources to compile.
struct KernelFiles {
  /// Where the files go, and the directory as the launchers' file spells it
  /// (relative to that file where it can be).
  std::string dir, spelled;
  /// Each file's name in `dir`, and its text.
  std::map<std::string, std::string> texts;
  /// The headers the configurations include, and the sources that compile
  /// what they launch, each once, in the order first needed.
  llvm::SmallVector<std::string> headers, sources;
};

/// Where the launchers are called from: the source they are printed in front
/// of (one out.cu; `static bool`), or a host file compiled apart
/// (--kernels; `int`, with C linkage but for a template's overloads).
enum class LauncherLinkage { Internal, External };

/// Prints the runtime include and one launcher per func of `module`; with
/// `files`, the kernels go there.
LogicalResult emitLaunchers(ModuleOp module, llvm::raw_ostream &os,
                            LauncherLinkage linkage = LauncherLinkage::Internal,
                            KernelFiles *files = nullptr);

/// Prints the declarations of the External launchers, valid C and C++, for
/// the host file.
LogicalResult emitLauncherDeclarations(ModuleOp module, llvm::raw_ostream &os);

} // namespace mlir::gemm

#endif // GEMM_OPT_CODEGEN_LAUNCHER_H
