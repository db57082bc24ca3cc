//===- PeeledStep.cpp - A step of the sum written ahead of its loop -------===//

#include "PeeledStep.h"
#include "MacroText.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

/// `form`, an index of the peeled product, along the product's loops: the
/// coefficients of its own loops on the loops they are matched with.
AffineForm alongProduct(AffineForm form,
                        const std::vector<std::pair<int, int>> &matched) {
  for (auto [own, product] : matched) {
    form.ivCoeffs[product] = form.ivCoeffs[own];
    form.ivCoeffs[own] = SymExpr();
  }
  return form;
}

/// Whether `at` is `index` at iteration `t` of dimension `k`.
bool atStep(const AffineForm &at, const AffineForm &index, int k,
            const SymExpr &t) {
  for (size_t d = 0; d < index.ivCoeffs.size(); ++d)
    if (!(at.ivCoeffs[d] == (int(d) == k ? SymExpr() : index.ivCoeffs[d])))
      return false;
  return at.constant == index.constant + index.ivCoeffs[k] * t;
}

bool sameElementAt(const Access &at, const Access &access, int k,
                   const SymExpr &t) {
  return at.root == access.root && at.basePtr == access.basePtr &&
         at.elementType == access.elementType &&
         at.rowIndex.has_value() == access.rowIndex.has_value() &&
         atStep(at.index, access.index, k, t) &&
         (!at.rowIndex || atStep(*at.rowIndex, *access.rowIndex, k, t));
}

/// Moves `access` one step of dimension `k` back.
void stepBack(Access &access, int k) {
  access.index.constant = access.index.constant - access.index.ivCoeffs[k];
  if (access.rowIndex)
    access.rowIndex->constant =
        access.rowIndex->constant - access.rowIndex->ivCoeffs[k];
}

} // namespace

bool mlir::gemm::foldPeeledStep(NestScope &scope, const PeeledStep &peeled,
                                const std::vector<std::pair<int, int>> &matched,
                                int k, Access &x, Access &y, SymExpr &extent) {
  std::string loop = "the loop over '" + scope.loops[k].iv->getNameAsString() +
                     "'";
  std::string step = "'" + written(scope.ctx, peeled.value) + "'";
  if (!(extent == scope.loops[k].extent))
    return scope.reject(step + " is written ahead of two reduction loops that "
                        "make one dimension"),
           false;
  std::optional<Access> p = scope.decomposeAccess(peeled.lhs, peeled.loops);
  std::optional<Access> q = scope.decomposeAccess(peeled.rhs, peeled.loops);
  if (!p || !q)
    return false;
  for (Access *a : {&*p, &*q}) {
    a->index = alongProduct(a->index, matched);
    if (a->rowIndex)
      a->rowIndex = alongProduct(*a->rowIndex, matched);
  }
  for (bool first : {true, false}) {
    const SymExpr t = first ? SymExpr::constant(-1) : extent;
    bool straight = sameElementAt(*p, x, k, t) && sameElementAt(*q, y, k, t);
    bool crossed = sameElementAt(*q, x, k, t) && sameElementAt(*p, y, k, t);
    if (!straight && !crossed)
      continue;
    std::optional<int64_t> known = extent.getConstant();
    if (known && *known < 0)
      return scope.reject(step + " is written ahead of " + loop +
                          ", which runs no iteration"),
             false;
    if (!known)
      scope.preconditions.push_back(parenthesize(extent.str()) + " >= 0");
    if (first) {
      stepBack(x, k);
      stepBack(y, k);
    }
    extent = extent + SymExpr::constant(1);
    scope.notes.push_back("the sum's step " +
                          std::string(first ? "before " : "after ") + loop +
                          ", " + step + ", is written ahead of it");
    return true;
  }
  return scope.reject(step + " is written ahead of " + loop + " but is not "
                      "the product's step before its first iteration or "
                      "after its last"),
         false;
}
