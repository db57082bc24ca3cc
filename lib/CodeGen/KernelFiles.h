//===- KernelFiles.h - Kernels in files of their own ------------*- C++ -*-===//
#ifndef GEMM_OPT_LIB_CODEGEN_KERNELFILES_H
#define GEMM_OPT_LIB_CODEGEN_KERNELFILES_H

#include "gemm-opt/CodeGen/Launcher.h"
#include "gemm-opt/Dialect/Gemm/GemmOps.h"

namespace mlir::gemm {

/// Adds to `files` the header and the source of the kernel `k` whose
/// configuration body (printKernelBody's) is `body`; returns the
/// configuration's qualified name, from which the launchers'
/// configurations derive.
std::string addKernelFiles(KernelFiles &files, StringRef body, KernelAttr k);

/// The include of each header and the list of sources to compile, for the
/// launchers' file.
void printKernelFileUses(llvm::raw_ostream &os, const KernelFiles &files);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_CODEGEN_KERNELFILES_H
