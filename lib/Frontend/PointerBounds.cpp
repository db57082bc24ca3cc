//===- PointerBounds.cpp - Loops that run a pointer to an end -------------===//
//
// A loop that tests `p op e` runs while p, moved by s each iteration from
// its start X, has not passed e. Where e is E at the loop (its value, set
// ahead of the loop or in its init, that the loop does not change) and E
// is X plus n elements (the same root, `C` in `cc = C` and `ccend = C +
// r`), p is X + s * c at the test of iteration c: the loop is a count c
// from 0 below the first c where X + s * c fails the test. `!=` stops
// there only where s divides n; `<` and `<=` stop at the first step past
// the end. A step that is a variable (`p += ld`) counts n / ld steps where
// ld divides n as a polynomial (`m * ld`), and only where ld > 0: a
// precondition, since a negative one would not stop where its quotient
// says.
//
//===----------------------------------------------------------------------===//

#include "PointerBounds.h"
#include "LoopHeader.h"
#include "OffsetPolynomial.h"

#include "clang/AST/Decl.h"

using namespace clang;
using namespace mlir::gemm;

bool mlir::gemm::comparesPointers(const Expr *cond) {
  const auto *test = dyn_cast<BinaryOperator>(cond->IgnoreParenImpCasts());
  return test && (test->isRelationalOp() || test->getOpcode() == BO_NE) &&
         test->getLHS()->getType()->isPointerType() &&
         test->getRHS()->getType()->isPointerType();
}

namespace {

/// The first part of `e` that reads memory or calls, or null.
const Expr *memoryRead(const Expr *e) {
  e = e->IgnoreParens();
  if (const auto *addr = dyn_cast<UnaryOperator>(e);
      addr && addr->getOpcode() == UO_AddrOf)
    if (const auto *element =
            dyn_cast<ArraySubscriptExpr>(addr->getSubExpr()->IgnoreParens())) {
      const Expr *base = memoryRead(element->getBase());
      return base ? base : memoryRead(element->getIdx());
    }
  const auto *deref = dyn_cast<UnaryOperator>(e);
  if ((deref && deref->getOpcode() == UO_Deref) ||
      isa<ArraySubscriptExpr, MemberExpr, CallExpr>(e))
    return e;
  for (const Stmt *child : e->children())
    if (const auto *sub = dyn_cast_or_null<Expr>(child))
      if (const Expr *read = memoryRead(sub))
        return read;
  return nullptr;
}

/// The statements around `target` in `s`, outermost first, without the
/// wrappers (attributes, OpenMP directives) right around it.
bool pathTo(const Stmt *s, const Stmt *target,
            std::vector<const Stmt *> &path) {
  if (unwrapLoopWrappers(s) == target)
    return true;
  path.push_back(s);
  for (const Stmt *child : s->children())
    if (child && pathTo(child, target, path))
      return true;
  path.pop_back();
  return false;
}

/// A loop whose test compares pointers, read as a count of its pointer's
/// steps.
class PointerLoop {
public:
  PointerLoop(SourceLoop loop, const Expr *cond, const Stmt *inc,
              NestScope &scope)
      : loop(std::move(loop)), cond(cond), inc(inc),
        body(loopBody(this->loop.stmt)), scope(scope), algebra(scope) {}

  /// The counted loop, or nullopt and `why`.
  std::optional<SourceLoop> count(std::string &why);

private:
  SourceLoop loop;
  const Expr *cond;
  const Stmt *inc, *body;
  NestScope &scope;
  OffsetAlgebra algebra;
  /// What the test compares: the pointer the loop moves, `p`, and its end,
  /// turned so that `pointer op end`.
  const Expr *pointer = nullptr, *end = nullptr;
  const VarDecl *p = nullptr;
  BinaryOperatorKind op = BO_NE;
  /// What each iteration moves the pointer by, or why that is not known.
  Offset moves;
  std::string unknown;
  /// For messages: the pointer's name and the loop.
  std::string name, runs;
  const std::string steps = ", so the loop's trip count is no count of the "
                            "pointer's steps";

  /// The distance in elements from where the pointer starts to the end's
  /// value at the loop, or nullopt and `why`.
  std::optional<Offset> distance(std::string &why);
  /// How many steps of `step` the test lets the pointer take over the
  /// distance `n`, or null and `why`; a variable step adds the
  /// precondition that it is positive.
  clang::Expr *trips(Offset n, Term step, std::string &why);

  /// A change of `var` in the loop's increment or body, or null.
  const Expr *changeIn(const VarDecl *var) const {
    if (!var)
      return nullptr;
    const Expr *change = inc ? findChange(inc, var) : nullptr;
    return change ? change : findChange(body, var);
  }

  /// Why `e` may differ from one iteration to the next, or nullopt.
  std::optional<std::string> varies(const Expr *e) const {
    if (const VarDecl *var = findVar(
            e, [&](const VarDecl *var) { return changeIn(var) != nullptr; }))
      return "moves in the loop (" + quoted(scope.print(changeIn(var))) + ")";
    // By C's aliasing rule, stores of floating-point values keep integers
    // and pointers (a row table's `CM[i]`, `*r`).
    if (const Expr *read = memoryRead(e);
        read && !(keptByFloatStores(e) && scope.function &&
                  storesOnlyFloats(loop.stmt, scope.function->getBody())))
      return "reads " + quoted(scope.print(read)) +
             ", which the loop may change";
    return std::nullopt;
  }

  /// Adds the steps of `var` in `s` (`++p`, `p += 2`, `*p++`), which runs
  /// once per iteration where `once`, to `moves`.
  void addMoves(const Stmt *s, const VarDecl *var, bool once);

  /// The value `var` holds when the loop starts: the one its init or a
  /// statement ahead of it sets, as setAhead finds it; else null.
  const Expr *valueAtStart(const VarDecl *var) const {
    std::vector<const Stmt *> enclosing;
    if (scope.function && scope.function->getBody())
      pathTo(scope.function->getBody(), loop.stmt, enclosing);
    return setAhead(enclosing, loop.stmt,
                    [&](const VarDecl *set) { return set == var; })
        .value;
  }
};

void PointerLoop::addMoves(const Stmt *s, const VarDecl *var, bool once) {
  if (!s || !unknown.empty())
    return;
  if (std::optional<Step> step = asStep(s); step && step->var == var) {
    if (!once)
      unknown = "moves it with " + quoted(scope.print(cast<Expr>(s))) +
                " under a branch or in an inner loop, not once per "
                "iteration";
    else if (std::optional<std::string> why =
                 step->amount ? varies(step->amount) : std::nullopt)
      unknown = "steps it by " + quoted(scope.print(step->amount)) +
                ", which " + *why;
    else
      algebra.add(moves, algebra.times(step->amount
                                           ? algebra.expand(step->amount)
                                           : algebra.constant(1),
                                       algebra.constant(step->down ? -1 : 1)));
    return;
  }
  // Any other change (`p = q`, `&p`) is no step by an invariant amount.
  const auto *set = dyn_cast<BinaryOperator>(s);
  const auto *addr = dyn_cast<UnaryOperator>(s);
  if ((set && set->isAssignmentOp() && referencedVar(set->getLHS()) == var) ||
      (addr && addr->getOpcode() == UO_AddrOf &&
       referencedVar(addr->getSubExpr()) == var)) {
    unknown = "changes it with " + quoted(scope.print(cast<Expr>(s))) +
              ", which is no step";
    return;
  }
  // What runs under a test, or again in an inner loop, runs other than
  // once per iteration.
  const auto *logical = dyn_cast<BinaryOperator>(s);
  bool inner = once && !isLoop(s) &&
               !isa<IfStmt, SwitchStmt, AbstractConditionalOperator>(s) &&
               !(logical && logical->isLogicalOp());
  for (const Stmt *child : s->children())
    addMoves(child, var, inner);
}

std::optional<SourceLoop> PointerLoop::count(std::string &why) {
  const auto *test = cast<BinaryOperator>(cond->IgnoreParenImpCasts());
  std::string shown = quoted(scope.print(cond));
  // The side the loop moves is its pointer; the other, its end (in C, the
  // one may be cast to the other's type).
  pointer = test->getLHS()->IgnoreParenImpCasts();
  end = test->getRHS()->IgnoreParenImpCasts();
  op = test->getOpcode();
  p = referencedVar(pointer);
  if (!changeIn(p) || !p->getType()->isPointerType()) {
    std::swap(pointer, end);
    op = BinaryOperator::reverseComparisonOp(op);
    p = referencedVar(pointer);
  }
  if (cond->HasSideEffects(scope.ctx))
    return why = "the test " + shown + " changes what it compares, so the "
                 "loop's trip count is no count of a pointer's steps",
           std::nullopt;
  if (!changeIn(p) || !p->getType()->isPointerType())
    return why = "the loop with the test " + shown +
                 " moves no pointer variable that it compares, so it "
                 "counts nothing",
           std::nullopt;
  name = quoted(p->getNameAsString());
  runs = "the loop that runs pointer " + name + " to " +
         quoted(scope.print(end));
  std::optional<Offset> n = distance(why);
  if (!n)
    return std::nullopt;
  addMoves(inc, p, true);
  addMoves(body, p, true);
  if (!unknown.empty())
    return why = runs + " " + unknown + steps, std::nullopt;
  if (moves.terms.empty())
    return why = runs + " does not move it, so it never gets there",
           std::nullopt;
  if (moves.terms.size() > 1)
    return why = runs + " steps it by " + quoted(algebra.show(moves)) +
                 ", a sum, which gemm-opt does not divide distances by" +
                 steps,
           std::nullopt;
  Expr *bound = trips(*n, moves.terms.begin()->second, why);
  if (!bound)
    return std::nullopt;
  // The counter of iterations, named as the pointer for messages.
  QualType diff = scope.ctx.getPointerDiffType();
  auto *counter = VarDecl::Create(
      scope.ctx, const_cast<DeclContext *>(p->getDeclContext()),
      pointer->getBeginLoc(), pointer->getBeginLoc(), p->getIdentifier(), diff,
      scope.ctx.getTrivialTypeSourceInfo(diff), SC_None);
  loop.iv = counter;
  loop.start = algebra.literal(0);
  loop.lhs = algebra.readOf(counter, pointer->getBeginLoc());
  loop.bound = bound;
  loop.op = BO_LT;
  loop.step = nullptr;
  loop.down = false;
  return loop;
}

std::optional<Offset> PointerLoop::distance(std::string &why) {
  std::string ends = "the end " + quoted(scope.print(end)) +
                     " that the loop runs pointer " + name + " to";
  if (std::optional<std::string> moved = varies(end))
    return why = ends + " " + *moved + steps, std::nullopt;
  // Where both are set ahead of the loop, the end is the start plus n;
  // an end set from the pointer itself is that pointer at the loop.
  const Expr *start = valueAtStart(p);
  const Expr *endVar =
      referencedVar(end) ? valueAtStart(referencedVar(end)) : nullptr;
  const Expr *endValue = endVar ? endVar : end;
  Rooted to = algebra.rooted(endValue);
  if (referencedVar(to.root) == p)
    return to.offset;
  Rooted from = algebra.rooted(start ? start : pointer);
  if (!to.root || !from.root || to.root->HasSideEffects(scope.ctx) ||
      scope.print(to.root) != scope.print(from.root))
    return why = ends +
                 (endVar ? " is " + quoted(scope.print(endValue)) + ", which"
                         : "") +
                 " is not proven to be " +
                 (start ? "where " + name + " starts (" +
                              quoted(scope.print(start)) + ")"
                        : name + " at the loop") +
                 " plus a number of elements" + steps,
           std::nullopt;
  algebra.add(to.offset, algebra.times(from.offset, algebra.constant(-1)));
  return to.offset;
}

Expr *PointerLoop::trips(Offset n, Term step, std::string &why) {
  // Counted towards the end: `>`, `>=` (and `!=` by a negative constant)
  // count -n by -s.
  bool constant = step.factors.empty();
  bool up = op == BO_LT || op == BO_LE;
  if (constant && (up ? step.coeff < 0 : op != BO_NE && step.coeff > 0))
    return why = "pointer " + name + " moves away from " +
                 quoted(scope.print(end)) + ", which its test " +
                 quoted(scope.print(cond)) +
                 " compares it with, so the loop does not stop there",
           nullptr;
  if (op == BO_GT || op == BO_GE || (op == BO_NE && step.coeff < 0)) {
    n = algebra.times(n, algebra.constant(-1));
    step.coeff = -step.coeff;
  }
  Offset stepped;
  algebra.add(stepped, step);
  std::string size = quoted(algebra.show(stepped));
  // A variable step counts as its quotient says only where it is
  // positive, which the launcher tests before the nest: the step reads
  // variables of the function from before the nest that it leaves alone.
  if (!constant) {
    SourceRange nest(scope.outer->getBeginLoc(), endOfStmt(scope.outer));
    if (const VarDecl *var = findVar(
            algebra.build(stepped), [&](const VarDecl *var) {
              return var->getDeclContext() !=
                         static_cast<const DeclContext *>(scope.function) ||
                     nest.fullyContains(var->getSourceRange()) ||
                     findChange(scope.outer, var);
            }))
      return why = runs + " steps it by " + size + ", which reads " +
                   quoted(var->getNameAsString()) +
                   ", no variable of the function that keeps its value "
                   "through the nest, so the launcher cannot test that the "
                   "step is positive",
             nullptr;
  }
  // `!=` stops after n / s steps only where s divides n; `<` after
  // ceil(n / s), `<=` after floor(n / s) + 1.
  bool inclusive = op == BO_LE || op == BO_GE;
  Expr *count = nullptr;
  if (std::optional<Offset> quotient = algebra.divide(n, step)) {
    algebra.add(*quotient, algebra.constant(inclusive ? 1 : 0));
    count = algebra.build(*quotient);
  } else if (constant && op != BO_NE) {
    algebra.add(n, algebra.constant(step.coeff - (inclusive ? 0 : 1)));
    count = algebra.binary(algebra.build(n), algebra.literal(step.coeff),
                           BO_Div);
  } else {
    return why = "pointer " + name + " steps by " + size + " but " +
                 (op == BO_NE ? "the loop stops where it equals "
                              : "its test compares it with ") +
                 quoted(scope.print(end)) + ", " + quoted(algebra.show(n)) +
                 " elements away: " + size +
                 " is not proven to divide that, so " +
                 (op == BO_NE ? "a step may jump over the end"
                              : "the number of steps is not known"),
           nullptr;
  }
  if (std::string positive = algebra.show(stepped) + " > 0";
      !constant && !llvm::is_contained(scope.preconditions, positive))
    scope.preconditions.push_back(positive);
  return count;
}

} // namespace

std::optional<SourceLoop> mlir::gemm::readPointerBound(SourceLoop loop,
                                                       const Expr *cond,
                                                       const Stmt *inc,
                                                       NestScope &scope) {
  // Pointer walks remove the steps this reads: the first reading holds.
  auto [known, fresh] = scope.pointerCounts.try_emplace(loop.stmt);
  if (fresh) {
    SourceLoop bare = loop;
    bare.body.clear();
    known->second.loop =
        PointerLoop(bare, cond, inc, scope).count(known->second.why);
  }
  if (!known->second.loop)
    return scope.reject(known->second.why);
  SourceLoop counted = *known->second.loop;
  counted.body = std::move(loop.body);
  return counted;
}
