//===- LoopHeader.cpp - The values a loop's variable takes ----------------===//
//
// Reads a loop's induction variable, start, test and step (parseLoop: a
// `for`, a `while` or `do` stepped at the end of its body, a range-`for`
// over std::views::iota, a loop that runs a pointer to an end), then their
// values as affine forms over the loops around it (readHeader): up by any
// invariant step while iv is below a bound (or the smaller of several, as
// a clipped tile's), or down by 1 while iv is at or above one.
// Everything else (a step that may jump over a `!=` bound, a counter that
// wraps at 0, a test that never fails) is rejected here, so that a header
// stands for exactly the values it lists.
//
//===----------------------------------------------------------------------===//

#include "LoopHeader.h"
#include "PointerBounds.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;
using namespace mlir::gemm;

std::string mlir::gemm::quoted(const std::string &text) {
  return "'" + text + "'";
}

AffineForm mlir::gemm::ivForm(size_t size, int loop) {
  AffineForm form(size);
  form.ivCoeffs[loop] = SymExpr::constant(1);
  return form;
}

std::vector<int> mlir::gemm::loopsAround(const NestScope &scope, int loop) {
  std::vector<int> chain;
  for (int l = scope.sourceLoops[loop].parent; l >= 0;
       l = scope.sourceLoops[l].parent)
    chain.insert(chain.begin(), l);
  return chain;
}

namespace {

/// The terms of a minimum: `std::min(a, b)` and the conditionals that pick
/// the smaller (`a < b ? a : b`, a MIN macro), nested, also through a local
/// that holds one; else `e` alone.
void minTerms(const Expr *e, NestScope &scope,
              std::vector<const Expr *> &terms) {
  e = stripCasts(e);
  // A local that the nest never assigns (`int ie = M < i + x ? M : i + x;`)
  // is its initialiser.
  if (const Expr *init = scope.substitutableInit(referencedVar(e)))
    return minTerms(init, scope, terms);
  // fmin of two ints computes in double, which holds every int exactly: the
  // bound is the smaller int (`m < fmin(m0 + bs, M)`); fminf's float would
  // round large ones.
  auto exact = [&](const MinMaxCall &min) {
    auto narrow = [&](const Expr *x) {
      return x->getType()->isIntegerType() &&
             scope.ctx.getTypeSize(x->getType()) <= 32;
    };
    return scope.ctx.getTypeSize(e->getType()) >= 64 && narrow(min.lhs) &&
           narrow(min.rhs);
  };
  if (std::optional<MinMaxCall> min = asMinMaxCall(e);
      min && min->upper && (e->getType()->isIntegerType() || exact(*min))) {
    minTerms(min->lhs, scope, terms);
    minTerms(min->rhs, scope, terms);
    return;
  }
  if (const auto *choice = dyn_cast<ConditionalOperator>(e)) {
    const auto *compare =
        dyn_cast<BinaryOperator>(choice->getCond()->IgnoreParenImpCasts());
    auto same = [&](const Expr *x, const Expr *y) {
      return scope.print(stripCasts(x)) == scope.print(stripCasts(y));
    };
    if (compare && compare->isRelationalOp()) {
      bool less =
          compare->getOpcode() == BO_LT || compare->getOpcode() == BO_LE;
      const Expr *small = less ? compare->getLHS() : compare->getRHS();
      const Expr *large = less ? compare->getRHS() : compare->getLHS();
      if (same(choice->getTrueExpr(), small) &&
          same(choice->getFalseExpr(), large)) {
        minTerms(choice->getTrueExpr(), scope, terms);
        minTerms(choice->getFalseExpr(), scope, terms);
        return;
      }
    }
  }
  terms.push_back(e);
}

/// A `while` or `do` whose test steps its counter down by 1 and stops when
/// it reaches a bound b (`n-- > b`, `--n >= b`, `--n != b`, either way
/// round; b is 0 in `n--`, `--n`): its values as a loop counting down to a
/// last value, set in `loop`, and "" where it is one; nullopt where the test
/// steps nothing; else the reason it is no count. `while (n-- > b)` runs
/// its body on n - 1 down to b, `while (--n > b)` down to b + 1, `do ...
/// while (n-- > b)` on n down to b, `do ... while (--n > b)` down to b + 1;
/// `>= b` is `> b - 1`.
std::optional<std::string> steppedByTest(const Expr *cond, SourceLoop &loop,
                                         NestScope &scope) {
  auto decrement = [](const Expr *e) {
    const auto *step = dyn_cast<UnaryOperator>(e->IgnoreParenImpCasts());
    return step && step->isDecrementOp() ? step : nullptr;
  };
  const UnaryOperator *step = decrement(cond);
  const Expr *bound = nullptr;
  BinaryOperatorKind op = BO_GT;
  if (const auto *compare =
          dyn_cast<BinaryOperator>(cond->IgnoreParenImpCasts());
      compare && compare->isComparisonOp()) {
    op = compare->getOpcode();
    bound = compare->getRHS();
    step = decrement(compare->getLHS());
    if (!step && (step = decrement(compare->getRHS()))) {
      bound = compare->getLHS();
      op = BinaryOperator::reverseComparisonOp(op);
    }
    if (!(op == BO_GT || op == BO_GE || op == BO_NE) ||
        !bound->getType()->isIntegerType())
      return std::nullopt;
  }
  if (!step)
    return std::nullopt;
  const Expr *counter = step->getSubExpr();
  loop.iv = referencedVar(counter);
  if (!loop.iv || !loop.iv->getType()->isIntegerType())
    return std::nullopt;
  const bool before = step->isPrefix();
  // The first value counts from the start that the statement before sets.
  if (!loop.start)
    return "the loop over '" + loop.iv->getNameAsString() +
           "' steps it in its test '" + scope.print(cond) +
           "', but no statement just before the loop sets where it starts";
  // Where the first value is the start less one and the test steps before
  // it compares, an unsigned counter that starts at 0 wraps; so does one
  // that counts from its largest value down to 0, which its extent cannot
  // hold.
  if (loop.iv->getType()->isUnsignedIntegerType() &&
      before != loop.atLeastOnce)
    return "the test '" + scope.print(cond) + "' steps the unsigned '" +
           loop.iv->getNameAsString() + "' " +
           (before ? "below 0 where it starts at 0, so the loop wraps"
                   : "after the body sees its bound, where the largest "
                     "start would run one more value than it holds");
  QualType type = bound ? bound->getType() : loop.iv->getType();
  auto literal = [&](uint64_t value) {
    return IntegerLiteral::Create(
        scope.ctx, llvm::APInt(scope.ctx.getIntWidth(type), value), type,
        cond->getBeginLoc());
  };
  if (op == BO_GE) {
    // An unsigned comparison (of an unsigned counter, or with an unsigned
    // bound) never finds a value below 0.
    std::optional<int64_t> lowest = scope.constantNoted(bound);
    if (type->isUnsignedIntegerType() && !(lowest && *lowest > 0))
      return "the test '" + scope.print(cond) +
             "' may never fail: it compares unsigned values, none below '" +
             scope.print(bound) + "' where that is 0";
    bound = BinaryOperator::Create(scope.ctx, const_cast<Expr *>(bound),
                                   literal(1), BO_Sub, type, VK_PRValue,
                                   OK_Ordinary, cond->getBeginLoc(),
                                   FPOptionsOverride());
  }
  loop.lhs = counter;
  loop.bound = bound ? bound : literal(0);
  // After `--n` the test compares the value the body sees; after `n--`
  // the one before it.
  loop.op = before ? BO_GT : BO_GE;
  loop.down = true;
  loop.steppedByTest = true;
  return std::string();
}

/// Whether `decl` is declared in std or a namespace inside it.
bool inStd(const Decl *decl) {
  for (const DeclContext *ctx = decl->getDeclContext(); ctx;
       ctx = ctx->getParent())
    if (ctx->isStdNamespace())
      return true;
  return false;
}

/// a and n of `views::iota(a, n)` or `iota_view(a, n)` (std::ranges'): the
/// range of a range-`for` over [a, n).
std::optional<std::pair<const Expr *, const Expr *>> iotaRange(const Expr *e) {
  e = stripCasts(e);
  if (const auto *call = dyn_cast<CXXOperatorCallExpr>(e);
      call && call->getOperator() == OO_Call && call->getNumArgs() == 3) {
    const auto *object = dyn_cast<DeclRefExpr>(stripCasts(call->getArg(0)));
    const auto *decl = object ? dyn_cast<VarDecl>(object->getDecl()) : nullptr;
    if (decl && decl->getName() == "iota" && inStd(decl))
      return std::make_pair(call->getArg(1), call->getArg(2));
  }
  if (const auto *construct = dyn_cast<CXXConstructExpr>(e);
      construct && construct->getNumArgs() == 2) {
    const CXXRecordDecl *record = construct->getConstructor()->getParent();
    if (record->getName() == "iota_view" && inStd(record))
      return std::make_pair(construct->getArg(0), construct->getArg(1));
  }
  return std::nullopt;
}

} // namespace

/// Whether the range-`for` `range` gives an integer variable the values of
/// an object of a user class (`irange(K)`): a count in meaning, though one
/// whose iterators gemm-opt does not read.
static bool overUserRange(const CXXForRangeStmt *range) {
  QualType iv = range->getLoopVariable()->getType();
  const CXXRecordDecl *record =
      range->getRangeInit()->getType().getNonReferenceType()->getAsCXXRecordDecl();
  return iv->isIntegerType() && record && !inStd(record);
}

bool mlir::gemm::overContainer(const Stmt *s) {
  const auto *range = dyn_cast<CXXForRangeStmt>(s);
  return range && !iotaRange(range->getRangeInit()) && !overUserRange(range);
}

namespace {

/// The statements of a loop's body.
std::vector<const Stmt *> statementsOf(const Stmt *body) {
  if (const auto *block = dyn_cast<CompoundStmt>(body))
    return std::vector<const Stmt *>(block->body_begin(), block->body_end());
  return {body};
}

/// The integer variables that `e` reads.
std::vector<const VarDecl *> integersOf(const Stmt *e) {
  std::vector<const VarDecl *> vars;
  if (const auto *ref = dyn_cast<DeclRefExpr>(e))
    if (const auto *var = dyn_cast<VarDecl>(ref->getDecl());
        var && var->getType()->isIntegerType())
      vars.push_back(var);
  for (const Stmt *child : e->children())
    if (child)
      llvm::append_range(vars, integersOf(child));
  return vars;
}

/// A loop's test, `lhs op bound` with iv in lhs, or the reason it is none.
std::optional<std::string> parseTest(const Expr *cond, const VarDecl *iv,
                                     SourceLoop &loop, NestScope &scope) {
  std::string name = "'" + iv->getNameAsString() + "'";
  const auto *test =
      cond ? dyn_cast<BinaryOperator>(cond->IgnoreParenImpCasts()) : nullptr;
  if (!test)
    return "the loop over " + name + " has no bound: its test " +
           (cond ? "'" + scope.print(cond) + "' is no comparison"
                 : std::string("is missing"));
  // `i < a && i < b` is `i < min(a, b)`: the bound is the conjunction,
  // whose terms readHeader takes as a minimum's.
  if (test->getOpcode() == BO_LAnd) {
    SourceLoop first = loop, second = loop;
    if (std::optional<std::string> why =
            parseTest(test->getLHS(), iv, first, scope))
      return why;
    if (std::optional<std::string> why =
            parseTest(test->getRHS(), iv, second, scope))
      return why;
    if (first.op != second.op || !(first.op == BO_LT || first.op == BO_LE) ||
        scope.print(first.lhs) != scope.print(second.lhs))
      return "the loop over " + name + " tests '" + scope.print(cond) +
             "', which is no bound below every one of several values";
    loop.lhs = first.lhs;
    loop.bound = test;
    loop.op = first.op;
    return std::nullopt;
  }
  BinaryOperatorKind op = test->getOpcode();
  bool left = mentions(test->getLHS(), iv), right = mentions(test->getRHS(), iv);
  if (!test->isRelationalOp() && op != BO_NE)
    return "the loop over " + name + " has no bound: its test '" +
           scope.print(cond) + "' is no comparison";
  if (left == right)
    return "the test '" + scope.print(cond) + "' of the loop over " + name +
           (left ? " reads it on both sides" : " does not read it");
  loop.lhs = left ? test->getLHS() : test->getRHS();
  loop.bound = left ? test->getRHS() : test->getLHS();
  loop.op = left ? op : BinaryOperator::reverseComparisonOp(op);
  return std::nullopt;
}

/// `loop`, or a rejection where its body changes its induction variable
/// (the values it lists would not be the body's).
std::optional<SourceLoop> unchanged(SourceLoop loop, NestScope &scope) {
  for (const Stmt *statement : loop.body)
    if (const Expr *change = findChange(statement, loop.iv))
      return scope.reject("the induction variable '" +
                          loop.iv->getNameAsString() +
                          "' is also changed in the body ('" +
                          scope.print(change) + "')");
  return loop;
}

} // namespace

std::optional<Step> mlir::gemm::asStep(const Stmt *s) {
  const auto *e = dyn_cast_or_null<Expr>(s);
  if (!e)
    return std::nullopt;
  e = e->IgnoreParenImpCasts();
  if (const auto *unary = dyn_cast<UnaryOperator>(e);
      unary && unary->isIncrementDecrementOp())
    if (const VarDecl *var = referencedVar(unary->getSubExpr()))
      return Step{var, nullptr, unary->isDecrementOp()};
  const auto *binary = dyn_cast<BinaryOperator>(e);
  const VarDecl *var = binary ? referencedVar(binary->getLHS()) : nullptr;
  if (!var)
    return std::nullopt;
  if (binary->getOpcode() == BO_AddAssign || binary->getOpcode() == BO_SubAssign)
    return Step{var, binary->getRHS(), binary->getOpcode() == BO_SubAssign};
  const auto *sum =
      dyn_cast<BinaryOperator>(binary->getRHS()->IgnoreParenImpCasts());
  if (binary->getOpcode() != BO_Assign || !sum)
    return std::nullopt;
  if ((sum->getOpcode() == BO_Add || sum->getOpcode() == BO_Sub) &&
      referencedVar(sum->getLHS()) == var)
    return Step{var, sum->getRHS(), sum->getOpcode() == BO_Sub};
  if (sum->getOpcode() == BO_Add && referencedVar(sum->getRHS()) == var)
    return Step{var, sum->getLHS(), false};
  return std::nullopt;
}

const Expr *mlir::gemm::findChange(const Stmt *s, const VarDecl *var) {
  if (!s)
    return nullptr;
  if (const auto *unary = dyn_cast<UnaryOperator>(s);
      unary && (unary->isIncrementDecrementOp() ||
                unary->getOpcode() == UO_AddrOf) &&
      referencedVar(unary->getSubExpr()) == var)
    return unary;
  if (const auto *binary = dyn_cast<BinaryOperator>(s);
      binary && binary->isAssignmentOp() && referencedVar(binary->getLHS()) == var)
    return binary;
  for (const Stmt *child : s->children())
    if (const Expr *change = findChange(child, var))
      return change;
  return nullptr;
}

std::optional<SourceLoop> mlir::gemm::parseLoop(const Stmt *s,
                                                NestScope &scope,
                                                const Expr *start) {
  SourceLoop loop{s,       nullptr, start, -1,    nullptr, nullptr, BO_LT,
                  nullptr, false,   false, false, -1,      -1,      {}};
  const Expr *cond = nullptr;
  const Stmt *inc = nullptr, *body = nullptr;
  if (const auto *range = dyn_cast<CXXForRangeStmt>(s)) {
    auto bounds = iotaRange(range->getRangeInit());
    loop.iv = range->getLoopVariable();
    if (!bounds && overUserRange(range))
      return scope.reject("the range-'for' over '" +
                          loop.iv->getNameAsString() +
                          "' takes its values from the iterators of '" +
                          scope.print(range->getRangeInit()) +
                          "', which gemm-opt does not read, so it cannot "
                          "prove that they count from a first to a last "
                          "integer");
    if (!bounds || !loop.iv->getType()->isIntegerType())
      return scope.reject("the range-'for' over '" +
                          loop.iv->getNameAsString() +
                          "' does not count integers: its range '" +
                          scope.print(range->getRangeInit()) +
                          "' is no std::views::iota(first, last)");
    std::tie(loop.start, loop.bound) = *bounds;
    loop.body = statementsOf(range->getBody());
    return unchanged(std::move(loop), scope);
  }
  const Stmt *init = nullptr;
  if (const auto *forLoop = dyn_cast<ForStmt>(s)) {
    cond = forLoop->getCond();
    init = forLoop->getInit();
    inc = forLoop->getInc();
    body = forLoop->getBody();
  } else if (const auto *whileLoop = dyn_cast<WhileStmt>(s)) {
    cond = whileLoop->getCond();
    body = whileLoop->getBody();
  } else {
    const auto *doLoop = cast<DoStmt>(s);
    cond = doLoop->getCond();
    body = doLoop->getBody();
    loop.atLeastOnce = true;
  }
  loop.body = statementsOf(body);
  // A loop that runs a pointer to an end counts the pointer's steps.
  if (cond && comparesPointers(cond))
    return readPointerBound(std::move(loop), cond, inc, scope);
  if (const auto *decl = dyn_cast_or_null<DeclStmt>(init)) {
    if (decl->isSingleDecl())
      if ((loop.iv = dyn_cast<VarDecl>(decl->getSingleDecl())))
        loop.start = loop.iv->getInit();
  } else if (const auto *assign = dyn_cast_or_null<BinaryOperator>(init);
             assign && assign->getOpcode() == BO_Assign) {
    loop.iv = referencedVar(assign->getLHS());
    loop.start = assign->getRHS();
  } else if (const auto *e = dyn_cast_or_null<Expr>(init)) {
    return scope.reject("the loop's start '" + scope.print(e) +
                        "' sets no induction variable");
  }
  if (!inc && cond)
    if (std::optional<std::string> why = steppedByTest(cond, loop, scope))
      return why->empty() ? unchanged(std::move(loop), scope)
                          : scope.reject(*why);
  // Without a step in the header, the body's last statement steps.
  if (!inc && !loop.body.empty() && asStep(loop.body.back())) {
    inc = loop.body.back();
    loop.body.pop_back();
  }
  std::optional<Step> step = asStep(inc);
  if (!loop.iv && step)
    loop.iv = step->var;
  // An integer of the test that the body changes, but not at its end.
  if (!loop.iv && cond)
    for (const VarDecl *var : integersOf(cond))
      for (const Stmt *statement : loop.body)
        if (const Expr *change = findChange(statement, var))
          return scope.reject("the loop over '" + var->getNameAsString() +
                              "' does not step it at the end of each "
                              "iteration (it changes it with '" +
                              scope.print(change) + "' before)");
  if (!loop.iv)
    return scope.reject((cond ? "the loop with the test '" +
                                    scope.print(cond) + "'"
                              : std::string("the loop without a test")) +
                        " has no integer induction variable that steps at "
                        "the end of each iteration, so its trip count is "
                        "unknown");
  std::string name = "'" + loop.iv->getNameAsString() + "'";
  if (!loop.iv->getType()->isIntegerType())
    return scope.reject("the induction variable " + name + " is '" +
                        loop.iv->getType().getAsString() +
                        "', not an integer, so it does not count iterations "
                        "exactly");
  if (!step || step->var != loop.iv)
    return scope.reject("the loop over " + name + " does not step " + name +
                        " at the end of each iteration" +
                        (inc ? " (it steps with '" +
                                   scope.print(cast<Expr>(inc)) + "')"
                             : std::string("")));
  loop.step = step->amount;
  loop.down = step->down;
  if (std::optional<std::string> why = parseTest(cond, loop.iv, loop, scope))
    return scope.reject(*why);
  return unchanged(std::move(loop), scope);
}

std::optional<AffineForm> mlir::gemm::boundForm(NestScope &scope,
                                                const Expr *bound, int loop,
                                                bool self) {
  const std::vector<SourceLoop> &loops = scope.sourceLoops;
  std::vector<int> context = loopsAround(scope, loop);
  if (self)
    context.push_back(loop);
  std::optional<Rejection> saved = scope.rejection;
  std::optional<AffineForm> form = scope.linearize(bound, context);
  scope.rejection = saved;
  if (form)
    return form;
  std::string iv = loops[loop].iv->getNameAsString();
  const VarDecl *var = scope.findVaryingVar(bound);
  if (var && llvm::any_of(loops, [&](const SourceLoop &l) {
        return l.iv == var && l.iv != loops[loop].iv;
      }))
    return scope.reject("non-rectangular bounds: the bound of '" + iv +
                        "' depends on '" + var->getNameAsString() + "'");
  if (var && referencedVar(bound) == var && scope.written.contains(var))
    return scope.reject("bound '" + scope.print(bound) + "' of '" + iv +
                        "' is written inside the nest");
  if (var)
    return scope.reject("bound '" + scope.print(bound) + "' of '" + iv +
                        "' depends on " + scope.describeVarying(var));
  return scope.reject("bound '" + scope.print(bound) + "' of '" + iv +
                      "' may change inside the nest (it reads memory or "
                      "calls a function)");
}

std::optional<LoopHeader> mlir::gemm::readHeader(NestScope &scope, int loop) {
  const SourceLoop &source = scope.sourceLoops[loop];
  LoopHeader h;
  std::string iv = "'" + source.iv->getNameAsString() + "'";
  size_t size = scope.sourceLoops.size();
  h.step = SymExpr::constant(1);
  if (source.step) {
    std::optional<AffineForm> step = boundForm(scope, source.step, loop);
    if (!step)
      return std::nullopt;
    if (!step->isInvariant())
      return scope.reject("the step '" + scope.print(source.step) + "' of " +
                          iv + " changes from one iteration to the next"),
             std::nullopt;
    h.step = step->constant;
  }
  if (source.down)
    h.step = SymExpr() - h.step;
  std::optional<int64_t> step = h.step.getConstant();
  if (step == 0)
    return scope.reject("the loop over " + iv + " never moves " + iv +
                        ": its step is 0"),
           std::nullopt;
  bool down = step && *step < 0;
  if (source.start && !(h.start = boundForm(scope, source.start, loop)))
    return std::nullopt;
  if (h.start && source.steppedByTest && !source.atLeastOnce)
    h.start->constant = h.start->constant - SymExpr::constant(1);
  // The test reads iv plus an invariant offset (a range-`for` tests iv).
  std::optional<AffineForm> lhs = source.lhs
                                      ? boundForm(scope, source.lhs, loop, true)
                                      : ivForm(size, loop);
  if (!lhs)
    return std::nullopt;
  AffineForm offset = *lhs + ivForm(size, loop).scaled(
                                 SymExpr::constant(-1));
  if (!offset.isInvariant())
    return scope.reject("the test of the loop over " + iv + " compares '" +
                        scope.print(source.lhs) + "', not " + iv +
                        " plus a constant, with its bound"),
           std::nullopt;
  h.plainTest = offset.constant.isZero();
  BinaryOperatorKind op = source.op;
  if ((down && (op == BO_LT || op == BO_LE)) ||
      (!down && (op == BO_GT || op == BO_GE)))
    return scope.reject("the loop over " + iv + " counts " +
                        (down ? "down" : "up") + " but tests '" +
                        scope.print(source.lhs) + " " +
                        BinaryOperator::getOpcodeStr(op).str() + " " +
                        scope.print(source.bound) +
                        "', so it does not stop at its bound"),
           std::nullopt;
  if (op == BO_NE && !(step == 1 || step == -1))
    return scope.reject("the loop over " + iv + " steps by " +
                        quoted(h.step.str()) + " but tests " +
                        quoted(scope.print(source.lhs) + " != " +
                               scope.print(source.bound)) +
                        ", which a step may jump over"),
           std::nullopt;
  if (down && step != -1)
    return scope.reject("the loop over " + iv + " counts down in steps of " +
                        quoted((SymExpr() - h.step).str()) +
                        "; only loops that count down by 1 are lifted"),
           std::nullopt;
  // A bound that varies may be a minimum whose terms vary (a clipped tile),
  // as may each bound of a conjunction of tests.
  std::vector<const Expr *> terms;
  std::vector<const Expr *> bounds{source.bound};
  if (const auto *both = dyn_cast<BinaryOperator>(source.bound);
      both && both->getOpcode() == BO_LAnd) {
    bounds.clear();
    for (const Expr *side : {both->getLHS(), both->getRHS()}) {
      SourceLoop part = source;
      parseTest(side, source.iv, part, scope);
      bounds.push_back(part.bound);
    }
  }
  for (const Expr *bound : bounds) {
    if (scope.isInvariant(bound))
      terms.push_back(bound);
    else
      minTerms(bound, scope, terms);
  }
  if (down && terms.size() > 1)
    return scope.reject("the loop over " + iv +
                        " counts down to the smaller of several bounds"),
           std::nullopt;
  // Up: iv < term - offset (+1 for <=); down: iv >= term - offset (+1 for
  // > and !=).
  SymExpr adjust =
      SymExpr::constant(op == BO_LE || (down && op != BO_GE) ? 1 : 0) -
      offset.constant;
  for (const Expr *term : terms) {
    std::optional<AffineForm> form = boundForm(scope, term, loop);
    if (!form)
      return std::nullopt;
    form->constant = form->constant + adjust;
    h.bounds.push_back(*form);
  }
  // An unsigned counter that counts down to 0 wraps instead of stopping.
  std::optional<int64_t> lowest = h.bounds[0].constant.getConstant();
  if (down && !source.steppedByTest &&
      source.iv->getType()->isUnsignedIntegerType() &&
      !(h.bounds[0].isInvariant() && lowest && *lowest > 0))
    return scope.reject("the loop over " + iv + " counts down to " +
                        quoted(h.bounds[0].constant.str()) + " but " + iv +
                        " is unsigned: it wraps below 0 instead of stopping"),
           std::nullopt;
  return h;
}

