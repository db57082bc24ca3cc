//===- OffsetPolynomial.cpp - Element offsets as polynomials --------------===//

#include "OffsetPolynomial.h"

#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace mlir::gemm;

void OffsetAlgebra::add(Offset &into, const Term &term) const {
  if (term.coeff == 0)
    return;
  std::vector<std::string> keys;
  for (const Expr *factor : term.factors)
    keys.push_back(scope.print(factor));
  llvm::sort(keys);
  std::string key = llvm::join(keys, "\x1f");
  auto [it, fresh] = into.terms.try_emplace(key, term);
  if (fresh)
    return;
  it->second.coeff += term.coeff;
  if (it->second.coeff == 0)
    into.terms.erase(it);
}

void OffsetAlgebra::add(Offset &into, const Offset &more) const {
  for (const auto &[key, term] : more.terms)
    add(into, term);
  count(into, more.counted);
}

void OffsetAlgebra::count(Offset &into, ArrayRef<const Stmt *> loops) {
  for (const Stmt *loop : loops)
    if (!llvm::is_contained(into.counted, loop))
      into.counted.push_back(loop);
}

Offset OffsetAlgebra::constant(int64_t value) const {
  Offset out;
  add(out, Term{value, {}});
  return out;
}

Offset OffsetAlgebra::times(const Offset &lhs, const Offset &rhs) const {
  Offset out;
  for (const auto &[lkey, l] : lhs.terms)
    for (const auto &[rkey, r] : rhs.terms) {
      Term product{l.coeff * r.coeff, l.factors};
      llvm::append_range(product.factors, r.factors);
      add(out, product);
    }
  count(out, lhs.counted);
  count(out, rhs.counted);
  return out;
}

std::optional<Offset> OffsetAlgebra::divide(const Offset &dividend,
                                            const Term &divisor) const {
  Offset out;
  for (const auto &[key, term] : dividend.terms) {
    if (term.coeff % divisor.coeff != 0)
      return std::nullopt;
    std::vector<const Expr *> rest = term.factors;
    for (const Expr *factor : divisor.factors) {
      auto at = llvm::find_if(rest, [&](const Expr *f) {
        return scope.print(f) == scope.print(factor);
      });
      if (at == rest.end())
        return std::nullopt;
      rest.erase(at);
    }
    add(out, Term{term.coeff / divisor.coeff, rest});
  }
  count(out, dividend.counted);
  return out;
}

/// `e` without the casts that keep every value of what they convert: a
/// factor is one however it is widened (`(ptrdiff_t)cr` is `cr`).
static const Expr *unwidened(const ASTContext &ctx, const Expr *e) {
  while (true) {
    e = e->IgnoreParens();
    const auto *cast = dyn_cast<CastExpr>(e);
    if (!cast ||
        (cast->getCastKind() != CK_IntegralCast &&
         cast->getCastKind() != CK_NoOp) ||
        !holdsEveryValue(ctx, cast->getType(), cast->getSubExpr()->getType()))
      return e;
    e = cast->getSubExpr();
  }
}

Offset OffsetAlgebra::expand(const Expr *e) {
  const Expr *bare = stripCasts(e);
  if (std::optional<int64_t> value = scope.constantNoted(bare))
    return constant(*value);
  if (const auto *unary = dyn_cast<UnaryOperator>(bare)) {
    if (unary->getOpcode() == UO_Plus)
      return expand(unary->getSubExpr());
    if (unary->getOpcode() == UO_Minus)
      return times(expand(unary->getSubExpr()), constant(-1));
  }
  if (const auto *op = dyn_cast<BinaryOperator>(bare)) {
    std::optional<int64_t> rhs = scope.constantNoted(op->getRHS());
    switch (op->getOpcode()) {
    case BO_Add:
    case BO_Sub: {
      Offset sum = expand(op->getLHS());
      add(sum, times(expand(op->getRHS()),
                     constant(op->getOpcode() == BO_Sub ? -1 : 1)));
      return sum;
    }
    case BO_Mul:
      return times(expand(op->getLHS()), expand(op->getRHS()));
    case BO_Shl:
      if (rhs && *rhs >= 0 && *rhs < 62)
        return times(expand(op->getLHS()), constant(int64_t(1) << *rhs));
      break;
    case BO_Div:
      if (rhs && *rhs > 0)
        if (std::optional<Offset> quotient =
                divide(expand(op->getLHS()), Term{*rhs, {}}))
          return *quotient;
      break;
    default:
      break;
    }
  }
  if (const VarDecl *var = referencedVar(bare))
    if (const Expr *init = scope.fixedInit(var, true);
        init && holdsEveryValue(ctx, var->getType(), init->getType()))
      return expand(init);
  Offset out;
  add(out, Term{1, {unwidened(ctx, e)}});
  return out;
}

Rooted OffsetAlgebra::rooted(const Expr *e) {
  if (e->getType()->isIntegerType())
    return Rooted{nullptr, expand(e)};
  const Expr *bare = stripCasts(e);
  const Expr *pointer = nullptr, *index = nullptr;
  int sign = 1;
  if (const auto *op = dyn_cast<BinaryOperator>(bare);
      op && op->isAdditiveOp()) {
    pointer = op->getLHS(), index = op->getRHS();
    if (op->getOpcode() == BO_Add && pointer->getType()->isIntegerType())
      std::swap(pointer, index);
    sign = op->getOpcode() == BO_Sub ? -1 : 1;
  } else if (const auto *addr = dyn_cast<UnaryOperator>(bare);
             addr && addr->getOpcode() == UO_AddrOf) {
    if (const auto *element =
            dyn_cast<ArraySubscriptExpr>(addr->getSubExpr()->IgnoreParens()))
      pointer = element->getBase(), index = element->getIdx();
  }
  if (!pointer || !pointer->getType()->isPointerType() ||
      !index->getType()->isIntegerType())
    return Rooted{bare, {}};
  Rooted r = rooted(pointer);
  add(r.offset, times(expand(index), constant(sign)));
  return r;
}

Expr *OffsetAlgebra::build(const Offset &offset) {
  Expr *sum = nullptr;
  // Positive terms first, so that a sum starts without a sign.
  for (bool positive : {true, false})
    for (const auto &[key, term] : offset.terms) {
      if ((term.coeff > 0) != positive)
        continue;
      Expr *product = nullptr;
      for (const Expr *factor : term.factors)
        product = product ? binary(product, asDiff(factor), BO_Mul)
                          : asDiff(factor);
      int64_t magnitude = term.coeff < 0 ? -term.coeff : term.coeff;
      Expr *part = !product          ? literal(magnitude)
                   : magnitude == 1 ? product
                                    : binary(literal(magnitude), product,
                                             BO_Mul);
      if (sum)
        sum = binary(sum, part, positive ? BO_Add : BO_Sub);
      else
        sum = positive ? part : binary(literal(0), part, BO_Sub);
    }
  return sum ? sum : literal(0);
}

std::string OffsetAlgebra::show(const Offset &offset) {
  if (offset.terms.size() == 1 && offset.terms.begin()->second.factors.empty())
    return std::to_string(offset.terms.begin()->second.coeff);
  return scope.print(build(offset));
}

Expr *OffsetAlgebra::readOf(const VarDecl *var, SourceLocation loc) {
  auto *ref = DeclRefExpr::Create(
      ctx, NestedNameSpecifierLoc(), SourceLocation(),
      const_cast<VarDecl *>(var), false, loc, var->getType(), VK_LValue);
  return ImplicitCastExpr::Create(ctx, var->getType().getUnqualifiedType(),
                                  CK_LValueToRValue, ref, nullptr, VK_PRValue,
                                  FPOptionsOverride());
}
