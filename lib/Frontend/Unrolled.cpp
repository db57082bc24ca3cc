//===- Unrolled.cpp - Bodies that are copies of one body ------------------===//
//
// An unrolled loop repeats a body for k, k + 1, ..., k + U - 1: statement by
// statement, or as the terms of one accumulation (`s += a[k]*b[k] +
// a[k+1]*b[k+1] + ...`, the same sum up to rounding). Two statements are
// copies when they are the same tree but for the integer subexpressions
// that read the induction variable, whose affine forms must agree once the
// copy's offset is taken off.
//
//===----------------------------------------------------------------------===//

#include "Unrolled.h"

#include "LoopHeader.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

/// An accumulation `x += t1 + t2 + ...`, `x -= ...` or `x = x + t1 + ...`.
struct Accumulation {
  const Expr *target;
  BinaryOperatorKind op; ///< BO_AddAssign, BO_SubAssign or BO_Assign.
  std::vector<const Expr *> terms;
};


std::optional<Accumulation> asAccumulation(const Stmt *s, NestScope &scope) {
  const auto *assign = dyn_cast<BinaryOperator>(s);
  if (!assign)
    return std::nullopt;
  Accumulation acc{assign->getLHS(), assign->getOpcode(), {}};
  sumTerms(assign->getRHS(), acc.terms);
  if (acc.op == BO_AddAssign || acc.op == BO_SubAssign)
    return acc;
  if (acc.op != BO_Assign)
    return std::nullopt;
  // `x = x + ...`: the target is one of the terms.
  std::string target = scope.print(stripCasts(acc.target));
  auto self = llvm::find_if(acc.terms, [&](const Expr *t) {
    return scope.print(stripCasts(t)) == target;
  });
  if (self == acc.terms.end())
    return std::nullopt;
  acc.terms.erase(self);
  return acc;
}

class Comparer {
public:
  /// Statements of `copyLoop` and `bodyLoop`, or of the loop `within`
  /// inside the one loop they name (unroll-and-jam).
  Comparer(NestScope &scope, int copyLoop, int bodyLoop, int within = -1)
      : scope(scope), copyLoop(copyLoop), bodyLoop(bodyLoop),
        jammed(within >= 0), copyContext(chain(jammed ? within : copyLoop)),
        bodyContext(chain(jammed ? within : bodyLoop)) {}

  /// Whether `x` is `t` with the body loop's induction variable moved on by
  /// `shift` (and renamed to the copy loop's).
  bool same(const Stmt *x, const Stmt *t, int64_t shift) {
    if (!x || !t)
      return x == t;
    if (const auto *e = dyn_cast<Expr>(x))
      x = e->IgnoreParens();
    if (const auto *e = dyn_cast<Expr>(t))
      t = e->IgnoreParens();
    const auto *xe = dyn_cast<Expr>(x), *te = dyn_cast<Expr>(t);
    if (xe && te && te->getType()->isIntegerType() &&
        (mentions(te, scope.sourceLoops[bodyLoop].iv) ||
         mentions(xe, scope.sourceLoops[copyLoop].iv)))
      return sameIndex(xe, te, shift);
    // The same element spelled with other offsets (`c[1 * ldc]` of `c =
    // &C[j * ldc]` is the copy at j + 1 of `c[0]`; `*(b1 + p)` of `b0[p]`
    // where b1 = b0 + ldb).
    bool elements = isElement(x) && isElement(t);
    if (x->getStmtClass() != t->getStmtClass() || !sameNode(x, t))
      return elements && sameAddress(xe, te, shift);
    // Jammed copies run in another order: they may share no variable that
    // one of them assigns, but for the induction variables of their loops.
    if (const auto *ref = dyn_cast<DeclRefExpr>(x);
        ref && jammed && !shared && isa<VarDecl>(ref->getDecl()) &&
        scope.written.contains(cast<VarDecl>(ref->getDecl())) &&
        llvm::none_of(scope.sourceLoops, [&](const SourceLoop &l) {
          return l.iv == ref->getDecl();
        }))
      shared = cast<VarDecl>(ref->getDecl());
    if (sameChildren(x, t, shift))
      return true;
    return elements && sameAddress(xe, te, shift);
  }

  /// A variable that copies share and one of them assigns, if any.
  const VarDecl *shared = nullptr;

private:
  NestScope &scope;
  int copyLoop, bodyLoop;
  bool jammed;
  std::vector<int> copyContext, bodyContext;

  bool sameChildren(const Stmt *x, const Stmt *t, int64_t shift) {
    auto xs = x->children(), ts = t->children();
    if (std::distance(xs.begin(), xs.end()) !=
        std::distance(ts.begin(), ts.end()))
      return false;
    for (auto [xc, tc] : llvm::zip(xs, ts))
      if (!same(xc, tc, shift))
        return false;
    return true;
  }

  std::vector<int> chain(int loop) const {
    std::vector<int> loops;
    for (int l = loop; l >= 0; l = scope.sourceLoops[l].parent)
      loops.insert(loops.begin(), l);
    return loops;
  }

  /// Integer expressions that read the induction variable: equal forms but
  /// for the variable's coefficient c, and the copy's constant is c *
  /// shift more.
  bool sameIndex(const Expr *x, const Expr *t, int64_t shift) {
    std::optional<Rejection> saved = scope.rejection;
    std::optional<AffineForm> fx = scope.linearize(x, copyContext);
    std::optional<AffineForm> ft = scope.linearize(t, bodyContext);
    scope.rejection = saved;
    return fx && ft && shifted(*fx, *ft, shift);
  }

  /// Whether `fx` is `ft` with the body loop's variable moved on by `shift`.
  bool shifted(AffineForm fx, AffineForm ft, int64_t shift) {
    SymExpr c = ft.ivCoeffs[bodyLoop];
    if (!(fx.ivCoeffs[copyLoop] == c))
      return false;
    fx.ivCoeffs[copyLoop] = ft.ivCoeffs[bodyLoop] = SymExpr();
    ft.constant = ft.constant + c * SymExpr::constant(shift);
    AffineForm difference = fx + ft.scaled(SymExpr::constant(-1));
    return difference.isInvariant() && difference.constant.isZero();
  }

  /// A pointer into a buffer: the pointer the buffer is reached through
  /// (any expression the steps below do not take apart) and the elements
  /// added to it, through `&p[e]`, `p + e`, `p - e` and `(p + e)[f]`.
  struct Offset {
    const Expr *root;
    AffineForm elements;
  };
  std::optional<Offset> offset(const Expr *p,
                               const std::vector<int> &context) {
    p = p->IgnoreParens();
    if (const auto *cast = dyn_cast<ImplicitCastExpr>(p);
        cast && cast->getCastKind() == CK_NoOp)
      return offset(cast->getSubExpr(), context);
    if (const auto *addr = dyn_cast<UnaryOperator>(p);
        addr && addr->getOpcode() == UO_AddrOf)
      if (const auto *sub = addr->getSubExpr()->IgnoreParens();
          isElement(sub))
        return element(sub, context);
    if (const auto *op = dyn_cast<BinaryOperator>(p);
        op && (op->getOpcode() == BO_Add || op->getOpcode() == BO_Sub)) {
      bool left = op->getLHS()->getType()->isPointerType();
      const Expr *n = left ? op->getRHS() : op->getLHS();
      if (op->getOpcode() == BO_Sub && !left)
        return std::nullopt;
      std::optional<Offset> base =
          offset(left ? op->getLHS() : op->getRHS(), context);
      std::optional<AffineForm> by = scope.linearize(n, context);
      if (!base || !by)
        return std::nullopt;
      base->elements = base->elements +
                       by->scaled(SymExpr::constant(
                           op->getOpcode() == BO_Sub ? -1 : 1));
      return base;
    }
    // A pointer declared in the nest that nothing moves is its value.
    if (const Expr *value = scope.fixedPointer(referencedVar(p)))
      return offset(value, context);
    return Offset{p, AffineForm(scope.sourceLoops.size())};
  }
  /// `p[e]` or `*p`.
  static bool isElement(const Stmt *e) {
    const auto *deref = dyn_cast<UnaryOperator>(e);
    return isa<ArraySubscriptExpr>(e) ||
           (deref && deref->getOpcode() == UO_Deref);
  }
  /// The element an isElement expression names.
  std::optional<Offset> element(const Expr *e,
                                const std::vector<int> &context) {
    const auto *sub = dyn_cast<ArraySubscriptExpr>(e);
    if (!sub)
      return offset(cast<UnaryOperator>(e)->getSubExpr(), context);
    std::optional<Offset> base = offset(sub->getBase(), context);
    std::optional<AffineForm> by = scope.linearize(sub->getIdx(), context);
    if (!base || !by)
      return std::nullopt;
    base->elements = base->elements + *by;
    return base;
  }

  bool sameAddress(const Expr *x, const Expr *t, int64_t shift) {
    std::optional<Rejection> saved = scope.rejection;
    std::optional<Offset> ox = element(x, copyContext);
    std::optional<Offset> ot = element(t, bodyContext);
    scope.rejection = saved;
    return ox && ot && same(ox->root, ot->root, shift) &&
           shifted(ox->elements, ot->elements, shift);
  }

  /// The node itself, children aside.
  static bool sameNode(const Stmt *x, const Stmt *t) {
    if (const auto *ref = dyn_cast<DeclRefExpr>(x))
      return ref->getDecl() == cast<DeclRefExpr>(t)->getDecl();
    if (const auto *lit = dyn_cast<IntegerLiteral>(x))
      return lit->getType() == cast<IntegerLiteral>(t)->getType() &&
             llvm::APInt::isSameValue(lit->getValue(),
                                      cast<IntegerLiteral>(t)->getValue());
    if (const auto *lit = dyn_cast<FloatingLiteral>(x))
      return lit->getValue().bitwiseIsEqual(
          cast<FloatingLiteral>(t)->getValue());
    if (const auto *op = dyn_cast<BinaryOperator>(x))
      return op->getOpcode() == cast<BinaryOperator>(t)->getOpcode();
    if (const auto *op = dyn_cast<UnaryOperator>(x))
      return op->getOpcode() == cast<UnaryOperator>(t)->getOpcode();
    if (const auto *cast = dyn_cast<CastExpr>(x))
      return cast->getCastKind() == llvm::cast<CastExpr>(t)->getCastKind() &&
             cast->getType() == llvm::cast<CastExpr>(t)->getType();
    if (const auto *member = dyn_cast<MemberExpr>(x))
      return member->getMemberDecl() ==
                 cast<MemberExpr>(t)->getMemberDecl() &&
             member->isArrow() == cast<MemberExpr>(t)->isArrow();
    if (const auto *call = dyn_cast<CallExpr>(x))
      return call->getDirectCallee() &&
             call->getDirectCallee() == cast<CallExpr>(t)->getDirectCallee();
    // Nodes that hold nothing but their children; any other (a copy's own
    // locals, sizeof, a string) only where it is the same node.
    return isa<ArraySubscriptExpr, ParenExpr, ConditionalOperator,
               MaterializeTemporaryExpr, ExprWithCleanups, CompoundStmt,
               NullStmt>(x) ||
           x == t;
  }
};

} // namespace

bool mlir::gemm::areCopies(NestScope &scope, ArrayRef<const Stmt *> copies,
                           int copyLoop, ArrayRef<const Stmt *> body,
                           int bodyLoop, int64_t count, const Expr **first) {
  Comparer compare(scope, copyLoop, bodyLoop);
  size_t m = body.size();
  if (m > 0 && copies.size() == count * m) {
    for (int64_t u = 0; u < count; ++u)
      for (size_t j = 0; j < m; ++j)
        if (!compare.same(copies[u * m + j], body[j], u))
          return false;
    return true;
  }
  if (m != 1 || copies.size() != 1)
    return false;
  std::optional<Accumulation> sum = asAccumulation(copies[0], scope);
  std::optional<Accumulation> one = asAccumulation(body[0], scope);
  if (!sum || !one || sum->terms.size() != size_t(count) ||
      sum->op != one->op || !compare.same(sum->target, one->target, 0))
    return false;
  // Each term is the copy at a shift of its own; without a remainder, of
  // one of the terms, which becomes the rerolled loop's (compound
  // accumulations only, whose right side that term can be).
  auto matchAll = [&](const Expr *pattern) {
    std::vector<bool> taken(count, false);
    return llvm::all_of(sum->terms, [&](const Expr *term) -> bool {
      for (int64_t u = 0; u < count; ++u)
        if (!taken[u] && compare.same(term, pattern, u))
          return taken[u] = true;
      return false;
    });
  };
  if (copies[0] != body[0])
    return one->terms.size() == 1 && matchAll(one->terms[0]);
  if (sum->op == BO_Assign || !first)
    return false;
  for (const Expr *term : sum->terms)
    if (matchAll(term)) {
      *first = term;
      return true;
    }
  return false;
}

bool mlir::gemm::areJammedCopies(NestScope &scope,
                                 ArrayRef<const Stmt *> body, int loop,
                                 int within, int64_t count,
                                 std::vector<int64_t> &copyOf) {
  Comparer compare(scope, loop, loop, within);
  size_t m = body.size() / count;
  if (m == 0 || body.size() != count * m)
    return false;
  // One copy after the other.
  copyOf.clear();
  for (int64_t u = 0; u < count; ++u)
    for (size_t j = 0; j < m; ++j)
      if (u == 0 || compare.same(body[u * m + j], body[j], u))
        copyOf.push_back(u);
  if (copyOf.size() != body.size()) {
    // Else interleaved: a statement is the next statement of some copy
    // (the next of the first copy's, moved on), or the first copy's next.
    compare.shared = nullptr;
    copyOf.assign(body.size(), 0);
    std::vector<size_t> first;
    std::vector<size_t> next(count, 0);
    for (size_t q = 0; q < body.size(); ++q) {
      for (int64_t u = 1; u < count && !copyOf[q]; ++u)
        if (next[u] < first.size() &&
            compare.same(body[q], body[first[next[u]]], u))
          copyOf[q] = u, ++next[u];
      if (!copyOf[q] && first.size() == m)
        return false;
      if (!copyOf[q])
        first.push_back(q);
    }
    if (llvm::any_of(llvm::drop_begin(next), [&](size_t n) { return n != m; }))
      return false;
  }
  if (const VarDecl *var = compare.shared) {
    std::string iv = scope.sourceLoops[loop].iv->getNameAsString();
    return scope.reject(
               "the loop over " + quoted(iv) + " is unrolled by " +
               std::to_string(count) + " and jammed into the loop over " +
               quoted(scope.sourceLoops[within].iv->getNameAsString()) +
               ", but its copies share " + quoted(var->getNameAsString()) +
               ", which they assign, so they cannot run in another order"),
           false;
  }
  return true;
}

void mlir::gemm::sumTerms(const Expr *e, std::vector<const Expr *> &terms,
                          bool implicitCasts) {
  e = implicitCasts ? e->IgnoreParenImpCasts() : e->IgnoreParens();
  if (const auto *sum = dyn_cast<BinaryOperator>(e);
      sum && sum->getOpcode() == BO_Add) {
    sumTerms(sum->getLHS(), terms, implicitCasts);
    sumTerms(sum->getRHS(), terms, implicitCasts);
    return;
  }
  terms.push_back(e);
}
