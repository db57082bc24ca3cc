//===- OffsetBuilder.cpp - Integer offsets built as expressions -----------===//

#include "OffsetBuilder.h"

using namespace clang;
using namespace mlir::gemm;

IntegerLiteral *OffsetBuilder::literal(int64_t value) {
  return IntegerLiteral::Create(
      ctx, llvm::APInt(ctx.getTypeSize(diff), value, /*isSigned=*/true), diff,
      SourceLocation());
}

Expr *OffsetBuilder::asDiff(const Expr *e) {
  Expr *x = const_cast<Expr *>(e);
  if (isa<BinaryOperator, ConditionalOperator>(x->IgnoreImpCasts()))
    x = new (ctx) ParenExpr(SourceLocation(), SourceLocation(), x);
  if (ctx.hasSameType(x->getType(), diff))
    return x;
  return ImplicitCastExpr::Create(ctx, diff, CK_IntegralCast, x, nullptr,
                                  VK_PRValue, FPOptionsOverride());
}

Expr *OffsetBuilder::binary(Expr *lhs, Expr *rhs, BinaryOperatorKind op) {
  auto wrap = [&](Expr *e, bool right) {
    const auto *inner = dyn_cast<BinaryOperator>(e->IgnoreImpCasts());
    bool needs = inner && (op == BO_Mul || op == BO_Div ||
                           (right && op == BO_Sub && inner->isAdditiveOp()));
    return needs ? new (ctx) ParenExpr(SourceLocation(), SourceLocation(), e)
                 : e;
  };
  return BinaryOperator::Create(ctx, wrap(lhs, false), wrap(rhs, true), op,
                                diff, VK_PRValue, OK_Ordinary,
                                SourceLocation(), FPOptionsOverride());
}
