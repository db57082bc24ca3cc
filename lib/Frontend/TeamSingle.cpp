//===- TeamSingle.cpp - A shared loop of a parallel region, launched once -===//

#include "TeamSingle.h"
#include "NestScope.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

/// The offsets of `word` in `pragma` as a whole word.
llvm::SmallVector<size_t> wordsAt(StringRef pragma, StringRef word) {
  llvm::SmallVector<size_t> at;
  auto inWord = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  for (size_t n = pragma.find(word); n != StringRef::npos;
       n = pragma.find(word, n + 1))
    if ((n == 0 || !inWord(pragma[n - 1])) &&
        (n + word.size() == pragma.size() || !inWord(pragma[n + word.size()])))
      at.push_back(n);
  return at;
}

/// The names that the `clause(...)` clauses of `pragma` list (after the
/// operator of a reduction, `reduction(+: x, y)`).
llvm::SmallVector<std::string> clauseNames(StringRef pragma,
                                           StringRef clause) {
  llvm::SmallVector<std::string> names;
  for (size_t at : wordsAt(pragma, clause)) {
    StringRef rest = pragma.drop_front(at + clause.size()).ltrim();
    if (!rest.consume_front("("))
      continue;
    StringRef list = rest.take_until([](char c) { return c == ')'; });
    if (size_t colon = list.find(':'); colon != StringRef::npos)
      list = list.drop_front(colon + 1);
    SmallVector<StringRef> items;
    list.split(items, ',');
    for (StringRef item : items)
      names.push_back(item.trim().str());
  }
  return names;
}

/// Every variable that `s` names.
class Reads : public RecursiveASTVisitor<Reads> {
public:
  llvm::SmallVector<const VarDecl *> vars;
  bool VisitDeclRefExpr(DeclRefExpr *ref) {
    if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()))
      if (!llvm::is_contained(vars, var))
        vars.push_back(var);
    return true;
  }
};

} // namespace

std::optional<std::string>
mlir::gemm::sharedForObstacle(StringRef forPragma) {
  for (StringRef clause : {"reduction", "lastprivate", "linear", "ordered"})
    if (!wordsAt(forPragma, clause).empty())
      return "its OpenMP 'for' has a '" + clause.str() +
             "' clause, which acts on the team's shares of the loop, and one "
             "thread's launch for the team would not";
  return std::nullopt;
}

std::optional<std::string> mlir::gemm::teamObstacle(const Stmt *loop,
                                                    const Stmt *block,
                                                    StringRef regionPragma,
                                                    unsigned regionLine) {
  Reads reads;
  reads.TraverseStmt(const_cast<Stmt *>(loop));
  SourceRange inside = block->getSourceRange(), nest = loop->getSourceRange();
  auto within = [](SourceRange range, SourceLocation loc) {
    return !(loc < range.getBegin()) && !(range.getEnd() < loc);
  };
  llvm::SmallVector<std::string> listed;
  for (StringRef clause :
       {"private", "firstprivate", "lastprivate", "reduction", "linear"})
    llvm::append_range(listed, clauseNames(regionPragma, clause));
  bool privateByDefault = regionPragma.contains("default(private") ||
                          regionPragma.contains("default(firstprivate");
  std::string region =
      "the OpenMP 'parallel' region (line " + std::to_string(regionLine) + ")";
  for (const VarDecl *var : reads.vars) {
    // The nest's own variables and those it assigns (its indices, its
    // accumulators) are each thread's as the loop runs.
    if (within(nest, var->getLocation()) || assigns(loop, var))
      continue;
    std::string name = var->getNameAsString();
    bool declaredInside = within(inside, var->getLocation());
    if (declaredInside || llvm::is_contained(listed, name) ||
        var->getTLSKind() != VarDecl::TLS_None ||
        (privateByDefault && !var->hasGlobalStorage()))
      return "'" + name + "', which the nest reads, is private to each "
             "thread of " + region +
             ", so one thread's launch would not compute what each "
             "thread's share of the loop did";
  }
  return std::nullopt;
}
