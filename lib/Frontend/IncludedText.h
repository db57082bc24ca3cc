//===- IncludedText.h - Nests whose text is in an included file -*- C++ -*-===//
//
// A nest in a user file that the main file #includes is rewritten in a copy
// of that file: the output holds the copy, its nests guarded, in place of the
// #include line, so the copy is preprocessed exactly where and as the
// original was (the same macros, the same enclosing function or extern
// block). Other files stay as written.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_INCLUDEDTEXT_H
#define GEMM_OPT_LIB_FRONTEND_INCLUDEDTEXT_H

#include "gemm-opt/Frontend/Nest.h"

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace clang {
class FileEntry;
class LangOptions;
class Preprocessor;
class SourceManager;
} // namespace clang

namespace mlir::gemm {

/// How many #include directives name each file, whether or not the
/// preprocessor entered it: a copy of a `#pragma once` file must be its only
/// inclusion.
struct IncludeLog {
  llvm::DenseMap<const clang::FileEntry *, unsigned> directives;
};
void logIncludes(clang::Preprocessor &pp, IncludeLog &log);

/// Decides where a nest of the translation unit is rewritten, and makes
/// the copies of included files that hold rewritten nests.
class IncludedCopies {
public:
  IncludedCopies(const clang::SourceManager &sm,
                 const clang::LangOptions &lang, const IncludeLog &log,
                 FrontendResult &result)
      : sm(sm), lang(lang), log(log), result(result) {}

  /// Why the nest whose text runs from `begin` to `end` (file locations or
  /// macro expansions) cannot be rewritten, in the main file or in a copy
  /// of the file it is in; nullopt if it can.
  std::optional<std::string> obstacle(clang::SourceLocation begin,
                                      clang::SourceLocation end) const;

  /// Why the nest whose text starts at `begin`, in a macro's expansion,
  /// and ends at `end` cannot be rewritten in a copy of the macro's text at
  /// its use in the main file; nullopt if it can.
  std::optional<std::string> macroObstacle(clang::SourceLocation begin,
                                           clang::SourceLocation end) const;

  /// The Nest::copy of a nest at `begin` that has no obstacle: 0 in the
  /// main file, else its file's or its macro expansion's copy, made on
  /// first use.
  unsigned copyFor(clang::SourceLocation begin);

  /// The offset of `loc`, a location in the nest's text, in the text of its
  /// copy (or of the main file).
  unsigned offsetInText(clang::SourceLocation loc) const;

private:
  IncludedCopy includeCopy(clang::FileID file) const;
  IncludedCopy macroCopy(clang::FileID expansion) const;
  /// A macro expansion's text as its #define spells it, first token to last.
  llvm::StringRef macroText(clang::FileID expansion) const;

  const clang::SourceManager &sm;
  const clang::LangOptions &lang;
  const IncludeLog &log;
  FrontendResult &result;
  llvm::DenseMap<clang::FileID, unsigned> made;
};

/// `text`, the bytes of the main file from `offset`, with each #include
/// line or macro use in it that has a copy replaced by the copy, its nests
/// guarded (guardNests), between #line directives.
std::string withCopies(const FrontendResult &result, llvm::StringRef text,
                       size_t offset);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_INCLUDEDTEXT_H
