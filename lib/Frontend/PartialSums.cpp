//===- PartialSums.cpp - Partial sums of one sum, read as it --------------===//
//
// Scalar expansion read back. An array of lanes declared in a block of the
// nest, each started at zero, summed into by `t[c] += e` with constant
// lanes and read only as t[0] + ... + t[U-1] once its sums are done, holds
// at the end the sum of every term added into any lane: one scalar `t`
// computes the same sum in another order. A scalar partial sum added once
// into another sum that starts at zero in the same block (`s += t` after a
// remainder loop that sums into s) is again one sum: the two become s.
//
// Only what keeps the value is read back: a lane that is read while the
// lanes sum (a dependence between lanes), indexed by anything but a
// constant, started at other than zero, left out of the final sum, or used
// after it, and an array sized at run time, are rejected with that reason.
//
//===----------------------------------------------------------------------===//

#include "PartialSums.h"

#include "LoopHeader.h"
#include "Unrolled.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

/// `e` through parentheses and implicit casts.
const Expr *bare(const Expr *e) { return e->IgnoreParenImpCasts(); }

/// A use of the lane array: the slot that holds `t[c]` and the node above.
struct Use {
  Stmt **slot;
  const Stmt *parent, *full;
  const ArraySubscriptExpr *access() const {
    return dyn_cast<ArraySubscriptExpr>(*slot);
  }
};

class PartialSums {
public:
  PartialSums(NestScope &scope, std::vector<const Stmt *> &list)
      : scope(scope), ctx(scope.ctx), list(list) {}

  void run() {
    for (auto [n, var] : localArrays(list))
      expandLanes(n, var);
    for (size_t n = 0; n < list.size(); ++n)
      if (const auto *decl = dyn_cast<DeclStmt>(list[n]))
        for (Decl *d : decl->decls())
          if (auto *var = dyn_cast<VarDecl>(d);
              var && var->getType()->isRealFloatingType() &&
              var->hasLocalStorage())
            mergePartialSum(n, var);
  }

private:
  NestScope &scope;
  ASTContext &ctx;
  std::vector<const Stmt *> &list;

  /// The array being expanded, for fail().
  const VarDecl *lanes = nullptr;
  bool fail(const std::string &reason) {
    // CopyLanes.cpp's reason, where it tried, names the copies.
    scope.laneObstacles.try_emplace(lanes, reason);
    return false;
  }

  // --- Changes, undone when the scope ends --------------------------------

  void replace(Stmt **slot, Stmt *with) { scope.replace(slot, with); }
  void rename(DeclRefExpr *ref, VarDecl *to) {
    ValueDecl *old = ref->getDecl();
    scope.restore.push_back([ref, old] { ref->setDecl(old); });
    ref->setDecl(to);
  }
  DeclRefExpr *refTo(VarDecl *var, SourceLocation loc) {
    return DeclRefExpr::Create(ctx, NestedNameSpecifierLoc(), SourceLocation(),
                               var, false, loc, var->getType(), VK_LValue);
  }
  Expr *readOf(VarDecl *var, SourceLocation loc) {
    return ImplicitCastExpr::Create(ctx, var->getType().getUnqualifiedType(),
                                    CK_LValueToRValue, refTo(var, loc), nullptr,
                                    VK_PRValue, FPOptionsOverride());
  }
  Stmt *assignment(VarDecl *var, Expr *value, SourceLocation loc) {
    return BinaryOperator::Create(
        ctx, refTo(var, loc), value, BO_Assign, var->getType(),
        ctx.getLangOpts().CPlusPlus ? VK_LValue : VK_PRValue, OK_Ordinary, loc,
        FPOptionsOverride());
  }
  Stmt *nothing(const Stmt *s) { return new (ctx) NullStmt(s->getBeginLoc()); }

  // --- Lanes ---------------------------------------------------------------

  /// Every use of `array` in the slot's subtree, each `t[c]` once with the
  /// full expression it lies in; a use as a whole array is recorded too.
  void uses(Stmt *&slot, const Stmt *parent, const Stmt *full,
            const VarDecl *array, std::vector<Use> &out) {
    Stmt *s = slot;
    if (!s)
      return;
    if (!full && isa<Expr>(s))
      full = s;
    if (const auto *access = dyn_cast<ArraySubscriptExpr>(s);
        access && referencedVar(access->getBase()) == array) {
      out.push_back({&slot, parent, full});
      return;
    }
    if (const auto *ref = dyn_cast<DeclRefExpr>(s);
        ref && ref->getDecl() == array)
      out.push_back({&slot, parent, full});
    for (Stmt *&child : s->children())
      uses(child, s, isa<Expr>(s) ? full : nullptr, array, out);
  }

  /// The uses of `array` in `top`, a statement of the block (which is no
  /// use itself: a lane as a statement does nothing).
  void usesIn(const Stmt *top, const VarDecl *array, std::vector<Use> &out) {
    for (Stmt *&child : const_cast<Stmt *>(top)->children())
      uses(child, top, isa<Expr>(top) ? top : nullptr, array, out);
  }

  /// The slot of the topmost sum in `slot`'s subtree whose terms are all
  /// elements of `array`, or null.
  Stmt **laneSum(Stmt *&slot, const VarDecl *array) {
    if (!slot)
      return nullptr;
    if (const auto *sum = dyn_cast<BinaryOperator>(slot);
        sum && sum->getOpcode() == BO_Add) {
      std::vector<const Expr *> terms;
      sumTerms(sum, terms, true);
      if (llvm::all_of(terms, [&](const Expr *t) {
            const auto *a = dyn_cast<ArraySubscriptExpr>(t);
            return a && referencedVar(a->getBase()) == array;
          }))
        return &slot;
    }
    for (Stmt *&child : slot->children())
      if (Stmt **found = laneSum(child, array))
        return found;
    return nullptr;
  }

  static bool startsAtZero(const Stmt *s, const VarDecl *v) {
    const auto *op = dyn_cast_or_null<BinaryOperator>(s);
    return op && op->getOpcode() == BO_Assign &&
           referencedVar(op->getLHS()) == v && isLiteral(op->getRHS(), 0);
  }

  void renameAll(Stmt *s, const VarDecl *from, VarDecl *to) {
    if (!s)
      return;
    if (auto *ref = dyn_cast<DeclRefExpr>(s); ref && ref->getDecl() == from)
      rename(ref, to);
    for (Stmt *child : s->children())
      renameAll(child, from, to);
  }

  /// The number of elements of `shape`: its constant size, or the value
  /// of a C `const int` that sizes it (`const int U = 8; float t[U];`).
  std::optional<uint64_t> constantSize(const ArrayType *shape) const {
    if (const auto *fixed = dyn_cast<ConstantArrayType>(shape))
      return fixed->getSize().getZExtValue();
    const auto *sized = dyn_cast<VariableArrayType>(shape);
    const Expr *e = sized ? sized->getSizeExpr() : nullptr;
    if (const VarDecl *var = e ? referencedVar(e) : nullptr;
        var && var->getType().isConstQualified() && var->getInit())
      e = var->getInit();
    Expr::EvalResult value;
    if (!e || !e->EvaluateAsInt(value, ctx) || value.Val.getInt().isNegative())
      return std::nullopt;
    return value.Val.getInt().getZExtValue();
  }

  bool expandLanes(size_t n, VarDecl *array);
  void mergePartialSum(size_t n, VarDecl *partial);
};

bool PartialSums::expandLanes(size_t n, VarDecl *array) {
  lanes = array;
  std::string name = array->getNameAsString();
  QualType type = array->getType();
  const ArrayType *shape = ctx.getAsArrayType(type);
  // Other arrays are the walk's to judge.
  if (!shape || !shape->getElementType()->isRealFloatingType())
    return true;
  QualType element = shape->getElementType();
  // An array that nothing sums into (a buffer, a tile copy), or that an
  // OpenMP directive names, is the walk's to judge.
  std::vector<Use> all;
  for (size_t m = n + 1; m < list.size(); ++m)
    usesIn(list[m], array, all);
  bool summed = llvm::any_of(all, [&](const Use &u) {
    const auto *op = dyn_cast_or_null<BinaryOperator>(u.parent);
    if (!op || !op->isAssignmentOp() || bare(op->getLHS()) != *u.slot)
      return false;
    std::vector<const Expr *> terms;
    sumTerms(op->getRHS(), terms, true);
    return op->getOpcode() == BO_AddAssign ||
           op->getOpcode() == BO_SubAssign ||
           llvm::any_of(terms, [&](const Expr *t) {
             return scope.print(t) == scope.print(op->getLHS());
           });
  });
  if (!summed || std::any_of(list.begin() + n + 1, list.end(),
                             [&](const Stmt *s) {
                               return namedByDirective(s, array);
                             }))
    return true;
  std::optional<uint64_t> size = constantSize(shape);
  if (!size)
    return fail(quoted(name) + " ('" + type.getAsString() +
                "') is sized at run time, so its elements are no fixed set "
                "of partial sums");
  uint64_t count = *size;
  auto lane = [&](const Use &u) { return scope.print(cast<Expr>(*u.slot)); };
  auto laneOf = [&](const ArraySubscriptExpr *a) -> std::optional<uint64_t> {
    Expr::EvalResult value;
    if (!a->getIdx()->EvaluateAsInt(value, ctx))
      return std::nullopt;
    llvm::APSInt i = value.Val.getInt();
    if (i.isNegative() || i.getZExtValue() >= count)
      return std::nullopt;
    return i.getZExtValue();
  };
  std::vector<bool> started(count, false);
  if (const Expr *init = array->getInit()) {
    const auto *values = dyn_cast<InitListExpr>(init);
    if (!values || !llvm::all_of(values->inits(), [](const Expr *e) {
          return isa<ImplicitValueInitExpr>(e) || isLiteral(e, 0);
        }))
      return fail(quoted(name) + " starts at values other than zero, so its "
                                 "elements are no partial sums of one sum");
    started.assign(count, true);
  }
  enum { Starting, Summing, Summed } phase = Starting;
  std::vector<size_t> starts;
  std::vector<Stmt **> lanesToScalar;
  Stmt **sumSlot = nullptr;
  size_t sumAt = 0;
  for (size_t m = n + 1; m < list.size(); ++m) {
    Stmt *top = const_cast<Stmt *>(list[m]);
    std::vector<Use> found;
    usesIn(top, array, found);
    if (found.empty())
      continue;
    if (phase == Summed)
      return fail(quoted(lane(found[0])) + " is used after the lanes of " +
                  quoted(name) + " are summed in " +
                  quoted(scope.print(cast<Expr>(list[sumAt]))));
    for (const Use &u : found) {
      if (!u.access())
        return fail(quoted(name) + " is used as a whole array in " +
                    quoted(scope.print(cast<Expr>(u.full ? u.full : *u.slot))) +
                    ", not lane by lane");
      if (!laneOf(u.access()))
        return fail(quoted(name) + " is indexed by " +
                    quoted(scope.print(u.access()->getIdx())) +
                    ", not by a constant lane, so its elements are no "
                    "separate partial sums");
    }
    // A start: `t[a] = t[b] = ... = 0`.
    if (const auto *assign = dyn_cast<BinaryOperator>(top);
        assign && assign->getOpcode() == BO_Assign &&
        found.front().parent == assign) {
      const Expr *value = assign;
      size_t chained = 0;
      std::vector<uint64_t> set;
      while (const auto *a = dyn_cast<BinaryOperator>(value)) {
        const auto *access = dyn_cast<ArraySubscriptExpr>(bare(a->getLHS()));
        if (a->getOpcode() != BO_Assign || !access ||
            referencedVar(access->getBase()) != array)
          break;
        set.push_back(*laneOf(access));
        ++chained;
        value = bare(a->getRHS());
      }
      if (chained == found.size()) {
        if (!isLiteral(value, 0))
          return fail(quoted(lane(found[0])) + " starts at " +
                      quoted(scope.print(value)) +
                      ", not at zero, so the lanes of " + quoted(name) +
                      " are no partial sums of one sum");
        if (phase != Starting)
          return fail(quoted(lane(found[0])) + " starts again after the "
                                               "lanes of " +
                      quoted(name) + " began to sum");
        for (uint64_t c : set)
          started[c] = true;
        starts.push_back(m);
        continue;
      }
    }
    // The lanes' sum, read once their sums are done.
    Stmt **slot = nullptr;
    for (Stmt *&child : top->children())
      if (!slot)
        slot = laneSum(child, array);
    if (slot) {
      std::vector<const Expr *> terms;
      sumTerms(cast<Expr>(*slot), terms, true);
      std::vector<int> seen(count, 0);
      for (const Expr *t : terms)
        ++seen[*laneOf(cast<ArraySubscriptExpr>(t))];
      for (uint64_t c = 0; c < count; ++c)
        if (seen[c] != 1)
          return fail("the lanes of " + quoted(name) + " are summed " +
                      (seen[c] ? "with " : "without ") +
                      quoted(name + "[" + std::to_string(c) + "]") +
                      (seen[c] ? " twice" : "") +
                      ", so the sum is not that of every term");
      if (terms.size() != found.size())
        return fail(quoted(name) + " is read besides the sum of its lanes in " +
                    quoted(scope.print(cast<Expr>(top))));
      sumSlot = slot;
      sumAt = m;
      phase = Summed;
      continue;
    }
    // Sums into lanes: each use is the target of `t[c] += e` or of `t[c] =
    // t[c] + e`, e reading no lane, or that self-read.
    llvm::SmallPtrSet<const Stmt *, 8> selfReads;
    for (const Use &u : found) {
      const auto *op = dyn_cast_or_null<BinaryOperator>(u.parent);
      if (!op || !op->isAssignmentOp() || bare(op->getLHS()) != *u.slot)
        continue;
      std::vector<const Expr *> terms;
      sumTerms(op->getRHS(), terms, true);
      for (const Expr *t : terms)
        if (op->getOpcode() == BO_Assign && isa<ArraySubscriptExpr>(t) &&
            scope.print(t) == lane(u))
          selfReads.insert(t);
    }
    for (const Use &u : found) {
      if (selfReads.contains(*u.slot))
        continue;
      const auto *op = dyn_cast_or_null<BinaryOperator>(u.parent);
      bool target = op && op->isAssignmentOp() && bare(op->getLHS()) == *u.slot;
      std::vector<const Expr *> terms;
      if (target)
        sumTerms(op->getRHS(), terms, true);
      bool sums = target && (op->getOpcode() == BO_AddAssign ||
                             op->getOpcode() == BO_SubAssign ||
                             (op->getOpcode() == BO_Assign &&
                              llvm::any_of(terms, [&](const Expr *t) {
                                return selfReads.contains(t);
                              })));
      // A lane stored on its own elsewhere is a sum of its own: a block of
      // C kept in an array (MACE's `sum[16]`).
      const auto *store = dyn_cast<BinaryOperator>(u.full);
      if (!sums && !target && store && store->isAssignmentOp() &&
          !StringRef(scope.print(store->getLHS())).starts_with(name + "["))
        return fail(quoted(lane(u)) + " is stored on its own in " +
                    quoted(scope.print(cast<Expr>(u.full))) +
                    ", so the lanes of " + quoted(name) +
                    " are sums of their own, not partial sums of one; a "
                    "block of C kept in an array is read as one where "
                    "each lane is only summed into and stored whole into "
                    "its element (X = t[c] or X += t[c])");
      if (!sums)
        return fail(quoted(lane(u)) + " is " + (target ? "set" : "read") +
                    " in " +
                    quoted(scope.print(cast<Expr>(u.full))) +
                    " while the lanes of " + quoted(name) +
                    " sum, so they are no independent partial sums");
      if (!started[*laneOf(u.access())])
        return fail(quoted(lane(u)) + " is summed into before it is set to "
                                      "zero");
    }
    for (const Use &u : found) {
      const auto *op = dyn_cast_or_null<BinaryOperator>(u.parent);
      if (op && op->isAssignmentOp() && bare(op->getLHS()) == *u.slot) {
        std::vector<Use> inside;
        Stmt *rhs = const_cast<Expr *>(op->getRHS());
        uses(rhs, op, op, array, inside);
        for (const Use &r : inside)
          if (!selfReads.contains(*r.slot))
            return fail(quoted(lane(r)) + " is read in " +
                        quoted(scope.print(op)) + " while the lanes of " +
                        quoted(name) +
                        " sum, so they are no independent partial sums");
      }
      lanesToScalar.push_back(u.slot);
    }
    phase = Summing;
  }
  if (phase != Summed)
    return fail("the lanes of " + quoted(name) +
                " are never read as one sum, so they are no partial sums");
  // One scalar for every lane.
  TypeSourceInfo *info = array->getTypeSourceInfo();
  Expr *init = array->getInit();
  scope.restore.push_back([array, type, info, init] {
    array->setType(type);
    array->setTypeSourceInfo(info);
    array->setInit(init);
  });
  array->setType(element);
  array->setTypeSourceInfo(ctx.getTrivialTypeSourceInfo(element));
  if (init)
    array->setInit(zeroOf(ctx, element, init->getBeginLoc()));
  for (Stmt **slot : lanesToScalar)
    replace(slot, refTo(array, (*slot)->getBeginLoc()));
  replace(sumSlot, readOf(array, (*sumSlot)->getBeginLoc()));
  for (size_t k = 0; k < starts.size(); ++k)
    list[starts[k]] =
        k ? nothing(list[starts[k]])
          : assignment(array, zeroOf(ctx, element, list[starts[k]]->getBeginLoc()),
                       list[starts[k]]->getBeginLoc());
  return true;
}

void PartialSums::mergePartialSum(size_t n, VarDecl *partial) {

  // Its start: its initialiser, or a first mention `t = 0;`.
  size_t start = n;
  if (const Expr *init = partial->getInit()) {
    if (!isLiteral(init, 0))
      return;
  } else {
    for (start = n + 1; start < list.size() && !mentions(list[start], partial);
         ++start)
      ;
    if (start == list.size() || !startsAtZero(list[start], partial))
      return;
  }
  // Summed into, then read once by `s += t`.
  size_t read = start + 1;
  VarDecl *sum = nullptr;
  for (; read < list.size(); ++read) {
    if (!mentions(list[read], partial))
      continue;
    const auto *op = dyn_cast<BinaryOperator>(list[read]);
    if (op && op->isAssignmentOp()) {
      const VarDecl *target = referencedVar(op->getLHS());
      std::vector<const Expr *> terms;
      sumTerms(op->getRHS(), terms, true);
      bool once = op->getOpcode() == BO_AddAssign
                      ? terms.size() == 1 && referencedVar(terms[0]) == partial
                      : op->getOpcode() == BO_Assign && terms.size() == 2 &&
                            llvm::is_contained(
                                {referencedVar(terms[0]),
                                 referencedVar(terms[1])},
                                partial) &&
                            llvm::is_contained({referencedVar(terms[0]),
                                                referencedVar(terms[1])},
                                               target);
      if (target && target != partial && once &&
          target->getType().getCanonicalType() ==
              partial->getType().getCanonicalType()) {
        sum = const_cast<VarDecl *>(target);
        break;
      }
    }
    if (!accumulatesOnly(list[read], partial, nullptr))
      return;
  }
  if (!sum)
    return;
  for (size_t m = read + 1; m < list.size(); ++m)
    if (mentions(list[m], partial))
      return;
  // The sum's own start: the last `s = 0` before the read, as a statement,
  // a loop's first clause or s's declaration.
  size_t own = read;
  const ForStmt *clause = nullptr;
  bool declared = false;
  for (size_t m = read; m-- > 0;) {
    const auto *loop = dyn_cast<ForStmt>(list[m]);
    const auto *decl = dyn_cast<DeclStmt>(list[m]);
    declared = decl && llvm::is_contained(decl->decls(), sum);
    if (startsAtZero(list[m], sum) ||
        (loop && startsAtZero(loop->getInit(), sum)) ||
        (declared && sum->getInit() && isLiteral(sum->getInit(), 0))) {
      own = m;
      clause = loop;
      break;
    }
    if (declared)
      return;
  }
  if (own == read || own == start)
    return;
  // Between the first start and the read, each is only summed into, and
  // neither is named before its own start.
  for (size_t m = std::min(start, own) + 1; m < read; ++m) {
    const Stmt *s = list[m];
    if (m == own && clause) {
      if (llvm::any_of(clause->children(), [&](const Stmt *child) {
            return child != clause->getInit() &&
                   (!accumulatesOnly(child, sum, partial) ||
                    !accumulatesOnly(child, partial, sum));
          }))
        return;
      continue;
    }
    if (m == own || m == start)
      continue;
    if (m < start ? mentions(s, partial) : !accumulatesOnly(s, partial, sum))
      return;
    if (m < own ? mentions(s, sum) : !accumulatesOnly(s, sum, partial))
      return;
  }
  // One sum: the first start stays (as s's), the other goes, and so does
  // `s += t`.
  for (size_t m = start; m < read; ++m)
    renameAll(const_cast<Stmt *>(list[m]), partial, sum);
  SourceLocation loc = list[start]->getBeginLoc();
  if (start < own) {
    // A start in a declaration of several: it stays, and s starts after it.
    if (start == n)
      list[n] = cast<DeclStmt>(list[n])->isSingleDecl()
                    ? assignment(sum, zeroOf(ctx, sum->getType(), loc), loc)
                    : CompoundStmt::Create(
                          ctx,
                          {const_cast<Stmt *>(list[n]),
                           assignment(sum, zeroOf(ctx, sum->getType(), loc), loc)},
                          FPOptionsOverride(), loc, loc);
    if (clause) {
      replace(&*const_cast<ForStmt *>(clause)->child_begin(), nullptr);
    } else if (declared) {
      Expr *init = sum->getInit();
      scope.restore.push_back([sum, init] { sum->setInit(init); });
      sum->setInit(nullptr);
    } else
      list[own] = nothing(list[own]);
  } else {
    list[start] = nothing(list[start]);
  }
  if (start != n && cast<DeclStmt>(list[n])->isSingleDecl())
    list[n] = nothing(list[n]);
  list[read] = nothing(list[read]);
}

} // namespace

bool mlir::gemm::accumulatesOnly(const Stmt *s, const VarDecl *v,
                            const VarDecl *w) {
  if (!s)
    return true;
  auto clean = [&](const Expr *e) {
    return !mentions(e, v) && !(w && mentions(e, w));
  };
  if (const auto *op = dyn_cast<BinaryOperator>(s);
      op && op->isAssignmentOp() && referencedVar(op->getLHS()) == v) {
    if (op->getOpcode() == BO_AddAssign || op->getOpcode() == BO_SubAssign)
      return clean(op->getRHS());
    if (op->getOpcode() != BO_Assign)
      return false;
    std::vector<const Expr *> terms;
    sumTerms(op->getRHS(), terms, true);
    return llvm::count_if(terms, [&](const Expr *t) {
             return referencedVar(t) == v;
           }) == 1 &&
           llvm::all_of(terms, [&](const Expr *t) {
             return referencedVar(t) == v || clean(t);
           });
  }
  if (const auto *ref = dyn_cast<DeclRefExpr>(s); ref && ref->getDecl() == v)
    return false;
  return llvm::all_of(s->children(), [&](const Stmt *child) {
    return accumulatesOnly(child, v, w);
  });
}

void mlir::gemm::readPartialSums(NestScope &scope,
                                 std::vector<const Stmt *> &statements) {
  PartialSums(scope, statements).run();
}
