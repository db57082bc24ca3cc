//===- SourceRewriter.h - Write the rewritten source ------------*- C++ -*-===//
#ifndef GEMM_OPT_FRONTEND_SOURCEREWRITER_H
#define GEMM_OPT_FRONTEND_SOURCEREWRITER_H

#include "gemm-opt/Frontend/Nest.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::gemm {

/// The main file with `launchers` in front and each nest guarded by its
/// launcher: `if (!launcher(args)) { original nest }`. Every other byte is
/// kept, and #line directives keep the original line numbers.
std::string rewriteSource(const FrontendResult &result,
                          llvm::StringRef launchers);

/// The `#pragma` lines directly above a `for` that starts its line, nearest
/// first, trimmed: they belong to the loop.
llvm::SmallVector<llvm::StringRef> pragmasAbove(llvm::StringRef source,
                                                size_t forOffset);

/// The call expression for a nest's launcher. The argument order is the
/// launcher ABI of CodeGen/Launcher.h: each of A, B, C as (pointer, sizes...,
/// strides...), then alpha and beta.
std::string launcherCall(const Nest &nest);

} // namespace mlir::gemm

#endif // GEMM_OPT_FRONTEND_SOURCEREWRITER_H
