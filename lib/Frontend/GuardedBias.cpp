//===- GuardedBias.cpp - A bias assigned under a test ---------------------===//
//
// `T x = 0;` followed at once by `if (g) x = e;` (g and e not reading x)
// leaves x holding `g ? e : 0` after the `if`, and nothing reads it before:
// the declaration may say so itself, g and e read where they were. And
// `if (g) x += e;` anywhere adds `g ? e : 0` (x itself where g fails). Whether
// g is loop-invariant and e a bias is the contraction's question, as for a
// `?:` the source writes.
//
//===----------------------------------------------------------------------===//

#include "GuardedBias.h"
#include "BetaStore.h"
#include "Unswitch.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

/// The variable that `s` declares alone, with a zero initialiser, or null.
VarDecl *zeroDeclared(Stmt *s) {
  auto *decl = dyn_cast<DeclStmt>(s);
  auto *var = decl && decl->isSingleDecl()
                  ? dyn_cast<VarDecl>(decl->getSingleDecl())
                  : nullptr;
  return var && var->getType()->isRealFloatingType() && var->getInit() &&
                 isLiteral(var->getInit(), 0)
             ? var
             : nullptr;
}

} // namespace

GuardedBias::GuardedBias(NestScope &scope) : ctx(scope.ctx) {
  fold(const_cast<Stmt *>(scope.outer));
}

GuardedBias::~GuardedBias() {
  for (auto &[slot, old] : llvm::reverse(slots))
    *slot = old;
  for (auto &[var, old] : llvm::reverse(inits))
    var->setInit(old);
}

bool GuardedBias::addsGuarded(Stmt **slot, IfStmt *branch,
                              const BinaryOperator *assign) {
  QualType type = assign->getRHS()->getType();
  if ((assign->getOpcode() != BO_AddAssign &&
       assign->getOpcode() != BO_SubAssign) ||
      !assign->getType()->isRealFloatingType() || !type->isRealFloatingType())
    return false;
  const auto *update = cast<CompoundAssignOperator>(assign);
  SourceLocation at = branch->getIfLoc();
  Expr *zero = zeroOf(ctx, type, branch->getEndLoc());
  Expr *choice = new (ctx) ConditionalOperator(
      branch->getCond(), at, assign->getRHS(), at, zero, type, VK_PRValue,
      OK_Ordinary);
  Stmt *sum = CompoundAssignOperator::Create(
      ctx, assign->getLHS(), choice, assign->getOpcode(), assign->getType(),
      assign->getValueKind(), assign->getObjectKind(), assign->getOperatorLoc(),
      assign->getFPFeatures(), update->getComputationLHSType(),
      update->getComputationResultType());
  // In a block that spans the `if`, so that what edits the nest's text by
  // its statements' ranges (SplitOff.cpp) takes the whole `if`.
  *slot = CompoundStmt::Create(ctx, {sum}, FPOptionsOverride(),
                               branch->getBeginLoc(), branch->getEndLoc());
  return true;
}

void GuardedBias::fold(Stmt *s) {
  if (!s)
    return;
  if (auto *block = dyn_cast<CompoundStmt>(s)) {
    Stmt **body = block->body_begin();
    for (unsigned n = 0; n < block->size(); ++n) {
      auto *branch = dyn_cast<IfStmt>(body[n]);
      const BinaryOperator *assign = branch && !branch->getElse() &&
                                             !branch->getInit() &&
                                             !branch->getConditionVariable() &&
                                             !assumedValue(branch->getCond())
                                         ? soleAssignment(branch->getThen(),
                                                          true)
                                         : nullptr;
      if (!assign || !isa<DeclRefExpr>(assign->getLHS()->IgnoreParens()))
        continue;
      const VarDecl *target = referencedVar(assign->getLHS());
      if (!target || mentions(branch->getCond(), target) ||
          mentions(assign->getRHS(), target))
        continue;
      VarDecl *var = n > 0 ? zeroDeclared(body[n - 1]) : nullptr;
      if (var != target || (assign->getOpcode() != BO_Assign &&
                            assign->getOpcode() != BO_AddAssign)) {
        // `if (g) x += e;` adds `g ? e : 0`, which is x's value when g fails.
        if (addsGuarded(&body[n], branch, assign))
          slots.push_back({&body[n], branch});
        continue;
      }
      Expr *choice = new (ctx) ConditionalOperator(
          branch->getCond(), branch->getIfLoc(), assign->getRHS(),
          branch->getIfLoc(), var->getInit(), var->getType(), VK_PRValue,
          OK_Ordinary);
      inits.push_back({var, var->getInit()});
      var->setInit(choice);
      slots.push_back({&body[n], body[n]});
      body[n] = new (ctx) NullStmt(branch->getBeginLoc());
    }
  }
  for (Stmt *child : s->children())
    fold(child);
}

std::optional<std::string> mlir::gemm::varyingGuard(const Expr *e,
                                                    NestScope &scope,
                                                    const std::string &what) {
  const auto *choice = dyn_cast<ConditionalOperator>(stripCasts(e));
  if (!choice || scope.isInvariant(choice->getCond()))
    return std::nullopt;
  const Expr *taken = isLiteral(choice->getTrueExpr(), 0)
                          ? choice->getFalseExpr()
                          : choice->getTrueExpr();
  const VarDecl *var = scope.findVaryingVar(choice->getCond());
  return "whether " + what + " '" + scope.print(stripCasts(taken)) +
         "' depends on " +
         (var ? scope.describeVarying(var)
              : "'" + scope.print(choice->getCond()) +
                    "', which reads memory that the nest may write");
}
