//===- ParallelLoops.cpp - Nests in the body of an OpenMP loop ------------===//
//
// Implements ParallelLoops.h.
//
//===----------------------------------------------------------------------===//

#include "ParallelLoops.h"

#include "NestScope.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace mlir::gemm {

namespace {
/// Whether `directive` runs each iteration once, on one thread.
bool perIteration(StringRef directive) {
  SmallVector<StringRef> words;
  SplitString(directive, words);
  auto has = [&](StringRef word) { return llvm::is_contained(words, word); };
  return (has("for") || has("do") || has("loop") || has("taskloop")) &&
         !has("simd") && !has("target") && !has("teams") &&
         !has("distribute");
}

/// The variable that `loop` counts with, or null.
const VarDecl *indexOf(const ForStmt *loop) {
  const Stmt *init = loop->getInit();
  if (const auto *decl = dyn_cast_or_null<DeclStmt>(init);
      decl && decl->isSingleDecl())
    return dyn_cast<VarDecl>(decl->getSingleDecl());
  if (const auto *set = dyn_cast_or_null<BinaryOperator>(init);
      set && set->getOpcode() == BO_Assign)
    if (const auto *ref =
            dyn_cast<DeclRefExpr>(set->getLHS()->IgnoreParenImpCasts()))
      return dyn_cast<VarDecl>(ref->getDecl());
  return nullptr;
}

/// `s`, or the one statement of a block `s`.
const Stmt *only(const Stmt *s) {
  while (const auto *block = dyn_cast_or_null<CompoundStmt>(s)) {
    if (block->size() != 1)
      return s;
    s = block->body_front();
  }
  return s;
}

bool reads(const Stmt *s, ArrayRef<const VarDecl *> vars) {
  if (!s)
    return false;
  if (const auto *ref = dyn_cast<DeclRefExpr>(s);
      ref && llvm::is_contained(vars, ref->getDecl()))
    return true;
  return llvm::any_of(s->children(),
                      [&](const Stmt *child) { return reads(child, vars); });
}
} // namespace

unsigned collapsedLoops(StringRef pragmaLine) {
  size_t at = pragmaLine.find("collapse(");
  unsigned loops = 1;
  if (at != StringRef::npos &&
      pragmaLine.drop_front(at + 9).take_until([](char c) {
        return c == ')';
      }).trim().getAsInteger(10, loops))
    return 0;
  return loops;
}

bool launchedPerIteration(StringRef directive, unsigned loops,
                          const Stmt *outer, const Stmt *nest) {
  if (!perIteration(directive) || loops == 0)
    return false;
  SmallVector<const VarDecl *> indices;
  const Stmt *body = outer;
  for (unsigned i = 0; i < loops; ++i) {
    const auto *loop = dyn_cast_or_null<ForStmt>(only(body));
    const VarDecl *index = loop ? indexOf(loop) : nullptr;
    if (!index)
      return false;
    indices.push_back(index);
    body = loop->getBody();
  }
  return holds(body, nest) && reads(body, indices);
}

} // namespace mlir::gemm
