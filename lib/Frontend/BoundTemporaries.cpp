//===- BoundTemporaries.cpp - Values of scalars assigned in the nest ------===//
//
// f2c writes each loop bound through a temporary assigned just before the
// loop, inside the nest: `i__2 = *m; for (i__ = 1; i__ <= i__2; ++i__)`,
// and reuses it for another bound further on (`i__2 = *k;`). Such a read
// has one value: the assignment that reaches it on every path. Each read is
// forward-substituted by that value, and the assignments are no statements
// of the nest, where the temporary is dead after the nest.
//
//===----------------------------------------------------------------------===//

#include "BoundTemporaries.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;
using namespace mlir::gemm;

const BinaryOperator *mlir::gemm::asAssignmentTo(const Stmt *s,
                                                const VarDecl *var) {
  const auto *e = dyn_cast<Expr>(s);
  const auto *assign =
      e ? dyn_cast<BinaryOperator>(e->IgnoreImplicit()) : nullptr;
  if (assign && assign->getOpcode() == BO_Comma)
    return mentions(assign->getRHS(), var)
               ? asAssignmentTo(assign->getRHS(), var)
               : asAssignmentTo(assign->getLHS(), var);
  if (!assign || assign->getOpcode() != BO_Assign)
    return nullptr;
  const auto *lhs = dyn_cast<DeclRefExpr>(assign->getLHS()->IgnoreParens());
  return lhs && lhs->getDecl() == var ? assign : nullptr;
}

bool mlir::gemm::changes(const Stmt *s, const VarDecl *var) {
  if (!s)
    return false;
  auto names = [&](const Expr *e) { return referencedVar(e) == var; };
  if (const auto *op = dyn_cast<BinaryOperator>(s);
      op && op->isAssignmentOp() && names(op->getLHS()))
    return true;
  if (const auto *op = dyn_cast<UnaryOperator>(s);
      op && (op->isIncrementDecrementOp() || op->getOpcode() == UO_AddrOf) &&
      names(op->getSubExpr()))
    return true;
  if (const auto *decl = dyn_cast<DeclStmt>(s))
    for (const Decl *d : decl->decls())
      if (const auto *v = dyn_cast<VarDecl>(d);
          v == var || (v && v->getType()->isReferenceType() && v->getInit() &&
                       names(v->getInit())))
        return true;
  return llvm::any_of(s->children(),
                      [&](const Stmt *child) { return changes(child, var); });
}

const Stmt *
mlir::gemm::reachingDefinition(const Stmt *read, const VarDecl *var,
                               const ParentMap &parents,
                               llvm::function_ref<bool(const Stmt *)> changed) {
  for (const Stmt *cur = read, *parent; (parent = parents.getParent(cur));
       cur = parent) {
    if (const auto *block = dyn_cast<CompoundStmt>(parent)) {
      // A jump to a label skips the statements before it.
      if (isJumpTarget(cur))
        return nullptr;
      auto at = llvm::find(block->body(), cur);
      for (auto it = std::make_reverse_iterator(at);
           it != block->body_rend(); ++it) {
        if (asAssignmentTo(*it, var))
          return *it;
        if (const auto *decl = dyn_cast<DeclStmt>(*it);
            decl && llvm::is_contained(decl->decls(), var))
          return *it;
        if (changed(*it))
          return nullptr;
      }
      continue;
    }
    // The next iteration reads what the loop's own statements leave.
    if (isLoop(parent)) {
      const auto *loop = dyn_cast<ForStmt>(parent);
      if (!(loop && loop->getInit() == cur) && changed(parent))
        return nullptr;
      continue;
    }
    if (const auto *branch = dyn_cast<IfStmt>(parent)) {
      if (cur != branch->getCond() &&
          (changed(branch->getCond()) ||
           (branch->getInit() && changed(branch->getInit()))))
        return nullptr;
      continue;
    }
    for (const Stmt *child : parent->children())
      if (child && child != cur && changed(child))
        return nullptr;
  }
  return nullptr;
}

namespace {

bool inside(const Stmt *s, const Stmt *outer, const ParentMap &parents) {
  for (; s; s = parents.getParent(s))
    if (s == outer)
      return true;
  return false;
}

/// Whether a value that `nest` gives `var` may reach `read`, which is not
/// in it: the nest precedes the read, in a block or a loop around it,
/// before an assignment `var = e;` or a declaration of var in between.
bool mayReach(const Stmt *nest, const Stmt *read, const VarDecl *var,
              const ParentMap &parents) {
  for (const Stmt *cur = read, *parent; (parent = parents.getParent(cur));
       cur = parent) {
    if (isLoop(parent) && inside(nest, parent, parents))
      return true;
    // A `for` whose init sets var runs it before its test, step and body.
    if (const auto *loop = dyn_cast<ForStmt>(parent);
        loop && cur != loop->getInit() && loop->getInit() &&
        asAssignmentTo(loop->getInit(), var))
      return false;
    const auto *block = dyn_cast<CompoundStmt>(parent);
    // A jump to a label skips the assignments before it.
    if (!block || isJumpTarget(cur))
      continue;
    auto at = llvm::find(block->body(), cur);
    for (auto it = std::make_reverse_iterator(at); it != block->body_rend();
         ++it) {
      const auto *decl = dyn_cast<DeclStmt>(*it);
      if (asAssignmentTo(*it, var) ||
          (decl && llvm::is_contained(decl->decls(), var)))
        return false;
      if (inside(nest, *it, parents))
        return true;
    }
  }
  return false;
}

/// The integer locals a statement assigns, and every reference to them.
class References : public RecursiveASTVisitor<References> {
public:
  bool VisitDeclRefExpr(DeclRefExpr *ref) {
    if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()))
      refs[var].push_back(ref);
    return true;
  }
  bool VisitStmt(Stmt *s) {
    jumps |= isa<GotoStmt, IndirectGotoStmt>(s) ||
             (isa<LabelStmt>(s) && isJumpTarget(s));
    return true;
  }
  // An OpenMP `private` or `shared` clause names a variable without reading
  // or writing it; other clauses' names (firstprivate, lastprivate, ...)
  // count as uses outside any statement, which keep it live.
  bool VisitOMPPrivateClause(OMPPrivateClause *) { return true; }
  bool VisitOMPSharedClause(OMPSharedClause *) { return true; }
  llvm::MapVector<const VarDecl *, std::vector<const DeclRefExpr *>> refs;
  bool jumps = false;
};

} // namespace

bool mlir::gemm::holdsJumps(Stmt *body) {
  References all;
  all.TraverseStmt(body);
  return all.jumps;
}

void mlir::gemm::bindTemporaries(NestScope &scope,
                                 const FunctionDecl *function) {
  if (!function || !function->getBody())
    return;
  Stmt *body = function->getBody();
  References all;
  all.TraverseStmt(body);
  if (all.jumps)
    return;
  ParentMap parents(body);
  SourceRange nest(scope.outer->getBeginLoc(), endOfStmt(scope.outer));
  for (const auto &[var, refs] : all.refs) {
    if (!var->getType()->isIntegerType() || !var->hasLocalStorage() ||
        nest.fullyContains(var->getSourceRange()))
      continue;
    // Only a variable that the nest assigns is bound: the reads of the
    // others are not looked at (a long function has many).
    auto assignedInNest = [&](const DeclRefExpr *ref) {
      const auto *assign =
          dyn_cast_or_null<BinaryOperator>(parents.getParentIgnoreParens(ref));
      return assign && assign->getOpcode() == BO_Assign &&
             assign->getLHS()->IgnoreParens() == ref &&
             inside(ref, scope.outer, parents);
    };
    if (llvm::none_of(refs, assignedInNest))
      continue;
    llvm::DenseMap<const DeclRefExpr *, const Expr *> values;
    std::vector<const Expr *> assignments;
    bool bound = true;
    for (const DeclRefExpr *ref : refs) {
      const Stmt *parent = parents.getParentIgnoreParens(ref);
      const auto *assign = dyn_cast_or_null<BinaryOperator>(parent);
      const auto *load = dyn_cast_or_null<ImplicitCastExpr>(parent);
      bool here = inside(ref, scope.outer, parents);
      if (assign && assign->getOpcode() == BO_Assign &&
          assign->getLHS()->IgnoreParens() == ref) {
        // In the nest, only `var = e;` statements, e without var, set it.
        const Stmt *above = parents.getParent(assign);
        bool statement =
            above && (isa<CompoundStmt, IfStmt>(above) ||
                      (isLoop(above) && loopBody(above) == assign));
        if (here) {
          const Expr *value = assign->getRHS()->IgnoreImpCasts();
          bound &= statement && !mentions(value, var) &&
                   holdsEveryValue(scope.ctx, var->getType(),
                                   value->getType());
          assignments.push_back(assign);
        }
        continue;
      }
      // Anything but a read (`&var`, `var++`, a reference to it) may change
      // it where no assignment shows.
      if (!load || load->getCastKind() != CK_LValueToRValue) {
        bound = false;
        break;
      }
      // A read in the nest, of a value set in the nest; elsewhere, of a
      // value set apart from the nest (the rewrite sets no value).
      const Stmt *def = reachingDefinition(
          ref, var, parents, [&](const Stmt *s) { return changes(s, var); });
      const BinaryOperator *set = def ? asAssignmentTo(def, var) : nullptr;
      if (here && set && inside(set, scope.outer, parents))
        values[ref] = set->getRHS();
      else
        bound &= !here && !mayReach(scope.outer, ref, var, parents);
    }
    if (!bound || assignments.empty())
      continue;
    scope.boundValues.insert(values.begin(), values.end());
    scope.boundAssignments.insert(scope.boundAssignments.end(),
                                  assignments.begin(), assignments.end());
  }
}

bool mlir::gemm::checkBoundValues(NestScope &scope) {
  for (const Expr *e : scope.boundAssignments)
    if (const auto *assign = cast<BinaryOperator>(e);
        !scope.isInvariant(assign->getRHS())) {
      const VarDecl *var = scope.findVaryingVar(assign->getRHS());
      scope.reject("'" + scope.print(assign->getLHS()) + "' is set to '" +
                   scope.print(assign->getRHS()) +
                   "' inside the nest, which " +
                   (var ? "depends on " + scope.describeVarying(var)
                        : std::string("reads memory or calls a function")) +
                   ", so the loops it bounds are not a box");
      return false;
    }
  return true;
}

bool mlir::gemm::deadAfterNest(const NestScope &scope, const VarDecl *var,
                               const FunctionDecl *function) {
  Stmt *body = function->getBody();
  References all;
  all.TraverseStmt(body);
  if (all.jumps)
    return false;
  ParentMap parents(body);
  return llvm::all_of(all.refs.lookup(var), [&](const DeclRefExpr *ref) {
    const Stmt *parent = parents.getParentIgnoreParens(ref);
    // An OpenMP region's capture of var is no use: its body's are (and a
    // clause that copies var in, firstprivate, keeps var live).
    if (isa_and_nonnull<CapturedStmt>(parent))
      return true;
    const auto *assign = dyn_cast_or_null<BinaryOperator>(parent);
    if (inside(ref, scope.outer, parents) ||
        (scope.outerStart.statement &&
         inside(ref, scope.outerStart.statement, parents)) ||
        (assign && assign->getOpcode() == BO_Assign &&
         assign->getLHS()->IgnoreParens() == ref))
      return true;
    // `var += x` reads var as `var = var + x` does.
    bool read = isa_and_nonnull<ImplicitCastExpr>(parent) ||
                (assign && assign->isCompoundAssignmentOp()) ||
                (isa_and_nonnull<UnaryOperator>(parent) &&
                 cast<UnaryOperator>(parent)->isIncrementDecrementOp());
    return read && !mayReach(scope.outer, ref, var, parents);
  });
}
