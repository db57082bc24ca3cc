//===- IncludedText.h - Nests whose text is in an included file -*- C++ -*-===//
//
// A nest in a user file that the main file #includes, itself or through
// other files, is rewritten in a copy of that file: the output holds the
// copy, its nests guarded, in place of the #include line (in a copy of the
// file that includes it, up to the main file), so the copy is preprocessed
// exactly where and as the original was (the same macros, the same
// enclosing function or extern block). Other files stay as written.
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
#include <vector>

namespace clang {
class FileEntry;
class LangOptions;
class Preprocessor;
class SourceManager;
} // namespace clang

namespace mlir::gemm {

/// How many #include directives name each file, whether or not the
/// preprocessor entered it: a copy of a `#pragma once` file must be its only
/// inclusion. And the quoted #include directives that found their file in
/// the including file's own directory, which a copy elsewhere would not.
struct IncludeLog {
  llvm::DenseMap<const clang::FileEntry *, unsigned> directives;
  /// An #include that found its file.
  struct Directive {
    clang::SourceLocation hash;
    clang::CharSourceRange name; ///< `"x.h"` or a macro, as written.
    std::string spelled;         ///< `x.h`, the name it looked for.
    bool beside = false;         ///< Found in the including file's directory.
  };
  std::vector<Directive> includes;
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
  /// The #include that read `file`.
  const IncludeLog::Directive *directiveOf(clang::FileID file) const;
  /// A name that finds `file` from the main file as the original #include
  /// chain found it: the name it was found by, after the path of its
  /// includer's where found beside it; empty for the main file.
  std::string spelledPath(clang::FileID file) const;
  /// The name for `include`, found beside its includer, that finds its file
  /// from a copy of the includer in the main file; none where a macro
  /// spells it.
  std::optional<std::string> renamed(const IncludeLog::Directive &include) const;
  /// The file whose #include read `file`.
  clang::FileID includerOf(clang::FileID file) const;
  /// Why `file` cannot be copied in place of the #include that read it,
  /// with `below`, the file it includes on the way to the nest (none for
  /// the nest's own), copied in place of its #include.
  std::optional<std::string> copyObstacle(clang::FileID file,
                                          clang::FileID below) const;
  /// The copy of `file`, made on first use with those of the files that
  /// include it on the way up to the main file.
  unsigned fileCopy(clang::FileID file);
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

/// `text`, the bytes from `offset` of the main file (`owner` 0) or of copy
/// `owner`, with each #include line or macro use in it that has a copy
/// replaced by the copy, its nests guarded (guardNests), between #line
/// directives, and a copy's quoted #include names renamed.
std::string withCopies(const FrontendResult &result, unsigned owner,
                       llvm::StringRef text, size_t offset);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_INCLUDEDTEXT_H
