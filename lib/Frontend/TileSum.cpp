//===- TileSum.cpp - Which tile loop a point loop runs within -------------===//
//
// A loop from 0 to S inside two loops that both step by S (a hand-blocked
// GEMM's `for (jj ...; jj += bs) for (kk ...; kk += bs)` over `k < bs` and
// `j < bs`) runs within the tiles of one of them; its header does not say
// which. The accesses do: each reads a point loop only together with its
// tile loop, as `kk + k` and `jj + j`.
//
//===----------------------------------------------------------------------===//

#include "TileSum.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

/// Whether each element access in `e`, inside the `around` source loops,
/// that decomposes reads `point` and `tile` with equal coefficients.
bool readsAsSum(NestScope &scope, const Stmt *e, const std::vector<int> &around,
                int point, int tile) {
  if (!e)
    return true;
  const auto *access = dyn_cast<Expr>(e);
  const auto *deref = dyn_cast<UnaryOperator>(e);
  if (access && !access->getType()->isArrayType() &&
      (isMemoryAccess(access) || (deref && deref->getOpcode() == UO_Deref))) {
    // A look only: the recognition decomposes the accesses it keeps.
    std::optional<Rejection> saved = scope.rejection;
    size_t assumed = scope.assumptions.size();
    std::optional<Access> a = scope.sourceAccess(access, around);
    scope.rejection = saved;
    scope.assumptions.resize(assumed);
    auto paired = [&](const AffineForm &f) {
      return f.ivCoeffs[point] == f.ivCoeffs[tile];
    };
    if (a && (!paired(a->index) || (a->rowIndex && !paired(*a->rowIndex))))
      return false;
  }
  return llvm::all_of(e->children(), [&](const Stmt *child) {
    return readsAsSum(scope, child, around, point, tile);
  });
}

} // namespace

bool mlir::gemm::readsAsTileSum(NestScope &scope, int point, int tile) {
  for (const Write &w : scope.writes)
    if (!readsAsSum(scope, w.lhs, w.loops, point, tile) ||
        !readsAsSum(scope, w.rhs, w.loops, point, tile))
      return false;
  for (const LocalDef &local : scope.locals)
    if (!readsAsSum(scope, local.var->getInit(), local.loops, point, tile))
      return false;
  return true;
}
