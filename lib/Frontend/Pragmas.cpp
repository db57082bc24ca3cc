//===- Pragmas.cpp - The pragmas that decide whether a nest is rewritten --===//
//
// A misspelled `#pragma gemm_opt` must not be dropped silently: it would
// leave a nest rewritten that its author asked to keep, or computed in a
// precision they did not ask for.
//
//===----------------------------------------------------------------------===//

#include "Pragmas.h"

#include "gemm-opt/Frontend/Nest.h"

#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

class GemmOptPragmaHandler : public PragmaHandler {
public:
  explicit GemmOptPragmaHandler(std::vector<NestPragma> &pragmas)
      : PragmaHandler("gemm_opt"), pragmas(pragmas) {}

  void HandlePragma(Preprocessor &pp, PragmaIntroducer introducer,
                    Token &first) override {
    Token word;
    pp.LexUnexpandedToken(word);
    StringRef directive =
        word.is(tok::identifier) ? word.getIdentifierInfo()->getName() : "";
    bool parsed = directive == "on";
    if (directive == "off") {
      pragmas.push_back({introducer.Loc, "", false});
      parsed = true;
    } else if (directive == "precision") {
      parsed = precision(pp, introducer, word);
    } else if (!parsed) {
      warn(pp, word.is(tok::eod) ? first.getLocation() : word.getLocation(),
           "unknown '#pragma gemm_opt' directive%0; expected 'off', 'on' or "
           "'precision(...)'; the pragma is ignored")
          << (word.is(tok::eod) ? "" : " '" + pp.getSpelling(word) + "'");
    }
    if (parsed) {
      pp.LexUnexpandedToken(word);
      if (word.isNot(tok::eod))
        warn(pp, word.getLocation(),
             "extra tokens after '#pragma gemm_opt %0' are ignored")
            << directive;
    }
    while (word.isNot(tok::eod))
      pp.LexUnexpandedToken(word);
  }

private:
  /// Reads `(<precision>)` after `precision` and records it; `last` is the
  /// last token read. Whether it was well formed.
  bool precision(Preprocessor &pp, PragmaIntroducer introducer, Token &last) {
    Token open, value;
    pp.LexUnexpandedToken(open);
    last = open;
    if (open.is(tok::l_paren)) {
      pp.LexUnexpandedToken(value);
      last = value;
    }
    // 3xtf32 lexes as one numeric constant.
    std::string spelled =
        open.is(tok::l_paren) && value.isNot(tok::eod) ? pp.getSpelling(value)
                                                       : "";
    if (isPrecisionName(spelled)) {
      pp.LexUnexpandedToken(last);
      if (last.is(tok::r_paren)) {
        pragmas.push_back({introducer.Loc, spelled, false});
        return true;
      }
    }
    warn(pp, last.getLocation(),
         "'#pragma gemm_opt precision' takes (fp32), (tf32) or (3xtf32); the "
         "pragma is ignored");
    return false;
  }

  template <unsigned N>
  static DiagnosticBuilder warn(Preprocessor &pp, SourceLocation at,
                                const char (&format)[N]) {
    DiagnosticsEngine &diags = pp.getDiagnostics();
    return diags.Report(
        at, diags.getCustomDiagID(DiagnosticsEngine::Warning, format));
  }

  std::vector<NestPragma> &pragmas;
};

} // namespace

void mlir::gemm::addGemmOptPragmaHandler(Preprocessor &pp,
                                         std::vector<NestPragma> &pragmas) {
  pp.AddPragmaHandler(new GemmOptPragmaHandler(pragmas));
}

std::optional<std::string> mlir::gemm::openmpDirective(StringRef pragmaLine) {
  StringRef rest = pragmaLine.ltrim();
  if (!rest.consume_front("#"))
    return std::nullopt;
  rest = rest.ltrim();
  if (!rest.consume_front("pragma"))
    return std::nullopt;
  SmallVector<StringRef> words;
  // Clauses start at the first word that names no directive or takes an
  // argument; continuation backslashes are blanks.
  SplitString(rest, words, " \t\\\r\n");
  if (words.empty() || words.front() != "omp")
    return std::nullopt;
  static const char *const directiveWords[] = {
      "parallel", "for",      "do",        "simd",      "loop",
      "taskloop", "distribute", "teams",   "target",    "task",
      "single",   "master",   "masked",    "critical",  "sections",
      "section",  "barrier",  "atomic",    "ordered",   "flush",
      "taskwait", "taskgroup", "taskyield", "cancel",   "cancellation",
      "point",    "scope",    "tile",      "unroll",    "data",
      "enter",    "exit",     "update",    "workshare", "requires",
      "scan",     "depobj",   "interop",   "dispatch",  "metadirective",
      "error",    "nothing",  "assume",    "declare",   "end"};
  std::string name;
  for (StringRef word : llvm::drop_begin(words)) {
    StringRef bare = word.take_until([](char c) { return c == '('; });
    if (bare.size() != word.size() ||
        !llvm::is_contained(directiveWords, bare))
      break;
    name += (name.empty() ? "" : " ") + bare.str();
  }
  return name;
}

LoopDirective mlir::gemm::classifyLoopDirective(StringRef directive) {
  SmallVector<StringRef> words;
  SplitString(directive, words);
  auto has = [&](StringRef word) { return llvm::is_contained(words, word); };
  auto only = [&](std::initializer_list<StringRef> allowed) {
    return !words.empty() && llvm::all_of(words, [&](StringRef w) {
      return llvm::is_contained(allowed, w);
    });
  };
  if (has("parallel") && (has("for") || has("loop") || has("do")) &&
      only({"parallel", "for", "loop", "do", "simd"}))
    return LoopDirective::Alone;
  if (only({"simd", "tile", "unroll"}) || only({"taskloop", "simd"}))
    return LoopDirective::Alone;
  if ((has("for") || has("loop") || has("do") || has("distribute")) &&
      !has("parallel") && !has("target") && !has("teams"))
    return LoopDirective::Shared;
  return LoopDirective::Other;
}

bool mlir::gemm::runsOnce(StringRef directive) {
  return llvm::is_contained({"task", "single", "master", "masked", "section"},
                            directive.trim());
}
