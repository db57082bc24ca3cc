//===- BetaStore.cpp - A store that branches on beta ----------------------===//
//
// BLAS says C is not read when beta == 0, so a reference GEMM that computes
// a dot product first stores it under a branch: `if (beta == 0) C = alpha *
// temp; else C = alpha * temp + beta * C;`. Both arms are the GEMM with
// that beta once the GEMM, too, never reads C where beta == 0.
//
//===----------------------------------------------------------------------===//

#include "BetaStore.h"
#include "Unswitch.h"

using namespace clang;
using namespace mlir::gemm;

const BinaryOperator *mlir::gemm::soleAssignment(const Stmt *arm,
                                                 bool compound) {
  if (const auto *block = dyn_cast_or_null<CompoundStmt>(arm))
    arm = block->size() == 1 ? block->body_front() : nullptr;
  const auto *e = dyn_cast_or_null<Expr>(arm);
  const auto *assign =
      e ? dyn_cast<BinaryOperator>(e->IgnoreImplicit()) : nullptr;
  return assign && (assign->getOpcode() == BO_Assign ||
                    (compound && assign->isCompoundAssignmentOp()))
             ? assign
             : nullptr;
}

namespace {

/// The scalar that `cond` compares with zero, and whether the first arm is
/// the one for beta == 0 (`beta == 0`, or `beta != 0` with the arms
/// swapped); null beta for any other condition.
std::pair<const Expr *, bool> betaTest(const Expr *cond) {
  if (const Expr *beta = comparedWith(cond, BO_EQ, 0))
    return {beta, true};
  return {comparedWith(cond, BO_NE, 0), false};
}

/// Whether `full` is `zero + beta*c` (terms and factors in any order), or
/// `beta*c` where `zero` is the literal 0; `c` null accepts any element.
bool addsBetaTerm(const Expr *zero, const Expr *full, const Expr *beta,
                  const Expr *c, const NestScope &scope) {
  auto text = [&](const Expr *e) { return scope.print(stripCasts(e)); };
  auto isBetaTerm = [&](const Expr *e) {
    const auto *product = dyn_cast<BinaryOperator>(stripCasts(e));
    if (!product || product->getOpcode() != BO_Mul)
      return false;
    for (auto [b, x] : {std::pair(product->getLHS(), product->getRHS()),
                        std::pair(product->getRHS(), product->getLHS())})
      if (text(b) == text(beta) && (c ? text(x) == text(c)
                                      : isa<ArraySubscriptExpr, UnaryOperator>(
                                            stripCasts(x))))
        return true;
    return false;
  };
  if (isLiteral(zero, 0) && isBetaTerm(full))
    return true;
  const auto *sum = dyn_cast<BinaryOperator>(stripCasts(full));
  if (!c || !sum || sum->getOpcode() != BO_Add)
    return false;
  return (text(sum->getLHS()) == text(zero) && isBetaTerm(sum->getRHS())) ||
         (text(sum->getRHS()) == text(zero) && isBetaTerm(sum->getLHS()));
}

/// The remark's note: `what` ("the store's branch") on beta folds.
std::string foldNote(const NestScope &scope, const std::string &what,
                     const Expr *beta) {
  return what + " on '" + scope.print(stripCasts(beta)) +
         "' folds into beta (beta == 0 never reads C)";
}

} // namespace

const Stmt *mlir::gemm::foldBetaStore(const IfStmt *branch, NestScope &scope) {
  auto [beta, equal] = betaTest(branch->getCond());
  if (!beta || branch->getInit() || branch->getConditionVariable())
    return nullptr;
  const Stmt *zeroArm = equal ? branch->getThen() : branch->getElse();
  const Stmt *fullArm = equal ? branch->getElse() : branch->getThen();
  const BinaryOperator *zero = soleAssignment(zeroArm);
  const BinaryOperator *full = soleAssignment(fullArm);
  auto text = [&](const Expr *e) { return scope.print(stripCasts(e)); };
  if (!zero || !full || text(zero->getLHS()) != text(full->getLHS()))
    return nullptr;
  if (addsBetaTerm(zero->getRHS(), full->getRHS(), beta, full->getLHS(),
                   scope)) {
    scope.notes.push_back(foldNote(scope, "the store's branch", beta));
    return fullArm;
  }
  scope.reject("the branches on '" + text(beta) + "' store values to '" +
               text(full->getLHS()) + "' that differ by more than the term '" +
               text(beta) + " * " + text(full->getLHS()) + "'");
  return nullptr;
}

BetaChoices::BetaChoices(NestScope &scope) : scope(scope) {
  fold(const_cast<Stmt *>(scope.outer), nullptr);
}

BetaChoices::~BetaChoices() {
  for (auto &[slot, old] : llvm::reverse(slots))
    *slot = old;
}

void BetaChoices::fold(Stmt *s, const Expr *target) {
  if (!s)
    return;
  // What an assignment's right side may read as C: its left side.
  const auto *assign = dyn_cast<BinaryOperator>(s);
  const Expr *stored =
      assign && assign->getOpcode() == BO_Assign ? assign->getLHS() : nullptr;
  for (Stmt *&child : s->children()) {
    const auto *choice =
        dyn_cast_or_null<ConditionalOperator>(child);
    auto [beta, equal] = choice ? betaTest(choice->getCond())
                                : std::pair<const Expr *, bool>();
    if (beta && !assumedValue(choice->getCond())) {
      Expr *zero = equal ? choice->getTrueExpr() : choice->getFalseExpr();
      Expr *full = equal ? choice->getFalseExpr() : choice->getTrueExpr();
      if (addsBetaTerm(zero, full, beta, target, scope)) {
        scope.notes.push_back(foldNote(scope, "the choice", beta));
        slots.push_back({&child, child});
        child = full;
      }
    }
    fold(child, stored && child == assign->getRHS() ? stored : target);
  }
}
