//===- Unswitch.cpp - Versioning a nest on loop-invariant choices ---------===//
//
// The arm of a branch whose condition the nest never changes is what every
// iteration runs, so the nest under a known truth value is the nest with the
// arm in the branch's place; likewise a switch's case, its run of
// statements in the switch's place. The walk (an `if`, a `switch`), the
// inliner (a helper's `switch`) and stripCasts (a `?:`) read the assumed
// choices; the conditions' invariance is checked once the walk knows what
// the nest writes. A version that still meets a choice it does not assume
// is tried again with that choice assumed too, one version per way of it.
//
//===----------------------------------------------------------------------===//

#include "Unswitch.h"
#include "BoundTemporaries.h"
#include "MacroText.h"
#include "SwitchCases.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SaveAndRestore.h"

#include <limits>
#include <set>

using namespace clang;
using namespace mlir::gemm;

namespace {

struct Assumption {
  const Expr *cond; ///< A branch's; null for a switch.
  bool value;
  const SwitchStmt *choice; ///< A switch; null for a branch.
  size_t entry;             ///< Its way in (switchEntries).
  /// The switches that are the same choice (Choice::alike).
  std::vector<const SwitchStmt *> alike;
  /// Why the condition is not invariant, once the walk found it so.
  std::optional<std::string> varying;
  /// The switch's condition, valid before the nest, once found invariant.
  std::string read;
};

/// Whether `a` fixes the way into the switch `s`.
bool takes(const Assumption &a, const SwitchStmt *s) {
  return s && (a.choice == s || llvm::is_contained(a.alike, s));
}

/// The recognition of one version: its assumptions, one per choice, and the
/// choices it met without one (a branch's condition, a switch).
struct Trial {
  const ASTContext &ctx;
  std::vector<Assumption> assumptions;
  llvm::SmallPtrSet<const Stmt *, 4> met;
};

/// The version being recognised. Recognition runs on one thread, one nest
/// at a time; versionNest sets it for one version's run.
Trial *active = nullptr;
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
  /// Later switches of the nest's text on the same condition with the same
  /// labels (one in each arm of a branch), which take the same way.
  std::vector<const SwitchStmt *> alike = {};
};

/// Whether `x` and `y` are the same expression (the same operations on the
/// same declarations).
bool sameExpr(const Expr *x, const Expr *y, const ASTContext &ctx) {
  llvm::FoldingSetNodeID a, b;
  x->IgnoreParenImpCasts()->Profile(a, ctx, true);
  y->IgnoreParenImpCasts()->Profile(b, ctx, true);
  return a == b;
}

/// Whether `choice` picks one of the two integers its condition compares
/// (`ii + BS > M ? M : ii + BS`, a tile's clamped end): a minimum or a
/// maximum, which the loop headers read as one, not a choice to version.
bool picksCompared(const ConditionalOperator *choice, const ASTContext &ctx) {
  const auto *compare =
      dyn_cast<BinaryOperator>(choice->getCond()->IgnoreParenImpCasts());
  if (!compare || !compare->isRelationalOp() ||
      !choice->getType()->isIntegerType())
    return false;
  const Expr *lhs = compare->getLHS(), *rhs = compare->getRHS();
  const Expr *yes = choice->getTrueExpr(), *no = choice->getFalseExpr();
  return (sameExpr(yes, lhs, ctx) && sameExpr(no, rhs, ctx)) ||
         (sameExpr(yes, rhs, ctx) && sameExpr(no, lhs, ctx));
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

/// How the rewrite spells the condition of `choice` that the nest reads as
/// `read`: as the nest's text writes it, or as the scope prints a helper's
/// with the caller's arguments.
std::string spelled(const NestScope &scope, const SwitchStmt *choice,
                    const Expr *read) {
  return read == choice->getCond() ? written(scope.ctx, read)
                                   : scope.print(read);
}

/// `items` as a sentence lists them: "a", "a or b", "a, b or c".
std::string listed(ArrayRef<std::string> items, StringRef conjunction) {
  if (items.size() < 2)
    return items.empty() ? "" : items.front();
  return llvm::join(items.drop_back(), ", ") + " " + conjunction.str() + " " +
         items.back();
}

/// `value` as a `long long` literal.
std::string literal(int64_t value) {
  if (value == std::numeric_limits<int64_t>::min())
    return "(-9223372036854775807LL - 1)";
  return std::to_string(value) + "LL";
}

/// The labels of each way into `choice` in the rewrite's `switch` (`case
/// 1LL: case 2LL: `, `default: `), with the values as written (`"NN"`,
/// "none of the values listed"); none where it is no plain list of cases.
std::vector<std::pair<std::string, SmallVector<std::string>>>
labelsOf(const SwitchStmt *choice, const ASTContext &ctx) {
  std::vector<std::pair<std::string, SmallVector<std::string>>> out;
  std::string why;
  std::optional<std::vector<SwitchEntry>> entries =
      switchEntries(choice, ctx, why);
  for (size_t n = 0; entries && n < entries->size(); ++n) {
    const SwitchEntry &entry = (*entries)[n];
    auto &[cases, values] = out.emplace_back();
    for (const CaseStmt *label : entry.labels) {
      values.push_back(written(ctx, label->getLHS()));
      cases += "case " + literal(caseValue(label, choice, ctx)) + ": ";
    }
    if (entry.others) {
      values.push_back("none of the values listed");
      cases += "default: ";
    }
  }
  return out;
}

/// The `if`s, `?:`s and `switch`es in `s` whose condition is not a
/// constant, in source order, with the switches of the visible helpers it
/// calls where it calls them (`helper`; their branches are not versioned).
/// An `if` with an init statement or a condition variable is no plain test.
/// Branches on the same condition (`if (rowB)` in both arms of `if (rowA)`)
/// are one choice, at the first; so are switches of the nest's text on the
/// same condition with the same labels.
void collectChoices(const Stmt *s, const ASTContext &ctx,
                    const FunctionDecl *helper,
                    llvm::SmallPtrSetImpl<const FunctionDecl *> &seen,
                    std::vector<Choice> &out) {
  if (!s)
    return;
  auto fresh = [&](const Expr *cond) {
    return !helper && !constantValue(cond, ctx) &&
           llvm::none_of(out, [&](const Choice &earlier) {
             return !earlier.choice && sameExpr(earlier.cond, cond, ctx);
           });
  };
  if (const auto *branch = dyn_cast<IfStmt>(s);
      branch && !branch->getInit() && !branch->getConditionVariable() &&
      fresh(branch->getCond()))
    out.push_back({branch->getCond(), branch->getElse() != nullptr});
  if (const auto *choice = dyn_cast<ConditionalOperator>(s);
      choice && fresh(choice->getCond()) && !picksCompared(choice, ctx))
    out.push_back({choice->getCond(), true});
  if (const auto *choice = dyn_cast<SwitchStmt>(s);
      choice && !constantValue(choice->getCond(), ctx)) {
    auto same = llvm::find_if(out, [&](const Choice &earlier) {
      return earlier.choice && !earlier.helper && !helper &&
             sameExpr(earlier.cond, choice->getCond(), ctx) &&
             labelsOf(earlier.choice, ctx) == labelsOf(choice, ctx);
    });
    if (same != out.end())
      same->alike.push_back(choice);
    else
      out.push_back({choice->getCond(), true, choice, helper});
  }
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

/// One way of a choice: what the recognition assumes, what it is for the
/// remark ("holds", "is 1 or 2") and, for a switch, its labels in the
/// rewrite's `switch`.
struct Way {
  Assumption assumption;
  std::string what;
  std::string cases;
};

/// The ways of `choice`: for a branch, its arms; for a switch, its ways in
/// (none where it is no plain list of cases).
std::vector<Way> waysOf(const Choice &choice, const ASTContext &ctx) {
  std::vector<Way> out;
  if (!choice.choice) {
    for (bool value : {true, false})
      out.push_back({{choice.cond, value, nullptr, 0},
                     value ? "holds" : "does not",
                     ""});
    return out;
  }
  for (auto [n, labels] : llvm::enumerate(labelsOf(choice.choice, ctx)))
    out.push_back({{nullptr, false, choice.choice, n, choice.alike},
                   "is " + listed(labels.second, "or"),
                   labels.first});
  return out;
}

/// Checks the assumption `a` of the recognition in progress (see
/// checkAssumedBranch); sets its `varying` or its `read`.
bool checkAssumption(NestScope &scope, Assumption &a) {
  // A helper's switch may be read at several calls: each reads the case
  // assumed, so each must read the same condition.
  std::vector<const Expr *> conditions;
  for (auto [choice, read] : scope.switchReads)
    if (takes(a, choice))
      conditions.push_back(read);
  if (!a.choice)
    conditions.push_back(a.cond);
  std::string first;
  for (const Expr *cond : conditions) {
    std::string text =
        a.choice ? spelled(scope, a.choice, cond) : written(scope.ctx, cond);
    std::string what = a.choice ? "the 'switch' on '" + text + "'"
                                : "the branch on '" + text + "'";
    if (!scope.isInvariant(cond)) {
      const VarDecl *var = varyingVar(scope, cond);
      a.varying = what + " depends on " +
                  (var ? scope.describeVarying(var)
                       : std::string("memory that the nest may write"));
      scope.reject(*a.varying);
      return false;
    }
    if (!first.empty() && text != first) {
      scope.reject("the 'switch' on '" + first + "' is read on '" + text +
                   "' too, at another call of its helper");
      return false;
    }
    first = text;
  }
  a.read = first;
  return true;
}

/// How a remark names `choice`, whose condition reads `condition`.
std::string named(const Choice &choice, const std::string &condition) {
  return (choice.choice ? "the 'switch' on '" : "'") + condition + "'";
}

/// Whether `trial` met `choice` without assuming it.
bool metIn(const Trial &trial, const Choice &choice, const ASTContext &ctx) {
  return llvm::any_of(trial.met, [&](const Stmt *met) {
    const auto *cond = dyn_cast<Expr>(met);
    return choice.choice ? met == choice.choice ||
                               llvm::is_contained(choice.alike, met)
                         : cond && sameExpr(cond, choice.cond, ctx);
  });
}

/// The nest recognised in every combination of the ways of `choices`
/// (indices into `all`, in source order), the first choice's way the
/// slowest to change. `met` gains the choices, by index into `all`, that a
/// version met without assuming them; `varied` becomes a condition's
/// obstacle where it is every version's (of a branch with two arms, as a
/// one-armed test is no choice of what the nest computes).
Versions recognizeVersions(ArrayRef<size_t> choices, ArrayRef<Choice> all,
                           ArrayRef<std::vector<Way>> ways,
                           const Stmt *outer, const FunctionDecl *function,
                           ASTContext &ctx, LoopStart start,
                           std::set<size_t> &met,
                           std::optional<std::string> &varied) {
  Versions versions;
  std::vector<std::string> reads(choices.size());
  std::vector<size_t> way(choices.size(), 0);
  bool allVaried = true;
  std::optional<std::string> anyVaried;
  for (bool more = true; more;) {
    Trial trial{ctx, {}, {}};
    for (auto [n, choice] : llvm::enumerate(choices))
      trial.assumptions.push_back(ways[choice][way[n]].assumption);
    llvm::SaveAndRestore<Trial *> assumed(active, &trial);
    Version version{way, "", recognizeNest(outer, function, ctx, start)};
    const std::string &reason = version.recognition.rejection.reason;
    bool causes = false;
    for (auto [n, assumption] : llvm::enumerate(trial.assumptions)) {
      if (reads[n].empty())
        reads[n] = assumption.read;
      if (assumption.varying && *assumption.varying == reason) {
        causes |= all[choices[n]].twoArms;
        anyVaried = reason;
      }
    }
    allVaried &= !version.recognition.nest && causes;
    for (auto [n, choice] : llvm::enumerate(all))
      if (metIn(trial, choice, ctx))
        met.insert(n);
    versions.versions.push_back(std::move(version));
    // The next combination, the last choice's way the fastest to change.
    more = false;
    for (size_t n = choices.size(); n-- > 0 && !more;) {
      more = ++way[n] < ways[choices[n]].size();
      if (!more)
        way[n] = 0;
    }
  }
  if (allVaried)
    varied = anyVaried;
  bool single = choices.size() == 1;
  SmallVector<std::string> names;
  for (auto [n, index] : llvm::enumerate(choices)) {
    const Choice &choice = all[index];
    std::string condition =
        choice.choice ? reads[n] : written(ctx, choice.cond);
    VersionChoice tested{condition, {}};
    if (choice.choice)
      for (const Way &w : ways[index])
        tested.cases.push_back(w.cases);
    versions.choices.push_back(std::move(tested));
    names.push_back(named(choice, condition));
  }
  versions.on = listed(names, "and");
  for (Version &version : versions.versions) {
    SmallVector<std::string> parts;
    for (auto [n, index] : llvm::enumerate(choices))
      parts.push_back(
          (single ? "it" : "'" + versions.choices[n].condition + "'") + " " +
          ways[index][version.ways[n]].what);
    version.when = listed(parts, "and");
  }
  return versions;
}

} // namespace

std::optional<bool> mlir::gemm::assumedValue(const Expr *cond) {
  if (active)
    for (const Assumption &assumption : active->assumptions)
      if (assumption.cond && sameExpr(assumption.cond, cond, active->ctx))
        return assumption.value;
  std::optional<bool> value =
      constants ? constantValue(cond, *constants) : std::nullopt;
  if (active && !value)
    active->met.insert(cond);
  return value;
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
  if (!active)
    return std::nullopt;
  for (const Assumption &assumption : active->assumptions)
    if (takes(assumption, s)) {
      scope.switchReads.push_back({s, read});
      return (*entries)[assumption.entry].run;
    }
  active->met.insert(s);
  return std::nullopt;
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
  return !active || llvm::all_of(active->assumptions, [&](Assumption &a) {
           return checkAssumption(scope, a);
         });
}

std::optional<Versions> mlir::gemm::versionNest(const Stmt *outer,
                                                const FunctionDecl *function,
                                                ASTContext &ctx,
                                                LoopStart start,
                                                Rejection &why) {
  std::vector<Choice> choices;
  llvm::SmallPtrSet<const FunctionDecl *, 4> seen;
  collectChoices(outer, ctx, nullptr, seen, choices);
  std::vector<std::vector<Way>> ways;
  // A test that reads a variable the nest changes (a screening test on
  // values the nest computes) is no run-time choice of what the nest
  // computes: it is tried alone, only for its remark.
  std::vector<bool> varies;
  for (const Choice &choice : choices) {
    ways.push_back(waysOf(choice, ctx));
    varies.push_back(findVar(choice.cond, [&](const VarDecl *var) {
                       return changes(outer, var);
                     }) != nullptr);
  }
  std::optional<std::string> varying, noCase, tooMany;
  // Each choice alone first, in source order; then a set of choices grows
  // by a choice that one of its versions met (a second flag), the fewest
  // choices first.
  std::set<std::vector<size_t>> sets;
  for (size_t n = 0; n < choices.size(); ++n)
    if (!ways[n].empty())
      sets.insert({n});
  size_t tried = 0;
  while (!sets.empty()) {
    std::set<std::vector<size_t>> grown;
    for (const std::vector<size_t> &set : sets) {
      // Sets of many choices grow combinatorially (a helper with a branch,
      // inlined a dozen times): a bounded search keeps the run short.
      if (tried >= maxVersionTrials) {
        if (!tooMany)
          tooMany = "versioned on sets of its " +
                    std::to_string(choices.size()) +
                    " run-time choices, none of the " +
                    std::to_string(tried) +
                    " versions tried is a GEMM (the search stops there)";
        grown.clear();
        break;
      }
      std::set<size_t> met;
      std::optional<std::string> varied;
      Versions versions = recognizeVersions(set, choices, ways, outer,
                                            function, ctx, start, met, varied);
      tried += versions.versions.size();
      // A switch that no version reads has no condition to test.
      bool tested = llvm::all_of(versions.choices, [](const VersionChoice &c) {
        return !c.condition.empty();
      });
      if (tested && llvm::any_of(versions.versions, [](const Version &v) {
            return v.recognition.nest.has_value();
          }))
        return versions;
      if (!varying)
        varying = varied;
      // A set with a test on what the nest computes grows no further.
      bool grows = llvm::none_of(set, [&](size_t n) { return varies[n]; });
      for (size_t next : met) {
        if (!grows || varies[next])
          continue;
        std::vector<size_t> more = set;
        more.insert(llvm::upper_bound(more, next), next);
        size_t count = 1;
        for (size_t choice : more)
          count *= ways[choice].size();
        if (count <= maxVersions) {
          grown.insert(more);
          continue;
        }
        SmallVector<std::string> names;
        for (size_t choice : more)
          names.push_back(named(choices[choice],
                                written(ctx, choices[choice].cond)));
        if (!tooMany)
          tooMany = "versioning it on " + listed(names, "and") +
                    " would make " + std::to_string(count) +
                    " versions, more than the " + std::to_string(maxVersions) +
                    " that one nest may have, and no version on fewer of "
                    "them is a GEMM";
      }
      // A switch alone none of whose cases is a GEMM: each case's reason.
      const Choice &choice = choices[set.front()];
      if (set.size() > 1 || !choice.choice || noCase)
        continue;
      std::string where = named(choice, written(ctx, choice.cond));
      if (choice.helper)
        where += " in '" + choice.helper->getNameAsString() + "'";
      noCase = "in no case of " + where + " is the nest a GEMM";
      std::vector<std::string> reasons;
      for (const Version &version : versions.versions)
        reasons.push_back(version.recognition.rejection.reason);
      if (llvm::all_equal(reasons)) {
        // Every case stops where the nest stops without the switch: it is
        // not the switch that stands in the way (a helper's, deep in a
        // call).
        if (reasons.front() == why.reason)
          noCase.reset();
        else
          *noCase += ": " + reasons.front();
        continue;
      }
      for (auto [version, reason] : llvm::zip(versions.versions, reasons))
        *noCase += "; where " + version.when + ", " + reason;
    }
    sets = std::move(grown);
  }
  if (!why.peelable && (varying || noCase || tooMany))
    why.reason = varying ? *varying : noCase ? *noCase : *tooMany;
  return std::nullopt;
}
