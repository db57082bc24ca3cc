//===- Contraction.cpp - The statement forms of a GEMM nest ---------------===//

#include "Contraction.h"
#include "GuardedBias.h"
#include "Unrolled.h"

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

/// The assignment `var = e;` of a scalar that each run of `at` reads: the
/// last one before it in a body around it, where no other assignment of var
/// comes between them, nor in a loop around `at` but not around it (whose
/// next iteration reaches `at` again without it). Then `var` holds e's
/// value at `at`.
const Write *reachingAssignment(const VarDecl *var, const Write &at,
                                NestScope &scope) {
  const Write *found = nullptr;
  for (const Write &w : scope.writes)
    if (referencedVar(w.lhs) == var && w.order < at.order &&
        isPrefix(w.loops, at.loops) && (!found || w.order > found->order))
      found = &w;
  if (!found || found->op != BO_Assign)
    return nullptr;
  ArrayRef<int> inner = ArrayRef<int>(at.loops).drop_front(found->loops.size());
  for (const Write &w : scope.writes) {
    bool between = w.order > found->order && w.order < at.order;
    bool again = llvm::any_of(
        inner, [&](int l) { return llvm::is_contained(w.loops, l); });
    if (referencedVar(w.lhs) == var && &w != found && (between || again))
      return nullptr;
  }
  return found;
}

bool isZero(const Expr *e) { return isLiteral(e, 0); }

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
            out.at && !local ? reachingAssignment(var, *out.at, scope)
                              : nullptr) {
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

/// Where `e` is `f * target` or `target * f`, f; else null.
const Expr *factorOf(const Expr *e, const Expr *target, NestScope &scope) {
  const auto *product = dyn_cast<BinaryOperator>(stripCasts(e));
  if (!product || product->getOpcode() != BO_Mul)
    return nullptr;
  if (sameTarget(product->getRHS(), target, scope))
    return product->getLHS();
  if (sameTarget(product->getLHS(), target, scope))
    return product->getRHS();
  return nullptr;
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
  // `1 * C` is C (Pluto's `beta * C[i][j]` with `#define beta 1`).
  auto isTarget = [&](const Expr *e) {
    const Expr *factor = factorOf(e, w.lhs, scope);
    return sameTarget(e, w.lhs, scope) || (factor && isLiteral(factor, 1));
  };
  if (sum->getOpcode() == BO_Add || sum->getOpcode() == BO_Sub) {
    if (isTarget(sum->getLHS()))
      return std::make_pair(sum->getRHS(), sum->getOpcode() == BO_Sub);
    if (sum->getOpcode() == BO_Add && isTarget(sum->getRHS()))
      return std::make_pair(sum->getLHS(), false);
  }
  return std::nullopt;
}

/// `e`, or for a local declared after position `after` and never assigned
/// (`float x = s + bias[o];` once the sum is done), its initialiser.
const Expr *valueOf(const Expr *e, NestScope &scope, unsigned after) {
  e = stripCasts(e);
  const VarDecl *var = referencedVar(e);
  const LocalDef *local = var ? scope.findLocal(var) : nullptr;
  if (!local || !var->getInit() || scope.written.contains(var) ||
      local->order < after)
    return e;
  return valueOf(var->getInit(), scope, after);
}

/// `e`, or for a local that the store's iteration declares before the sum
/// (`float bv = bias[j];` ahead of the K loop), its initialiser, where
/// nothing between the two changes what that reads: no variable it reads
/// but the loop indices is assigned in the nest, and no store to memory
/// (`scaling`, C's scaling ahead of the sum) comes after it. A bias read so
/// is checked apart from C at run time, as one read in the store.
const Expr *hoistedValue(const Expr *e, NestScope &scope, const Write &store,
                         const Write *scaling) {
  const VarDecl *var = referencedVar(stripCasts(e));
  const LocalDef *local = var ? scope.findLocal(var) : nullptr;
  if (!local || !var->getInit() || scope.written.contains(var) ||
      local->loops != store.loops || local->order > store.order ||
      (scaling && scaling->order > local->order) ||
      var->getInit()->HasSideEffects(scope.ctx))
    return e;
  for (const VarDecl *read : scope.written)
    if (scope.ivIndex(read) < 0 && mentions(var->getInit(), read))
      return e;
  return stripCasts(var->getInit());
}

/// The operands of the chain of `op`s that `e` is (the terms of a sum, the
/// factors of a product), seen through locals declared after `after`
/// (`float cube = 0.044715f * x * x * x;`).
void operandsOf(const Expr *e, BinaryOperatorKind op, NestScope &scope,
                unsigned after, std::vector<const Expr *> &out) {
  e = valueOf(e, scope, after);
  if (const auto *chain = dyn_cast<BinaryOperator>(e);
      chain && chain->getOpcode() == op) {
    operandsOf(chain->getLHS(), op, scope, after, out);
    operandsOf(chain->getRHS(), op, scope, after, out);
    return;
  }
  out.push_back(e);
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

/// `bias[o]`, or `bias[o]` under a null check of its pointer (`bias ?
/// bias[o] : 0`, `bias != NULL ? ...`, `bias == nullptr ? 0 : ...`) or
/// under a loop-invariant flag (`bias_term ? bias[p] : 0`): the access and
/// the checked pointer or flag (null without a check).
std::optional<std::pair<const Expr *, const Expr *>>
matchBias(const Expr *e, NestScope &scope) {
  e = stripCasts(e);
  if (isMemoryAccess(e))
    return std::make_pair(e, nullptr);
  const auto *choice = dyn_cast<ConditionalOperator>(e);
  if (!choice)
    return std::nullopt;
  const Expr *test = choice->getCond()->IgnoreParenImpCasts();
  const Expr *pointer = test;
  bool nonNullFirst = true;
  auto isNull = [&](const Expr *x) {
    return x->isNullPointerConstant(scope.ctx,
                                    Expr::NPC_ValueDependentIsNotNull);
  };
  const auto *compare = dyn_cast<BinaryOperator>(test);
  if (compare && compare->isEqualityOp() &&
      (isNull(compare->getRHS()) || isNull(compare->getLHS()))) {
    pointer = isNull(compare->getRHS()) ? compare->getLHS()
                                        : compare->getRHS();
    nonNullFirst = compare->getOpcode() == BO_NE;
  } else if (const auto *negation = dyn_cast<UnaryOperator>(test);
             negation && negation->getOpcode() == UO_LNot) {
    pointer = negation->getSubExpr();
    nonNullFirst = false;
  }
  pointer = pointer ? pointer->IgnoreParenImpCasts() : nullptr;
  const Expr *taken =
      nonNullFirst ? choice->getTrueExpr() : choice->getFalseExpr();
  const Expr *other =
      nonNullFirst ? choice->getFalseExpr() : choice->getTrueExpr();
  if (!pointer || !pointer->getType()->isScalarType() ||
      !isMemoryAccess(taken) || !isZero(other) || !scope.isInvariant(pointer))
    return std::nullopt;
  return std::make_pair(stripCasts(taken), pointer);
}

/// `one + f(arg)` or `f(arg) + one` with `one` the literal 1 and f the libm
/// function `name`: the call.
std::optional<MathCall> onePlus(const Expr *e, NestScope &scope,
                                unsigned after, StringRef name) {
  const auto *sum = dyn_cast<BinaryOperator>(valueOf(e, scope, after));
  if (!sum || sum->getOpcode() != BO_Add)
    return std::nullopt;
  for (auto [one, other] : {std::pair(sum->getLHS(), sum->getRHS()),
                            std::pair(sum->getRHS(), sum->getLHS())}) {
    std::optional<MathCall> call = asMathCall(valueOf(other, scope, after));
    if (isLiteral(one, 1) && call && call->name == name)
      return call;
  }
  return std::nullopt;
}

/// The activation functions as the source writes them, on x: tanh(x);
/// sigmoid `1 / (1 + exp(-x))`; GELU `0.5 * x * (1 + tanh(k * (x + c * x *
/// x * x)))` and `0.5 * x * (1 + erf(x * s))` or `erf(x / d)`, the factors
/// in any order. The step and x, or nullopt.
std::optional<std::pair<ActivationStep, const Expr *>>
matchFunction(const Expr *e, NestScope &scope, unsigned after) {
  using Kind = StepBinding::Kind;
  auto same = [&](const Expr *p, const Expr *q) {
    return scope.print(valueOf(p, scope, after)) ==
           scope.print(valueOf(q, scope, after));
  };
  if (std::optional<MathCall> call = asMathCall(e);
      call && call->name == "tanh")
    return std::pair(ActivationStep{Kind::Tanh, false, {}, call->call},
                     stripCasts(call->arg));
  if (const auto *ratio = dyn_cast<BinaryOperator>(e);
      ratio && ratio->getOpcode() == BO_Div && isLiteral(ratio->getLHS(), 1)) {
    std::optional<MathCall> exp = onePlus(ratio->getRHS(), scope, after, "exp");
    const auto *negation =
        exp ? dyn_cast<UnaryOperator>(valueOf(exp->arg, scope, after))
            : nullptr;
    if (negation && negation->getOpcode() == UO_Minus)
      return std::pair(ActivationStep{Kind::Sigmoid, false, {}, exp->call},
                       stripCasts(negation->getSubExpr()));
    return std::nullopt;
  }
  // GELU: 0.5, x and (1 + f(...)) in any order.
  std::vector<const Expr *> factors;
  operandsOf(e, BO_Mul, scope, after, factors);
  if (factors.size() != 3)
    return std::nullopt;
  auto half = llvm::find_if(factors, [](const Expr *f) {
    return isLiteral(f, 0.5);
  });
  if (half == factors.end())
    return std::nullopt;
  factors.erase(half);
  for (int order = 0; order < 2; ++order) {
    const Expr *x = factors[order], *rest = factors[1 - order];
    if (std::optional<MathCall> tanh = onePlus(rest, scope, after, "tanh")) {
      // k * (x + c * x * x * x)
      std::vector<const Expr *> outer, cubic;
      operandsOf(tanh->arg, BO_Mul, scope, after, outer);
      const Expr *k = nullptr, *sum = nullptr;
      for (const Expr *f : outer)
        (scope.isInvariant(f) ? k : sum) = f;
      const auto *add = outer.size() == 2 && k && sum
                            ? dyn_cast<BinaryOperator>(sum)
                            : nullptr;
      if (!add || add->getOpcode() != BO_Add)
        continue;
      for (auto [lin, cube] : {std::pair(add->getLHS(), add->getRHS()),
                               std::pair(add->getRHS(), add->getLHS())}) {
        cubic.clear();
        operandsOf(cube, BO_Mul, scope, after, cubic);
        const Expr *c = nullptr;
        int xs = 0;
        for (const Expr *f : cubic) {
          if (scope.isInvariant(f) && !c)
            c = f;
          else
            xs += same(f, x);
        }
        if (same(lin, x) && c && xs == 3 && cubic.size() == 4)
          return std::pair(ActivationStep{Kind::GeluTanh,
                                          false,
                                          {scope.print(k), scope.print(c)},
                                          tanh->call},
                           stripCasts(x));
      }
    }
    if (std::optional<MathCall> erf = onePlus(rest, scope, after, "erf")) {
      // x * s or x / d
      const Expr *arg = valueOf(erf->arg, scope, after);
      const auto *op = dyn_cast<BinaryOperator>(arg);
      if (!op || (op->getOpcode() != BO_Mul && op->getOpcode() != BO_Div))
        continue;
      const Expr *lhs = op->getLHS(), *rhs = op->getRHS();
      bool divide = op->getOpcode() == BO_Div;
      if (!divide && !same(lhs, x))
        std::swap(lhs, rhs);
      if (!same(lhs, x) || !scope.isInvariant(rhs))
        continue;
      std::string s = divide ? "1.0 / " + parenthesize(scope.print(rhs))
                             : scope.print(rhs);
      return std::pair(ActivationStep{Kind::GeluErf, false, {s}, erf->call},
                       stripCasts(x));
    }
  }
  return std::nullopt;
}

/// A floating-point read through a pointer in `e` (`*alpha`), or null.
const UnaryOperator *findFloatRead(const Expr *e) {
  if (const auto *read = dyn_cast<UnaryOperator>(e);
      read && read->getOpcode() == UO_Deref &&
      read->getType()->isRealFloatingType())
    return read;
  for (const Stmt *child : e->children())
    if (const auto *sub = dyn_cast_or_null<Expr>(child))
      if (const UnaryOperator *read = findFloatRead(sub))
        return read;
  return nullptr;
}

/// A call of asMathCall's in `e`, seen through locals declared after
/// `after`: an activation that matchFunction did not recognise.
const CallExpr *findMathCall(const Expr *e, NestScope &scope,
                             unsigned after) {
  e = valueOf(e, scope, after);
  if (std::optional<MathCall> call = asMathCall(e))
    return call->call;
  for (const Stmt *child : e->children())
    if (const auto *sub = dyn_cast_or_null<Expr>(child))
      if (const CallExpr *call = findMathCall(sub, scope, after))
        return call;
  return nullptr;
}

/// Peels the steps of an activation off a stored value, innermost first
/// into `steps`, and returns the value inside: the functions of
/// matchFunction, and clamps: fmaxf/fminf and their kin, std::max/std::min,
/// and `x > b ? x : b` with the comparison either way, b loop-invariant;
/// seen through locals declared after `after`.
const Expr *peelActivation(const Expr *e, NestScope &scope, unsigned after,
                           std::vector<ActivationStep> &steps) {
  e = valueOf(e, scope, after);
  if (auto function = matchFunction(e, scope, after)) {
    const Expr *inner = peelActivation(function->second, scope, after, steps);
    steps.push_back(function->first);
    return inner;
  }
  const Expr *x = nullptr, *bound = nullptr;
  bool upper = false, nanToBound = false;
  auto pick = [&](const Expr *first, const Expr *second) {
    first = stripCasts(first), second = stripCasts(second);
    if (scope.isInvariant(second) && !scope.isInvariant(first))
      return std::make_pair(first, second);
    if (scope.isInvariant(first) && !scope.isInvariant(second))
      return std::make_pair(second, first);
    return std::make_pair<const Expr *, const Expr *>(nullptr, nullptr);
  };
  if (std::optional<MinMaxCall> call = asMinMaxCall(e)) {
    std::tie(x, bound) = pick(call->lhs, call->rhs);
    upper = call->upper;
    // std::max(a, b) is `a < b ? b : a`: a NaN a stays, a NaN b yields a.
    nanToBound = !call->keepsFirst || x == stripCasts(call->rhs);
  } else if (const auto *choice = dyn_cast<ConditionalOperator>(e)) {
    const auto *compare =
        dyn_cast<BinaryOperator>(stripCasts(choice->getCond()));
    std::tie(x, bound) = pick(choice->getTrueExpr(), choice->getFalseExpr());
    if (!compare || !compare->isRelationalOp() || !x)
      return e;
    // As `x OP bound`.
    bool xLeft = sameTarget(compare->getLHS(), x, scope) &&
                 sameTarget(compare->getRHS(), bound, scope);
    bool xRight = sameTarget(compare->getRHS(), x, scope) &&
                  sameTarget(compare->getLHS(), bound, scope);
    if (!xLeft && !xRight)
      return e;
    BinaryOperatorKind op = compare->getOpcode();
    bool greater = (op == BO_GT || op == BO_GE) == xLeft;
    // `x > b ? x : b` is a max whose false branch, taken by a NaN x, is b;
    // `x < b ? b : x` is the same max keeping a NaN x.
    bool keepsX = x == stripCasts(choice->getTrueExpr());
    upper = greater != keepsX;
    nanToBound = keepsX;
  }
  if (!x)
    return e;
  const Expr *inner = peelActivation(x, scope, after, steps);
  steps.push_back({upper ? StepBinding::Kind::Upper : StepBinding::Kind::Lower,
                   nanToBound,
                   {scope.print(bound)},
                   e});
  return inner;
}

/// Folds the statements that finish the sum before its store, in order:
/// `s += bias[o];` and `s = fmaxf(s, 0.0f);` (an activation of s alone), or
/// the same of the copy that holds the sum (copyOfSum).
/// Returns false (rejected) for any other write of s after the sum.
bool foldFinishing(NestScope &scope, const VarDecl *acc, unsigned after,
                   const std::vector<const Write *> &finishing,
                   Contraction &c) {
  std::string name = acc->getNameAsString();
  for (const Write *w : finishing) {
    std::vector<ActivationStep> steps;
    auto split = splitAccumulation(*w, scope);
    auto bias = split && !split->second ? matchBias(split->first, scope)
                                        : std::nullopt;
    if (bias && !c.bias && c.activation.empty()) {
      std::tie(c.bias, c.biasGuard) = *bias;
      continue;
    }
    if (bias) {
      scope.reject(c.bias ? "two biases added to '" + name +
                                "': at most one bias element per element of C"
                          : "the bias '" + scope.print(bias->first) +
                                "' is added to '" + name +
                                "' after its activation");
      return false;
    }
    if (w->op == BO_Assign &&
        referencedVar(peelActivation(w->rhs, scope, after, steps)) ==
            referencedVar(w->lhs) &&
        !steps.empty()) {
      llvm::append_range(c.activation, steps);
      continue;
    }
    scope.reject("accumulator '" + name + "' is written after the sum by '" +
                 scope.print(w->lhs) + " " +
                 BinaryOperator::getOpcodeStr(w->op).str() + " " +
                 scope.print(w->rhs) +
                 "': only a bias (" + name + " += bias[o]) or an activation (" +
                 name + " = fmaxf(" + name + ", 0)) may finish it");
    return false;
  }
  return true;
}

/// The local that copies the sum after it, where an inlined helper finishes
/// the sum in its by-value parameter (`float v = sum;` and then `v =
/// fmaxf(v, 0.f);` before `C = v;`): declared after the sum with the sum's
/// type and value, and written. Null where there is none.
const LocalDef *copyOfSum(const NestScope &scope, const VarDecl *acc,
                          unsigned after) {
  for (const LocalDef &local : scope.locals)
    if (local.order > after && local.var != acc && local.var->getInit() &&
        referencedVar(local.var->getInit()) == acc &&
        local.var->getType().getCanonicalType().getUnqualifiedType() ==
            acc->getType().getCanonicalType().getUnqualifiedType() &&
        scope.written.contains(local.var))
      return &local;
  return nullptr;
}

/// `value` as a step of the sum written out ahead of its loop: a product of
/// two array elements with the sum's alpha (the recogniser checks which
/// elements); `at`, its write, if any.
std::optional<PeeledStep> peeledStep(const Expr *value,
                                     const std::vector<int> &loops,
                                     const Write *at, const Contraction &c,
                                     NestScope &scope) {
  Product p;
  p.at = at;
  if (!flatten(value, scope, nullptr, p) || p.accesses.size() != 2 ||
      !p.vars.empty() || p.rounding || scalarText(p, scope) != c.alpha)
    return std::nullopt;
  return PeeledStep{p.accesses[0], p.accesses[1], loops, value,
                    p.substituted};
}

/// Folds `s = 0; for k: s += P; C = alpha*s + beta*C` into `c`.
bool matchAccumulator(NestScope &scope, const Write &mac, const VarDecl *acc,
                      const std::vector<const Write *> &substituted,
                      Contraction &c) {
  std::string name = acc->getNameAsString();
  const Write *store = nullptr;
  std::optional<std::pair<std::vector<int>, unsigned>> init;
  // The start: zero, a bias element (`float v = bias ? bias[o] : 0;`), or
  // one scaled element, which is either C's element that the sum is stored
  // to (`s = beta*C[i][j]`: the store adds beta*C) or a bias; which, the
  // store tells.
  const Expr *scaledStart = nullptr;
  // Or the sum's first step (`double s = a[i*q] * b[j];`).
  std::optional<PeeledStep> peeled;
  auto start = [&](const Expr *value) {
    if (isZero(value))
      return true;
    Product p;
    if (flatten(value, scope, nullptr, p) && p.accesses.size() == 1) {
      scaledStart = value;
      return true;
    }
    if ((peeled = peeledStep(value, {}, nullptr, c, scope)))
      return true;
    std::optional<std::pair<const Expr *, const Expr *>> bias =
        matchBias(value, scope);
    if (bias)
      std::tie(c.bias, c.biasGuard) = *bias;
    return bias.has_value();
  };
  const char *starts =
      "zero, a bias element, beta * C or a step of the sum";
  if (const LocalDef *local = scope.findLocal(acc); local && acc->getInit()) {
    if (!start(acc->getInit())) {
      scope.reject(
          varyingGuard(acc->getInit(), scope,
                       "accumulator '" + name + "' starts at")
              .value_or("accumulator '" + name + "' starts at none of " +
                        starts));
      return false;
    }
    init = {local->loops, local->order};
  }
  // From its copy on, the copy holds the sum: s is neither written nor read.
  const LocalDef *copy = copyOfSum(scope, acc, mac.order);
  const VarDecl *sum = copy ? copy->var : acc;
  std::vector<const Write *> finishing; ///< Writes of s after the sum.
  std::vector<const Write *> memory;    ///< Writes of arrays.
  for (const Write &w : scope.writes) {
    if (&w == &mac || llvm::is_contained(substituted, &w))
      continue;
    if (copy && w.order > copy->order &&
        (mentions(w.lhs, acc) || mentions(w.rhs, acc))) {
      scope.reject("accumulator '" + name + "' is used after its copy '" +
                   sum->getNameAsString() + "' takes the sum");
      return false;
    }
    if ((referencedVar(w.lhs) == acc && w.order > mac.order) ||
        (copy && referencedVar(w.lhs) == copy->var)) {
      finishing.push_back(&w);
    } else if (referencedVar(w.lhs) == acc) {
      if (init || w.op != BO_Assign || !start(w.rhs)) {
        scope.reject("accumulator '" + name +
                     "' is written other than by one start (" + starts +
                     ") and the sum");
        return false;
      }
      init = {w.loops, w.order};
    } else if (!isMemoryAccess(w.lhs) || memory.size() == 2) {
      scope.reject("'" + scope.print(w.lhs) +
                   "' is written besides the accumulator and its store");
      return false;
    } else {
      memory.push_back(&w);
    }
  }
  // The store, and before the sum a scaling of its element (`C[i][j] *=
  // beta;` ... `C[i][j] += s;`), which is then a fused init of C.
  const Write *scaling = nullptr;
  std::optional<std::string> scalingBeta;
  if (memory.size() == 2) {
    scaling = memory.front();
    scalingBeta = initBeta(*scaling, scope);
    if (!scalingBeta || scaling->order > mac.order ||
        scaling->loops != memory.back()->loops ||
        !sameTarget(scaling->lhs, memory.back()->lhs, scope)) {
      scope.reject("'" + scope.print(scaling->lhs) +
                   "' is written besides the accumulator and its store (only "
                   "a zero-init or a scaling of the stored element may "
                   "come before the sum)");
      return false;
    }
  }
  if (!memory.empty())
    store = memory.back();
  if (!init) {
    scope.reject("accumulator '" + name + "' is not set to zero in the nest");
    return false;
  }
  if (peeled) {
    peeled->loops = init->first;
    c.peeled = peeled;
  }
  if (!store) {
    scope.reject("the sum in '" + name + "' is never stored to an array");
    return false;
  }
  bool finishedInPlace = llvm::all_of(finishing, [&](const Write *w) {
    return w->loops == store->loops && w->order < store->order;
  });
  if (!isPrefix(store->loops, mac.loops) || store->loops == mac.loops ||
      init->first != store->loops || init->second > mac.order ||
      mac.order > store->order || !finishedInPlace ||
      (copy && (copy->loops != store->loops || copy->order > store->order ||
                mentions(store->rhs, acc)))) {
    scope.reject("accumulator '" + name +
                 "' is not zeroed, summed and stored once per element of C");
    return false;
  }
  // A scaled start reads the stored element (beta * C) or is a bias.
  std::optional<std::string> startBeta;
  if (scaledStart) {
    Product p;
    flatten(scaledStart, scope, nullptr, p);
    std::optional<std::pair<const Expr *, const Expr *>> bias =
        matchBias(scaledStart, scope);
    if (sameTarget(p.accesses[0], store->lhs, scope)) {
      startBeta = scalarText(p, scope);
    } else if (bias && p.scalars.empty() && !p.negative) {
      std::tie(c.bias, c.biasGuard) = *bias;
    } else {
      scope.reject("accumulator '" + name + "' starts at '" +
                   scope.print(scaledStart) + "', none of " + starts +
                   " (of the element it is stored to)");
      return false;
    }
  }
  if (!foldFinishing(scope, acc, mac.order, finishing, c))
    return false;

  // The store: C = s, C = alpha*s, C += alpha*s, C = alpha*s + beta*C, each
  // with a bias term and (but for +=) under an activation.
  const size_t steps = c.activation.size();
  const Expr *value =
      peelActivation(store->rhs, scope, mac.order, c.activation);
  std::vector<const Expr *> terms;
  operandsOf(value, BO_Add, scope, mac.order, terms);
  std::optional<std::string> alpha, beta;
  bool valid = terms.size() <= 3, twoBiases = false;
  // What the sum holds before its store: a bias, then clamps.
  const bool holdsBias = c.bias;
  const bool activated = steps > 0;
  for (const Expr *term : terms) {
    Product p;
    std::optional<std::pair<const Expr *, const Expr *>> bias;
    if (!valid)
      break;
    term = hoistedValue(term, scope, *store, scaling);
    bool flat = flatten(term, scope, sum, p);
    if (flat && p.vars.size() == 1 && p.accesses.empty() && !alpha)
      alpha = scalarText(p, scope);
    else if (flat && p.vars.empty() && p.accesses.size() == 1 &&
             sameTarget(p.accesses[0], store->lhs, scope) && !beta)
      beta = scalarText(p, scope);
    else if ((bias = matchBias(term, scope)) &&
             !sameTarget(bias->first, store->lhs, scope) && !c.bias)
      std::tie(c.bias, c.biasGuard) = *bias;
    else
      valid = false, twoBiases = bias && c.bias;
  }
  bool assign = store->op == BO_Assign;
  if (twoBiases) {
    scope.reject("two biases added to '" + scope.print(store->lhs) +
                 "': at most one bias element per element of C");
    return false;
  }
  bool subtract = store->op == BO_SubAssign;
  if (const CallExpr *call = findMathCall(value, scope, mac.order);
      call && (!valid || !alpha)) {
    scope.reject("the activation around '" + scope.print(call) +
                 "' is none of the recognised forms: tanh(x), 1 / (1 + "
                 "exp(-x)), 0.5*x*(1 + tanh(k*(x + c*x*x*x))), 0.5*x*(1 + "
                 "erf(x*s)) and clamps");
    return false;
  }
  if (!valid || !alpha ||
      (!assign && ((store->op != BO_AddAssign && !subtract) || beta))) {
    scope.reject("unsupported store of accumulator '" + name +
                 "': expected C = alpha*s + beta*C, C = s, C += s or C -= s, "
                 "with an optional bias term and activation");
    return false;
  }
  if (!assign && !c.activation.empty()) {
    scope.reject("the activation '" + scope.print(c.activation.back().expr) +
                 "' is added to C (+=): it would apply to the new term "
                 "alone, not to the element of C");
    return false;
  }
  const size_t clamps = llvm::count_if(
      c.activation, [](const ActivationStep &s) { return s.isClamp(); });
  if (clamps > 2) {
    scope.reject("activation of " + std::to_string(clamps) +
                 " clamps: at most two (a lower and an upper bound) are "
                 "supported");
    return false;
  }
  if (c.activation.size() - clamps > 1) {
    scope.reject("activation of " +
                 std::to_string(c.activation.size() - clamps) +
                 " functions: at most one (tanh, sigmoid or GELU) is "
                 "supported");
    return false;
  }
  if (subtract && c.bias) {
    scope.reject("the bias '" + scope.print(c.bias) + "' is subtracted from "
                 "C with the sum (-=), not added");
    return false;
  }
  if (holdsBias && *alpha != "1") {
    scope.reject("accumulator '" + name + "' holds the bias '" +
                 scope.print(c.bias) + "', which the store scales by '" +
                 *alpha + "' with the sum: the epilogue adds the bias after "
                 "alpha, and scales no bias");
    return false;
  }
  if (activated && (*alpha != "1" || !assign || terms.size() > 1)) {
    scope.reject("the store of accumulator '" + name +
                 "' scales or adds to it after its activation");
    return false;
  }
  if (startBeta && (!assign || beta || *alpha != "1")) {
    scope.reject("accumulator '" + name + "' starts at '" +
                 scope.print(scaledStart) +
                 "', and its store scales it or adds C again: only C = s "
                 "may store it");
    return false;
  }
  if (scaling && assign) {
    scope.reject("'" + scope.print(scaling->lhs) + "' is scaled before the "
                 "sum and then overwritten by its store: only C += s may "
                 "follow a scaling");
    return false;
  }
  c.c = store->lhs;
  c.cLoops = store->loops;
  c.beta = startBeta    ? *startBeta
           : scaling    ? *scalingBeta
           : assign     ? beta.value_or("0")
                        : "1";
  c.init = scaling;
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
  if (!scope.isInvariant(branch->beta)) {
    scope.reject("the beta branches test '" + beta +
                 "', which may change inside the nest");
    return false;
  }
  bool zero = branch->zero == index;
  std::optional<std::string> factor = initBeta(w, scope);
  if (!isMemoryAccess(w.lhs) || !sameTarget(w.lhs, c.c, scope) ||
      w.order > mac.order || !factor || *factor != (zero ? "0" : parenthesize(beta))) {
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

/// The multiply-accumulate: the one accumulation whose added term
/// multiplies two array elements, as a contraction of its factors, its loops
/// and alpha; `mac` and `product` get its write and its factors.
static std::optional<Contraction> findProduct(NestScope &scope,
                                              const Write *&mac,
                                              Product &product) {
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
    if (const VarDecl *var = scope.reachableScalar)
      for (const Write &w : scope.writes)
        if (const UnaryOperator *read = findFloatRead(w.rhs))
          return scope.reject(
              "'" + scope.print(read) + "' is read through a pointer that "
              "may reach '" + var->getNameAsString() + "', which the nest "
              "assigns (" +
              (var->hasLocalStorage() || var->isStaticLocal()
                   ? "its address is taken"
                   : "it is no local") +
              "), so it is not invariant");
    for (const Write &w : scope.writes) {
      Product p;
      if (w.op == BO_Assign && flatten(w.rhs, scope, nullptr, p) &&
          p.accesses.size() == 2)
        return scope.reject("assignment where accumulation is needed: '" +
                            scope.print(w.lhs) +
                            "' is overwritten on every iteration instead of "
                            "summed");
    }
    // `C = beta * C + A * B` in the sum's loop scales C at every step.
    for (const Write &w : scope.writes) {
      std::vector<const Expr *> terms;
      if (w.op == BO_Assign)
        sumTerms(stripCasts(w.rhs), terms, true);
      for (const Expr *t : terms)
        if (const Expr *factor = factorOf(t, w.lhs, scope);
            factor && terms.size() > 1)
          return scope.reject(
              "'" + scope.print(w.lhs) + "' is scaled by '" +
              scope.print(factor) + "' at every step of '" +
              scope.print(w.rhs) + "', so it sums no plain products");
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
  return c;
}

std::optional<Contraction> mlir::gemm::matchProduct(NestScope &scope) {
  const Write *mac = nullptr;
  Product product;
  std::optional<Contraction> c = findProduct(scope, mac, product);
  if (c) {
    c->beta = "0";
    c->form = "into a temporary";
  }
  return c;
}

std::optional<Contraction> mlir::gemm::matchContraction(NestScope &scope) {
  const Write *mac = nullptr;
  Product product;
  std::optional<Contraction> found = findProduct(scope, mac, product);
  if (!found)
    return std::nullopt;
  Contraction c = *found;
  if (const VarDecl *acc = referencedVar(mac->lhs)) {
    c.accumulator = acc;
    if (!matchAccumulator(scope, *mac, acc, product.substituted, c))
      return std::nullopt;
    return c;
  }
  c.c = mac->lhs;
  c.cLoops = mac->loops;
  c.form = "accumulates into C";
  // `C[i][j] = A[i][0] * B[0][j];` ahead of the sum: a step of it.
  const Write *peeled = nullptr;
  for (const Write &w : scope.writes)
    if (!c.peeled && w.op == BO_Assign && w.order < mac->order &&
        isMemoryAccess(w.lhs) && sameTarget(w.lhs, c.c, scope) &&
        (c.peeled = peeledStep(w.rhs, w.loops, &w, c, scope)))
      peeled = &w;
  for (const Write &w : scope.writes) {
    if (&w == mac || llvm::is_contained(product.substituted, &w) ||
        (c.peeled && llvm::is_contained(c.peeled->substituted, &w)))
      continue;
    if (std::optional<bool> folded = foldBetaBranch(w, *mac, c, scope)) {
      if (!*folded)
        return std::nullopt;
      continue;
    }
    std::optional<std::string> beta;
    bool initsC = isMemoryAccess(w.lhs) && sameTarget(w.lhs, c.c, scope) &&
                  !c.init && w.order < mac->order;
    if (initsC)
      beta = initBeta(w, scope);
    // `C = bias[j];` ahead of the sum, in the loops around it (so that the
    // bias is indexed by the same loops as C): a zero-init and a bias.
    std::optional<std::pair<const Expr *, const Expr *>> bias =
        initsC && !beta && w.op == BO_Assign && isPrefix(w.loops, mac->loops)
            ? matchBias(w.rhs, scope)
            : std::nullopt;
    if (bias && !sameTarget(bias->first, c.c, scope)) {
      std::tie(c.bias, c.biasGuard) = *bias;
      beta = "0";
    }
    if (initsC && &w == peeled)
      beta = "0";
    if (!beta)
      return scope.reject("'" + scope.print(w.lhs) +
                          "' is written besides the accumulation into C "
                          "(only a zero-init, a scaling of C, a bias "
                          "element or a step of the sum may be fused)",
                          /*peelable=*/false, w.statement);
    c.init = &w;
    c.beta = *beta;
    c.form = c.peeled       ? "accumulates into C"
             : c.bias       ? "fused bias init of C"
             : *beta == "0" ? "fused zero-init of C"
                            : "fused scaling of C";
  }
  return c;
}
