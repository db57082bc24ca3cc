//===- LoopNest.cpp - Walk a candidate nest -------------------------------===//
//
// Records the loops, assignments and scalar declarations of a nest, and
// rejects every statement a GEMM nest cannot contain: other control flow,
// early exits, calls and side effects the rewrite would drop.
//
//===----------------------------------------------------------------------===//

#include "BetaStore.h"
#include "CopyLanes.h"
#include "CounterSteps.h"
#include "Inline.h"
#include "PointerBounds.h"
#include "PointerWalk.h"
#include "LoopHeader.h"
#include "RealConj.h"
#include "LaneRegisters.h"
#include "LateInit.h"
#include "NullTests.h"
#include "PartialSums.h"
#include "Registers.h"
#include "Unswitch.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenACC.h"
#include "clang/AST/StmtOpenMP.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace clang;
using namespace mlir::gemm;

const Stmt *mlir::gemm::unwrapLoopWrappers(const Stmt *s) {
  while (true) {
    if (const auto *attributed = dyn_cast<AttributedStmt>(s))
      s = attributed->getSubStmt();
    else if (const auto *omp = dyn_cast<OMPLoopDirective>(s))
      s = omp->getInnermostCapturedStmt()->getCapturedStmt();
    // -fopenacc's `acc loop`, or a compute construct on one loop.
    else if (const auto *acc = dyn_cast<OpenACCLoopConstruct>(s))
      s = acc->getLoop();
    else if (const auto *acc = dyn_cast<OpenACCComputeConstruct>(s);
             acc && isLoop(unwrapLoopWrappers(acc->getStructuredBlock())))
      s = acc->getStructuredBlock();
    else if (const auto *label = dyn_cast<LabelStmt>(s);
             label && !isJumpTarget(label))
      s = label->getSubStmt();
    else
      return s;
  }
}

bool mlir::gemm::isJumpTarget(const Stmt *s) {
  // Sema marks a label used where a goto, `&&label` or `asm goto` names it.
  const auto *label = dyn_cast<LabelStmt>(s);
  return isa<SwitchCase>(s) || (label && label->getDecl()->isUsed());
}

bool mlir::gemm::holds(const Stmt *s, const Stmt *e) {
  if (s == e)
    return true;
  // An OpenMP directive's statement is not among its children().
  if (const auto *omp = dyn_cast<OMPExecutableDirective>(s);
      omp && omp->hasAssociatedStmt() &&
      holds(omp->getRawStmt(), e))
    return true;
  return llvm::any_of(s->children(), [&](const Stmt *child) {
    return child && holds(child, e);
  });
}

bool mlir::gemm::isLoop(const Stmt *s) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(s);
}

const Stmt *mlir::gemm::loopBody(const Stmt *s) {
  if (const auto *loop = dyn_cast<ForStmt>(s))
    return loop->getBody();
  if (const auto *loop = dyn_cast<WhileStmt>(s))
    return loop->getBody();
  if (const auto *loop = dyn_cast<DoStmt>(s))
    return loop->getBody();
  return cast<CXXForRangeStmt>(s)->getBody();
}

const Expr *mlir::gemm::loopTest(const Stmt *s) {
  if (const auto *loop = dyn_cast<ForStmt>(s))
    return loop->getCond();
  if (const auto *loop = dyn_cast<WhileStmt>(s))
    return loop->getCond();
  if (const auto *loop = dyn_cast<DoStmt>(s))
    return loop->getCond();
  return nullptr;
}

std::vector<Expr *> mlir::gemm::commaParts(Expr *e) {
  auto *comma = dyn_cast<BinaryOperator>(e->IgnoreParens());
  if (!comma || comma->getOpcode() != BO_Comma)
    return {e};
  std::vector<Expr *> parts = commaParts(comma->getLHS());
  llvm::append_range(parts, commaParts(comma->getRHS()));
  return parts;
}

SourceLocation mlir::gemm::endOfStmt(const Stmt *s) {
  // A `do` loop ends with its test.
  if (isLoop(s) && !isa<DoStmt>(s))
    return endOfStmt(loopBody(s));
  const Stmt *inner = unwrapLoopWrappers(s);
  return inner == s ? s->getEndLoc() : endOfStmt(inner);
}

Expr *mlir::gemm::zeroOf(ASTContext &ctx, QualType type, SourceLocation loc) {
  return FloatingLiteral::Create(
      ctx, llvm::APFloat::getZero(ctx.getFloatTypeSemantics(type)), true, type,
      loc);
}

bool mlir::gemm::isLiteral(const Expr *e, double value) {
  e = stripCasts(e);
  if (const auto *i = dyn_cast<IntegerLiteral>(e))
    return i->getValue().getLimitedValue() == value;
  if (const auto *f = dyn_cast<FloatingLiteral>(e))
    return f->getValueAsApproximateDouble() == value;
  return false;
}

const Expr *mlir::gemm::comparedWith(const Expr *cond, BinaryOperatorKind op,
                                      int literal) {
  const auto *compare = dyn_cast<BinaryOperator>(stripCasts(cond));
  if (!compare || compare->getOpcode() != op)
    return nullptr;
  if (isLiteral(compare->getRHS(), literal))
    return compare->getLHS();
  if (isLiteral(compare->getLHS(), literal))
    return compare->getRHS();
  return nullptr;
}

std::vector<std::pair<size_t, VarDecl *>>
mlir::gemm::localArrays(ArrayRef<const Stmt *> statements) {
  std::vector<std::pair<size_t, VarDecl *>> arrays;
  for (size_t n = 0; n < statements.size(); ++n)
    if (const auto *decl = dyn_cast<DeclStmt>(statements[n]))
      for (Decl *d : decl->decls())
        if (auto *var = dyn_cast<VarDecl>(d);
            var && var->hasLocalStorage() && var->getType()->isArrayType())
          arrays.emplace_back(n, var);
  return arrays;
}

namespace {

/// `e` and its callee if `e` calls, with `args` arguments, a named function
/// of std or of the global namespace (where the C library's are), else
/// nulls: a user's own `max` in a namespace may do anything.
std::pair<const CallExpr *, const FunctionDecl *>
libraryCall(const Expr *e, unsigned args) {
  const auto *call = dyn_cast<CallExpr>(stripCasts(e));
  const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  if (!callee || !callee->getIdentifier() || call->getNumArgs() != args ||
      !(callee->isInStdNamespace() ||
        callee->getDeclContext()->getRedeclContext()->isTranslationUnit()))
    return {nullptr, nullptr};
  return {call, callee};
}

} // namespace

std::optional<MinMaxCall> mlir::gemm::asMinMaxCall(const Expr *e) {
  auto [call, callee] = libraryCall(e, 2);
  if (!callee)
    return std::nullopt;
  StringRef name = callee->getName();
  bool isStd = callee->isInStdNamespace() && (name == "max" || name == "min");
  if (!isStd && !llvm::is_contained({"fmaxf", "fminf", "fmax", "fmin", "fmaxl",
                                     "fminl"},
                                    name))
    return std::nullopt;
  return MinMaxCall{name.contains("min"), isStd, stripCasts(call->getArg(0)),
                    stripCasts(call->getArg(1))};
}

std::optional<MathCall> mlir::gemm::asMathCall(const Expr *e) {
  auto [call, callee] = libraryCall(e, 1);
  if (!callee)
    return std::nullopt;
  StringRef name = callee->getName();
  for (StringRef base : {"tanh", "exp", "erf", "sqrt"})
    if (name == base || name == (base + "f").str() ||
        name == (base + "l").str())
      return MathCall{base, call->getArg(0), call};
  return std::nullopt;
}

namespace {

/// Why a nest that calls a library function (one the inliner keeps: std,
/// system headers) is not rewritten: a floating-point math function is no
/// function the epilogue computes; any other may have effects (memory,
/// output, errno) that the launch would not have.
std::string libraryCallObstacle(const CallExpr *call,
                                const FunctionDecl *callee) {
  std::string name =
      "'" + (callee ? callee->getNameAsString() : std::string("?")) + "'";
  if (callee && callee->getBuiltinID() &&
      call->getType()->isRealFloatingType())
    return "the nest applies " + name +
           ", which no epilogue of the GEMM computes (it has the clamps, "
           "tanh, sigmoid and GELU)";
  return "the nest calls the library function " + name +
         ", whose effects (on memory, output or errno) gemm-opt does not "
         "model, so the launch could not keep them";
}

/// Rejects expressions with effects besides the recorded assignment: calls
/// (other than a standard container's operator[], data() and size(), the pure min
/// and max of asMinMaxCall and the libm calls of asMathCall), nested
/// assignments, increments.
bool checkPure(const Expr *e, NestScope &scope, bool peelable) {
  if (!e)
    return true;
  // Complex helpers of real values (RealConj.cpp).
  if (const Expr *real = realPart(e))
    return checkPure(real, scope, peelable);
  if (std::optional<std::string> complex = complexObstacle(e)) {
    scope.reject(*complex, peelable);
    return false;
  }
  if (const auto *call = dyn_cast<CallExpr>(e);
      call && !asMinMaxCall(call) && !asMathCall(call)) {
    const FunctionDecl *callee = call->getDirectCallee();
    bool vectorAccessor = false;
    if (const auto *method = dyn_cast_or_null<CXXMethodDecl>(callee)) {
      StringRef name = method->getOverloadedOperator() == OO_Subscript
                           ? "operator[]"
                           : (method->getIdentifier() ? method->getName() : "");
      vectorAccessor =
          isStdContainer(QualType(method->getParent()->getTypeForDecl(), 0)) &&
          (name == "operator[]" || name == "data" || name == "size");
    }
    if (!vectorAccessor) {
      scope.reject(libraryCallObstacle(call, callee), peelable);
      return false;
    }
  } else if (const auto *unary = dyn_cast<UnaryOperator>(e)) {
    if (unary->isIncrementDecrementOp()) {
      scope.reject("'" + scope.print(unary->getSubExpr()) +
                       "' is stepped in the nest ('" + scope.print(unary) +
                       "'), an effect beside the product's that the launch "
                       "would not have",
                   peelable);
      return false;
    }
  } else if (const auto *binary = dyn_cast<BinaryOperator>(e)) {
    if (binary->isAssignmentOp() || binary->isCompoundAssignmentOp()) {
      scope.reject("assignment inside an expression in the nest body",
                   peelable);
      return false;
    }
  }
  for (const Stmt *child : e->children())
    if (!checkPure(dyn_cast_or_null<Expr>(child), scope, peelable))
      return false;
  return true;
}

class Walker {
public:
  explicit Walker(NestScope &scope) : scope(scope) {}

  /// The outermost loop starts from `value`, set before the nest.
  void startOuter(const Expr *value) {
    starts[unwrapLoopWrappers(scope.outer)] = value;
  }

  bool walk(const Stmt *s) {
    s = unwrapLoopWrappers(s);
    if (s == scope.side)
      return true;
    llvm::SaveAndRestore at(scope.walking, s);
    // Around a product through a temporary, only loops and blocks lead to
    // its K loop, which then runs once per iteration of its loops.
    if (aroundTemporary() && !isa<CompoundStmt>(s) && !isLoop(s))
      return fail("the K loop runs under a branch, not once per iteration "
                  "of the loops around it",
                  false);
    // A statement that is not inside any inner loop of the outermost one can
    // be peeled: the nests below it may still be GEMMs.
    bool peelable = enclosing.size() <= 1;
    if (const auto *block = dyn_cast<CompoundStmt>(s))
      return walkBlock({block->body_begin(), block->body_end()});
    if (isLoop(s))
      return walkLoop(s, -1);
    if (isa<NullStmt>(s))
      return true;
    // Calls whose bodies are visible read as their bodies (Inline.cpp),
    // with their counters stepped at the ends of their loops
    // (CounterSteps.cpp) and the pointers they walk read as offsets
    // (PointerWalk.cpp).
    if (std::vector<const Stmt *> inlined; isa<DeclStmt, Expr>(s)) {
      if (!inlineCalls(scope, s, inlined))
        return scope.rejection->peelable = peelable, false;
      CounterSteps::sinkInlined(scope, inlined);
      if (!normaliseInlinedWalks(scope, inlined))
        return scope.rejection->peelable = peelable, false;
      if (!inlined.empty())
        return walkBlock(inlined);
    }
    if (const auto *decl = dyn_cast<DeclStmt>(s))
      return walkDecl(decl, peelable);
    if (const auto *e = dyn_cast<Expr>(s))
      return walkExpr(e->IgnoreImplicit(), peelable);
    if (const auto *branch = dyn_cast<IfStmt>(s)) {
      // The arm that a versioned nest fixes (Unswitch.cpp).
      if (std::optional<bool> value = assumedValue(branch->getCond())) {
        const Stmt *arm = *value ? branch->getThen() : branch->getElse();
        return !arm || walk(arm);
      }
      if (const Stmt *arm = foldBetaStore(branch, scope))
        return walk(arm);
      return comparedWith(branch->getCond(), BO_NE, 0)
                 ? walkZeroSkip(branch, peelable)
                 : walkBetaBranch(branch, peelable);
    }
    if (const auto *choice = dyn_cast<SwitchStmt>(s)) {
      // The case that a versioned nest fixes (Unswitch.cpp).
      if (auto run = assumedCase(choice, choice->getCond(), scope))
        return walkBlock(*run);
      return fail(unversionedSwitch(choice, "the nest",
                                    scope.print(choice->getCond()), scope.ctx),
                  peelable);
    }
    return fail(describe(s), peelable);
  }

private:
  NestScope &scope;
  std::vector<int> enclosing;
  unsigned order = 0;
  /// The start of each loop that continues from a value set before it.
  llvm::DenseMap<const Stmt *, const Expr *> starts;
  /// Whether the walk is inside scope.temporary.
  bool inTemporary = false;

  bool aroundTemporary() const { return scope.temporary && !inTemporary; }

  /// A statement beside the loops around a product through a temporary:
  /// it runs as written, and only its declarations concern the product
  /// (they are locals of the nest, which A and B cannot be read through
  /// unless substituted).
  void beside(const Stmt *s) {
    if (const auto *decl = dyn_cast<DeclStmt>(s))
      for (const Decl *d : decl->decls())
        if (const auto *var = dyn_cast<VarDecl>(d))
          scope.locals.push_back({var, enclosing, order++});
  }

  bool fail(const std::string &reason, bool peelable) {
    scope.reject(reason, peelable);
    return false;
  }

  std::string describe(const Stmt *s) const {
    if (isa<BreakStmt>(s))
      return "early exit ('break') in the nest";
    if (isa<ContinueStmt>(s))
      return "early exit ('continue') in the nest";
    if (isa<ReturnStmt>(s))
      return "early exit ('return') in the nest";
    if (isa<GotoStmt, IndirectGotoStmt, LabelStmt>(s))
      return describeJump(s);
    if (isa<IfStmt>(s) || isa<ConditionalOperator>(s))
      return "conditional control flow in the nest body";
    return std::string("a statement ('") + s->getStmtClassName() +
           "') whose effects on the nest's data gemm-opt does not model";
  }

  /// A jump in the nest, or a label that one names (a label no jump names
  /// is no statement of its own, see unwrapLoopWrappers): where it goes.
  std::string describeJump(const Stmt *s) const {
    if (isa<IndirectGotoStmt>(s))
      return "a computed 'goto' in the nest may jump out of it or within it";
    if (const auto *jump = dyn_cast<GotoStmt>(s))
      return "'goto " + jump->getLabel()->getNameAsString() + "' jumps " +
             (holds(scope.outer, jump->getLabel()->getStmt()) ? "within"
                                                              : "out of") +
             " the nest";
    const LabelDecl *label = cast<LabelStmt>(s)->getDecl();
    const Stmt *body = scope.function ? scope.function->getBody() : nullptr;
    return "label '" + label->getNameAsString() + "' is the target of " +
           (!body || namedOutside(body, label, scope.outer)
                ? "a jump from outside the nest, which enters it there"
                : "a 'goto' within the nest");
  }

  /// Whether a `goto` or `&&label` in `s` but not in `nest` names `label`.
  static bool namedOutside(const Stmt *s, const LabelDecl *label,
                           const Stmt *nest) {
    if (s == nest)
      return false;
    if (const auto *jump = dyn_cast<GotoStmt>(s);
        jump && jump->getLabel() == label)
      return true;
    if (const auto *address = dyn_cast<AddrLabelExpr>(s);
        address && address->getLabel() == label)
      return true;
    return llvm::any_of(s->children(), [&](const Stmt *child) {
      return child && namedOutside(child, label, nest);
    });
  }

  /// `if (beta == 0) <C = 0> [else if (beta != 1) <C *= beta>]`, each branch
  /// one write of C (in a loop or not), beta loop-invariant (`*beta` is
  /// checked by the contraction, once the walk knows what the nest writes).
  /// The contraction folds the pair into one scaling of C by beta, with
  /// BLAS's rule that beta == 0 never reads C.
  bool walkBetaBranch(const IfStmt *branch, bool peelable) {
    const Expr *beta = comparedWith(branch->getCond(), BO_EQ, 0);
    const auto *other = dyn_cast_or_null<IfStmt>(branch->getElse());
    const Expr *notOne =
        other ? comparedWith(other->getCond(), BO_NE, 1) : nullptr;
    const auto *read =
        beta ? dyn_cast<UnaryOperator>(beta->IgnoreParenImpCasts()) : nullptr;
    bool shaped =
        beta && !branch->getInit() && !branch->getConditionVariable() &&
        (scope.isInvariant(beta) ||
         (read && read->getOpcode() == UO_Deref &&
          scope.isInvariant(read->getSubExpr()))) &&
        (!branch->getElse() ||
         (notOne && !other->getElse() && !other->getInit() &&
          !other->getConditionVariable() &&
          scope.print(notOne) == scope.print(beta)));
    if (!shaped)
      return fail(describe(branch), peelable);
    size_t zero = scope.writes.size();
    if (!walk(branch->getThen()))
      return false;
    if (other && !walk(other->getThen()))
      return false;
    if (scope.writes.size() != zero + (other ? 2 : 1))
      return fail("the branches on '" + scope.print(beta) +
                      "' must each write one element of C",
                  peelable);
    scope.betaBranches.push_back(
        {zero, other ? std::optional<size_t>(zero + 1) : std::nullopt, beta});
    return true;
  }

  /// `if (x != 0) <body>`, no else, as reference BLAS skips zero terms:
  /// x must be a factor of every product that the body accumulates into
  /// memory (directly or through a scalar the body assigns), so a skipped
  /// term is x * y = 0 unless y is Inf or NaN. A scalar the body assigns
  /// must not be read outside it.
  bool walkZeroSkip(const IfStmt *branch, bool peelable) {
    const Expr *x = comparedWith(branch->getCond(), BO_NE, 0);
    if (branch->getElse() || branch->getInit() ||
        branch->getConditionVariable() || !x->getType()->isRealFloatingType())
      return fail(describe(branch), peelable);
    if (!checkPure(x, scope, peelable))
      return false;
    size_t first = scope.writes.size();
    if (!walk(branch->getThen()))
      return false;
    std::string factor = scope.print(stripCasts(x));
    for (size_t w = first; w < scope.writes.size(); ++w) {
      const Write &write = scope.writes[w];
      if (const VarDecl *var = referencedVar(write.lhs)) {
        if (readOutside(var, branch))
          return fail("'" + var->getNameAsString() + "' is set under 'if (" +
                          factor + " != 0)' and read outside it",
                      peelable);
        continue;
      }
      const Expr *term = accumulatedTerm(write);
      if (!term || !hasFactor(term, factor, first))
        return fail("'if (" + factor + " != 0)' guards '" +
                        scope.print(write.lhs) +
                        "', which does not accumulate a product with '" +
                        factor + "' as a factor",
                    peelable);
    }
    scope.zeroSkips.push_back(factor);
    return true;
  }

  /// What `write` adds to its target: the right side of += or -=, or P of
  /// `x = x + P` (either order); null otherwise.
  const Expr *accumulatedTerm(const Write &write) const {
    if (write.op == BO_AddAssign || write.op == BO_SubAssign)
      return write.rhs;
    const auto *sum = dyn_cast<BinaryOperator>(stripCasts(write.rhs));
    if (write.op != BO_Assign || !sum ||
        (sum->getOpcode() != BO_Add && sum->getOpcode() != BO_Sub))
      return nullptr;
    std::string target = scope.print(write.lhs);
    if (scope.print(stripCasts(sum->getLHS())) == target)
      return sum->getRHS();
    if (sum->getOpcode() == BO_Add &&
        scope.print(stripCasts(sum->getRHS())) == target)
      return sum->getLHS();
    return nullptr;
  }

  /// Whether `factor` multiplies `e`: e itself, a factor of a product or a
  /// negation, or of the value of a scalar that e names (its initialiser in
  /// the nest, or its assignment from writes[first] on).
  bool hasFactor(const Expr *e, const std::string &factor,
                 size_t first) const {
    e = stripCasts(e);
    if (scope.print(e) == factor)
      return true;
    if (const auto *mul = dyn_cast<BinaryOperator>(e);
        mul && mul->getOpcode() == BO_Mul)
      return hasFactor(mul->getLHS(), factor, first) ||
             hasFactor(mul->getRHS(), factor, first);
    if (const auto *neg = dyn_cast<UnaryOperator>(e);
        neg && neg->getOpcode() == UO_Minus)
      return hasFactor(neg->getSubExpr(), factor, first);
    const VarDecl *var = referencedVar(e);
    if (!var)
      return false;
    if (scope.findLocal(var) && var->getInit())
      return hasFactor(var->getInit(), factor, first);
    for (size_t w = first; w < scope.writes.size(); ++w)
      if (referencedVar(scope.writes[w].lhs) == var &&
          scope.writes[w].op == BO_Assign)
        return hasFactor(scope.writes[w].rhs, factor, first);
    return false;
  }

  /// Whether the nest reads `var` outside `branch`.
  bool readOutside(const VarDecl *var, const IfStmt *branch) const {
    return refersOutside(scope.outer, var, branch);
  }

  static bool refersOutside(const Stmt *s, const VarDecl *var,
                            const Stmt *inside) {
    if (!s || s == inside)
      return false;
    if (const auto *ref = dyn_cast<DeclRefExpr>(s); ref && ref->getDecl() == var)
      return true;
    return llvm::any_of(s->children(), [&](const Stmt *child) {
      return refersOutside(child, var, inside);
    });
  }

  /// A block's statements as the walk reads them: a block of C kept in an
  /// array as scalars (LaneRegisters.cpp); step registers as their
  /// values and register accumulators as their elements (Registers.cpp);
  /// pointers declared where first set (LateInit.cpp); tests of a moved
  /// pointer for null as launch conditions (NullTests.cpp); an accumulator per
  /// copy as a scalar in a loop over the copies (CopyLanes.cpp); partial
  /// sums of one sum read as that sum (PartialSums.cpp).
  void normaliseBlock(std::vector<const Stmt *> &statements) {
    readAssumedCases(scope, statements);
    splitLaneRegisters(scope, statements);
    readRegisters(scope, statements);
    declareWhereSet(scope, statements);
    readNullTests(scope, statements);
    readCopyLanes(scope, statements);
    readPartialSums(scope, statements);
  }

  /// Statements in order. A statement that starts a loop's induction
  /// variable (`int k = 0;` before `while (k < K)`) is the loop's start, not
  /// a statement of the nest; a loop knows the loop just before it (the
  /// unrolled loop that a remainder loop continues).
  bool walkBlock(ArrayRef<const Stmt *> block) {
    std::vector<const Stmt *> statements(block.begin(), block.end());
    if (!aroundTemporary())
      normaliseBlock(statements);
    int previous = -1;
    for (size_t n = 0; n < statements.size(); ++n) {
      const Stmt *s = unwrapLoopWrappers(statements[n]);
      if (isa<NullStmt>(s))
        continue;
      if (auto [loop, value] = startOfLoop(statements, n); loop) {
        starts[loop] = value;
        continue;
      }
      if (aroundTemporary() && !holds(s, scope.temporary)) {
        beside(s);
        continue;
      }
      if (isLoop(s)) {
        int index = scope.sourceLoops.size();
        if (!walkLoop(s, previous))
          return false;
        previous = index;
        continue;
      }
      if (!walk(s))
        return false;
      previous = -1;
    }
    return true;
  }

  bool walkLoop(const Stmt *s, int previous) {
    // An outermost loop that counts nothing (a convergence `while`) may
    // hold GEMM nests of its own: it is peeled.
    bool outermost = enclosing.empty();
    std::optional<SourceLoop> parsed = parseLoop(s, scope, starts.lookup(s));
    if (!parsed)
      return scope.rejection->peelable = outermost, false;
    std::string name = "'" + parsed->iv->getNameAsString() + "'";
    parsed->parent = outermost ? -1 : enclosing.back();
    parsed->previous = previous;
    if (!parsed->start) {
      if (previous < 0 || scope.sourceLoops[previous].iv != parsed->iv)
        return fail("the loop over " + name + " starts from the value " +
                        name + " holds before it, which no statement just "
                        "before it in its block sets",
                    outermost);
      parsed->follows = previous;
    }
    // A `for` that declares other variables than its counter (the pointer
    // it runs to an end, and the end) declares them ahead of the loop; one
    // that runs a pointer to an end sets what its init sets (`xx = *C`)
    // there too.
    if (const auto *f = dyn_cast<ForStmt>(s)) {
      if (const auto *decl = dyn_cast_or_null<DeclStmt>(f->getInit());
          decl && llvm::none_of(decl->decls(), [&](const Decl *d) {
            return d == parsed->iv;
          }) && !walkDecl(decl, outermost))
        return false;
      if (const auto *init = dyn_cast_or_null<Expr>(f->getInit());
          init && f->getCond() && comparesPointers(f->getCond()))
        for (const Expr *part : commaParts(const_cast<Expr *>(init)))
          if (!walkExpr(part, outermost))
            return false;
    }
    int index = scope.sourceLoops.size();
    llvm::SaveAndRestore inside(inTemporary,
                                inTemporary || s == scope.temporary);
    if (!aroundTemporary())
      normaliseBlock(parsed->body);
    // What the normalisations emptied is no statement of the body: copies
    // of an unrolled or jammed body are counted without it.
    llvm::erase_if(parsed->body,
                   [](const Stmt *s) { return isa<NullStmt>(s); });
    std::vector<const Stmt *> body = parsed->body;
    scope.written.insert(parsed->iv);
    scope.sourceLoops.push_back(std::move(*parsed));
    enclosing.push_back(index);
    bool ok = walkBlock(body);
    enclosing.pop_back();
    return ok;
  }

  bool walkDecl(const DeclStmt *decl, bool peelable) {
    for (const Decl *d : decl->decls()) {
      // `using std::max;` in an inlined helper names, and does nothing.
      if (isa<UsingDecl, UsingDirectiveDecl>(d))
        continue;
      const auto *var = dyn_cast<VarDecl>(d);
      // Pointers may be declared (row pointers, forward-substituted by the
      // accesses); writing one later is rejected with the other writes.
      if (!var)
        return fail("declaration of a non-variable inside the nest", peelable);
      QualType type = var->getType();
      if (auto lanes = scope.laneObstacles.find(var);
          lanes != scope.laneObstacles.end())
        return fail(lanes->second, peelable);
      if (!(type->isArithmeticType() ||
            (type->isPointerType() && var->getInit())))
        return fail("declaration of '" + var->getNameAsString() + "' ('" +
                        type.getAsString() +
                        (type->isPointerType() ? "') without an initialiser"
                                               : "'), which is not a scalar,") +
                        " inside the nest",
                    peelable);
      if (!checkPure(var->getInit(), scope, peelable))
        return false;
      scope.locals.push_back({var, enclosing, order++});
    }
    return true;
  }

  bool walkExpr(const Expr *e, bool peelable) {
    // A bound temporary's value is substituted where it is read.
    if (llvm::is_contained(scope.boundAssignments, e))
      return true;
    const auto *assign = dyn_cast<BinaryOperator>(e);
    if (!assign || !(assign->isAssignmentOp() ||
                     assign->isCompoundAssignmentOp())) {
      if (isa<CallExpr>(e))
        return checkPure(e, scope, peelable);
      if (const auto *unary = dyn_cast<UnaryOperator>(e);
          unary && unary->isIncrementDecrementOp())
        return checkPure(e, scope, peelable);
      // A statement without effects (`(void)x;`) changes nothing.
      if (!e->HasSideEffects(scope.ctx))
        return true;
      return fail("the statement '" + scope.print(e) +
                      "' has effects that gemm-opt does not model (only "
                      "assignments, increments and calls are read)",
                  peelable);
    }
    if (!checkPure(assign->getRHS(), scope, peelable))
      return false;
    const Expr *lhs = stripCasts(assign->getLHS());
    if (const auto *ref = dyn_cast<DeclRefExpr>(lhs)) {
      const auto *var = dyn_cast<VarDecl>(ref->getDecl());
      if (var && var->getType()->isPointerType())
        return fail("pointer '" + scope.print(lhs) +
                        "' is written inside the nest",
                    peelable);
      if (!var || !var->getType()->isArithmeticType())
        return fail("assignment to '" + scope.print(lhs) + "' in the nest",
                    peelable);
      scope.written.insert(var);
    } else if (!isMemoryAccess(lhs)) {
      return fail("assignment to '" + scope.print(lhs) +
                      "', which is neither an array element nor a scalar",
                  peelable);
    }
    scope.writes.push_back({lhs, assign->getRHS(), assign->getOpcode(),
                            enclosing, order++, {}, scope.walking});
    return true;
  }
};

} // namespace

/// True if `value`, computed where a loop's counter is set, still has its
/// value after `between`, which run before the loop: they assign none of
/// its variables, and (unless it names none) write no memory, call nothing
/// and construct nothing, through which a variable or element it reads
/// might change. In the function whose body is `body`, where given, they
/// may store floating-point values where `value` reads only integers and
/// pointers (`ap1 = A + *r`).
static bool keepsValue(const Expr *value, ArrayRef<const Stmt *> between,
                       const Stmt *body = nullptr) {
  struct Effects : RecursiveASTVisitor<Effects> {
    std::vector<const VarDecl *> vars;
    bool found = false;
    bool VisitDeclRefExpr(DeclRefExpr *ref) {
      if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()))
        vars.push_back(var);
      return true;
    }
    bool VisitStmt(Stmt *s) {
      found |= isa<CXXConstructExpr, CXXNewExpr, CXXDeleteExpr, CXXThrowExpr,
                   AsmStmt>(s);
      return true;
    }
  } read;
  read.TraverseStmt(const_cast<Expr *>(value));
  return llvm::all_of(between, [&](const Stmt *s) {
    Effects effects;
    effects.TraverseStmt(const_cast<Stmt *>(s));
    if (!read.vars.empty() &&
        (effects.found ||
         (writesMemory(s) && !(body && keptByFloatStores(value) &&
                               storesOnlyFloats(s, body)))))
      return false;
    return llvm::none_of(read.vars,
                         [&](const VarDecl *var) { return assigns(s, var); });
  });
}

/// The (variable, value) pairs that `s` sets: a declaration's initialised
/// variables, or an assignment's; integers only where `integers`.
static std::vector<std::pair<const VarDecl *, const Expr *>>
setsOf(const Stmt *s, bool integers = true) {
  std::vector<std::pair<const VarDecl *, const Expr *>> sets;
  if (const auto *decl = dyn_cast<DeclStmt>(s)) {
    for (const Decl *d : decl->decls())
      if (const auto *var = dyn_cast<VarDecl>(d); var && var->getInit())
        sets.emplace_back(var, var->getInit());
  } else if (const auto *assign = dyn_cast<BinaryOperator>(s);
             assign && assign->getOpcode() == BO_Assign) {
    if (const VarDecl *var = referencedVar(assign->getLHS()))
      sets.emplace_back(var, assign->getRHS());
  }
  llvm::erase_if(sets, [&](const auto &set) {
    return integers && !set.first->getType()->isIntegerType();
  });
  return sets;
}

/// The test of a loop that may continue from a value set before it (a
/// `while`, a `do`, a `for` without a start of its own), or null.
static const Expr *continuedTest(const Stmt *loop) {
  const auto *f = dyn_cast<ForStmt>(loop);
  return f && f->getInit() ? nullptr : loopTest(loop);
}

/// The loop after statements[n] that starts from `var`'s value there, or
/// null.
static const Stmt *loopStartedBy(ArrayRef<const Stmt *> statements, size_t n,
                                 const VarDecl *var, const Expr *value) {
  for (size_t m = n + 1; m < statements.size(); ++m) {
    const Stmt *next = unwrapLoopWrappers(statements[m]);
    if (!mentions(next, var))
      continue;
    const Expr *cond = continuedTest(next);
    return cond && mentions(cond, var) &&
                   keepsValue(value, statements.slice(n + 1, m - n - 1))
               ? next
               : nullptr;
  }
  return nullptr;
}

std::pair<const Stmt *, const Expr *>
mlir::gemm::startOfLoop(ArrayRef<const Stmt *> statements, size_t n) {
  // A declaration of several variables (`unsigned i = 0, row = m;`) starts
  // the loop of any of them.
  for (auto [var, value] : setsOf(statements[n]))
    if (const Stmt *loop = loopStartedBy(statements, n, var, value))
      return {loop, value};
  return {nullptr, nullptr};
}

LoopStart mlir::gemm::startAbove(ArrayRef<const Stmt *> enclosing,
                                 const Stmt *loop) {
  const Expr *test = continuedTest(loop);
  if (!test)
    return {};
  return setAhead(enclosing, loop, [&](const VarDecl *var) {
    return var->getType()->isIntegerType() && mentions(test, var);
  });
}

LoopStart mlir::gemm::setAhead(ArrayRef<const Stmt *> enclosing,
                               const Stmt *loop,
                               llvm::function_ref<bool(const VarDecl *)> wanted) {
  // Whether `before`, which runs ahead of the loop and of `between`, sets
  // a wanted variable to a value that it still has at the loop (`x = x +
  // 1;` leaves x a value that x + 1 no longer has): then `found`.
  std::vector<const Stmt *> between;
  LoopStart found;
  const Stmt *body = enclosing.empty() ? nullptr : enclosing.front();
  // A statement between that names the variable changes it where it
  // assigns it, or might through its address.
  auto changes = [&](const Stmt *t, const VarDecl *var) {
    return mentions(t, var) &&
           (assigns(t, var) || !body || reachable(var, body));
  };
  auto sets = [&](const Stmt *before) {
    for (auto [var, value] : setsOf(before, false))
      if (wanted(var) && !mentions(value, var) &&
          llvm::none_of(between,
                        [&](const Stmt *t) { return changes(t, var); }) &&
          keepsValue(value, between, body)) {
        found = {before, value};
        return true;
      }
    between.push_back(before);
    return false;
  };
  // A `for`'s init runs last before it, part by part.
  if (const auto *f = dyn_cast<ForStmt>(loop); f && f->getInit()) {
    std::vector<const Stmt *> parts{f->getInit()};
    if (auto *e = dyn_cast<Expr>(const_cast<Stmt *>(f->getInit()))) {
      std::vector<Expr *> list = commaParts(e);
      parts.assign(list.begin(), list.end());
    }
    if (llvm::any_of(llvm::reverse(parts), sets))
      return found;
  }
  // Outward from the loop: what runs before it at each level, nearest
  // first, until a statement names a wanted variable.
  const Stmt *child = loop;
  for (size_t e = enclosing.size(); e-- > 0; child = enclosing[e]) {
    const Stmt *s = enclosing[e];
    // A loop around runs all of itself again before the next time.
    if (isLoop(s) && loopBody(s) == child) {
      between.push_back(s);
      continue;
    }
    if (const auto *branch = dyn_cast<IfStmt>(s)) {
      if (branch->getInit() || branch->getConditionVariable() ||
          (branch->getThen() != child && branch->getElse() != child))
        return {};
      between.push_back(branch->getCond());
      continue;
    }
    const auto *block = dyn_cast<CompoundStmt>(s);
    if (!block)
      return {};
    ArrayRef<const Stmt *> statements(block->body_begin(), block->body_end());
    auto at = llvm::find_if(statements, [&](const Stmt *t) {
      return t == child || unwrapLoopWrappers(t) == child;
    });
    if (at == statements.end())
      return {};
    for (size_t n = at - statements.begin(); n-- > 0;) {
      if (isJumpTarget(statements[n]))
        return {};
      if (sets(statements[n]))
        return found;
    }
  }
  return {};
}

bool mlir::gemm::walkNest(NestScope &scope) {
  Walker walker(scope);
  if (scope.outerStart.statement)
    walker.startOuter(scope.outerStart.value);
  bool walked = walker.walk(scope.outer);
  scope.walking = nullptr;
  return walked;
}
