//===- CopiedLocals.cpp - Locals that copy a value set before the nest ----===//
//
// Code copies a size or a leading dimension into a local ahead of the nest
// and then reads either name in it: sfepy's `int wr = R->nCol;` and a
// zero-init of `pr[wr * i + j]` beside a sum into `pr[R->nCol * i + j]`.
// Where the local holds that value all through the nest, its reads in the
// nest read as the value, so that the two spellings are one index (and one
// symbol in every size and stride).
//
//===----------------------------------------------------------------------===//

#include "CopiedLocals.h"
#include "BoundTemporaries.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/MapVector.h"

using namespace clang;
using namespace mlir::gemm;

/// Whether `e` is one read: a variable, or a member, pointee or constant
/// element of one (`R->nCol`, `*n`, `a->shape[0]`). Only such a value
/// stands for the local, so that sizes print as plainly as its name did
/// (`M2 = M & -2` stays M2).
static bool isRead(const Expr *e) {
  e = e->IgnoreParenImpCasts();
  if (isa<DeclRefExpr, CXXThisExpr>(e))
    return true;
  if (const auto *member = dyn_cast<MemberExpr>(e))
    return isRead(member->getBase());
  if (const auto *unary = dyn_cast<UnaryOperator>(e))
    return unary->getOpcode() == UO_Deref && isRead(unary->getSubExpr());
  if (const auto *element = dyn_cast<ArraySubscriptExpr>(e))
    return isRead(element->getBase()) &&
           isa<IntegerLiteral>(element->getIdx()->IgnoreParenImpCasts());
  return false;
}

/// The value the statement `def` (reachingDefinition) gives `var`, or null.
static const Expr *valueSet(const Stmt *def, const VarDecl *var) {
  if (const BinaryOperator *assign = asAssignmentTo(def, var))
    // `wr = R->nCol, R = S;` would change the value as it sets it.
    return assign == cast<Expr>(def)->IgnoreImplicit() ? assign->getRHS()
                                                        : nullptr;
  return var->getInit();
}

void mlir::gemm::bindCopies(NestScope &scope) {
  Stmt *body = scope.function ? scope.function->getBody() : nullptr;
  // A nest that stores integers may change a local through its address.
  if (!body || !scope.integerReadsInvariant || holdsJumps(body))
    return;
  llvm::MapVector<const VarDecl *, std::vector<const DeclRefExpr *>> reads;
  std::function<void(const Stmt *)> collect = [&](const Stmt *s) {
    if (const auto *ref = dyn_cast<DeclRefExpr>(s))
      if (const auto *var = dyn_cast<VarDecl>(ref->getDecl());
          var && var->hasLocalStorage() && var->getType()->isIntegerType() &&
          !scope.boundValues.count(ref))
        reads[var].push_back(ref);
    for (const Stmt *child : s->children())
      if (child)
        collect(child);
  };
  collect(scope.outer);
  ParentMap parents(body);
  // A lambda's body runs where it is called, not where it is written.
  for (const Stmt *s = scope.outer; s; s = parents.getParent(s))
    if (isa<LambdaExpr, BlockExpr>(s))
      return;
  for (const auto &[var, refs] : reads) {
    if (scope.ivIndex(var) >= 0 || scope.findLocal(var) ||
        scope.written.contains(var) || changes(scope.outer, var))
      continue;
    const Expr *value = nullptr;
    auto changed = [&](const Stmt *s) {
      return changes(s, var) || writesMemory(s) ||
             (value && findVar(value, [&](const VarDecl *read) {
                return changes(s, read);
              }));
    };
    // What may change the value is known once its statement is: search
    // again with it.
    const Stmt *def = reachingDefinition(scope.outer, var, parents, changed);
    value = def ? valueSet(def, var) : nullptr;
    if (!value ||
        reachingDefinition(scope.outer, var, parents, changed) != def)
      continue;
    value = value->IgnoreImpCasts();
    if (!isRead(value) || mentions(value, var) ||
        value->HasSideEffects(scope.ctx) ||
        !holdsEveryValue(scope.ctx, var->getType(), value->getType()) ||
        !scope.isInvariant(value))
      continue;
    for (const DeclRefExpr *ref : refs)
      scope.boundValues[ref] = value;
  }
}

