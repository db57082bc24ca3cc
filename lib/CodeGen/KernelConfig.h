//===- KernelConfig.h - Configurations of the kernel templates --*- C++ -*-===//
#ifndef GEMM_OPT_LIB_CODEGEN_KERNELCONFIG_H
#define GEMM_OPT_LIB_CODEGEN_KERNELCONFIG_H

#include "gemm-opt/Dialect/Gemm/GemmOps.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir::gemm {

/// Prints the facts of `k` (one of `op`'s planned kernels) that its kernel
/// body reads, as named constants: all but TRANSPOSED, which only the
/// launch reads.
void printKernelBody(llvm::raw_ostream &os, MatmulOp op, KernelAttr k);

/// Prints struct `name`, the configuration of runtime/include/gemm_kernels
/// that runs `k`, with a comment on the schedule: `body` (printKernelBody's)
/// and TRANSPOSED. Where `kernel` names an earlier configuration with the
/// same body, `name` derives from it instead, launches its kernel and adds
/// only its own TRANSPOSED.
void printKernelConfig(llvm::raw_ostream &os, StringRef name, MatmulOp op,
                       KernelAttr k, StringRef body, StringRef kernel);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_CODEGEN_KERNELCONFIG_H
