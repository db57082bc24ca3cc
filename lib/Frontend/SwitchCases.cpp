//===- SwitchCases.cpp - A `switch` read as its cases ---------------------===//
//
// The labels at the top of the body are the ways in; each way's run ends at
// the first `break` at that level or in a case's braces, or at a `return`.
// What would make a run other than that list (a label, or a `break` inside
// another statement, a declaration that later cases share, a GNU case
// range) is said instead.
//
//===----------------------------------------------------------------------===//

#include "SwitchCases.h"

#include "clang/AST/StmtCXX.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

/// Whether `s` holds a `break` that leaves the switch around it (not one of
/// a loop or a switch inside it).
bool leavesSwitch(const Stmt *s) {
  if (!s || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(s))
    return false;
  if (isa<BreakStmt>(s))
    return true;
  return llvm::any_of(s->children(), leavesSwitch);
}

/// Appends what `s` runs in order: a block's statements, so that a case's
/// braces (`case 1: { v = f(v); break; }`) read as the case's own
/// statements; a block's scope only hides names, which the AST has
/// resolved. False, with `why`, where a `break` stands in another statement.
bool flatten(const Stmt *s, std::vector<const Stmt *> &out, std::string &why) {
  if (const auto *block = dyn_cast<CompoundStmt>(s)) {
    for (const Stmt *child : block->body())
      if (!flatten(child, out, why))
        return false;
    return true;
  }
  if (!isa<BreakStmt>(s) && leavesSwitch(s))
    return why = "leaves a case by a 'break' inside another statement",
           false;
  out.push_back(s);
  return true;
}

} // namespace

int64_t mlir::gemm::asLongLong(const llvm::APSInt &value) {
  return value.isSigned() ? value.getSExtValue()
                          : int64_t(value.getZExtValue());
}

int64_t mlir::gemm::caseValue(const CaseStmt *label, const SwitchStmt *s,
                              const ASTContext &ctx) {
  // Compared as the condition's (promoted) type holds it.
  QualType type = s->getCond()->getType();
  llvm::APSInt value = label->getLHS()->EvaluateKnownConstInt(ctx);
  value = value.extOrTrunc(ctx.getIntWidth(type));
  value.setIsSigned(type->isSignedIntegerOrEnumerationType());
  return asLongLong(value);
}

std::optional<std::vector<SwitchEntry>>
mlir::gemm::switchEntries(const SwitchStmt *s, const ASTContext &ctx,
                          std::string &why) {
  if (s->getInit() || s->getConditionVariable())
    return why = "declares a variable in its condition", std::nullopt;
  if (ctx.getIntWidth(s->getCond()->getType()) > 64)
    return why = "tests an integer wider than 64 bits", std::nullopt;
  Stmt *only = const_cast<Stmt *>(s->getBody());
  ArrayRef<Stmt *> top(only);
  if (const auto *block = dyn_cast<CompoundStmt>(s->getBody()))
    top = ArrayRef<Stmt *>(block->body_begin(), block->body_end());
  // The body's statements without their labels, and where each way in
  // enters.
  std::vector<const Stmt *> statements;
  std::vector<std::pair<SwitchEntry, size_t>> entries;
  size_t labels = 0;
  for (const Stmt *statement : top) {
    SwitchEntry entry;
    bool labelled = false;
    while (const auto *label = dyn_cast<SwitchCase>(statement)) {
      ++labels;
      labelled = true;
      if (const auto *value = dyn_cast<CaseStmt>(label)) {
        if (value->caseStmtIsGNURange())
          return why = "has a case range", std::nullopt;
        entry.labels.push_back(value);
      } else {
        entry.others = true;
      }
      statement = label->getSubStmt();
    }
    if (statements.empty() && !labelled)
      return why = "has statements before its first label", std::nullopt;
    if (isa<DeclStmt>(statement))
      return why = "declares a variable between its labels, which the "
                   "cases after it share",
             std::nullopt;
    if (labelled)
      entries.push_back({std::move(entry), statements.size()});
    if (!flatten(statement, statements, why))
      return std::nullopt;
  }
  size_t all = 0;
  for (const SwitchCase *c = s->getSwitchCaseList(); c;
       c = c->getNextSwitchCase())
    ++all;
  if (all != labels)
    return why = "has a label inside another statement of its body",
           std::nullopt;
  std::vector<SwitchEntry> out;
  std::optional<SwitchEntry> others;
  for (auto &[entry, first] : entries) {
    for (size_t n = first; n < statements.size(); ++n) {
      const Stmt *statement = statements[n];
      if (isa<BreakStmt>(statement))
        break;
      // `[[fallthrough]];` runs nothing.
      if (const auto *attributed = dyn_cast<AttributedStmt>(statement))
        statement = attributed->getSubStmt();
      if (!isa<NullStmt>(statement))
        entry.run.push_back(statement);
      // Nothing after a `return` runs (a helper's `case 1: return f(v);`).
      if (isa<ReturnStmt>(statement))
        break;
    }
    if (entry.others)
      others = std::move(entry);
    else
      out.push_back(std::move(entry));
  }
  if (!others)
    others = SwitchEntry{{}, true, {}};
  out.push_back(std::move(*others));
  return out;
}
