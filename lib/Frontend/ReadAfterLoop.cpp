//===- ReadAfterLoop.cpp - What a loop leaves for the code after it -------===//
//
// Follows the function's CFG from the block the loop exits to: a path ends
// at a plain store to the variable (`p2 = CM[i] + j`), and any other use
// of it (a read, a step, its address, a reference bound to it) is a read.
//
//===----------------------------------------------------------------------===//

#include "ReadAfterLoop.h"
#include "NestScope.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <deque>

using namespace clang;

namespace {

/// The names of `var` that a plain store assigns.
struct Stores : RecursiveASTVisitor<Stores> {
  explicit Stores(const VarDecl *var) : var(var) {}
  const VarDecl *var;
  llvm::SmallPtrSet<const Stmt *, 8> names;
  bool VisitBinaryOperator(BinaryOperator *op) {
    if (op->getOpcode() == BO_Assign &&
        mlir::gemm::referencedVar(op->getLHS()) == var)
      names.insert(op->getLHS()->IgnoreParens());
    return true;
  }
};

} // namespace

std::optional<const Stmt *>
mlir::gemm::readAfterLoop(const FunctionDecl *function, const Stmt *loop,
                          const VarDecl *var) {
  Stmt *body = function ? function->getBody() : nullptr;
  if (!body)
    return std::nullopt;
  ASTContext &ctx = function->getASTContext();
  // Every subexpression an element, so that each use of the variable is.
  CFG::BuildOptions options;
  options.setAllAlwaysAdd();
  std::unique_ptr<CFG> cfg = CFG::buildCFG(function, body, &ctx, options);
  if (!cfg)
    return std::nullopt;
  // The block whose terminator is the loop's test: its second successor
  // is where the loop ends. A path back into the loop (through its test
  // or into its body) runs the loop again, which is no code after it.
  const CFGBlock *exit = nullptr;
  llvm::SmallPtrSet<const CFGBlock *, 16> seen;
  for (const CFGBlock *block : *cfg)
    if (block->getTerminatorStmt() == loop && block->succ_size() == 2) {
      exit = *std::next(block->succ_begin());
      seen.insert(block);
      seen.insert(*block->succ_begin());
    }
  if (seen.empty())
    return std::nullopt;
  Stores stores(var);
  stores.TraverseStmt(body);
  std::deque<const CFGBlock *> work;
  if (exit)
    work.push_back(exit);
  while (!work.empty()) {
    const CFGBlock *block = work.front();
    work.pop_front();
    if (!seen.insert(block).second)
      continue;
    bool killed = false;
    for (const CFGElement &element : *block) {
      std::optional<CFGStmt> at = element.getAs<CFGStmt>();
      if (!at)
        continue;
      const Stmt *s = at->getStmt();
      if (const auto *ref = dyn_cast<DeclRefExpr>(s);
          ref && ref->getDecl() == var && !stores.names.contains(ref))
        return s;
      const auto *op = dyn_cast<BinaryOperator>(s);
      const auto *decl = dyn_cast<DeclStmt>(s);
      if ((op && stores.names.contains(op->getLHS()->IgnoreParens())) ||
          (decl && llvm::is_contained(decl->decls(), var))) {
        killed = true;
        break;
      }
    }
    if (killed)
      continue;
    for (const CFGBlock *next : block->succs())
      if (next)
        work.push_back(next);
  }
  return nullptr;
}
