//===- Contraction.cpp - The statement forms of a GEMM nest ---------------===//

#include "Contraction.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

/// A product of factors: loop-invariant scalars, array elements, and
/// references to the accumulator.
struct Product {
  bool negative = false;
  std::vector<const Expr *> scalars;
  std::vector<const Expr *> accesses;
  std::vector<const VarDecl *> vars;
  /// A cast among the factors that rounds to a narrower floating type.
  const CastExpr *rounding = nullptr;
  /// The write whose term is flattened, and the assignments of scalars
  /// declared before the nest that stand for them in it (`temp = alpha *
  /// b[l][j];` above the update, C89 and f2c style).
  const Write *at = nullptr;
  std::vector<const Write *> substituted;
};

bool isPrefix(const std::vector<int> &prefix, const std::vector<int> &of) {
  return prefix.size() <= of.size() &&
         std::equal(prefix.begin(), prefix.end(), of.begin());
}

/// The one assignment `var = e;` of a scalar in the nest when it happens in
/// a body around `at`, before it: then `var` holds e's value there.
const Write *soleAssignment(const VarDecl *var, const Write &at,
                            NestScope &scope) {
  const Write *found = nullptr;
  for (const Write &w : scope.writes) {
    if (referencedVar(w.lhs) != var)
      continue;
    if (found)
      return nullptr;
    found = &w;
  }
  bool encloses = found && found->op == BO_Assign &&
                  found->order < at.order && isPrefix(found->loops, at.loops);
  return encloses ? found : nullptr;
}

bool isZero(const Expr *e) {
  e = stripCasts(e);
  if (const auto *i = dyn_cast<IntegerLiteral>(e))
    return i->getValue().isZero();
  if (const auto *f = dyn_cast<FloatingLiteral>(e))
    return f->getValue().isZero();
  return false;
}

/// Records in `out` a cast around `e` that rounds a floating value to a
/// narrower type (`float t = A[i][k]` over doubles, `(float)(a * b)`): the
/// loop computes with the rounded value, a kernel in the element type would
/// not round it.
void noteRounding(const Expr *e, NestScope &scope, Product &out) {
  e = e->IgnoreParens();
  while (const auto *cast = dyn_cast<CastExpr>(e)) {
    QualType to = cast->getType(), from = cast->getSubExpr()->getType();
    if (!out.rounding && to->isRealFloatingType() &&
        from->isRealFloatingType() &&
        scope.ctx.getFloatingTypeOrder(to, from) < 0)
      out.rounding = cast;
    e = cast->getSubExpr()->IgnoreParens();
  }
}

/// Splits `e` into factors. A scalar declared in the nest and never
/// assigned (a hoisted `t = alpha * A[i][k]`) is replaced by its
/// initialiser; `accumulator` may appear as itself.
bool flatten(const Expr *e, NestScope &scope, const VarDecl *accumulator,
             Product &out) {
  noteRounding(e, scope, out);
  e = stripCasts(e);
  if (const auto *binary = dyn_cast<BinaryOperator>(e);
      binary && binary->getOpcode() == BO_Mul)
    return flatten(binary->getLHS(), scope, accumulator, out) &&
           flatten(binary->getRHS(), scope, accumulator, out);
  if (const auto *unary = dyn_cast<UnaryOperator>(e)) {
    if (unary->getOpcode() == UO_Minus)
      out.negative = !out.negative;
    if (unary->getOpcode() == UO_Minus || unary->getOpcode() == UO_Plus)
      return flatten(unary->getSubExpr(), scope, accumulator, out);
  }
  if (isMemoryAccess(e)) {
    out.accesses.push_back(e);
    return true;
  }
  if (const VarDecl *var = referencedVar(e)) {
    if (var == accumulator) {
      out.vars.push_back(var);
      return true;
    }
    const LocalDef *local = scope.findLocal(var);
    if (local && var->getInit() && !scope.written.contains(var))
      return flatten(var->getInit(), scope, accumulator, out);
    if (const Write *set =
            out.at && !local ? soleAssignment(var, *out.at, scope) : nullptr) {
      out.substituted.push_back(set);
      return flatten(set->rhs, scope, accumulator, out);
    }
  }
  if (scope.isInvariant(e)) {
    out.scalars.push_back(e);
    return true;
  }
  return false;
}

std::string scalarText(const Product &p, NestScope &scope) {
  std::string text;
  for (const Expr *s : p.scalars)
    text += (text.empty() ? "" : " * ") + parenthesize(scope.print(s));
  if (text.empty())
    text = "1";
  return p.negative ? "-" + parenthesize(text) : text;
}

std::string multiply(const std::string &x, const std::string &y) {
  if (x == "1")
    return y;
  if (y == "1")
    return x;
  return parenthesize(x) + " * " + parenthesize(y);
}

bool sameTarget(const Expr *x, const Expr *y, NestScope &scope) {
  return scope.print(stripCasts(x)) == scope.print(stripCasts(y));
}

/// `t += P`, `t -= P`, `t = t + P`, `t = P + t`, `t = t - P`: the added
/// term P and whether it is subtracted.
std::optional<std::pair<const Expr *, bool>>
splitAccumulation(const Write &w, NestScope &scope) {
  if (w.op == BO_AddAssign || w.op == BO_SubAssign)
    return std::make_pair(w.rhs, w.op == BO_SubAssign);
  const auto *sum = dyn_cast<BinaryOperator>(stripCasts(w.rhs));
  if (w.op != BO_Assign || !sum)
    return std::nullopt;
  if (sum->getOpcode() == BO_Add || sum->getOpcode() == BO_Sub) {
    if (sameTarget(sum->getLHS(), w.lhs, scope))
      return std::make_pair(sum->getRHS(), sum->getOpcode() == BO_Sub);
    if (sum->getOpcode() == BO_Add && sameTarget(sum->getRHS(), w.lhs, scope))
      return std::make_pair(sum->getLHS(), false);
  }
  return std::nullopt;
}

/// The additive terms of `e` (at most two are used by the store forms).
void additiveTerms(const Expr *e, std::vector<const Expr *> &terms) {
  e = stripCasts(e);
  if (const auto *sum = dyn_cast<BinaryOperator>(e);
      sum && sum->getOpcode() == BO_Add) {
    additiveTerms(sum->getLHS(), terms);
    additiveTerms(sum->getRHS(), terms);
    return;
  }
  terms.push_back(e);
}

/// `C = 0`, `C *= b`, `C = b * C`: the beta the init applies to C.
std::optional<std::string> initBeta(const Write &w, NestScope &scope) {
  if (w.op == BO_Assign && isZero(w.rhs))
    return std::string("0");
  Product p;
  if (w.op == BO_MulAssign && flatten(w.rhs, scope, nullptr, p) &&
      p.accesses.empty())
    return scalarText(p, scope);
  if (w.op == BO_Assign && flatten(w.rhs, scope, nullptr, p) &&
      p.accesses.size() == 1 && sameTarget(p.accesses[0], w.lhs, scope))
    return scalarText(p, scope);
  return std::nullopt;
}

/// Folds `s = 0; for k: s += P; C = alpha*s + beta*C` into `c`.
bool matchAccumulator(NestScope &scope, const Write &mac, const VarDecl *acc,
                      const std::vector<const Write *> &substituted,
                      Contraction &c) {
  std::string name = acc->getNameAsString();
  const Write *store = nullptr;
  std::optional<std::pair<std::vector<int>, unsigned>> init;
  if (const LocalDef *local = scope.findLocal(acc); local && acc->getInit()) {
    if (!isZero(acc->getInit())) {
      scope.reject("accumulator '" + name + "' does not start at zero");
      return false;
    }
    init = {local->loops, local->order};
  }
  for (const Write &w : scope.writes) {
    if (&w == &mac || llvm::is_contained(substituted, &w))
      continue;
    if (referencedVar(w.lhs) == acc) {
      if (init || w.op != BO_Assign || !isZero(w.rhs)) {
        scope.reject("accumulator '" + name +
                     "' is written other than by one zero-init and the sum");
        return false;
      }
      init = {w.loops, w.order};
    } else if (!isMemoryAccess(w.lhs) || store) {
      scope.reject("'" + scope.print(w.lhs) +
                   "' is written besides the accumulator and its store");
      return false;
    } else {
      store = &w;
    }
  }
  if (!init) {
    scope.reject("accumulator '" + name + "' is not set to zero in the nest");
    return false;
  }
  if (!store) {
    scope.reject("the sum in '" + name + "' is never stored to an array");
    return false;
  }
  if (!isPrefix(store->loops, mac.loops) || store->loops == mac.loops ||
      init->first != store->loops || init->second > mac.order ||
      mac.order > store->order) {
    scope.reject("accumulator '" + name +
                 "' is not zeroed, summed and stored once per element of C");
    return false;
  }

  // The store: C = s, C = alpha*s, C += alpha*s, C = alpha*s + beta*C.
  std::vector<const Expr *> terms;
  additiveTerms(store->rhs, terms);
  std::optional<std::string> alpha, beta;
  bool valid = terms.size() <= 2;
  for (const Expr *term : terms) {
    Product p;
    if (!valid || !flatten(term, scope, acc, p))
      valid = false;
    else if (p.vars.size() == 1 && p.accesses.empty() && !alpha)
      alpha = scalarText(p, scope);
    else if (p.vars.empty() && p.accesses.size() == 1 &&
             sameTarget(p.accesses[0], store->lhs, scope) && !beta)
      beta = scalarText(p, scope);
    else
      valid = false;
  }
  bool assign = store->op == BO_Assign;
  bool subtract = store->op == BO_SubAssign;
  if (!valid || !alpha ||
      (!assign && ((store->op != BO_AddAssign && !subtract) || beta))) {
    scope.reject("unsupported store of accumulator '" + name +
                 "': expected C = alpha*s + beta*C, C = s, C += s or C -= s");
    return false;
  }
  c.c = store->lhs;
  c.cLoops = store->loops;
  c.beta = assign ? beta.value_or("0") : "1";
  c.alpha = multiply(c.alpha, subtract ? "-" + parenthesize(*alpha) : *alpha);
  c.form = "accumulates in '" + name + "'";
  return true;
}

/// Folds a write of the reference BLAS's beta branches into c: the scaling
/// branch is the init, by beta; the zero branch is checked like it; without
/// a scaling branch the zero branch is the init, by 0 where beta is 0 and
/// else 1. Returns nullopt for a write of no branch, false (rejected) for a
/// branch write that does not update C ahead of the accumulation.
std::optional<bool> foldBetaBranch(const Write &w, const Write &mac,
                                   Contraction &c, NestScope &scope) {
  const size_t index = &w - scope.writes.data();
  auto branch = llvm::find_if(scope.betaBranches, [&](const BetaBranch &b) {
    return b.zero == index || b.scale == index;
  });
  if (branch == scope.betaBranches.end())
    return std::nullopt;
  std::string beta = scope.print(branch->beta);
  bool zero = branch->zero == index;
  std::optional<std::string> factor = initBeta(w, scope);
  if (!isMemoryAccess(w.lhs) || !sameTarget(w.lhs, c.c, scope) ||
      w.order > mac.order || !factor || *factor != (zero ? "0" : beta)) {
    scope.reject("the branches on '" + beta + "' do not set C to 0 and to " +
                 beta + " * C ahead of the accumulation");
    return false;
  }
  if (zero && branch->scale) {
    c.zeroInit = &w;
    return true;
  }
  c.init = &w;
  c.beta = zero ? "(" + parenthesize(beta) + " == 0 ? 0 : 1)" : beta;
  c.form = "the beta branches of the reference BLAS (beta == 0 never reads C)";
  return true;
}

} // namespace

std::optional<Contraction> mlir::gemm::matchContraction(NestScope &scope) {
  // The multiply-accumulate: an accumulation whose added term multiplies
  // two array elements.
  const Write *mac = nullptr;
  Product product;
  bool macIsSub = false;
  for (const Write &w : scope.writes) {
    auto split = splitAccumulation(w, scope);
    Product p;
    p.at = &w;
    if (!split || !flatten(split->first, scope, nullptr, p) ||
        p.accesses.size() != 2)
      continue;
    if (mac)
      return scope.reject("more than one multiply-accumulate in the nest",
                          /*peelable=*/true);
    mac = &w;
    product = p;
    macIsSub = split->second;
  }
  if (!mac) {
    for (const Write &w : scope.writes) {
      Product p;
      if (w.op == BO_Assign && flatten(w.rhs, scope, nullptr, p) &&
          p.accesses.size() == 2)
        return scope.reject("assignment where accumulation is needed: '" +
                            scope.print(w.lhs) +
                            "' is overwritten on every iteration instead of "
                            "summed");
    }
    return scope.reject("no multiply-accumulate of two array elements "
                        "(C += A * B) in the nest");
  }
  product.negative ^= macIsSub;
  if (const CastExpr *cast = product.rounding)
    return scope.reject("the product rounds '" + scope.print(cast) +
                        "' from '" + cast->getSubExpr()->getType().getAsString() +
                        "' to '" + cast->getType().getAsString() +
                        "'; the kernel would compute without that rounding");

  Contraction c;
  c.lhs = product.accesses[0];
  c.rhs = product.accesses[1];
  c.macLoops = mac->loops;
  c.alpha = scalarText(product, scope);
  if (const VarDecl *acc = referencedVar(mac->lhs)) {
    c.accumulator = acc;
    if (!matchAccumulator(scope, *mac, acc, product.substituted, c))
      return std::nullopt;
    return c;
  }
  c.c = mac->lhs;
  c.cLoops = mac->loops;
  c.form = "accumulates into C";
  for (const Write &w : scope.writes) {
    if (&w == mac || llvm::is_contained(product.substituted, &w))
      continue;
    if (std::optional<bool> folded = foldBetaBranch(w, *mac, c, scope)) {
      if (!*folded)
        return std::nullopt;
      continue;
    }
    std::optional<std::string> beta;
    if (isMemoryAccess(w.lhs) && sameTarget(w.lhs, c.c, scope) && !c.init &&
        w.order < mac->order)
      beta = initBeta(w, scope);
    if (!beta)
      return scope.reject("'" + scope.print(w.lhs) +
                          "' is written besides the accumulation into C "
                          "(only a zero-init or scaling of C may be fused)");
    c.init = &w;
    c.beta = *beta;
    c.form = *beta == "0" ? "fused zero-init of C" : "fused scaling of C";
  }
  return c;
}
