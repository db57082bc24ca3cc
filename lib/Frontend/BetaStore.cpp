//===- BetaStore.cpp - A store that branches on beta ----------------------===//
//
// BLAS says C is not read when beta == 0, so a reference GEMM that computes
// a dot product first stores it under a branch: `if (beta == 0) C = alpha *
// temp; else C = alpha * temp + beta * C;`. Both arms are the GEMM with
// that beta once the GEMM, too, never reads C where beta == 0.
//
//===----------------------------------------------------------------------===//

#include "BetaStore.h"

#include <set>

using namespace clang;
using namespace mlir::gemm;

const BinaryOperator *mlir::gemm::soleAssignment(const Stmt *arm) {
  if (const auto *block = dyn_cast_or_null<CompoundStmt>(arm))
    arm = block->size() == 1 ? block->body_front() : nullptr;
  const auto *e = dyn_cast_or_null<Expr>(arm);
  const auto *assign =
      e ? dyn_cast<BinaryOperator>(e->IgnoreImplicit()) : nullptr;
  return assign && assign->getOpcode() == BO_Assign ? assign : nullptr;
}

const Stmt *mlir::gemm::foldBetaStore(const IfStmt *branch, NestScope &scope) {
  bool equal = true;
  const Expr *beta = comparedWith(branch->getCond(), BO_EQ, 0);
  if (!beta && (beta = comparedWith(branch->getCond(), BO_NE, 0)))
    equal = false;
  if (!beta || branch->getInit() || branch->getConditionVariable())
    return nullptr;
  const Stmt *zeroArm = equal ? branch->getThen() : branch->getElse();
  const Stmt *fullArm = equal ? branch->getElse() : branch->getThen();
  const BinaryOperator *zero = soleAssignment(zeroArm);
  const BinaryOperator *full = soleAssignment(fullArm);
  auto text = [&](const Expr *e) { return scope.print(stripCasts(e)); };
  const auto *sum =
      full ? dyn_cast<BinaryOperator>(stripCasts(full->getRHS())) : nullptr;
  if (!zero || !full || text(zero->getLHS()) != text(full->getLHS()))
    return nullptr;
  // X + beta*C or beta*C + X, with beta*C or C*beta.
  std::vector<std::pair<const Expr *, const Expr *>> splits;
  if (sum && sum->getOpcode() == BO_Add)
    splits = {{sum->getLHS(), sum->getRHS()}, {sum->getRHS(), sum->getLHS()}};
  for (auto [kept, scaled] : splits) {
    const auto *product = dyn_cast<BinaryOperator>(stripCasts(scaled));
    if (text(kept) != text(zero->getRHS()) || !product ||
        product->getOpcode() != BO_Mul)
      continue;
    std::set<std::string> factors = {text(product->getLHS()),
                                     text(product->getRHS())};
    if (factors != std::set<std::string>{text(beta), text(full->getLHS())})
      continue;
    scope.notes.push_back("the store's branch on '" + text(beta) +
                          "' folds into beta (beta == 0 never reads C)");
    return fullArm;
  }
  scope.reject("the branches on '" + text(beta) + "' store values to '" +
               text(full->getLHS()) + "' that differ by more than the term '" +
               text(beta) + " * " + text(full->getLHS()) + "'");
  return nullptr;
}
