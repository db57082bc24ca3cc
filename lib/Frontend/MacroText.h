//===- MacroText.h - Nests written in a macro's text ------------*- C++ -*-===//
//
// A nest may be the text of an object-like macro (R's MATPROD_BODY, used in
// several functions). Its rewrite is a copy of that text at the macro's use
// (IncludedText.h), so what the rewrite spells of the nest (a branch's
// condition, an extent's macro, a split-off statement) is spelled as that
// text spells it, not as the whole expansion `MATPROD_BODY`.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_MACROTEXT_H
#define GEMM_OPT_LIB_FRONTEND_MACROTEXT_H

#include "clang/Basic/SourceLocation.h"

#include <optional>

namespace clang {
class ASTContext;
class Expr;
class LangOptions;
class SourceManager;
} // namespace clang

namespace mlir::gemm {

/// While a nest at `loop` is recognised: where it is written in a macro's
/// text, ranges are spelled in that text.
class MacroHome {
public:
  MacroHome(const clang::SourceManager &sm, clang::SourceLocation loop);
  ~MacroHome();
  MacroHome(const MacroHome &) = delete;
  MacroHome &operator=(const MacroHome &) = delete;

private:
  clang::FileID outer;
};

/// Whether `loc` is a token of the nest's text itself, not of a macro
/// expanded in it.
bool inNestText(const clang::SourceManager &sm, clang::SourceLocation loc);

/// `range` as the nest's text spells it: a macro expanded in that text is
/// its name and arguments there.
clang::CharSourceRange nestSpelling(const clang::SourceManager &sm,
                                    const clang::LangOptions &lang,
                                    clang::SourceRange range);

/// `e` as the nest's text spells it (not as the scope prints it, with the
/// values of bound temporaries and the offsets of walked pointers).
std::string written(const clang::ASTContext &ctx, const clang::Expr *e);

/// Likewise, where `range` is the whole of each macro expansion it is in,
/// up to the nest's text (EXTENT, not the 9 of IX(r, c, 9)); else nullopt.
std::optional<clang::CharSourceRange>
wholeSpelling(const clang::SourceManager &sm, const clang::LangOptions &lang,
              clang::SourceRange range);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_MACROTEXT_H
