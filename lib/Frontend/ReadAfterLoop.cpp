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

namespace {

/// The function's CFG with every subexpression an element, so that each
/// use of a variable is one.
std::unique_ptr<CFG> elementCFG(const FunctionDecl *function) {
  Stmt *body = function ? function->getBody() : nullptr;
  if (!body)
    return nullptr;
  CFG::BuildOptions options;
  options.setAllAlwaysAdd();
  return CFG::buildCFG(function, body, &function->getASTContext(), options);
}

/// The first use of `var` that a path from `from` reaches before a store
/// to it or a block in `seen`, or null.
const Stmt *firstUse(const FunctionDecl *function, const CFGBlock *from,
                     llvm::SmallPtrSetImpl<const CFGBlock *> &seen,
                     const VarDecl *var) {
  Stores stores(var);
  stores.TraverseStmt(function->getBody());
  std::deque<const CFGBlock *> work;
  if (from)
    work.push_back(from);
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
      // A static local's declaration sets it once, before the first call.
      if ((op && stores.names.contains(op->getLHS()->IgnoreParens())) ||
          (decl && llvm::is_contained(decl->decls(), var) &&
           !var->isStaticLocal())) {
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

} // namespace

std::optional<const Stmt *>
mlir::gemm::readAfterLoop(const FunctionDecl *function, const Stmt *loop,
                          const VarDecl *var) {
  std::unique_ptr<CFG> cfg = elementCFG(function);
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
  return firstUse(function, exit, seen, var);
}

std::optional<const Stmt *>
mlir::gemm::readOnEntry(const FunctionDecl *function, const VarDecl *var) {
  std::unique_ptr<CFG> cfg = elementCFG(function);
  if (!cfg)
    return std::nullopt;
  llvm::SmallPtrSet<const CFGBlock *, 16> seen;
  return firstUse(function, &cfg->getEntry(), seen, var);
}
