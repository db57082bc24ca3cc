//===- LoopNest.cpp - Walk a candidate nest -------------------------------===//
//
// Records the loops, assignments and scalar declarations of a nest, and
// rejects every statement a GEMM nest cannot contain: other control flow,
// early exits, calls and side effects the rewrite would drop.
//
//===----------------------------------------------------------------------===//

#include "NestScope.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"

using namespace clang;
using namespace mlir::gemm;

const Stmt *mlir::gemm::unwrapLoopWrappers(const Stmt *s) {
  while (true) {
    if (const auto *attributed = dyn_cast<AttributedStmt>(s))
      s = attributed->getSubStmt();
    else if (const auto *omp = dyn_cast<OMPLoopDirective>(s))
      s = omp->getInnermostCapturedStmt()->getCapturedStmt();
    else
      return s;
  }
}

SourceLocation mlir::gemm::endOfStmt(const Stmt *s) {
  if (const auto *loop = dyn_cast<ForStmt>(s))
    return endOfStmt(loop->getBody());
  const Stmt *inner = unwrapLoopWrappers(s);
  return inner == s ? s->getEndLoc() : endOfStmt(inner);
}

bool mlir::gemm::isLiteral(const Expr *e, double value) {
  e = stripCasts(e);
  if (const auto *i = dyn_cast<IntegerLiteral>(e))
    return i->getValue().getLimitedValue() == value;
  if (const auto *f = dyn_cast<FloatingLiteral>(e))
    return f->getValueAsApproximateDouble() == value;
  return false;
}

namespace {

bool isUnitLiteral(const Expr *e) {
  const auto *lit = dyn_cast<IntegerLiteral>(stripCasts(e));
  return lit && lit->getValue() == 1;
}

/// Matches `for (iv = L; iv < U; ++iv)` in its accepted spellings.
std::optional<Loop> parseLoop(const ForStmt *loop, NestScope &scope) {
  const VarDecl *iv = nullptr;
  const Expr *lower = nullptr;
  if (const auto *decl = dyn_cast_or_null<DeclStmt>(loop->getInit())) {
    if (decl->isSingleDecl())
      if ((iv = dyn_cast<VarDecl>(decl->getSingleDecl())))
        lower = iv->getInit();
  } else if (const auto *assign =
                 dyn_cast_or_null<BinaryOperator>(loop->getInit())) {
    if (assign->getOpcode() == BO_Assign) {
      iv = referencedVar(assign->getLHS());
      lower = assign->getRHS();
    }
  }
  std::string header = "unsupported loop header: the induction variable must "
                       "start at a bound, be compared with <, <= or != and "
                       "step by +1";
  if (!iv || !lower || !iv->getType()->isIntegerType())
    return scope.reject(header);

  const auto *cond = dyn_cast_or_null<BinaryOperator>(
      loop->getCond() ? loop->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!cond)
    return scope.reject(header);
  const Expr *upper = nullptr;
  bool inclusive = false;
  BinaryOperatorKind op = cond->getOpcode();
  if (referencedVar(cond->getLHS()) == iv &&
      (op == BO_LT || op == BO_LE || op == BO_NE)) {
    upper = cond->getRHS();
    inclusive = op == BO_LE;
  } else if (referencedVar(cond->getRHS()) == iv &&
             (op == BO_GT || op == BO_GE || op == BO_NE)) {
    upper = cond->getLHS();
    inclusive = op == BO_GE;
  }
  if (!upper)
    return scope.reject(header);

  const Expr *inc = loop->getInc() ? loop->getInc()->IgnoreParenImpCasts()
                                   : nullptr;
  bool unitStep = false;
  if (const auto *unary = dyn_cast_or_null<UnaryOperator>(inc)) {
    unitStep = unary->isIncrementOp() && referencedVar(unary->getSubExpr()) == iv;
  } else if (const auto *binary = dyn_cast_or_null<BinaryOperator>(inc)) {
    if (binary->getOpcode() == BO_AddAssign)
      unitStep = referencedVar(binary->getLHS()) == iv &&
                 isUnitLiteral(binary->getRHS());
    else if (binary->getOpcode() == BO_Assign)
      if (const auto *sum = dyn_cast<BinaryOperator>(
              binary->getRHS()->IgnoreParenImpCasts()))
        unitStep = referencedVar(binary->getLHS()) == iv &&
                   sum->getOpcode() == BO_Add &&
                   ((referencedVar(sum->getLHS()) == iv &&
                     isUnitLiteral(sum->getRHS())) ||
                    (referencedVar(sum->getRHS()) == iv &&
                     isUnitLiteral(sum->getLHS())));
  }
  if (!unitStep)
    return scope.reject(header);
  return Loop{loop, iv, lower, upper, inclusive};
}

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

/// Rejects expressions with effects besides the recorded assignment: calls
/// (other than std::vector's operator[], data() and size(), the pure min
/// and max of asMinMaxCall and the libm calls of asMathCall), nested
/// assignments, increments.
bool checkPure(const Expr *e, NestScope &scope, bool peelable) {
  if (!e)
    return true;
  if (const auto *call = dyn_cast<CallExpr>(e);
      call && !asMinMaxCall(call) && !asMathCall(call)) {
    const FunctionDecl *callee = call->getDirectCallee();
    bool vectorAccessor = false;
    if (const auto *method = dyn_cast_or_null<CXXMethodDecl>(callee)) {
      const CXXRecordDecl *record = method->getParent();
      StringRef name = method->getOverloadedOperator() == OO_Subscript
                           ? "operator[]"
                           : (method->getIdentifier() ? method->getName() : "");
      vectorAccessor = record->isInStdNamespace() &&
                       record->getName() == "vector" &&
                       (name == "operator[]" || name == "data" || name == "size");
    }
    if (!vectorAccessor) {
      scope.reject("call to '" +
                       (callee ? callee->getNameAsString() : std::string("?")) +
                       "' in the nest body",
                   peelable);
      return false;
    }
  } else if (const auto *unary = dyn_cast<UnaryOperator>(e)) {
    if (unary->isIncrementDecrementOp()) {
      scope.reject("increment of '" + scope.print(unary->getSubExpr()) +
                       "' in the nest body",
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

  bool walk(const Stmt *s) {
    s = unwrapLoopWrappers(s);
    // A statement that is not inside any inner loop of the outermost one can
    // be peeled: the nests below it may still be GEMMs.
    bool peelable = enclosing.size() <= 1;
    if (const auto *block = dyn_cast<CompoundStmt>(s)) {
      for (const Stmt *child : block->body())
        if (!walk(child))
          return false;
      return true;
    }
    if (const auto *loop = dyn_cast<ForStmt>(s))
      return walkLoop(loop);
    if (isa<NullStmt>(s))
      return true;
    if (const auto *decl = dyn_cast<DeclStmt>(s))
      return walkDecl(decl, peelable);
    if (const auto *e = dyn_cast<Expr>(s))
      return walkExpr(e->IgnoreImplicit(), peelable);
    if (const auto *branch = dyn_cast<IfStmt>(s))
      return comparedWith(branch->getCond(), BO_NE, 0)
                 ? walkZeroSkip(branch, peelable)
                 : walkBetaBranch(branch, peelable);
    return fail(describe(s), peelable);
  }

private:
  NestScope &scope;
  std::vector<int> enclosing;
  unsigned order = 0;

  bool fail(const std::string &reason, bool peelable) {
    scope.reject(reason, peelable);
    return false;
  }

  static std::string describe(const Stmt *s) {
    if (isa<BreakStmt>(s))
      return "early exit ('break') in the nest";
    if (isa<ContinueStmt>(s))
      return "early exit ('continue') in the nest";
    if (isa<ReturnStmt>(s))
      return "early exit ('return') in the nest";
    if (isa<GotoStmt>(s) || isa<LabelStmt>(s))
      return "'goto' or label in the nest";
    if (isa<IfStmt>(s) || isa<SwitchStmt>(s) || isa<ConditionalOperator>(s))
      return "conditional control flow in the nest body";
    if (isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s))
      return "a loop that is not a counted 'for' in the nest";
    return std::string("unsupported statement '") + s->getStmtClassName() +
           "' in the nest";
  }

  /// The other side of `x OP literal` (either order), or null.
  static const Expr *comparedWith(const Expr *cond, BinaryOperatorKind op,
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

  bool walkLoop(const ForStmt *loop) {
    std::optional<Loop> parsed = parseLoop(loop, scope);
    if (!parsed)
      return false;
    int index = scope.loops.size();
    scope.loops.push_back(*parsed);
    scope.written.insert(parsed->iv);
    enclosing.push_back(index);
    bool ok = walk(loop->getBody());
    enclosing.pop_back();
    return ok;
  }

  bool walkDecl(const DeclStmt *decl, bool peelable) {
    for (const Decl *d : decl->decls()) {
      const auto *var = dyn_cast<VarDecl>(d);
      // Pointers may be declared (row pointers, forward-substituted by the
      // accesses); writing one later is rejected with the other writes.
      if (!var)
        return fail("declaration of a non-variable inside the nest", peelable);
      QualType type = var->getType();
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
    const auto *assign = dyn_cast<BinaryOperator>(e);
    if (!assign || !(assign->isAssignmentOp() ||
                     assign->isCompoundAssignmentOp())) {
      if (isa<CallExpr>(e))
        return checkPure(e, scope, peelable);
      if (const auto *unary = dyn_cast<UnaryOperator>(e);
          unary && unary->isIncrementDecrementOp())
        return checkPure(e, scope, peelable);
      return fail("expression statement without effect or of an unsupported "
                  "kind in the nest",
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
    scope.writes.push_back(
        {lhs, assign->getRHS(), assign->getOpcode(), enclosing, order++});
    return true;
  }
};

} // namespace

bool mlir::gemm::walkNest(NestScope &scope) {
  return Walker(scope).walk(scope.outer);
}
