//===- Callbacks.cpp - Functions that run as another's loop body ----------===//
//
// Implements Callbacks.h.
//
//===----------------------------------------------------------------------===//

#include "Callbacks.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace mlir::gemm {

namespace {
/// Collects the functions named other than as a call's callee.
class PassedFinder : public RecursiveASTVisitor<PassedFinder> {
public:
  llvm::DenseSet<const FunctionDecl *> passed;

  bool VisitCallExpr(CallExpr *call) {
    if (const auto *callee =
            dyn_cast<DeclRefExpr>(call->getCallee()->IgnoreParenImpCasts()))
      called.insert(callee);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *ref) {
    if (const auto *function = dyn_cast<FunctionDecl>(ref->getDecl());
        function && !called.contains(ref))
      passed.insert(function->getCanonicalDecl());
    return true;
  }

private:
  /// Callees seen: a call is visited before its callee.
  llvm::DenseSet<const DeclRefExpr *> called;
};

/// The integer parameters of `function` that `s` reads, in order, once each.
void integerParameters(const Stmt *s, const FunctionDecl *function,
                       std::vector<const ParmVarDecl *> &found) {
  if (!s)
    return;
  if (const auto *ref = dyn_cast<DeclRefExpr>(s))
    if (const auto *parm = dyn_cast<ParmVarDecl>(ref->getDecl());
        parm && parm->getDeclContext() == function &&
        parm->getType()->isIntegerType() && !llvm::is_contained(found, parm))
      found.push_back(parm);
  for (const Stmt *child : s->children())
    integerParameters(child, function, found);
}
} // namespace

llvm::DenseSet<const FunctionDecl *> passedFunctions(ASTContext &ctx) {
  PassedFinder finder;
  finder.TraverseDecl(ctx.getTranslationUnitDecl());
  return std::move(finder.passed);
}

std::optional<std::string>
elementOfCallersNest(const Stmt *loop, const FunctionDecl *function,
                     const llvm::DenseSet<const FunctionDecl *> &passed) {
  if (!function || !passed.contains(function->getCanonicalDecl()))
    return std::nullopt;
  // The row and column: integer parameters that the loop's products read.
  std::vector<const ParmVarDecl *> indices;
  integerParameters(loop, function, indices);
  if (indices.size() < 2)
    return std::nullopt;
  return "the loop sums the products of one element of a matrix product, "
         "whose row and column are the parameters '" +
         indices[0]->getName().str() + "' and '" +
         indices[1]->getName().str() + "' of '" +
         function->getName().str() +
         "'; the program passes that function on (as a callback), so the "
         "loops over them run in code gemm-opt does not see";
}

} // namespace mlir::gemm
