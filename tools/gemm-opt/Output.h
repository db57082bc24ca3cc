//===- Output.h - Errors and output files of the driver ---------*- C++ -*-===//
#ifndef GEMM_OPT_TOOLS_OUTPUT_H
#define GEMM_OPT_TOOLS_OUTPUT_H

#include "gemm-opt/CodeGen/Launcher.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <string>

namespace gemm_opt {

/// Prints a user-facing error without a source location (driver-level
/// problems) and returns the exit status 1.
int driverError(const llvm::Twine &message);

/// Writes `text` to `path` ("-" for stdout) whole or not at all; returns 0,
/// or 1 after a driverError.
int writeOutput(llvm::StringRef path, llvm::StringRef text);

/// Absolute directory `dir` as file `includer` names it in an #include: a
/// path relative to the includer's directory, so that a build tree moved
/// whole still compiles; `dir` itself for standard output.
std::string spelledFrom(llvm::StringRef includer, llvm::StringRef dir);

/// Writes each of `files`' texts into its directory (made where missing),
/// except a file that holds the text already: its name is its text's hash,
/// so a build that compiled it keeps the object. Does nothing without
/// `files`.
int writeKernelFiles(const mlir::gemm::KernelFiles *files);

} // namespace gemm_opt

#endif // GEMM_OPT_TOOLS_OUTPUT_H
