//===- Unswitch.cpp - Versioning a nest on a loop-invariant choice --------===//
//
// The arm of a branch whose condition the nest never changes is what every
// iteration runs, so the nest under a known truth value is the nest with the
// arm in the branch's place; likewise a switch's case, its run of
// statements in the switch's place. The walk (an `if`, a `switch`), the
// inliner (a helper's `switch`) and stripCasts (a `?:`) read the assumed
// choice; the condition's invariance is checked once the walk knows what
// the nest writes.
//
//===----------------------------------------------------------------------===//

#include "Unswitch.h"
#include "MacroText.h"
#include "SwitchCases.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SaveAndRestore.h"

#include <limits>

using namespace clang;
using namespace mlir::gemm;

namespace {

struct Assumption {
  const Expr *cond; ///< A branch's; null for a switch.
  bool value;
  const SwitchStmt *choice; ///< A switch; null for a branch.
  size_t entry;             ///< Its way in (switchEntries).
  /// Why the condition is not invariant, once the walk found it so.
  std::optional<std::string> varying;
  /// The switch's condition, valid before the nest, once found invariant.
  std::string read;
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

/// A choice of the nest: a branch's condition and whether it has two arms
/// (an `if` without `else` has one), or a switch and the helper that holds
/// it (null in the nest's own text).
struct Choice {
  const Expr *cond;
  bool twoArms;
  const SwitchStmt *choice = nullptr;
  const FunctionDecl *helper = nullptr;
};

/// Whether `choice` picks one of the two integers its condition compares
/// (`ii + BS > M ? M : ii + BS`, a tile's clamped end): a minimum or a
/// maximum, which the loop headers read as one, not a choice to version.
bool picksCompared(const ConditionalOperator *choice, const ASTContext &ctx) {
  const auto *compare =
      dyn_cast<BinaryOperator>(choice->getCond()->IgnoreParenImpCasts());
  if (!compare || !compare->isRelationalOp() ||
      !choice->getType()->isIntegerType())
    return false;
  auto same = [&](const Expr *x, const Expr *y) {
    llvm::FoldingSetNodeID a, b;
    x->IgnoreParenImpCasts()->Profile(a, ctx, true);
    y->IgnoreParenImpCasts()->Profile(b, ctx, true);
    return a == b;
  };
  const Expr *lhs = compare->getLHS(), *rhs = compare->getRHS();
  const Expr *yes = choice->getTrueExpr(), *no = choice->getFalseExpr();
  return (same(yes, lhs) && same(no, rhs)) || (same(yes, rhs) && same(no, lhs));
}

/// The `if`s, `?:`s and `switch`es in `s` whose condition is not a
/// constant, in source order, with the switches of the visible helpers it
/// calls where it calls them (`helper`; their branches are not versioned).
/// An `if` with an init statement or a condition variable is no plain test.
void collectChoices(const Stmt *s, const ASTContext &ctx,
                    const FunctionDecl *helper,
                    llvm::SmallPtrSetImpl<const FunctionDecl *> &seen,
                    std::vector<Choice> &out) {
  if (!s)
    return;
  if (const auto *branch = dyn_cast<IfStmt>(s);
      branch && !helper && !branch->getInit() &&
      !branch->getConditionVariable() && !constantValue(branch->getCond(), ctx))
    out.push_back({branch->getCond(), branch->getElse() != nullptr});
  if (const auto *choice = dyn_cast<ConditionalOperator>(s);
      choice && !helper && !constantValue(choice->getCond(), ctx) &&
      !picksCompared(choice, ctx))
    out.push_back({choice->getCond(), true});
  if (const auto *choice = dyn_cast<SwitchStmt>(s);
      choice && !constantValue(choice->getCond(), ctx))
    out.push_back({choice->getCond(), true, choice, helper});
  if (const auto *call = dyn_cast<CallExpr>(s))
    if (const FunctionDecl *callee = call->getDirectCallee())
      if (const FunctionDecl *def = callee->getDefinition();
          def && def->hasBody() &&
          !ctx.getSourceManager().isInSystemHeader(def->getLocation()) &&
          seen.insert(def).second)
        collectChoices(def->getBody(), ctx, def, seen, out);
  for (const Stmt *child : s->children())
    collectChoices(child, ctx, helper, seen, out);
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

/// How the rewrite spells the condition that the nest reads as `read`: as
/// the nest's text writes it, or as the scope prints a helper's with the
/// caller's arguments.
std::string spelled(const NestScope &scope, const Expr *read) {
  return read == active->choice->getCond() ? written(scope.ctx, read)
                                           : scope.print(read);
}

/// `value` as a `long long` literal.
std::string literal(int64_t value) {
  if (value == std::numeric_limits<int64_t>::min())
    return "(-9223372036854775807LL - 1)";
  return std::to_string(value) + "LL";
}

/// The versions of `choice`: for a branch, its arms; for a switch, its ways
/// in (none where it is no plain list of cases).
std::vector<std::pair<Assumption, Version>> versionsOf(const Choice &choice,
                                                       const ASTContext &ctx) {
  std::vector<std::pair<Assumption, Version>> out;
  if (!choice.choice) {
    for (bool value : {true, false})
      out.push_back({{choice.cond, value, nullptr, 0, std::nullopt, ""},
                     {value ? "it holds" : "it does not", "", {}}});
    return out;
  }
  std::string why;
  std::optional<std::vector<SwitchEntry>> entries =
      switchEntries(choice.choice, ctx, why);
  for (size_t n = 0; entries && n < entries->size(); ++n) {
    const SwitchEntry &entry = (*entries)[n];
    SmallVector<std::string> values;
    std::string cases;
    for (const CaseStmt *label : entry.labels) {
      values.push_back(written(ctx, label->getLHS()));
      cases += "case " + literal(caseValue(label, choice.choice, ctx)) + ": ";
    }
    if (entry.others) {
      values.push_back("none of the values listed");
      cases += "default: ";
    }
    std::string when = values.back();
    if (values.size() > 1)
      when = llvm::join(ArrayRef(values).drop_back(), ", ") + " or " + when;
    out.push_back({{nullptr, false, choice.choice, n, std::nullopt, ""},
                   {"it is " + when, cases, {}}});
  }
  return out;
}

} // namespace

std::optional<bool> mlir::gemm::assumedValue(const Expr *cond) {
  if (active && active->cond == cond)
    return active->value;
  if (constants)
    return constantValue(cond, *constants);
  return std::nullopt;
}

std::optional<std::vector<const Stmt *>>
mlir::gemm::assumedCase(const SwitchStmt *s, const Expr *read,
                        NestScope &scope) {
  std::string why;
  std::optional<std::vector<SwitchEntry>> entries =
      switchEntries(s, scope.ctx, why);
  if (!entries)
    return std::nullopt;
  if (std::optional<llvm::APSInt> value =
          constants && !read->isValueDependent()
              ? read->getIntegerConstantExpr(*constants)
              : std::nullopt) {
    auto picks = [&](const SwitchEntry &entry) {
      return llvm::any_of(entry.labels, [&](const CaseStmt *label) {
        return caseValue(label, s, scope.ctx) == asLongLong(*value);
      });
    };
    auto taken = llvm::find_if(*entries, picks);
    return taken != entries->end() ? taken->run : entries->back().run;
  }
  if (!active || active->choice != s)
    return std::nullopt;
  scope.switchReads.push_back(read);
  return (*entries)[active->entry].run;
}

void mlir::gemm::readAssumedCases(NestScope &scope,
                                  std::vector<const Stmt *> &statements) {
  for (size_t n = 0; n < statements.size();) {
    const auto *choice = dyn_cast<SwitchStmt>(statements[n]);
    std::optional<std::vector<const Stmt *>> run =
        choice ? assumedCase(choice, choice->getCond(), scope) : std::nullopt;
    if (!run) {
      ++n;
      continue;
    }
    // Read on from n: a case may hold a switch of its own.
    statements.erase(statements.begin() + n);
    statements.insert(statements.begin() + n, run->begin(), run->end());
  }
}

std::string mlir::gemm::unversionedSwitch(const SwitchStmt *s,
                                          const std::string &who,
                                          const std::string &read,
                                          const ASTContext &ctx) {
  std::string head =
      who + " picks what it computes by a 'switch' on '" + read + "'";
  std::string why;
  if (!switchEntries(s, ctx, why))
    return head + ", which " + why + ", so its cases are no versions of "
                                     "the nest";
  return head + ", a choice at run time that no version of the nest fixes";
}

KnownBranches::KnownBranches(const ASTContext &ctx) : outer(constants) {
  constants = &ctx;
}

KnownBranches::~KnownBranches() { constants = outer; }

bool mlir::gemm::checkAssumedBranch(NestScope &scope) {
  if (!active)
    return true;
  // A helper's switch may be read at several calls: each reads the case
  // assumed, so each must read the same condition.
  std::vector<const Expr *> conditions = active->choice
                                             ? scope.switchReads
                                             : std::vector{active->cond};
  std::string first;
  for (const Expr *cond : conditions) {
    std::string text = active->choice ? spelled(scope, cond)
                                      : written(scope.ctx, cond);
    std::string what = active->choice ? "the 'switch' on '" + text + "'"
                                      : "the branch on '" + text + "'";
    if (!scope.isInvariant(cond)) {
      const VarDecl *var = varyingVar(scope, cond);
      active->varying =
          what + " depends on " +
          (var ? scope.describeVarying(var)
               : std::string("memory that the nest may write"));
      scope.reject(*active->varying);
      return false;
    }
    if (!first.empty() && text != first) {
      scope.reject("the 'switch' on '" + first + "' is read on '" + text +
                   "' too, at another call of its helper");
      return false;
    }
    first = text;
  }
  active->read = first;
  return true;
}

std::optional<Versions> mlir::gemm::versionNest(const Stmt *outer,
                                                const FunctionDecl *function,
                                                ASTContext &ctx,
                                                LoopStart start,
                                                Rejection &why) {
  std::vector<Choice> choices;
  llvm::SmallPtrSet<const FunctionDecl *, 4> seen;
  collectChoices(outer, ctx, nullptr, seen, choices);
  std::optional<std::string> varying, noCase;
  for (const Choice &choice : choices) {
    Versions versions;
    versions.onSwitch = choice.choice;
    // Only the condition stood in the way where each version walked (an
    // early exit in one is the obstacle, said as the walk says it).
    std::optional<std::string> varied;
    bool allVaried = true;
    for (auto &[assumption, version] : versionsOf(choice, ctx)) {
      llvm::SaveAndRestore<Assumption *> assumed(active, &assumption);
      version.recognition = recognizeNest(outer, function, ctx, start);
      const Rejection &rejection = version.recognition.rejection;
      allVaried &= !version.recognition.nest && assumption.varying &&
                   rejection.reason == *assumption.varying;
      if (assumption.varying)
        varied = assumption.varying;
      if (version.recognition.nest && versions.condition.empty())
        versions.condition =
            choice.choice ? assumption.read : written(ctx, choice.cond);
      versions.versions.push_back(std::move(version));
    }
    if (!versions.condition.empty())
      return versions;
    if (choice.twoArms && allVaried && !varying)
      varying = varied;
    // A switch none of whose cases is a GEMM: each case's reason.
    if (!choice.choice || versions.versions.empty() || noCase)
      continue;
    std::string where = "the 'switch' on '" + written(ctx, choice.cond) + "'";
    if (choice.helper)
      where += " in '" + choice.helper->getNameAsString() + "'";
    noCase = "in no case of " + where + " is the nest a GEMM";
    std::vector<std::string> reasons;
    for (const Version &version : versions.versions)
      reasons.push_back(version.recognition.rejection.reason);
    if (llvm::all_equal(reasons)) {
      // Every case stops where the nest stops without the switch: it is
      // not the switch that stands in the way (a helper's, deep in a call).
      if (reasons.front() == why.reason)
        noCase.reset();
      else
        *noCase += ": " + reasons.front();
      continue;
    }
    for (auto [version, reason] : llvm::zip(versions.versions, reasons))
      *noCase += "; where " + version.when + ", " + reason;
  }
  if (!why.peelable && (varying || noCase))
    why.reason = varying ? *varying : *noCase;
  return std::nullopt;
}
