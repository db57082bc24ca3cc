//===- NullTests.cpp - Tests that a moved pointer is null -----------------===//
//
// Implements NullTests.h.
//
//===----------------------------------------------------------------------===//

#include "NullTests.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace mlir::gemm {

namespace {
/// The variable that `e` reads, or null.
const VarDecl *read(const Expr *e) {
  const auto *ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  return ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
}

/// The pointer that `e` tests for null (`p == NULL`, `NULL == p`, `p == 0`,
/// `!p`), or null.
const Expr *testedForNull(const Expr *e, ASTContext &ctx) {
  e = e->IgnoreParenImpCasts();
  auto isNull = [&](const Expr *x) {
    return x->isNullPointerConstant(ctx, Expr::NPC_ValueDependentIsNotNull) !=
           Expr::NPCK_NotNull;
  };
  const Expr *tested = nullptr;
  if (const auto *op = dyn_cast<UnaryOperator>(e);
      op && op->getOpcode() == UO_LNot)
    tested = op->getSubExpr();
  if (const auto *op = dyn_cast<BinaryOperator>(e);
      op && op->getOpcode() == BO_EQ)
    tested = isNull(op->getRHS())   ? op->getLHS()
             : isNull(op->getLHS()) ? op->getRHS()
                                    : nullptr;
  return tested && tested->getType()->isPointerType() ? tested : nullptr;
}

/// The pointer that `e` moves by integers (`q + i`, `i + q`, `q - i`,
/// `&q[i]`, through casts), or `e` itself where it moves none.
const Expr *baseOf(const Expr *e) {
  e = stripCasts(e);
  if (const auto *op = dyn_cast<BinaryOperator>(e);
      op && (op->getOpcode() == BO_Add || op->getOpcode() == BO_Sub)) {
    if (op->getLHS()->getType()->isPointerType() &&
        op->getRHS()->getType()->isIntegerType())
      return baseOf(op->getLHS());
    if (op->getOpcode() == BO_Add && op->getLHS()->getType()->isIntegerType() &&
        op->getRHS()->getType()->isPointerType())
      return baseOf(op->getRHS());
  }
  if (const auto *address = dyn_cast<UnaryOperator>(e);
      address && address->getOpcode() == UO_AddrOf)
    if (const auto *element = dyn_cast<ArraySubscriptExpr>(
            address->getSubExpr()->IgnoreParens());
        element && element->getBase()->getType()->isPointerType())
      return baseOf(element->getBase());
  return e;
}

/// The value that statement `s` gives `var` (`var = e;` or its
/// declaration's initialiser), or null.
const Expr *setsTo(const Stmt *s, const VarDecl *var) {
  if (const auto *decl = dyn_cast<DeclStmt>(s))
    for (const Decl *d : decl->decls())
      if (d == var)
        return var->getInit();
  if (const auto *set = dyn_cast<BinaryOperator>(s);
      set && set->getOpcode() == BO_Assign && read(set->getLHS()) == var)
    return set->getRHS();
  return nullptr;
}
} // namespace

void readNullTests(NestScope &scope, std::vector<const Stmt *> &statements) {
  ASTContext &ctx = scope.ctx;
  const SourceManager &sm = ctx.getSourceManager();
  const SourceRange nest(sm.getExpansionLoc(scope.outer->getBeginLoc()),
                         sm.getExpansionLoc(scope.outer->getEndLoc()));
  auto inside = [&](const VarDecl *var) {
    const SourceLocation at = sm.getExpansionLoc(var->getLocation());
    return !sm.isBeforeInTranslationUnit(at, nest.getBegin()) &&
           !sm.isBeforeInTranslationUnit(nest.getEnd(), at);
  };
  for (size_t n = 0; n < statements.size(); ++n) {
    const auto *test = dyn_cast<IfStmt>(statements[n]);
    if (!test || test->getElse() || test->getInit() ||
        test->getConditionVariable())
      continue;
    const Expr *tested = testedForNull(test->getCond(), ctx);
    // The pointer that `tested` moves, through the nest's own pointers to
    // the last value this block gave each, nothing else naming it since
    // (the walk may have put that value, or the walk's offset, in place).
    const Expr *base = tested ? baseOf(tested) : nullptr;
    for (const VarDecl *p; base && (p = read(base)) && inside(p);) {
      const Expr *value = nullptr;
      for (size_t m = n; m-- > 0 && !value;) {
        value = setsTo(statements[m], p);
        if (!value && mentions(statements[m], p))
          break;
      }
      base = value ? baseOf(value) : nullptr;
    }
    if (!base || !base->getType()->isPointerType() || !scope.isInvariant(base))
      continue;
    std::string condition = "(" + scope.print(base) + ") != 0";
    if (!llvm::is_contained(scope.preconditions, condition))
      scope.preconditions.push_back(condition);
    statements[n] = new (ctx) NullStmt(test->getBeginLoc());
  }
}

} // namespace mlir::gemm
