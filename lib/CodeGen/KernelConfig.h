//===- KernelConfig.h - Configurations of the kernel templates --*- C++ -*-===//
#ifndef GEMM_OPT_LIB_CODEGEN_KERNELCONFIG_H
#define GEMM_OPT_LIB_CODEGEN_KERNELCONFIG_H

#include "gemm-opt/Dialect/Gemm/GemmOps.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir::gemm {

/// Prints struct `name`, the configuration of runtime/include/gemm_kernels
/// that runs `kernel` (one of `op`'s planned kernels): the plan's facts as
/// named constants, and a comment on the schedule.
void printKernelConfig(llvm::raw_ostream &os, StringRef name, MatmulOp op,
                       KernelAttr kernel);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_CODEGEN_KERNELCONFIG_H
