//===- MacroText.cpp - Nests written in a macro's text --------------------===//

#include "MacroText.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace mlir::gemm;

/// The expansion of the macro text that holds the nest being recognised;
/// invalid where the nest is in a file's text.
static FileID home;

MacroHome::MacroHome(const SourceManager &sm, SourceLocation loop)
    : outer(home) {
  home = loop.isMacroID() ? sm.getFileID(loop) : FileID();
}

MacroHome::~MacroHome() { home = outer; }

bool mlir::gemm::inNestText(const SourceManager &sm, SourceLocation loc) {
  return loc.isFileID() || sm.getFileID(loc) == home;
}

/// `loc` out of the macros it is in, up to the nest's text; with `whole`,
/// nullopt where it is not at the start (the end) of one of them.
static std::optional<SourceLocation> climb(const SourceManager &sm,
                                           const LangOptions &lang,
                                           SourceLocation loc, bool end,
                                           bool whole) {
  while (loc.isMacroID() && sm.getFileID(loc) != home) {
    // The end of a token is at the end of an expansion where the location
    // after it is.
    SourceLocation up;
    bool edge =
        end ? sm.isAtEndOfImmediateMacroExpansion(
                  loc.getLocWithOffset(Lexer::MeasureTokenLength(
                      sm.getSpellingLoc(loc), sm, lang)),
                  &up)
            : sm.isAtStartOfImmediateMacroExpansion(loc, &up);
    if (!edge) {
      if (whole)
        return std::nullopt;
      CharSourceRange range = sm.getImmediateExpansionRange(loc);
      up = end ? range.getEnd() : range.getBegin();
    }
    loc = up;
  }
  return sm.getSpellingLoc(loc);
}

static std::optional<CharSourceRange> spelling(const SourceManager &sm,
                                               const LangOptions &lang,
                                               SourceRange range,
                                               bool whole) {
  std::optional<SourceLocation> begin =
      climb(sm, lang, range.getBegin(), false, whole);
  std::optional<SourceLocation> end =
      climb(sm, lang, range.getEnd(), true, whole);
  if (!begin || !end)
    return std::nullopt;
  return CharSourceRange::getTokenRange(*begin, *end);
}

CharSourceRange mlir::gemm::nestSpelling(const SourceManager &sm,
                                         const LangOptions &lang,
                                         SourceRange range) {
  return *spelling(sm, lang, range, false);
}

std::optional<CharSourceRange>
mlir::gemm::wholeSpelling(const SourceManager &sm, const LangOptions &lang,
                          SourceRange range) {
  return spelling(sm, lang, range, true);
}

std::string mlir::gemm::written(const ASTContext &ctx, const Expr *e) {
  const SourceManager &sm = ctx.getSourceManager();
  return Lexer::getSourceText(
             nestSpelling(sm, ctx.getLangOpts(), e->getSourceRange()), sm,
             ctx.getLangOpts())
      .str();
}
