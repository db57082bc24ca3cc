//===- Pragmas.cpp - The pragmas that decide whether a nest is rewritten --===//
//
// A misspelled `#pragma gemm_opt` must not be dropped silently: it would
// leave a nest rewritten that its author asked to keep.
//
//===----------------------------------------------------------------------===//

#include "Pragmas.h"

#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

class GemmOptPragmaHandler : public PragmaHandler {
public:
  explicit GemmOptPragmaHandler(std::vector<OffPragma> &offs)
      : PragmaHandler("gemm_opt"), offs(offs) {}

  void HandlePragma(Preprocessor &pp, PragmaIntroducer introducer,
                    Token &first) override {
    DiagnosticsEngine &diags = pp.getDiagnostics();
    Token word;
    pp.LexUnexpandedToken(word);
    const IdentifierInfo *name =
        word.is(tok::identifier) ? word.getIdentifierInfo() : nullptr;
    if (name && name->getName() == "off")
      offs.push_back({introducer.Loc});
    if (!name || (name->getName() != "off" && name->getName() != "on")) {
      unsigned id = diags.getCustomDiagID(
          DiagnosticsEngine::Warning,
          "unknown '#pragma gemm_opt' directive%0; expected 'off' or 'on'; "
          "the pragma is ignored");
      diags.Report(word.is(tok::eod) ? first.getLocation() : word.getLocation(),
                   id)
          << (word.is(tok::eod) ? std::string()
                                : " '" + pp.getSpelling(word) + "'");
    } else {
      Token extra;
      pp.LexUnexpandedToken(extra);
      if (extra.isNot(tok::eod)) {
        unsigned id = diags.getCustomDiagID(
            DiagnosticsEngine::Warning,
            "extra tokens after '#pragma gemm_opt %0' are ignored");
        diags.Report(extra.getLocation(), id) << name->getName();
      }
      word = extra;
    }
    while (word.isNot(tok::eod))
      pp.LexUnexpandedToken(word);
  }

private:
  std::vector<OffPragma> &offs;
};

} // namespace

void mlir::gemm::addGemmOptPragmaHandler(Preprocessor &pp,
                                         std::vector<OffPragma> &offs) {
  pp.AddPragmaHandler(new GemmOptPragmaHandler(offs));
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
