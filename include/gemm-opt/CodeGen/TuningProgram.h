//===- TuningProgram.h - A program that times a file's kernels --*- C++ -*-===//
//
// `gemm-opt --emit=tune` prints, instead of the rewritten source, a
// self-contained CUDA program: each nest's kernels (the model's first
// schedules for each problem in gemm.tune) and a main() that times them on
// the GPU and appends the timings to a tuning database (docs/tuning.md).
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_CODEGEN_TUNINGPROGRAM_H
#define GEMM_OPT_CODEGEN_TUNINGPROGRAM_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::gemm {

/// Prints the tuning program of `module`, whose ops gemm-add-tuning-
/// candidates gave their problems; an error if none has any.
LogicalResult emitTuningProgram(ModuleOp module, llvm::raw_ostream &os);

} // namespace mlir::gemm

#endif // GEMM_OPT_CODEGEN_TUNINGPROGRAM_H
