//===- Unswitch.cpp - Versioning a nest on a loop-invariant branch --------===//
//
// The arm of a branch whose condition the nest never changes is what every
// iteration runs, so the nest under a known truth value is the nest with the
// arm in the branch's place. The walk (an `if`) and stripCasts (a `?:`) read
// the assumed arm; the condition's invariance is checked once the walk knows
// what the nest writes.
//
//===----------------------------------------------------------------------===//

#include "Unswitch.h"
#include "MacroText.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

struct Assumption {
  const Expr *cond;
  bool value;
  /// Why the condition is not invariant, once the walk found it so.
  std::optional<std::string> varying;
};

/// The assumption of the arm being recognised. Recognition runs on one
/// thread, one nest at a time; versionNest sets it for one arm's run.
Assumption *active = nullptr;
/// The context of the recognition in progress (KnownBranches), whose
/// constant conditions fold.
const ASTContext *constants = nullptr;

/// The value of a condition that is an integer constant expression in the
/// instantiation read (a template's `bool isTransB`, a `constexpr` flag,
/// `sizeof(T) == 4`): every run takes the same arm, so no version is needed.
std::optional<bool> constantValue(const Expr *cond, const ASTContext &ctx) {
  if (cond->isValueDependent())
    return std::nullopt;
  if (std::optional<llvm::APSInt> value = cond->getIntegerConstantExpr(ctx))
    return value->getBoolValue();
  return std::nullopt;
}

/// A branch of the nest: its condition, and whether it has two arms (an
/// `if` without `else` has one).
struct Branch {
  const Expr *cond;
  bool twoArms;
};

/// The `if`s and `?:`s in `s` whose condition is not a constant, in source
/// order (an `if` with an init statement or a condition variable is no
/// plain test).
void collectBranches(const Stmt *s, const ASTContext &ctx,
                     std::vector<Branch> &out) {
  if (!s)
    return;
  if (const auto *branch = dyn_cast<IfStmt>(s);
      branch && !branch->getInit() && !branch->getConditionVariable() &&
      !constantValue(branch->getCond(), ctx))
    out.push_back({branch->getCond(), branch->getElse() != nullptr});
  if (const auto *choice = dyn_cast<ConditionalOperator>(s);
      choice && !constantValue(choice->getCond(), ctx))
    out.push_back({choice->getCond(), true});
  for (const Stmt *child : s->children())
    collectBranches(child, ctx, out);
}

/// `e` as the source spells it (not as the scope prints it, with the values
/// of bound temporaries).
std::string written(const ASTContext &ctx, const Expr *e) {
  const SourceManager &sm = ctx.getSourceManager();
  return Lexer::getSourceText(
             nestSpelling(sm, ctx.getLangOpts(), e->getSourceRange()), sm,
             ctx.getLangOpts())
      .str();
}

/// The variable that makes `e` vary, also behind the value that a bound
/// temporary reads (`flip`, set to `j` in the nest); null where only a
/// memory read does.
const VarDecl *varyingVar(const NestScope &scope, const Expr *e) {
  if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
    if (const Expr *value = scope.boundValues.lookup(ref))
      return varyingVar(scope, value);
    return scope.findVaryingVar(ref);
  }
  for (const Stmt *child : e->children())
    if (const auto *sub = dyn_cast_or_null<Expr>(child))
      if (const VarDecl *var = varyingVar(scope, sub))
        return var;
  return nullptr;
}

} // namespace

std::optional<bool> mlir::gemm::assumedValue(const Expr *cond) {
  if (active && active->cond == cond)
    return active->value;
  if (constants)
    return constantValue(cond, *constants);
  return std::nullopt;
}

KnownBranches::KnownBranches(const ASTContext &ctx) : outer(constants) {
  constants = &ctx;
}

KnownBranches::~KnownBranches() { constants = outer; }

bool mlir::gemm::checkAssumedBranch(NestScope &scope) {
  if (!active || scope.isInvariant(active->cond))
    return true;
  const VarDecl *var = varyingVar(scope, active->cond);
  active->varying = "the branch on '" + written(scope.ctx, active->cond) +
                    "' depends on " +
                    (var ? scope.describeVarying(var)
                         : std::string("memory that the nest may write"));
  scope.reject(*active->varying);
  return false;
}

std::optional<Versions> mlir::gemm::versionNest(const Stmt *outer,
                                                const FunctionDecl *function,
                                                ASTContext &ctx,
                                                LoopStart start,
                                                Rejection &why) {
  std::vector<Branch> branches;
  collectBranches(outer, ctx, branches);
  std::optional<std::string> varying;
  for (const Branch &branch : branches) {
    // Only the condition stood in the way where each of two arms walked
    // (an early exit in one is the obstacle, said as the walk says it).
    std::optional<std::string> because[2];
    auto arm = [&](bool value) {
      Assumption assumption{branch.cond, value, std::nullopt};
      llvm::SaveAndRestore<Assumption *> assumed(active, &assumption);
      Recognition r = recognizeNest(outer, function, ctx, start);
      // The varying condition, where it is what the arm stopped at.
      if (!r.nest && assumption.varying &&
          r.rejection.reason == *assumption.varying)
        because[value] = assumption.varying;
      return r;
    };
    Versions versions{"", arm(true), arm(false)};
    if (versions.whenTrue.nest || versions.whenFalse.nest) {
      versions.condition = written(ctx, branch.cond);
      return versions;
    }
    if (!varying && branch.twoArms && because[0] && because[1])
      varying = because[1];
  }
  if (varying && !why.peelable)
    why.reason = *varying;
  return std::nullopt;
}
