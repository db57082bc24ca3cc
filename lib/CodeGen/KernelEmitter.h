//===- KernelEmitter.h - CUDA kernels from scheduled matmuls ----*- C++ -*-===//
#ifndef GEMM_OPT_LIB_CODEGEN_KERNELEMITTER_H
#define GEMM_OPT_LIB_CODEGEN_KERNELEMITTER_H

#include "gemm-opt/Dialect/Gemm/GemmOps.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir::gemm {

/// Prints, in namespace `<name>_impl`, the tiled kernel of `schedule` for
/// `op` and `cudaError_t launch(const gemm_rt::Problem &, cudaStream_t)`,
/// which picks the 128-bit or the scalar variant from the operands'
/// alignment.
LogicalResult emitKernel(MatmulOp op, ScheduleAttr schedule, StringRef name,
                         llvm::raw_ostream &os);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_CODEGEN_KERNELEMITTER_H
