//===- PointerWalk.cpp - Pointer induction as affine offsets --------------===//
//
// Follows each pointer that the nest moves through the nest's statements in
// program order, as a base (the pointer at nest entry, its initialiser, or
// the value of the last statement that sets it) plus an offset in elements:
// a sum of invariant products. Entering a loop adds, per completed
// iteration, what one iteration moves it by (its induction variable's
// distance from the start, divided by the step); leaving it adds the trip
// count times that. A read of the pointer becomes `(base + offset)` and a
// bump becomes an empty statement, so `*out++ = s` is `*(out + (i*N + j))`
// to the rest of the front end, which proves the index affine or says why
// it is not.
//
//===----------------------------------------------------------------------===//

#include "PointerWalk.h"
#include "ByteOffset.h"
#include "Inline.h"
#include "OffsetPolynomial.h"
#include "LoopHeader.h"
#include "PointerBounds.h"
#include "ReadAfterLoop.h"
#include "Unswitch.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

#include <functional>
#include <map>

using namespace clang;
using namespace mlir::gemm;

namespace {

/// What a walked pointer holds at a point of the nest.
struct Value {
  enum Kind {
    Unknown, ///< Not followed: `why` says why.
    Entry,   ///< Its value at the start of the summarised iteration.
    Known,   ///< `base` (the variable itself where null) plus `offset`.
  } kind = Unknown;
  const Expr *base = nullptr;
  Offset offset;
  std::string why;
  /// Where the base is null: whose value the offset is from (at the
  /// summarised iteration's start where Entry, else at nest entry), the
  /// variable itself where null (`ap1 = A + n` is A's value plus n).
  const VarDecl *root = nullptr;
};

using State = llvm::DenseMap<const VarDecl *, Value>;

/// How a loop counts: its completed iterations at a point of its body, and
/// its trip count.
struct Counts {
  const VarDecl *iv = nullptr;
  const Expr *start = nullptr;
  std::optional<int64_t> step;
  Expr *iterations = nullptr; ///< (iv - start) or (start - iv).
  Expr *trips = nullptr;
  std::string precondition; ///< Where the trip count is not proven >= 0.
  std::string why;          ///< Where either is missing.
};

/// The first read of a variable after a point of the function (a plain
/// store to it is no read), and whether its address is taken.
struct ReadsAfter : RecursiveASTVisitor<ReadsAfter> {
  ReadsAfter(const VarDecl *var, const SourceManager &sm, SourceLocation end)
      : var(var), sm(sm), end(end) {}
  const VarDecl *var;
  const SourceManager &sm;
  SourceLocation end;
  const Expr *after = nullptr;
  bool escapes = false;
  llvm::SmallPtrSet<const Expr *, 4> stores;

  bool VisitBinaryOperator(BinaryOperator *op) {
    if (op->getOpcode() == BO_Assign && referencedVar(op->getLHS()) == var)
      stores.insert(stripCasts(op->getLHS()));
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *op) {
    escapes |= op->getOpcode() == UO_AddrOf &&
               referencedVar(op->getSubExpr()) == var;
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *ref) {
    if (ref->getDecl() == var && !after && !stores.contains(ref) &&
        sm.isBeforeInTranslationUnit(end, ref->getLocation()))
      after = ref;
    return true;
  }
};

} // namespace

namespace mlir::gemm {

class WalkRewriter : OffsetAlgebra {
public:
  /// Changes go to `undo` where given, else to the scope's restore list.
  WalkRewriter(NestScope &scope,
               std::vector<std::pair<Stmt **, Stmt *>> *undo)
      : OffsetAlgebra(scope), undo(undo) {}

  /// The whole nest: a pointer declared before it starts at its value at
  /// entry, and must die with the nest.
  bool runNest() {
    Stmt *root = const_cast<Stmt *>(unwrapLoopWrappers(scope.outer));
    scan(root, false);
    addIntegerWalks(root);
    if (walked.empty())
      return true;
    starts[root] = scope.outerStart.value;
    readPointerBounds(root);
    splitIncrements(root);
    State state;
    for (const VarDecl *var : walked)
      if (!declaredInside.contains(var))
        state[var] = Value{Value::Known, nullptr, {}, ""};
    if (!execLoop(root, state))
      return false;
    for (const VarDecl *var : walked)
      if (!declaredInside.contains(var) && !diesWithNest(var))
        return false;
    return true;
  }

  /// A call's body as the walk inlines it (`block`): the pointers it
  /// declares are fresh on each call, so they are followed from their
  /// declarations; a move of any other pointer stays for the walk to judge.
  bool runInlined(Stmt *&block) {
    inlined = true;
    scan(block, false);
    addIntegerWalks(block);
    llvm::SmallVector<const VarDecl *, 8> all(walked.begin(), walked.end());
    for (const VarDecl *var : all)
      if (!declaredInside.contains(var))
        walked.erase(var);
    if (walked.empty())
      return true;
    readPointerBounds(block);
    splitIncrements(block);
    State state;
    return execStmt(block, state);
  }

private:
  std::vector<std::pair<Stmt **, Stmt *>> *undo;
  /// Following an inlined call's body (runInlined).
  bool inlined = false;
  /// Whether the nest stores only floating-point values (and variables no
  /// pointer reaches) and calls nothing: read once, as every read of
  /// memory asks.
  std::optional<bool> floatStores;
  bool floatStoresOnly() {
    if (!floatStores)
      floatStores = scope.function &&
                     storesOnlyFloats(scope.outer, scope.function->getBody());
    return *floatStores;
  }
  /// Pointers the nest moves or sets; variables it assigns or steps;
  /// variables it declares.
  llvm::SmallPtrSet<const VarDecl *, 8> walked, assigned, declaredInside;
  /// The amounts of each integer's steps (null: 1) and the steps, and the
  /// tests of the nest's loops (a range-`for`'s declaration).
  llvm::DenseMap<const VarDecl *, std::vector<const Expr *>> integerSteps;
  std::vector<const Stmt *> tests;
  llvm::SmallPtrSet<const Stmt *, 8> steps;
  llvm::DenseMap<const Stmt *, const Expr *> starts;
  /// Bumps of a `for` loop's increment (`i++, p += ld`), run after its body.
  llvm::DenseMap<const Stmt *, std::vector<const Expr *>> incrementBumps;
  /// Sets of a `for` loop's init (`jj = j, p = B + j*K`), run before it.
  llvm::DenseMap<const Stmt *, std::vector<BinaryOperator *>> initSets;
  std::map<const Stmt *, Counts> counted;
  /// False while summarising an iteration: nothing is rewritten.
  bool rewriting = true;
  /// Inside an `if` or a conditional operand: a move here is conditional.
  int conditional = 0;
  /// The outermost such statement or operand around the walk: the obstacle
  /// of a conditional move, beside which other nests may still be tried.
  const Stmt *branch = nullptr;
  std::vector<const Stmt *> chain; ///< Loops around the current statement.
  /// Per full expression: the walked pointers it moves and reads.
  std::vector<const VarDecl *> moved, read;

  bool fail(const std::string &reason) {
    scope.reject(reason);
    return false;
  }

  /// Fails for a move or set inside `branch`.
  bool failInBranch(const std::string &reason) {
    scope.reject(reason, false, branch);
    return false;
  }

  /// Walks `child` as conditional code inside `s`.
  template <class Walk> bool inBranch(const Stmt *s, Walk walk) {
    if (!conditional++)
      branch = s;
    bool ok = walk();
    if (!--conditional)
      branch = nullptr;
    return ok;
  }

  void replace(Stmt *&slot, Stmt *with) {
    if (!undo)
      return scope.replace(&slot, with);
    undo->emplace_back(&slot, slot);
    slot = with;
  }

  const VarDecl *walkedVar(const Expr *e) const {
    const VarDecl *var = referencedVar(e);
    return var && walked.contains(var) ? var : nullptr;
  }

  static std::string name(const VarDecl *var) {
    return "'" + var->getNameAsString() + "'";
  }

  static std::string what(const VarDecl *var) {
    return (var->getType()->isPointerType() ? "pointer " : "integer ") +
           name(var);
  }

  // --- What the nest changes ---------------------------------------------

  void scan(const Stmt *s, bool inLoopHeader) {
    if (!s)
      return;
    auto note = [&](const Expr *target) {
      if (const VarDecl *var = referencedVar(target)) {
        assigned.insert(var);
        if (var->getType()->isPointerType())
          walked.insert(var);
      }
    };
    if (const auto *decl = dyn_cast<DeclStmt>(s))
      for (const Decl *d : decl->decls())
        if (const auto *var = dyn_cast<VarDecl>(d))
          declaredInside.insert(var);
    if (std::optional<Step> step = asStep(s);
        step && step->var->getType()->isIntegerType()) {
      integerSteps[step->var].push_back(step->amount);
      steps.insert(s);
    }
    if (const auto *loop = dyn_cast<CXXForRangeStmt>(s))
      tests.push_back(loop->getLoopVarStmt());
    else if (const Expr *test = loopTest(s))
      tests.push_back(test);
    if (const auto *unary = dyn_cast<UnaryOperator>(s);
        unary && unary->isIncrementDecrementOp())
      note(unary->getSubExpr());
    if (const auto *binary = dyn_cast<BinaryOperator>(s);
        binary && binary->isAssignmentOp())
      note(binary->getLHS());
    for (const Stmt *child : s->children())
      scan(child, inLoopHeader);
  }

  /// Integers that the nest steps like pointers (`i = i + n;` read in `px =
  /// pOut + i;`) are walked with them: each step is by an invariant amount,
  /// the nest reads them besides their steps (a count alone is an effect of
  /// its own), and no loop's header reads or declares them (a counter is
  /// counted by its loop).
  void addIntegerWalks(const Stmt *root) {
    auto counts = [&](const Stmt *test, const VarDecl *var) {
      const auto *decl = dyn_cast<DeclStmt>(test);
      return decl ? decl->getSingleDecl() == var : mentions(test, var);
    };
    for (const auto &[var, amounts] : integerSteps)
      if (llvm::none_of(tests,
                        [&](const Stmt *test) { return counts(test, var); }) &&
          readBesidesSteps(root, var) &&
          llvm::all_of(amounts, [&](const Expr *amount) {
            return !amount || !varies(amount);
          }))
        walked.insert(var);
  }

  bool readBesidesSteps(const Stmt *s, const VarDecl *var) const {
    if (!s || steps.contains(s))
      return false;
    if (const auto *ref = dyn_cast<DeclRefExpr>(s))
      return ref->getDecl() == var;
    return llvm::any_of(s->children(), [&](const Stmt *child) {
      return readBesidesSteps(child, var);
    });
  }

  // --- Bumps ---------------------------------------------------------------

  /// `p++`, `--p`, `p += d`, `p -= d`, `p = p + d`, `p = d + p`, `p = p - d`
  /// of a walked pointer: the pointer, the amount (null for 1) and its sign.
  struct Bump {
    const VarDecl *var;
    const Expr *amount;
    int sign;
  };

  std::optional<Bump> asBump(const Expr *e) const {
    e = e->IgnoreParenImpCasts();
    if (const auto *unary = dyn_cast<UnaryOperator>(e);
        unary && unary->isIncrementDecrementOp())
      if (const VarDecl *var = walkedVar(unary->getSubExpr()))
        return Bump{var, nullptr, unary->isDecrementOp() ? -1 : 1};
    const auto *binary = dyn_cast<BinaryOperator>(e);
    const VarDecl *var = binary ? walkedVar(binary->getLHS()) : nullptr;
    if (!var)
      return std::nullopt;
    if (binary->getOpcode() == BO_AddAssign ||
        binary->getOpcode() == BO_SubAssign)
      return Bump{var, binary->getRHS(),
                  binary->getOpcode() == BO_SubAssign ? -1 : 1};
    // `p = (T *)((PTR)p + bytes)`: a move by the bytes in elements.
    if (std::optional<ByteStep> step =
            binary->getOpcode() == BO_Assign
                ? asByteStep(scope, binary->getRHS(), true)
                : std::nullopt;
        step && step->elements && referencedVar(step->pointer) == var)
      return Bump{var, step->elements, 1};
    const auto *sum = dyn_cast<BinaryOperator>(stripCasts(binary->getRHS()));
    if (binary->getOpcode() != BO_Assign || !sum)
      return std::nullopt;
    const Expr *lhs = stripCasts(sum->getLHS()), *rhs = stripCasts(sum->getRHS());
    if ((sum->getOpcode() == BO_Add || sum->getOpcode() == BO_Sub) &&
        referencedVar(lhs) == var && rhs->getType()->isIntegerType())
      return Bump{var, sum->getRHS(), sum->getOpcode() == BO_Sub ? -1 : 1};
    if (sum->getOpcode() == BO_Add && referencedVar(rhs) == var &&
        lhs->getType()->isIntegerType())
      return Bump{var, sum->getLHS(), 1};
    return std::nullopt;
  }

  /// Why `e` may differ from one evaluation to the next in the nest (it
  /// reads a variable the nest changes or declares, memory or a call), or
  /// nullopt.
  std::optional<std::string> varies(const Expr *e,
                                    bool ivsOfChain = false) {
    if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
      const auto *var = dyn_cast<VarDecl>(ref->getDecl());
      if (!var || !(assigned.contains(var) || declaredInside.contains(var)))
        return std::nullopt;
      if (walked.contains(var))
        return std::nullopt; // Resolved where it is read.
      if (ivsOfChain && llvm::any_of(chain, [&](const Stmt *loop) {
            return counts(loop).iv == var;
          }))
        return std::nullopt;
      if (ivsOfChain && declaredInside.contains(var) && !assigned.contains(var))
        return std::nullopt;
      return name(var) + ", which the nest changes";
    }
    // An element's address (`&b[j*ldb + p]`) and a row of an array (`a[i]`
    // of `&a[i][j]`) read no memory; their bases and indices may vary.
    const auto *addr = dyn_cast<UnaryOperator>(e);
    if (addr && addr->getOpcode() == UO_AddrOf)
      if (const auto *element =
              dyn_cast<ArraySubscriptExpr>(addr->getSubExpr()->IgnoreParens())) {
        if (std::optional<std::string> why = varies(element->getBase(), ivsOfChain))
          return why;
        return varies(element->getIdx(), ivsOfChain);
      }
    // An integer or a pointer read from memory (`*r`, a row table's
    // `BM[k]`) keeps its value where the nest stores only floating-point
    // values (C's aliasing rule).
    if ((isa<ArraySubscriptExpr>(e) && !e->getType()->isArrayType()) ||
        (addr && addr->getOpcode() == UO_Deref)) {
      if (!keptByFloatStores(e))
        return "'" + scope.print(e) + "', which reads memory";
      if (!floatStoresOnly())
        return "'" + scope.print(e) +
               "', which reads memory that the nest may write (it stores "
               "other than floating-point values, or calls a function)";
    }
    // An accessor (`a.Cols()`) is what it returns (Inline.cpp).
    if (const auto *call = dyn_cast<CallExpr>(e)) {
      if (const Expr *value = inlinedValue(ctx, call))
        return varies(value, ivsOfChain);
      return "the call '" + scope.print(e) + "'";
    }
    if (isa<UnaryExprOrTypeTraitExpr>(e))
      return std::nullopt;
    for (const Stmt *child : e->children())
      if (const auto *sub = dyn_cast_or_null<Expr>(child))
        if (std::optional<std::string> why = varies(sub, ivsOfChain))
          return why;
    return std::nullopt;
  }

  /// The amount of a bump (null amount: 1).
  std::optional<Offset> amount(const Bump &bump) {
    Offset out;
    if (!bump.amount) {
      add(out, Term{bump.sign, {}});
      return out;
    }
    if (std::optional<std::string> why = varies(bump.amount))
      return fail(what(bump.var) + " moves by '" + scope.print(bump.amount) +
                  "', which depends on " + *why +
                  ": its offset is not a function of the loop indices"),
             std::nullopt;
    return times(expand(bump.amount), constant(bump.sign));
  }

  /// Reads the loops that run a pointer to an end (PointerBounds.cpp)
  /// while their headers still step it.
  void readPointerBounds(const Stmt *s) {
    if (!s)
      return;
    if (const Expr *test = loopTest(s); test && comparesPointers(test))
      counts(s);
    for (const Stmt *child : s->children())
      readPointerBounds(child);
  }

  /// Moves `for` loops' pointer bumps out of their increments (`i++, p +=
  /// ld`): they run after the body, and the loop steps its counter alone
  /// (or none, where its body steps it or its pointer's steps count it);
  /// and the sets of walked pointers out of their inits (`jj = j, p = B +
  /// j*K`): they run before the loop, which starts its counter alone.
  void splitIncrements(Stmt *s) {
    if (!s)
      return;
    if (auto *loop = dyn_cast_or_null<ForStmt>(s);
        loop && isa_and_nonnull<Expr>(loop->getInit())) {
      std::vector<Expr *> rest;
      for (Expr *part : commaParts(cast<Expr>(loop->getInit()))) {
        auto *set = dyn_cast<BinaryOperator>(part->IgnoreParens());
        if (set && set->getOpcode() == BO_Assign && walkedVar(set->getLHS()))
          initSets[loop].push_back(set);
        else
          rest.push_back(part);
      }
      if (initSets.count(loop) && rest.size() <= 1)
        replace(*loop->child_begin(), rest.empty() ? nullptr : rest.front());
      else
        initSets.erase(loop);
    }
    if (auto *loop = dyn_cast<ForStmt>(s); loop && loop->getInc()) {
      std::vector<Expr *> parts = commaParts(loop->getInc());
      std::vector<Expr *> rest;
      for (Expr *part : parts)
        if (asBump(part))
          incrementBumps[loop].push_back(part);
        else
          rest.push_back(part);
      if (incrementBumps.count(loop) && rest.size() <= 1)
        for (Stmt *&child : loop->children())
          if (child == loop->getInc()) {
            replace(child, rest.empty() ? nullptr : rest.front());
            break;
          }
    }
    for (Stmt *child : s->children())
      splitIncrements(child);
  }

  // --- Loops ---------------------------------------------------------------

  Counts &counts(const Stmt *loop) {
    auto [it, fresh] = counted.try_emplace(loop);
    Counts &c = it->second;
    if (!fresh)
      return c;
    std::optional<Rejection> saved = scope.rejection;
    scope.rejection.reset();
    std::optional<SourceLoop> parsed =
        parseLoop(loop, scope, starts.lookup(loop));
    std::optional<Rejection> why = std::exchange(scope.rejection, saved);
    if (!parsed) {
      c.why = why->reason;
      return c;
    }
    c.iv = parsed->iv;
    c.start = parsed->start;
    std::string iv = name(c.iv);
    if (parsed->step) {
      std::optional<int64_t> step = scope.constantNoted(parsed->step);
      if (!step) {
        c.why = "the loop over " + iv + " steps by '" +
                scope.print(parsed->step) + "', which is no constant";
        return c;
      }
      c.step = parsed->down ? -*step : *step;
    } else {
      c.step = parsed->down ? -1 : 1;
    }
    if (!parsed->start) {
      c.why = "the loop over " + iv +
              " has no start: no statement ahead of it sets " + iv +
              " where nothing between changes the value";
      return c;
    }
    if (std::optional<std::string> why = varies(parsed->start, true)) {
      c.why = "the start of the loop over " + iv + " depends on " + *why;
      return c;
    }
    SourceLocation at = loop->getBeginLoc();
    Expr *iv0 = readOf(c.iv, at);
    // A `while` whose test steps iv down runs its body first on the start
    // less 1.
    const bool lessOne = parsed->steppedByTest && !parsed->atLeastOnce;
    std::optional<int64_t> first = scope.constantNoted(parsed->start);
    if (*c.step > 0)
      c.iterations = first == 0 ? asDiff(iv0)
                                : binary(asDiff(iv0), asDiff(parsed->start),
                                         BO_Sub);
    else if (*c.step == -1)
      c.iterations =
          binary(lessOne ? binary(asDiff(parsed->start), literal(1), BO_Sub)
                         : asDiff(parsed->start),
                 asDiff(iv0), BO_Sub);
    else
      c.why = "the loop over " + iv + " counts down by more than 1";
    // The trip count, from a test of iv itself against a bound.
    BinaryOperatorKind op = parsed->op;
    bool plain = parsed->lhs && referencedVar(parsed->lhs) == c.iv;
    if (!c.iterations)
      return c;
    if (!plain || op == (*c.step > 0 ? BO_GT : BO_LT) ||
        op == (*c.step > 0 ? BO_GE : BO_LE)) {
      c.why = "the loop over " + iv + " tests '" +
              scope.print(parsed->lhs ? parsed->lhs : parsed->bound) +
              "' in a way whose trip count gemm-opt does not count";
      return c;
    }
    if (std::optional<std::string> why = varies(parsed->bound)) {
      c.why = "the trip count of the loop over " + iv + " depends on " + *why;
      return c;
    }
    if (std::optional<std::string> why = varies(parsed->start)) {
      c.why = "the trip count of the loop over " + iv + " depends on " + *why;
      return c;
    }
    bool inclusive = op == BO_LE || op == BO_GE;
    const Expr *low = *c.step > 0 ? parsed->start : parsed->bound;
    const Expr *high = *c.step > 0 ? parsed->bound : parsed->start;
    int64_t step = *c.step > 0 ? *c.step : 1;
    std::optional<int64_t> lo = scope.constantNoted(low),
                           hi = scope.constantNoted(high);
    if (hi && lessOne)
      --*hi;
    if (lo && hi) {
      int64_t span = *hi - *lo + (inclusive ? 1 : 0);
      c.trips = literal(span > 0 ? (span + step - 1) / step : 0);
      return c;
    }
    Expr *span = binary(asDiff(high), asDiff(low), BO_Sub);
    if (lessOne)
      span = binary(span, literal(1), BO_Sub);
    if (inclusive || step > 1)
      span = binary(span, literal((inclusive ? 1 : 0) + step - 1), BO_Add);
    c.trips = step > 1 ? binary(span, literal(step), BO_Div) : span;
    // An unsigned bound from 0 is never below it.
    bool proven = !inclusive && lo == 0 &&
                  high->IgnoreImpCasts()->getType()->isUnsignedIntegerType();
    const int past = (inclusive ? 1 : 0) - (lessOne ? 1 : 0);
    if (!proven)
      c.precondition = parenthesize(scope.print(high)) +
                       (past > 0 ? " + 1" : past < 0 ? " - 1" : "") + " >= " +
                       parenthesize(scope.print(low));
    return c;
  }

  /// `perIteration` times the completed iterations of `loop`.
  std::optional<Offset> timesIterations(const Offset &perIteration,
                                        const Stmt *loop, const VarDecl *var) {
    Counts &c = counts(loop);
    if (perIteration.terms.empty())
      return perIteration;
    if (!c.iterations)
      return scope.reject("the walk of " + what(var) +
                          " is not counted: " + c.why),
             std::nullopt;
    int64_t step = *c.step > 0 ? *c.step : 1;
    Offset perStep = perIteration;
    for (auto &[key, term] : perStep.terms) {
      if (term.coeff % step != 0)
        return scope.reject(what(var) + " moves by '" +
                            show(perIteration) +
                            "' per iteration of the loop over " + name(c.iv) +
                            ", which steps by " + std::to_string(step) +
                            ": its offset is not an affine function of " +
                            name(c.iv)),
               std::nullopt;
      term.coeff /= step;
    }
    return times(perStep, expand(c.iterations));
  }

  /// `perIteration` times the trip count of `loop`.
  std::optional<Offset> timesTrips(const Offset &perIteration,
                                   const Stmt *loop, const VarDecl *var) {
    Counts &c = counts(loop);
    if (perIteration.terms.empty())
      return perIteration;
    if (!c.trips)
      return scope.reject("the walk of " + what(var) +
                          " is not counted: " + c.why),
             std::nullopt;
    Offset total = times(perIteration, expand(c.trips));
    if (!isa<IntegerLiteral>(c.trips))
      count(total, {loop});
    return total;
  }

  /// The statements of a loop's body, and the bumps of its increment.
  bool execBody(Stmt *loop, State &state) {
    for (Stmt *&child : loop->children())
      if (child == loopBody(loop) && !execStmt(child, state))
        return false;
    for (const Expr *bump : incrementBumps.lookup(loop))
      if (!move(*asBump(bump), state))
        return false;
    return true;
  }

  bool execLoop(Stmt *loop, State &state) {
    for (BinaryOperator *set : initSets.lookup(loop))
      if (!reset(nullptr, set, walkedVar(set->getLHS()), state))
        return false;
    // A `for`'s init (what it declares, `xx = *C`) runs ahead of the loop.
    Stmt *init = nullptr;
    if (auto *f = dyn_cast<ForStmt>(loop); f && f->getInit()) {
      init = f->getInit();
      if (!execStmt(*f->child_begin(), state))
        return false;
    }
    // A loop whose test compares a pointer with an end counts the
    // pointer's steps (PointerBounds.cpp), or says why it does not; any
    // other header that reads a walked pointer is driven by it.
    const Expr *test = loopTest(loop);
    bool pointerBound = test && comparesPointers(test);
    if (pointerBound && !counts(loop).iv)
      return fail(counts(loop).why);
    for (const Stmt *child : loop->children())
      if (child && child != loopBody(loop) && child != init &&
          !(pointerBound && child == test))
        for (const VarDecl *var : walked)
          if (mentions(child, var))
            return fail(what(var) +
                        " is read in the header of a loop, so the loop's "
                        "trip count depends on where it points");
    // What one iteration moves each pointer by.
    State entry;
    for (const VarDecl *var : walked)
      entry[var] = Value{Value::Entry, nullptr, {}, ""};
    bool wasRewriting = rewriting;
    rewriting = false;
    chain.push_back(loop);
    bool ok = execBody(loop, entry);
    chain.pop_back();
    rewriting = wasRewriting;
    if (!ok)
      return false;
    std::string iv = counts(loop).iv ? name(counts(loop).iv) : "a loop";
    State inside = state;
    for (const VarDecl *var : walked) {
      const Value &per = entry[var];
      Value &before = state[var];
      if (per.kind == Value::Unknown) {
        inside[var] = before = per;
        continue;
      }
      if (per.kind != Value::Entry || per.root) {
        std::string why;
        std::optional<Value> carried =
            per.kind == Value::Known && before.kind == Value::Known &&
                    !per.root
                ? carriedIn(per, before, loop, var, why)
                : std::nullopt;
        inside[var] =
            carried ? *carried
                    : Value{Value::Unknown,
                            nullptr,
                            {},
                            what(var) +
                                " is read before the statement that "
                                "sets it in each iteration of the loop over " +
                                iv +
                                ", so it holds what the iteration before "
                                "left" +
                                why};
        before = Value{Value::Unknown,
                       nullptr,
                       {},
                       what(var) +
                           " is read after the loop "
                           "over " +
                           iv +
                           " that sets it, where it holds what "
                           "the last iteration left"};
        continue;
      }
      if (before.kind == Value::Unknown ||
          (per.offset.terms.empty() && per.offset.counted.empty()))
        continue;
      // Lazily: a failure matters only where the pointer is read.
      std::optional<Rejection> saved = scope.rejection;
      std::optional<Offset> sofar = timesIterations(per.offset, loop, var);
      std::optional<Offset> total = timesTrips(per.offset, loop, var);
      std::optional<Rejection> why = scope.rejection;
      scope.rejection = saved;
      auto extend = [&](Value &v, const std::optional<Offset> &more) {
        if (!more) {
          v = Value{Value::Unknown, nullptr, {}, why ? why->reason : ""};
          return;
        }
        add(v.offset, *more);
      };
      extend(inside[var], sofar);
      extend(before, total);
    }
    chain.push_back(loop);
    ok = execBody(loop, inside);
    chain.pop_back();
    return ok;
  }

  using OffsetAlgebra::rooted;

  /// A null base is the variable's initialiser where the nest declares it,
  /// else its value at nest entry.
  Rooted rooted(const Value &v, const VarDecl *var) {
    var = v.root ? v.root : var;
    const Expr *base = v.base ? v.base
                       : declaredInside.contains(var)
                           ? var->getInit()
                           : readOf(var, var->getLocation());
    Rooted r = rooted(base);
    add(r.offset, v.offset);
    return r;
  }

  /// `poly` with `iv` replaced by `with`; nullopt where a factor reads iv
  /// otherwise (`(iv + 3) / 4`).
  std::optional<Offset> substitute(const Offset &poly, const VarDecl *iv,
                                   const Offset &with) {
    Offset out;
    count(out, poly.counted);
    for (const auto &[key, term] : poly.terms) {
      Offset product = constant(term.coeff);
      for (const Expr *factor : term.factors) {
        Offset f;
        add(f, Term{1, {factor}});
        if (referencedVar(factor) == iv)
          f = with;
        else if (mentions(factor, iv))
          return std::nullopt;
        product = times(product, f);
      }
      add(out, product);
    }
    return out;
  }

  /// Where each iteration of `loop` ends by setting `var` for the next
  /// (`col--; pIn2 = pInB + (N - col);`), its value at the start of each
  /// iteration: what the iteration before left, `atEnd` with the counter
  /// one step back, where that is `before`, its value before the loop, at
  /// the first. Two roots that differ (`pInB` and `pSrcB->pData`) must be
  /// one address: the launcher tests that. Else nullopt, and `why`.
  std::optional<Value> carriedIn(const Value &atEnd, const Value &before,
                                 const Stmt *loop, const VarDecl *var,
                                 std::string &why) {
    Counts &c = counts(loop);
    if (!c.iterations || !c.start) {
      why = ": " + c.why;
      return std::nullopt;
    }
    Rooted end = rooted(atEnd, var), first = rooted(before, var);
    Offset back = expand(readOf(c.iv, loop->getBeginLoc()));
    add(back, constant(-*c.step));
    std::optional<Offset> previous = substitute(end.offset, c.iv, back);
    std::optional<Offset> atFirst =
        previous ? substitute(*previous, c.iv, expand(c.start)) : std::nullopt;
    if (!atFirst || (end.root && mentions(end.root, c.iv))) {
      why = ", which is no polynomial in " + name(c.iv);
      return std::nullopt;
    }
    add(*atFirst, times(first.offset, constant(-1)));
    std::string endRoot = end.root ? scope.print(end.root) : "0";
    std::string firstRoot = first.root ? scope.print(first.root) : "0";
    if (!atFirst->terms.empty()) {
      why = ": what the iteration before leaves would start the first "
            "iteration " +
            show(*atFirst) +
            " elements from where it is before the loop";
      return std::nullopt;
    }
    if (endRoot != firstRoot &&
        (!end.root || !first.root || varies(end.root) || varies(first.root))) {
      why = ": what the iteration before leaves would start the first "
            "iteration from '" +
            endRoot + "', which is not proven to be '" + firstRoot +
            "', where it is before the loop";
      return std::nullopt;
    }
    std::string same = endRoot + " == " + firstRoot;
    if (endRoot != firstRoot && rewriting &&
        !llvm::is_contained(scope.preconditions, same))
      scope.preconditions.push_back(same);
    return Value{Value::Known, end.root ? end.root : literal(0), *previous, ""};
  }

  // --- Statements ----------------------------------------------------------

  bool move(const Bump &bump, State &state) {
    if (conditional)
      return failInBranch(what(bump.var) +
                  " is moved conditionally, so its offset is not a function "
                  "of the loop indices");
    std::optional<Offset> by = amount(bump);
    if (!by)
      return false;
    Value &v = state[bump.var];
    if (v.kind != Value::Unknown)
      add(v.offset, *by);
    return true;
  }

  bool execStmt(Stmt *&slot, State &state) {
    Stmt *s = const_cast<Stmt *>(unwrapLoopWrappers(slot));
    if (auto *block = dyn_cast<CompoundStmt>(s)) {
      ArrayRef<const Stmt *> statements(block->body_begin(), block->body_end());
      for (size_t n = 0; n < statements.size(); ++n) {
        if (auto [loop, value] = startOfLoop(statements, n); loop)
          starts[loop] = value;
        if (!execStmt(block->body_begin()[n], state))
          return false;
      }
      return true;
    }
    if (isLoop(s))
      return execLoop(s, state);
    if (auto *decl = dyn_cast<DeclStmt>(s)) {
      for (Decl *d : decl->decls())
        if (auto *var = dyn_cast<VarDecl>(d)) {
          if (var->getInit() && !execFull(*var->getInitAddress(), state))
            return false;
          if (walked.contains(var))
            state[var] = var->getInit()
                             ? Value{Value::Known, nullptr, {}, ""}
                             : Value{};
        }
      // `float *p;` set later (C89): every read is its setter's value, so
      // the declaration itself is not needed.
      if (rewriting && llvm::all_of(decl->decls(), [&](const Decl *d) {
            const auto *var = dyn_cast<VarDecl>(d);
            return var && walked.contains(var) && !var->getInit();
          }))
        replace(slot, new (ctx) NullStmt(s->getBeginLoc()));
      return true;
    }
    if (auto *e = dyn_cast<Expr>(s)) {
      if (std::optional<Bump> bump = asBump(e)) {
        if (!move(*bump, state))
          return false;
        if (rewriting)
          replace(slot, new (ctx) NullStmt(s->getBeginLoc()));
        return true;
      }
      auto *assign = dyn_cast<BinaryOperator>(e->IgnoreParens());
      if (const VarDecl *var = assign && assign->getOpcode() == BO_Assign
                                   ? walkedVar(assign->getLHS())
                                   : nullptr)
        return reset(&slot, assign, var, state);
      return execFull(slot, state);
    }
    // The case that the versioned nest fixes runs in the switch's place
    // (Unswitch.cpp).
    if (auto *choice = dyn_cast<SwitchStmt>(s))
      if (std::optional<std::vector<const Stmt *>> run =
              assumedCase(choice, choice->getCond(), scope))
        return execCase(choice, *run, state);
    // `if`, `switch` and the like: reads are rewritten, moves (an arm `p
    // += ld;` too) are conditional.
    return inBranch(s, [&] {
      for (Stmt *&child : s->children())
        if (child && !execStmt(child, state))
          return false;
      return true;
    });
  }

  /// The statements of `run`, a case of `choice`, in their slots.
  bool execCase(SwitchStmt *choice, ArrayRef<const Stmt *> run,
                State &state) {
    // The body, and a label's statement, are their statement's last child.
    auto last = [](Stmt *s) {
      Stmt **slot = nullptr;
      for (Stmt *&child : s->children())
        slot = &child;
      return slot;
    };
    // The run's statements stand at the top of the body or in a case's
    // braces (SwitchCases.cpp), in order.
    std::function<bool(Stmt *&)> exec = [&](Stmt *&statement) {
      Stmt **slot = &statement;
      while (isa<SwitchCase>(*slot))
        slot = last(*slot);
      if (llvm::is_contained(run, *slot))
        return execStmt(*slot, state);
      if (auto *block = dyn_cast<CompoundStmt>(*slot))
        return llvm::all_of(block->body(), exec);
      return true;
    };
    return exec(*last(choice));
  }

  /// `p = e;`: p holds e from here, e read with the walked pointers' values
  /// here; the statement in `slot`, where given (not a loop's init), is
  /// emptied.
  bool reset(Stmt **slot, BinaryOperator *assign, const VarDecl *var,
             State &state) {
    if (conditional)
      return failInBranch(what(var) +
                  " is set conditionally, so its offset is not a function of "
                  "the loop indices");
    std::optional<ByteStep> bytes =
        asByteStep(scope, assign->getRHS(), mentions(assign->getRHS(), var));
    if (bytes && !bytes->elements)
      return fail(what(var) + " is moved by bytes: " + bytes->why);
    if (const Expr *cast = bytes ? nullptr : integerCast(assign->getRHS()))
      return fail(what(var) + " is moved through the integer '" +
                  scope.print(cast) +
                  "': a byte offset, which gemm-opt does not prove to be a "
                  "whole number of elements");
    // The set is the obstacle: the nests beside it (a batch loop's product,
    // its operands set from a call before it) read the pointer unchanged.
    if (std::optional<std::string> why = varies(assign->getRHS(), true))
      return scope.reject(what(var) + " is set to '" +
                              scope.print(assign->getRHS()) +
                              "', which depends on " + *why +
                              ": its offset is not a function of the loop "
                              "indices",
                          false, assign),
             false;
    std::optional<Value> moved = movedFrom(assign->getRHS(), state);
    for (Stmt *&child : assign->children())
      if (child == assign->getRHS() && !execFull(child, state))
        return false;
    state[var] = moved ? *moved : Value{Value::Known, assign->getRHS(), {}, ""};
    if (moved && moved->root == var)
      state[var].root = nullptr;
    if (rewriting && slot)
      replace(*slot, new (ctx) NullStmt(assign->getBeginLoc()));
    return true;
  }

  /// Where `e` is a walked pointer that holds its own or another's value
  /// plus an offset, moved by integers (`ap1`, `A + *r`), that value moved
  /// so: followed as its root moves, not as an expression.
  std::optional<Value> movedFrom(const Expr *e, const State &state) {
    e = stripCasts(e)->IgnoreParens();
    if (const auto *sum = dyn_cast<BinaryOperator>(e);
        sum && sum->isAdditiveOp()) {
      const Expr *pointer = sum->getLHS(), *by = sum->getRHS();
      if (sum->getOpcode() == BO_Add && pointer->getType()->isIntegerType())
        std::swap(pointer, by);
      if (!by->getType()->isIntegerType() || varies(by))
        return std::nullopt;
      std::optional<Value> v = movedFrom(pointer, state);
      if (v)
        add(v->offset, times(expand(by), constant(sum->getOpcode() == BO_Sub
                                                      ? -1
                                                      : 1)));
      return v;
    }
    const VarDecl *from = walkedVar(e);
    if (!from || !isa<DeclRefExpr>(e))
      return std::nullopt;
    auto at = state.find(from);
    if (at == state.end() || at->second.base ||
        at->second.kind == Value::Unknown)
      return std::nullopt;
    Value v = at->second;
    v.root = v.root ? v.root : from;
    return v;
  }

  static const Expr *integerCast(const Stmt *s) {
    if (const auto *cast = dyn_cast<CastExpr>(s);
        cast && cast->getCastKind() == CK_PointerToIntegral)
      return cast;
    for (const Stmt *child : s->children())
      if (const Expr *found = child ? integerCast(child) : nullptr)
        return found;
    return nullptr;
  }

  /// A full expression: its reads and moves, with C's rule that a pointer
  /// moved in it is read nowhere else in it.
  bool execFull(Stmt *&slot, State &state) {
    moved.clear();
    read.clear();
    std::vector<Bump> bumps;
    if (!execExpr(slot, state, bumps))
      return false;
    for (const VarDecl *var : moved)
      if (llvm::count(moved, var) > 1 || llvm::is_contained(read, var))
        return fail(what(var) +
                    " is moved and read again in one expression, whose "
                    "order C leaves unspecified");
    for (const Bump &bump : bumps)
      if (!move(bump, state))
        return false;
    return true;
  }

  bool execExpr(Stmt *&slot, State &state, std::vector<Bump> &bumps) {
    auto *e = dyn_cast<Expr>(slot);
    if (!e)
      return true;
    if (isa<UnaryExprOrTypeTraitExpr>(e))
      return true;
    if (auto *unary = dyn_cast<UnaryOperator>(e);
        unary && unary->isIncrementDecrementOp())
      if (const VarDecl *var = walkedVar(unary->getSubExpr())) {
        if (conditional)
          return failInBranch(what(var) +
                      " is moved conditionally, so its offset is not a "
                      "function of the loop indices");
        moved.push_back(var);
        int sign = unary->isDecrementOp() ? -1 : 1;
        bumps.push_back(Bump{var, nullptr, sign});
        Value now = state[var];
        if (unary->isPrefix() && now.kind != Value::Unknown)
          add(now.offset, Term{sign, {}});
        Expr *self = ImplicitCastExpr::Create(
            ctx, unary->getType(), CK_LValueToRValue, unary->getSubExpr(),
            nullptr, VK_PRValue, FPOptionsOverride());
        return materialise(slot, now, self, var);
      }
    if (auto *cast = dyn_cast<ImplicitCastExpr>(e);
        cast && cast->getCastKind() == CK_LValueToRValue)
      if (const VarDecl *var = walkedVar(cast->getSubExpr())) {
        read.push_back(var);
        return materialise(slot, state[var], cast, var);
      }
    if (const VarDecl *var = walkedVar(e); var && isa<DeclRefExpr>(e))
      return fail("the address of " + what(var) +
                  " is taken or bound to a reference in the nest, so its "
                  "moves cannot be followed");
    // The operands after the first of `?:`, `&&` and `||` are evaluated
    // conditionally.
    bool branches = isa<ConditionalOperator>(e) ||
                    (isa<BinaryOperator>(e) &&
                     cast<BinaryOperator>(e)->isLogicalOp());
    bool first = true;
    for (Stmt *&child : e->children()) {
      bool ok = branches && !first
                    ? inBranch(e, [&] { return execExpr(child, state, bumps); })
                    : execExpr(child, state, bumps);
      if (!ok)
        return false;
      first = false;
    }
    return true;
  }

  /// Replaces the read in `slot` with `(base + offset)`.
  bool materialise(Stmt *&slot, const Value &value, Expr *self,
                   const VarDecl *var) {
    if (!rewriting)
      return true;
    if (value.kind != Value::Known)
      return fail(value.why.empty() ? what(var) + " is read before it is set"
                                    : value.why);
    for (const Stmt *loop : value.offset.counted) {
      if (llvm::is_contained(chain, loop))
        continue;
      const std::string &condition = counts(loop).precondition;
      // An inlined call's terms need not be valid before the nest.
      if (!condition.empty() && inlined)
        return fail(what(var) +
                    " is read after the loop "
                    "over " +
                    name(counts(loop).iv) +
                    " of an inlined "
                    "call, where it depends on a trip count that is not "
                    "proven >= 0 (" +
                    condition + ")");
      if (!condition.empty() &&
          !llvm::is_contained(scope.preconditions, condition))
        scope.preconditions.push_back(condition);
    }
    auto *e = cast<Expr>(slot);
    Expr *base = value.base   ? const_cast<Expr *>(value.base)
                 : value.root ? readOf(value.root, e->getBeginLoc())
                              : self;
    if (isa<ConditionalOperator, BinaryOperator>(base->IgnoreImpCasts()))
      base = new (ctx) ParenExpr(SourceLocation(), SourceLocation(), base);
    Expr *sum = BinaryOperator::Create(
        ctx, base, build(value.offset), BO_Add, e->getType(), VK_PRValue,
        OK_Ordinary, SourceLocation(), FPOptionsOverride());
    replace(slot, new (ctx) ParenExpr(e->getBeginLoc(), e->getEndLoc(), sum));
    return true;
  }

  // --- After the nest ------------------------------------------------------

  /// Whether the rewrite may leave `var` where the nest found it: it is a
  /// local of the function whose address is never taken, read nowhere
  /// after the nest, and the nest runs in no loop of the function that
  /// would read it again.
  bool diesWithNest(const VarDecl *var) {
    std::string p = what(var);
    const FunctionDecl *function = scope.function;
    if (!function || !function->getBody() ||
        !var->hasLocalStorage())
      return fail(p + " is moved by the nest and is no local of "
                      "the function, so code after the loop may read where it "
                      "stopped, which the rewrite would not set");
    const SourceManager &sm = ctx.getSourceManager();
    SourceLocation end = endOfStmt(scope.outer);
    ReadsAfter reads(var, sm, end);
    reads.TraverseStmt(function->getBody());
    if (reads.escapes)
      return fail("the address of " + p +
                  ", which the nest moves, is "
                  "taken, so code after the loop may read where it stopped, "
                  "which the rewrite would not set");
    std::optional<const Stmt *> used =
        readAfterLoop(function, unwrapLoopWrappers(scope.outer), var);
    if (const Stmt *read = used ? *used : reads.after)
      return fail(
          p + " is read after the loop (line " +
          std::to_string(sm.getPresumedLineNumber(read->getBeginLoc())) +
          "), where it holds the value the loop moved it to; the "
          "rewrite would not set it");
    // A loop around the nest that does not declare it runs the nest again
    // from where it stopped.
    std::vector<const Stmt *> around;
    std::function<bool(const Stmt *)> find = [&](const Stmt *s) {
      if (!s)
        return false;
      if (s == scope.outer || s == unwrapLoopWrappers(scope.outer))
        return true;
      bool loop = isLoop(s);
      if (loop)
        around.push_back(s);
      for (const Stmt *child : s->children())
        if (find(child))
          return true;
      if (loop)
        around.pop_back();
      return false;
    };
    find(function->getBody());
    for (const Stmt *loop : around)
      if (!loop->getSourceRange().fullyContains(var->getSourceRange()))
        return fail(
            p +
            " is moved by the nest, which runs "
            "inside the loop at line " +
            std::to_string(sm.getPresumedLineNumber(loop->getBeginLoc())) +
            ": each run starts where the last one stopped, which "
            "the rewrite would not set");
    return true;
  }
};

} // namespace mlir::gemm

PointerWalk::~PointerWalk() {
  for (auto it = undo.rbegin(); it != undo.rend(); ++it)
    *it->first = it->second;
}

bool PointerWalk::normalise() {
  return WalkRewriter(scope, &undo).runNest();
}

bool mlir::gemm::normaliseInlinedWalks(NestScope &scope,
                                       std::vector<const Stmt *> &statements) {
  std::vector<Stmt *> body;
  for (const Stmt *s : statements)
    body.push_back(const_cast<Stmt *>(s));
  Stmt *block = CompoundStmt::Create(scope.ctx, body, FPOptionsOverride(),
                                     SourceLocation(), SourceLocation());
  if (!WalkRewriter(scope, nullptr).runInlined(block))
    return false;
  auto *rewritten = cast<CompoundStmt>(block);
  statements.assign(rewritten->body_begin(), rewritten->body_end());
  return true;
}
