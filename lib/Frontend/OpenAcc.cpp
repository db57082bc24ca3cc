//===- OpenAcc.cpp - OpenACC directives in a nest's text ------------------===//
//
// A translation unit with OpenACC directives gets its rewrites under
// `#ifndef _OPENACC` (Nest::openaccFile); these helpers find the
// directives that decide it, and the functions that are device code.
//
//===----------------------------------------------------------------------===//

#include "OpenAcc.h"
#include "gemm-opt/Frontend/SourceRewriter.h"

#include "clang/Basic/CharInfo.h"

using namespace clang;
using namespace mlir::gemm;

/// What follows `#pragma acc` on a line (trimmed), or nullopt where the
/// line is no OpenACC directive.
static std::optional<llvm::StringRef> accDirective(llvm::StringRef line) {
  line = line.ltrim();
  if (!line.consume_front("#") ||
      !(line = line.ltrim()).consume_front("pragma") ||
      !(line = line.ltrim()).consume_front("acc") ||
      (!line.empty() && isAsciiIdentifierContinue(line[0])))
    return std::nullopt;
  return line.trim();
}

size_t mlir::gemm::firstOpenaccLine(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (size_t n = 0; n < lines.size(); ++n)
    if (accDirective(lines[n]) || lines[n].contains("_Pragma(\"acc "))
      return n + 1;
  return 0;
}

bool mlir::gemm::onlyOpenaccLines(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  return llvm::all_of(lines, [](llvm::StringRef line) {
    return !line.contains('#') || accDirective(line);
  });
}

size_t mlir::gemm::routineLine(const FunctionDecl *function,
                               const SourceManager &sm) {
  auto lineOf = [](llvm::StringRef text, const char *at) {
    return 1 + text.take_front(at - text.data()).count('\n');
  };
  for (const FunctionDecl *decl : function->redecls()) {
    auto [file, offset] = sm.getDecomposedExpansionLoc(decl->getBeginLoc());
    llvm::StringRef text = sm.getBufferData(file);
    // `#pragma acc routine seq` names the declaration below it.
    for (llvm::StringRef pragma : pragmasAbove(text, offset).pragmas) {
      std::optional<llvm::StringRef> rest = accDirective(pragma);
      if (rest && rest->consume_front("routine") &&
          !rest->ltrim().starts_with("("))
        return lineOf(text, pragma.data());
    }
    // `#pragma acc routine(name) seq` names it anywhere.
    llvm::SmallVector<llvm::StringRef> lines;
    text.split(lines, '\n');
    for (llvm::StringRef line : lines) {
      std::optional<llvm::StringRef> rest = accDirective(line);
      if (rest && rest->consume_front("routine") &&
          (*rest = rest->ltrim()).consume_front("(") &&
          rest->split(')').first.trim() == function->getName())
        return lineOf(text, line.data());
    }
  }
  return 0;
}
