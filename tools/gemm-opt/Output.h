//===- Output.h - Errors and output files of the driver ---------*- C++ -*-===//
#ifndef GEMM_OPT_TOOLS_OUTPUT_H
#define GEMM_OPT_TOOLS_OUTPUT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

namespace gemm_opt {

/// Prints a user-facing error without a source location (driver-level
/// problems) and returns the exit status 1.
int driverError(const llvm::Twine &message);

/// Writes `text` to `path` ("-" for stdout) whole or not at all; returns 0,
/// or 1 after a driverError.
int writeOutput(llvm::StringRef path, llvm::StringRef text);

} // namespace gemm_opt

#endif // GEMM_OPT_TOOLS_OUTPUT_H
