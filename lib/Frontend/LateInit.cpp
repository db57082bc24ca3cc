//===- LateInit.cpp - Declarations whose value comes later ----------------===//
//
// `double *p;` at the top of a block and `p = &B(k, 0);` first in the loop
// that uses it: in each iteration p holds that value from the assignment
// on, and nothing reads it before or after, so the loop body might as well
// declare `double *p = &B(k, 0);` there, which the accesses then read as
// an offset of B. So for a scalar, `double aik;` and `aik = A(i, k);` first
// in each K step: a local of the step, which the contraction reads through.
//
//===----------------------------------------------------------------------===//

#include "LateInit.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

/// e of `v = e;` where e does not name v, else null.
Expr *assignedValue(const Stmt *s, const VarDecl *v) {
  const auto *op = dyn_cast<BinaryOperator>(s);
  if (!op || op->getOpcode() != BO_Assign ||
      !isa<DeclRefExpr>(op->getLHS()->IgnoreParens()) ||
      referencedVar(op->getLHS()) != v || mentions(op->getRHS(), v))
    return nullptr;
  return op->getRHS();
}

class LateInit {
public:
  LateInit(NestScope &scope, std::vector<const Stmt *> &list)
      : scope(scope), ctx(scope.ctx), list(list) {}

  void run() {
    for (size_t n = 0; n < list.size(); ++n) {
      const auto *decl = dyn_cast<DeclStmt>(list[n]);
      if (!decl)
        continue;
      std::vector<Decl *> kept;
      for (Decl *d : decl->decls()) {
        auto *var = dyn_cast<VarDecl>(d);
        if (!var || var->getInit() || !var->hasLocalStorage() ||
            !(var->getType()->isPointerType() ||
              var->getType()->isArithmeticType()) ||
            !move(n, var))
          kept.push_back(d);
      }
      if (kept.size() == size_t(std::distance(decl->decl_begin(),
                                               decl->decl_end())))
        continue;
      list[n] = kept.empty()
                    ? static_cast<Stmt *>(new (ctx)
                                              NullStmt(decl->getBeginLoc()))
                    : new (ctx) DeclStmt(
                          DeclGroupRef::Create(ctx, kept.data(), kept.size()),
                          decl->getBeginLoc(), decl->getEndLoc());
    }
  }

private:
  NestScope &scope;
  ASTContext &ctx;
  std::vector<const Stmt *> &list;

  /// `T v = e;` for the assignment `v = e;`, until the scope ends.
  Stmt *declaration(VarDecl *var, const Stmt *assignment) {
    scope.restore.push_back([var] { var->setInit(nullptr); });
    var->setInit(assignedValue(assignment, var));
    return new (ctx) DeclStmt(DeclGroupRef(var), assignment->getBeginLoc(),
                              assignment->getEndLoc());
  }

  /// The slot of the statement that first names `var` in the body of the
  /// loop `s` (or in the block `s`, which runs once: a `while` started in a
  /// block of its own), where that is `var = e;` (or, again, in a loop or
  /// block of the body after which the body names var no more) and the
  /// header names it not.
  Stmt **inLoop(const Stmt *s, const VarDecl *var) {
    s = unwrapLoopWrappers(s);
    if (!isLoop(s) && !isa<CompoundStmt>(s))
      return nullptr;
    const Stmt *body = isLoop(s) ? loopBody(s) : s;
    for (const Stmt *child : s->children())
      if (child && body != s && child != body && mentions(child, var))
        return nullptr;
    // A body without braces is a block of one statement, in its slot.
    Stmt **only = nullptr;
    for (Stmt *&child : const_cast<Stmt *>(s)->children())
      if (child == body)
        only = &child;
    auto *block = dyn_cast<CompoundStmt>(const_cast<Stmt *>(body));
    if (!block && !only)
      return nullptr;
    llvm::MutableArrayRef<Stmt *> statements =
        block ? llvm::MutableArrayRef<Stmt *>(block->body_begin(),
                                              block->body_end())
              : llvm::MutableArrayRef<Stmt *>(only, 1);
    for (auto it = statements.begin(); it != statements.end(); ++it) {
      if (!mentions(*it, var))
        continue;
      if (assignedValue(*it, var))
        return &*it;
      Stmt **slot = inLoop(*it, var);
      if (!slot || std::any_of(std::next(it), statements.end(),
                               [&](Stmt *s) { return mentions(s, var); }))
        return nullptr;
      return slot;
    }
    return nullptr;
  }

  /// Whether `var`, declared by list[n], could be declared where it is
  /// first set, or not at all (nothing names it: PointerWalk read its
  /// values as offsets); then it is.
  bool move(size_t n, VarDecl *var) {
    if (std::none_of(list.begin() + n + 1, list.end(),
                     [&](const Stmt *s) { return mentions(s, var); }))
      return true;
    for (size_t m = n + 1; m < list.size(); ++m) {
      if (!mentions(list[m], var))
        continue;
      // A scalar set in the block itself is read as set there.
      if (assignedValue(list[m], var)) {
        if (!var->getType()->isPointerType())
          return false;
        list[m] = declaration(var, list[m]);
        return true;
      }
      Stmt **slot = inLoop(list[m], var);
      for (size_t r = m + 1; slot && r < list.size(); ++r)
        if (mentions(list[r], var))
          return false;
      if (!slot)
        return false;
      Stmt *old = *slot;
      scope.restore.push_back([slot, old] { *slot = old; });
      *slot = declaration(var, old);
      return true;
    }
    return false;
  }
};

} // namespace

void mlir::gemm::declareWhereSet(NestScope &scope,
                                 std::vector<const Stmt *> &statements) {
  LateInit(scope, statements).run();
}
