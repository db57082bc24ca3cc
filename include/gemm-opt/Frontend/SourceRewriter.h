//===- SourceRewriter.h - Write the rewritten source ------------*- C++ -*-===//
#ifndef GEMM_OPT_FRONTEND_SOURCEREWRITER_H
#define GEMM_OPT_FRONTEND_SOURCEREWRITER_H

#include "gemm-opt/Frontend/Nest.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::gemm {

/// The main file with `launchers` in front and each nest guarded by its
/// launcher: `if (!launcher(args)) { original nest }`, or `if (!(conditions
/// && launcher(args)))` for a nest with preconditions. Every other byte is
/// kept, and #line directives keep the original line numbers.
std::string rewriteSource(const FrontendResult &result,
                          llvm::StringRef launchers);

/// The text of the main file (`copy` 0) or of an included copy (1 + its
/// index) with its nests guarded; the main file's with its copies in place.
std::string guardNests(const FrontendResult &result, unsigned copy);

/// A #line directive naming the original file, so that diagnostics and
/// debuggers see the original line numbers.
std::string lineDirective(unsigned line, llvm::StringRef file);

/// The lines above a statement that starts its line and belong to it: its
/// `#pragma` lines, with the blank lines, comment lines and whole
/// preprocessor conditionals (`#ifdef _OPENMP` ... `#endif`) among them.
struct PragmaBlock {
  /// Nearest first, trimmed; those inside conditionals too.
  llvm::SmallVector<llvm::StringRef> pragmas;
  /// Where a guard around the statement and its pragmas starts: the top
  /// line of the block, or the statement itself where no pragma is above.
  size_t top = 0;
  /// A pragma lies in a conditional that opens above other code, so no
  /// guard can enclose the pragma without splitting the conditional.
  bool split = false;
};
PragmaBlock pragmasAbove(llvm::StringRef source, size_t offset);

/// The helper that a call spells a table of std::valarray rows with
/// (`gemm_opt_row_pointers(A).data()`): a std::vector of the rows' buffers,
/// made for the call, which outlives it (a temporary of the guard's
/// condition). rewriteSource defines it where a nest uses it.
constexpr llvm::StringLiteral rowPointers = "gemm_opt_row_pointers";

/// The call expression for a nest's launcher. The argument order is the
/// launcher ABI of CodeGen/Launcher.h: each of A, B, C as (pointer, sizes...,
/// strides...), then alpha and beta.
std::string launcherCall(const Nest &nest);

/// What the guard tests: the launcher call, after the nest's preconditions
/// (`(n % 8 == 0) && launcher(...)`), so that the launcher runs only where
/// they hold and the original loop everywhere else.
std::string launchCondition(const Nest &nest);

} // namespace mlir::gemm

#endif // GEMM_OPT_FRONTEND_SOURCEREWRITER_H
