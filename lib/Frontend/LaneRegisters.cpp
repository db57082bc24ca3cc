//===- LaneRegisters.cpp - A block of C kept in an array ------------------===//
//
// Scalar replacement of an array whose elements are only ever named by
// constants: nothing can tell its elements from separate variables, so the
// reading changes nothing the program computes. It is limited to arrays
// whose elements are stored on their own, so that lanes read together
// stay with PartialSums.cpp, which reads them as one sum.
//
//===----------------------------------------------------------------------===//

#include "LaneRegisters.h"

#include "clang/AST/Expr.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

/// A use of an element: the slot that holds `t[c]`, the lane, and the
/// nearest node above that is no cast or parenthesis.
struct Use {
  Stmt **slot;
  uint64_t lane;
  const Stmt *above;
};

class LaneRegisters {
public:
  LaneRegisters(NestScope &scope, std::vector<const Stmt *> &list)
      : scope(scope), ctx(scope.ctx), list(list) {}

  void run() {
    for (auto [n, var] : localArrays(list))
      split(n, var);
  }

private:
  NestScope &scope;
  ASTContext &ctx;
  std::vector<const Stmt *> &list;

  /// Collects the uses of `array` below `slot`; false where one is no
  /// element at a constant lane below `size`.
  bool usesIn(Stmt *&slot, const Stmt *above, const VarDecl *array,
              uint64_t size, std::vector<Use> &out) const {
    Stmt *s = slot;
    if (!s)
      return true;
    if (const auto *access = dyn_cast<ArraySubscriptExpr>(s);
        access && referencedVar(access->getBase()) == array) {
      Expr::EvalResult value;
      if (!access->getIdx()->EvaluateAsInt(value, ctx) ||
          value.Val.getInt().isNegative() ||
          value.Val.getInt().getZExtValue() >= size)
        return false;
      out.push_back({&slot, value.Val.getInt().getZExtValue(), above});
      return true;
    }
    if (const auto *ref = dyn_cast<DeclRefExpr>(s);
        ref && ref->getDecl() == array)
      return false;
    const Stmt *next = isa<ImplicitCastExpr, ParenExpr>(s) ? above : s;
    for (Stmt *&child : s->children())
      if (!usesIn(child, next, array, size, out))
        return false;
    return true;
  }

  /// Whether `u` is the target of an assignment or the whole value stored
  /// by one into something that is no element of `array`.
  static bool storedAlone(const Use &u, const VarDecl *array) {
    const auto *op = dyn_cast_or_null<BinaryOperator>(u.above);
    if (!op || !op->isAssignmentOp())
      return false;
    if (op->getLHS()->IgnoreParens() == *u.slot)
      return true;
    const auto *target =
        dyn_cast<ArraySubscriptExpr>(op->getLHS()->IgnoreParenImpCasts());
    return op->getRHS()->IgnoreParenImpCasts() == *u.slot &&
           (op->getOpcode() == BO_Assign || op->getOpcode() == BO_AddAssign) &&
           !(target && referencedVar(target->getBase()) == array);
  }

  static bool startsAtZero(const Expr *init) {
    if (!init)
      return true;
    const auto *values = dyn_cast<InitListExpr>(init);
    return values && llvm::all_of(values->inits(), [](const Expr *e) {
             return isa<ImplicitValueInitExpr>(e) || isLiteral(e, 0);
           });
  }

  void split(size_t n, VarDecl *array) {
    const auto *shape = ctx.getAsConstantArrayType(array->getType());
    if (!shape || !shape->getElementType()->isRealFloatingType() ||
        shape->getSize().ugt(64) || !startsAtZero(array->getInit()))
      return;
    uint64_t size = shape->getSize().getZExtValue();
    std::vector<Use> uses;
    for (size_t m = n + 1; m < list.size(); ++m)
      if (namedByDirective(list[m], array) ||
          !usesIn(const_cast<Stmt *&>(list[m]), list[m], array, size, uses))
        return;
    if (uses.empty() ||
        !llvm::all_of(uses, [&](const Use &u) { return storedAlone(u, array); }))
      return;
    // One variable per element, declared where the array was.
    QualType element = shape->getElementType();
    SourceLocation at = array->getLocation();
    std::vector<VarDecl *> lanes;
    for (uint64_t c = 0; c < size; ++c) {
      std::string name =
          array->getNameAsString() + "[" + std::to_string(c) + "]";
      VarDecl *lane = VarDecl::Create(
          ctx, array->getDeclContext(), array->getBeginLoc(), at,
          &ctx.Idents.get(name), element, ctx.getTrivialTypeSourceInfo(element),
          SC_None);
      if (array->getInit())
        lane->setInit(zeroOf(ctx, element, at));
      lanes.push_back(lane);
    }
    const auto *decl = cast<DeclStmt>(list[n]);
    SmallVector<Decl *> decls;
    for (Decl *d : decl->decls())
      if (d == array)
        decls.append(lanes.begin(), lanes.end());
      else
        decls.push_back(d);
    list[n] = new (ctx)
        DeclStmt(DeclGroupRef::Create(ctx, decls.data(), decls.size()),
                 decl->getBeginLoc(), decl->getEndLoc());
    for (const Use &u : uses)
      scope.replace(u.slot,
                    DeclRefExpr::Create(ctx, NestedNameSpecifierLoc(),
                                        SourceLocation(), lanes[u.lane], false,
                                        (*u.slot)->getBeginLoc(), element,
                                        VK_LValue));
  }
};

} // namespace

void mlir::gemm::splitLaneRegisters(NestScope &scope,
                                    std::vector<const Stmt *> &statements) {
  LaneRegisters(scope, statements).run();
}
