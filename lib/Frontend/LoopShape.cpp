//===- LoopShape.cpp - The iteration space of a nest's loops --------------===//
//
// Decides which values the loops of a nest give their induction variables,
// and groups the loops whose values together run over one dimension: a loop
// over tiles and the loop within each tile (strip-mining, cache blocking),
// an unrolled loop and its remainder loop. Each dimension is the set
// first + step * [0, extent), each value visited once; where the loops visit
// exactly that set only for some sizes (tiles not clipped at the bound), the
// condition becomes a precondition of the launch. The writes and locals of
// the nest then sit in dimensions, so that the contraction and the
// recogniser see ordinary counted loops.
//
// The proofs are small integer arguments, not a polyhedral library:
// - tiles [t, min(t + S, n)) for t = L, L + S, ... < n partition [L, n);
//   unclipped tiles [t, t + S) do exactly when S divides n - L;
// - an unrolled loop that runs while k < K - c, each iteration covering
//   [k, k + U), stops at the first k >= K - c; with c >= U - 1 it never
//   passes K, and a remainder loop that continues from that k to K covers
//   the rest; with 0 <= c < U - 1 that holds when U divides K - L.
//
//===----------------------------------------------------------------------===//

#include "LoopHeader.h"
#include "TileSum.h"
#include "Unrolled.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

/// What a source loop becomes.
enum class Role {
  Dimension, ///< A dimension of its own (a point loop: with its tile loop).
  Tile,      ///< Steps over the tiles of its point loops.
  Unrolled,  ///< Unrolled, with a remainder loop that is the dimension.
  Rerolled,  ///< Unrolled, no remainder: its first copy is the dimension.
};

/// `(x)`, or x where it needs no parentheses.
std::string text(const SymExpr &x) { return parenthesize(x.str()); }

/// `X` where `e` rounds X down to a multiple of `unit`: `(X / unit) *
/// unit`, `unit * (X / unit)` or `X - X % unit`, as C's division does, or,
/// where `floor`, `X >> s << s` with unit = 2^s (the same for X >= 0; the
/// caller makes sure that no loop runs for X < 0). A local the nest never
/// assigns (`n8 = n >> 3 << 3`) is read as its initialiser.
const Expr *roundedDown(const Expr *e, int64_t unit, NestScope &scope,
                        bool floor = false) {
  if (const VarDecl *var = referencedVar(e))
    if (const Expr *init = scope.substitutableInit(var))
      e = init;
  const auto *op = dyn_cast<BinaryOperator>(stripCasts(e));
  auto isUnit = [&](const Expr *x) {
    Expr::EvalResult value;
    return x->EvaluateAsInt(value, scope.ctx) &&
           value.Val.getInt().getExtValue() == unit;
  };
  auto operand = [&](const Expr *x, BinaryOperatorKind kind) -> const Expr * {
    const auto *inner = dyn_cast<BinaryOperator>(stripCasts(x));
    return inner && inner->getOpcode() == kind && isUnit(inner->getRHS())
               ? inner->getLHS()
               : nullptr;
  };
  if (!op)
    return nullptr;
  if (op->getOpcode() == BO_Mul) {
    if (isUnit(op->getRHS()))
      return operand(op->getLHS(), BO_Div);
    if (isUnit(op->getLHS()))
      return operand(op->getRHS(), BO_Div);
  }
  if (floor && op->getOpcode() == BO_Shl && unit > 0 &&
      llvm::isPowerOf2_64(unit))
    if (const auto *shr = dyn_cast<BinaryOperator>(stripCasts(op->getLHS()));
        shr && shr->getOpcode() == BO_Shr) {
      Expr::EvalResult left, right;
      int64_t bits = llvm::Log2_64(unit);
      if (op->getRHS()->EvaluateAsInt(left, scope.ctx) &&
          shr->getRHS()->EvaluateAsInt(right, scope.ctx) &&
          left.Val.getInt() == bits && right.Val.getInt() == bits)
        return shr->getLHS();
    }
  if (op->getOpcode() == BO_Sub)
    if (const Expr *x = operand(op->getRHS(), BO_Rem);
        x && scope.print(stripCasts(x)) == scope.print(stripCasts(op->getLHS())))
      return x;
  return nullptr;
}

bool sameForm(const AffineForm &x, const AffineForm &y) {
  AffineForm difference = x + y.scaled(SymExpr::constant(-1));
  return difference.isInvariant() && difference.constant.isZero();
}

class Shaper {
public:
  explicit Shaper(NestScope &scope)
      : scope(scope), loops(scope.sourceLoops),
        roles(loops.size(), Role::Dimension), tileOf(loops.size(), -1),
        relative(loops.size(), false), unrolledOf(loops.size(), -1),
        firstCopies(loops.size()), droppedLoops(loops.size(), false) {
    for (size_t l = 0; l < loops.size(); ++l)
      firstCopies[l] = loops[l].body;
  }

  bool run();

private:
  NestScope &scope;
  const std::vector<SourceLoop> &loops;
  std::vector<LoopHeader> headers;
  std::vector<Role> roles;
  std::vector<int> tileOf; ///< A point loop's loop over tiles.
  /// A point loop runs from 0 and the body reads tile + point (`int bt =
  /// obt + ibt;`), else from the tile's index.
  std::vector<bool> relative;
  std::vector<int> unrolledOf; ///< A remainder loop's unrolled loop.
  /// A rerolled loop's one accumulation, as its first copy's term.
  llvm::DenseMap<int, const Expr *> firstTerms;
  /// A rerolled loop jammed into a loop inside it: that loop.
  llvm::DenseMap<int, int> jammedInto;
  /// Per loop, the statements of its body that are the first copy of the
  /// loops jammed into it so far (all of them where none is).
  std::vector<std::vector<const Stmt *>> firstCopies;
  /// What the later jammed copies walked to: source loops, and the writes
  /// and locals by their order.
  std::vector<bool> droppedLoops;
  llvm::DenseSet<unsigned> droppedOrders;
  std::vector<int> dimensionOf; ///< Per source loop, or -1.

  std::string name(int loop) const {
    return quoted(loops[loop].iv->getNameAsString());
  }
  /// 'k..k + 3' for a loop unrolled by 4.
  std::string copiesOf(int loop) const {
    std::string iv = loops[loop].iv->getNameAsString();
    return quoted(iv + ".." + iv + " + " +
                  std::to_string(*headers[loop].step.getConstant() - 1));
  }
  std::vector<int> around(int loop) const { return loopsAround(scope, loop); }
  bool invariant(int loop) const {
    const LoopHeader &h = headers[loop];
    return (!h.start || h.start->isInvariant()) &&
           llvm::all_of(h.bounds,
                        [](const AffineForm &f) { return f.isInvariant(); });
  }
  /// Whether the header of `loop` reads the induction variable of `outer`.
  bool readsLoop(int loop, int outer) const {
    const LoopHeader &h = headers[loop];
    return (h.start && !h.start->ivCoeffs[outer].isZero()) ||
           llvm::any_of(h.bounds, [&](const AffineForm &f) {
             return !f.ivCoeffs[outer].isZero();
           });
  }
  /// A counted loop of its own that steps by a constant above 1, with no
  /// remainder loop: its body may be copies.
  bool steppedAlone(int loop) const {
    std::optional<int64_t> step = headers[loop].step.getConstant();
    return roles[loop] == Role::Dimension && step && *step > 1 &&
           counted(loop) && llvm::none_of(loops, [&](const SourceLoop &r) {
             return r.previous == loop && r.follows == loop;
           });
  }
  bool counted(int loop) const {
    return !loops[loop].atLeastOnce && headers[loop].bounds.size() == 1 &&
           headers[loop].start && invariant(loop);
  }

  bool findTile(int point);
  int tileByIndices(int point, llvm::ArrayRef<int> steppers) const;
  bool findRemainder(int remainder);
  bool checkRectangular(int loop);
  bool findJam(int loop);
  static bool dropLaterCopies(llvm::ArrayRef<const Stmt *> statements,
                              llvm::ArrayRef<int64_t> copyOf,
                              llvm::ArrayRef<const Write *> writes,
                              llvm::SmallDenseSet<unsigned, 8> &dropped);
  static std::vector<const Stmt *>
  firstOnly(llvm::ArrayRef<const Stmt *> statements,
            llvm::ArrayRef<int64_t> copyOf);
  bool require(const SymExpr &value, bool divisible, const SymExpr &unit,
               const std::string &why);
  std::optional<Loop> dimension(int anchor);
  bool inDroppedCopy(const Stmt *s) const;
  void remap();
};

/// Records `value % unit == 0` (divisible) or `value > 0` as a precondition;
/// where the values are constants, decides it now, rejecting with `why`.
bool Shaper::require(const SymExpr &value, bool divisible,
                     const SymExpr &unit, const std::string &why) {
  std::optional<int64_t> v = value.getConstant(), u = unit.getConstant();
  if (v && u)
    return (divisible ? *v % *u == 0 : *v > 0) || (scope.reject(why), false);
  std::string condition =
      divisible ? text(value) + " % " + text(unit) + " == 0"
                : text(value) + " > 0";
  if (!llvm::is_contained(scope.preconditions, condition))
    scope.preconditions.push_back(condition);
  return true;
}

/// Of `steppers`, the loops around `point` (outermost first) that step by
/// its extent, the one whose tiles it runs within, or -1: where several do
/// (`jj` and `kk` both by block_size, over `k` and `j`), the innermost that
/// every access reads with it as one sum (`kk + k`), else the innermost
/// that no point loop runs within yet, else the innermost. The accesses'
/// projection onto the dimensions proves the choice.
int Shaper::tileByIndices(int point, ArrayRef<int> steppers) const {
  if (steppers.size() < 2)
    return steppers.empty() ? -1 : steppers.back();
  auto rank = [&](int l) {
    return 2 * readsAsTileSum(scope, point, l) + !llvm::is_contained(tileOf, l);
  };
  int best = steppers.back();
  for (int l : steppers)
    if (rank(l) >= rank(best))
      best = l;
  return best;
}

/// Whether `point`, a loop counting up by 1, runs within the tiles of a
/// loop around it: from the tile's index t to t + S (S its step), or to the
/// smaller of that and the tile loop's bound n; or from 0 to S, or to the
/// smaller of that and n - t, the body reading t + point. Records the pair,
/// or rejects with what breaks the tiling.
bool Shaper::findTile(int point) {
  const LoopHeader &h = headers[point];
  size_t size = loops.size();
  std::string pn = name(point);
  // The tile loop: the one loop around the point loop that its header
  // reads; for a point loop from 0 to S, the innermost loop around it
  // that steps by S.
  int tile = -1;
  for (int l : around(point)) {
    bool read = readsLoop(point, l);
    if (read && tile >= 0)
      return scope.reject("non-rectangular bounds: the bound of " + pn +
                          " depends on " + name(tile) + " and " + name(l)),
             false;
    if (read)
      tile = l;
  }
  if (tile < 0 && invariant(point) && h.start && h.start->constant.isZero() &&
      h.bounds.size() == 1) {
    std::vector<int> steppers;
    for (int l : around(point))
      if (!loops[l].atLeastOnce && headers[l].step == h.bounds[0].constant &&
          !(headers[l].step == SymExpr::constant(1)))
        steppers.push_back(l);
    tile = tileByIndices(point, steppers);
  }
  if (tile < 0)
    return true;
  std::string tn = name(tile);
  const LoopHeader &t = headers[tile];
  std::optional<int64_t> step = t.step.getConstant();
  for (int outer : around(tile))
    if (readsLoop(tile, outer) &&
        !(headers[outer].step == SymExpr::constant(1)))
      return scope.reject("the loop " + tn + " over the tiles of " + pn +
                          " runs within the tiles of " + name(outer) +
                          "; one level of tiling is lifted"),
             false;
  if (!counted(tile) || t.step == SymExpr::constant(1) ||
      loops[point].atLeastOnce || (step && *step < 0))
    return scope.reject("non-rectangular bounds: the bound of " + pn +
                        " depends on " + tn),
           false;
  // In absolute terms (a relative point loop's plus t): start at t, end at
  // t + S and perhaps at the tile loop's bound n.
  AffineForm tileIndex = ivForm(size, tile);
  bool fromZero = h.start && h.start->isInvariant();
  AffineForm shift = fromZero ? tileIndex : AffineForm(size);
  if (!h.start || !sameForm(*h.start + shift, tileIndex))
    return scope.reject("non-rectangular bounds: the bound of " + pn +
                        " depends on " + tn + ", but " + pn +
                        " starts neither at " + tn + " nor at 0"),
           false;
  const AffineForm &n = t.bounds[0];
  bool spans = false, clipped = false;
  for (const AffineForm &bound : h.bounds) {
    AffineForm end = bound + shift;
    AffineForm width = end + tileIndex.scaled(SymExpr::constant(-1));
    if (width.isInvariant() && width.constant == t.step) {
      spans = true;
    } else if (sameForm(end, n)) {
      clipped = true;
    } else if (width.isInvariant()) {
      std::optional<int64_t> w = width.constant.getConstant();
      return scope.reject(
                 "the tiles of " + tn + " " +
                 (w && step ? (*w > *step ? "overlap" : "leave gaps")
                            : "may overlap or leave gaps") +
                 ": each runs " + pn + " over " + quoted(width.constant.str()) +
                 " values from " + tn + ", which steps by " +
                 quoted(t.step.str())),
             false;
    } else if (end.isInvariant()) {
      return scope.reject("the tiles of " + tn + " are clipped at " +
                          quoted(end.constant.str()) + ", not at the bound " +
                          quoted(n.constant.str()) + " of " + tn),
             false;
    } else {
      return scope.reject("non-rectangular bounds: the bound of " + pn +
                          " depends on " + tn + " other than as a tile of it"),
             false;
    }
  }
  if (!spans)
    return scope.reject("the tiles of " + tn + " leave gaps: " + pn +
                        " does not run up to the next tile's start"),
           false;
  for (int other = 0; other < point; ++other)
    if (tileOf[other] == tile &&
        llvm::is_contained(around(point), other))
      return scope.reject("the loops " + name(other) + " and " + pn +
                          " both run within the tiles of " + tn),
             false;
  // Unclipped tiles cover [L, n) only where S divides n - L.
  SymExpr extent = n.constant - t.start->constant;
  if (!clipped &&
      !require(extent, true, t.step,
               "the tiles of " + tn + " do not cover " +
                   quoted(t.start->constant.str() + ".." + n.constant.str()) +
                   " exactly: the step " + quoted(t.step.str()) +
                   " of " + tn + " does not divide " +
                   quoted(extent.str()) + " and " + pn + " is not clipped at " +
                   quoted(n.constant.str())))
    return false;
  if (!step && !require(t.step, false, t.step, ""))
    return false;
  roles[tile] = Role::Tile;
  tileOf[point] = tile;
  relative[point] = fromZero;
  return true;
}

/// Whether `remainder` finishes the work of the unrolled loop just before
/// it: continuing from where it stopped (or starting there), with a body
/// of which the unrolled body is copies at k, k + 1, ..., k + U - 1. Records
/// the pair, or rejects where the remainder continues from a loop that is
/// no such pair.
bool Shaper::findRemainder(int remainder) {
  const SourceLoop &r = loops[remainder];
  int unrolled = r.previous;
  bool continues = r.follows >= 0;
  if (unrolled < 0)
    return true;
  const LoopHeader &m = headers[unrolled], &h = headers[remainder];
  std::optional<int64_t> step = m.step.getConstant();
  std::string rn = name(remainder), un = name(unrolled);
  bool shaped = roles[unrolled] == Role::Dimension && tileOf[unrolled] < 0 &&
                counted(unrolled) && step && *step >= 1 &&
                tileOf[remainder] < 0 && h.step == SymExpr::constant(1) &&
                !r.atLeastOnce && h.bounds.size() == 1 &&
                h.bounds[0].isInvariant();
  // Loops over other things one after the other are no pair.
  if (!continues &&
      (!shaped || *step == 1 ||
       !areCopies(scope, loops[unrolled].body, unrolled, r.body, remainder,
                  *step)))
    return true;
  if (!shaped)
    return scope.reject("the loop over " + rn +
                        " continues from where the loop before it stopped, "
                        "which is no counted loop that steps up"),
           false;
  if (continues && !areCopies(scope, loops[unrolled].body, unrolled, r.body,
                              remainder, *step))
    return scope.reject("the body of the loop over " + un + " (step " +
                        std::to_string(*step) + ") is not " +
                        std::to_string(*step) +
                        " copies of the body of the remainder loop after it, "
                        "one for each of " + copiesOf(unrolled)),
           false;
  // The unrolled loop runs while k < K - c: it stops in time where c >=
  // U - 1, and at K where 0 <= c and U divides K - L.
  const AffineForm &K = h.bounds[0];
  const SymExpr &L = m.start->constant;
  AffineForm gap = K + m.bounds[0].scaled(SymExpr::constant(-1));
  // Copies from 0 up to K rounded down to a multiple of U stop where
  // `k + U <= K` would; for K < 0 neither loop runs.
  auto roundedK = [&] {
    const Expr *x = roundedDown(loops[unrolled].bound, *step, scope, true);
    std::optional<AffineForm> rounded =
        x && L.isZero() && loops[unrolled].op == BO_LT &&
                referencedVar(loops[unrolled].lhs) == loops[unrolled].iv
            ? boundForm(scope, x, unrolled)
            : std::nullopt;
    return rounded && sameForm(*rounded, K);
  };
  std::optional<int64_t> constant =
      gap.isInvariant() ? gap.constant.getConstant() : std::nullopt;
  bool known = constant || roundedK();
  int64_t c = constant ? *constant : *step - 1;
  std::string reach = "the unrolled loop over " + un + " covers " +
                      copiesOf(unrolled) + " while it tests " +
                      quoted(scope.print(loops[unrolled].lhs)) + " against " +
                      quoted(scope.print(loops[unrolled].bound));
  if (!known)
    return scope.reject(reach + ", which is not a constant distance from " +
                        quoted(K.constant.str()) + ", where the remainder "
                        "loop stops"),
           false;
  if (c < 0)
    return scope.reject(reach + ", so it runs past " +
                        quoted(K.constant.str()) +
                        ", where the remainder loop stops"),
           false;
  if (c < *step - 1 &&
      !require(K.constant - L, true, m.step,
               reach + ": it runs past " + quoted(K.constant.str()) +
                   " since " + std::to_string(*step) + " does not divide " +
                   quoted((K.constant - L).str())))
    return false;
  if (!continues) {
    // The remainder starts where the unrolled loop stops: for L = 0 and
    // c = U - 1, at K rounded down to a multiple of U.
    const Expr *x = roundedDown(r.start, *step, scope);
    std::optional<AffineForm> rounded = x ? boundForm(scope, x, remainder) : std::nullopt;
    if (!L.isZero() || c != *step - 1 || !rounded || !sameForm(*rounded, K))
      return scope.reject("the remainder loop over " + rn + " starts at " +
                          quoted(scope.print(r.start)) +
                          ", not where the unrolled loop over " + un +
                          " stops"),
             false;
  }
  roles[unrolled] = Role::Unrolled;
  unrolledOf[remainder] = unrolled;
  return true;
}

/// Whether `loop`, stepping by U, holds one loop in another down to a loop
/// whose body is U copies at iv, iv + 1, ..., iv + U - 1 of `loop`'s
/// induction variable (unroll-and-jam); the loops between read no iv of
/// `loop` in their headers, so they run the same for each copy, and hold
/// nothing beside the next loop but declarations and U copies of their
/// own statements (a register block's `C(i, j) = 0;` before its K loop).
/// Then `loop` stands for the copies as a loop over each of them, with the
/// first copy's statements: every copy runs in the same loops, and
/// distinct copies share no assigned variable (areJammedCopies), so only
/// the order between copies changes, which the contraction does not see.
/// Records the statements of the later copies: where the copies follow
/// each other, what the walk met in program order, an equal number per
/// copy; where they interleave, each copy is a list of writes, each the
/// one of its statement.
bool Shaper::findJam(int loop) {
  int64_t count = *headers[loop].step.getConstant();
  auto inside = [](const std::vector<int> &chain, int l) {
    return llvm::is_contained(chain, l);
  };
  // What the levels between take off, kept until the innermost holds.
  llvm::SmallDenseSet<unsigned, 8> dropped;
  std::vector<std::pair<int, std::vector<const Stmt *>>> firsts;
  auto commit = [&](int within) {
    droppedOrders.insert(dropped.begin(), dropped.end());
    for (auto &[level, first] : firsts)
      firstCopies[level] = std::move(first);
    jammedInto[loop] = within;
    return true;
  };
  for (int within = loop;;) {
    const std::vector<const Stmt *> &body = firstCopies[within];
    std::vector<int64_t> copyOf;
    if (within != loop &&
        areJammedCopies(scope, body, loop, within, count, copyOf)) {
      std::vector<unsigned> orders;
      std::vector<const Write *> writes;
      for (const Write &w : scope.writes)
        if (inside(w.loops, within) && !droppedOrders.contains(w.order))
          orders.push_back(w.order), writes.push_back(&w);
      for (const LocalDef &local : scope.locals)
        if (inside(local.loops, within) &&
            !droppedOrders.contains(local.order))
          orders.push_back(local.order);
      std::vector<int> nested;
      for (int l = within + 1; l < int(loops.size()); ++l)
        if (inside(around(l), within) && !droppedLoops[l])
          nested.push_back(l);
      if (llvm::is_sorted(copyOf)) {
        llvm::sort(orders);
        if (orders.size() % count || nested.size() % count)
          return false;
        for (size_t n = orders.size() / count; n < orders.size(); ++n)
          dropped.insert(orders[n]);
        for (size_t n = nested.size() / count; n < nested.size(); ++n)
          droppedLoops[nested[n]] = true;
      } else if (!nested.empty() || orders.size() != writes.size() ||
                 !dropLaterCopies(body, copyOf, writes, dropped))
        return false;
      firsts.push_back({within, firstOnly(body, copyOf)});
      return commit(within);
    }
    // Nothing at this level but one loop, declarations (without values, or
    // of pointers that nothing moves: `float *c = &C[i * ldc + j];`, which
    // the copies' accesses read through, Unrolled.cpp) and copies of
    // statements that write.
    int inner = -1, found = 0;
    for (int l = 0; l < int(loops.size()); ++l)
      if (loops[l].parent == within)
        inner = l, ++found;
    if (found != 1 || readsLoop(inner, loop) ||
        llvm::any_of(scope.locals, [&](const LocalDef &local) {
          return local.loops.back() == within && local.var->hasInit() &&
                 !scope.fixedPointer(local.var);
        }))
      return false;
    std::vector<const Write *> writes;
    for (const Write &w : scope.writes)
      if (w.loops.back() == within && !droppedOrders.contains(w.order))
        writes.push_back(&w);
    if (!writes.empty()) {
      std::vector<const Stmt *> beside;
      for (const Stmt *s : body)
        if (!holds(s, loops[inner].stmt) && !isa<DeclStmt>(s))
          beside.push_back(s);
      if (writes.size() != beside.size() ||
          !areJammedCopies(scope, beside, loop, within, count, copyOf) ||
          !dropLaterCopies(beside, copyOf, writes, dropped))
        return false;
      // The loop and the declarations belong to every copy.
      std::vector<int64_t> ofBody(body.size(), 0);
      for (size_t q = 0; q < body.size(); ++q)
        if (auto at = llvm::find(beside, body[q]); at != beside.end())
          ofBody[q] = copyOf[at - beside.begin()];
      firsts.push_back({within, firstOnly(body, ofBody)});
    }
    within = inner;
  }
}

/// Drops the writes of `statements`' later copies (copyOf), each the one
/// write of its statement; false where one is not.
bool Shaper::dropLaterCopies(ArrayRef<const Stmt *> statements,
                             ArrayRef<int64_t> copyOf,
                             ArrayRef<const Write *> writes,
                             llvm::SmallDenseSet<unsigned, 8> &dropped) {
  for (const Write *w : writes) {
    auto at = llvm::find(statements, w->statement);
    if (at == statements.end() ||
        llvm::count_if(writes, [&](const Write *other) {
          return other->statement == w->statement;
        }) != 1)
      return false;
    if (copyOf[at - statements.begin()])
      dropped.insert(w->order);
  }
  return true;
}

/// The statements of the first copy.
std::vector<const Stmt *>
Shaper::firstOnly(ArrayRef<const Stmt *> statements, ArrayRef<int64_t> copyOf) {
  std::vector<const Stmt *> first;
  for (size_t q = 0; q < statements.size(); ++q)
    if (!copyOf[q])
      first.push_back(statements[q]);
  return first;
}

/// A loop that is no point loop reads no loop around it in its header.
bool Shaper::checkRectangular(int loop) {
  for (int l : around(loop)) {
    if (readsLoop(loop, l))
      return scope.reject("non-rectangular bounds: the bound of " +
                          name(loop) + " depends on " + name(l)),
             false;
  }
  return true;
}

/// The dimension whose statements `anchor` holds.
std::optional<Loop> Shaper::dimension(int anchor) {
  const SourceLoop &source = loops[anchor];
  const LoopHeader &h = headers[anchor];
  Loop dim{source.iv, anchor, {{anchor, 1}}, SymExpr(),
           SymExpr::constant(1), SymExpr()};
  if (int tile = tileOf[anchor]; tile >= 0) {
    dim.members.insert(dim.members.begin(), {tile, relative[anchor] ? 1 : 0});
    dim.first = headers[tile].start->constant;
    dim.extent = headers[tile].bounds[0].constant - dim.first;
    return dim;
  }
  if (int unrolled = unrolledOf[anchor]; unrolled >= 0) {
    dim.first = headers[unrolled].start->constant;
    dim.extent = h.bounds[0].constant - dim.first;
    return dim;
  }
  const SymExpr &bound = h.bounds[0].constant;
  if (roles[anchor] == Role::Rerolled) {
    // Copies [L, X) with X the bound of a plain test (`k < K`), else the
    // last copy's bound (`k + U <= K`: iv < K - U + 1).
    std::optional<int64_t> step = h.step.getConstant();
    SymExpr end = h.plainTest ? bound : bound + SymExpr::constant(*step - 1);
    dim.first = h.start->constant;
    dim.extent = end - dim.first;
    std::string why = "the unrolled loop over " + name(anchor) + " covers " +
                      copiesOf(anchor) + " but its step " +
                      std::to_string(*step) + " does not divide " +
                      quoted(dim.extent.str()) +
                      ", and no remainder loop follows it";
    if (!require(dim.extent, true, h.step, why))
      return std::nullopt;
    return dim;
  }
  std::optional<int64_t> step = h.step.getConstant();
  if (step == -1) {
    // Counting down from the start to the lowest value: the same values.
    dim.first = bound;
    dim.extent = h.start->constant - bound + SymExpr::constant(1);
  } else {
    dim.first = h.start->constant;
    dim.step = h.step;
    SymExpr span = bound - dim.first;
    if (step == 1) {
      dim.extent = span;
    } else if (std::optional<int64_t> s = span.getConstant(); s && step) {
      dim.extent = SymExpr::constant(*s > 0 ? (*s + *step - 1) / *step : 0);
    } else {
      // Iterations: ceil(span / step), as C's division computes it for any
      // span (a negative count is no iteration).
      if (!step && !require(h.step, false, h.step, ""))
        return std::nullopt;
      dim.extent = SymExpr::symbol(
          text(span + h.step - SymExpr::constant(1)) + " / " + text(h.step));
    }
  }
  // A `do` loop runs once before its first test.
  if (source.atLeastOnce) {
    std::optional<int64_t> extent = dim.extent.getConstant();
    if (extent && *extent < 1)
      dim.extent = SymExpr::constant(1);
    else if (!extent && !require(dim.extent, false, dim.extent, ""))
      return std::nullopt;
  }
  return dim;
}

/// Whether `s` lies in the copies of a rerolled loop's body after its first,
/// or in an unrolled loop: statements whose dimension holds the first copy
/// or the remainder instead.
bool Shaper::inDroppedCopy(const Stmt *s) const {
  for (size_t l = 0; l < loops.size(); ++l) {
    if (roles[l] == Role::Unrolled && holds(loops[l].stmt, s))
      return true;
    if (roles[l] != Role::Rerolled || jammedInto.count(l))
      continue;
    ArrayRef<const Stmt *> body = loops[l].body;
    size_t copy = firstTerms.count(l)
                      ? 1
                      : body.size() / size_t(*headers[l].step.getConstant());
    if (llvm::any_of(body.drop_front(copy),
                     [&](const Stmt *c) { return holds(c, s); }))
      return true;
  }
  return false;
}

/// Moves the loops of writes and locals from source loops to dimensions,
/// noting the tiles they run once per; drops the statements of unrolled
/// copies.
void Shaper::remap() {
  auto move = [&](std::vector<int> &chain, std::vector<int> &perTile) {
    std::vector<int> dims;
    for (int l : chain) {
      if (roles[l] == Role::Tile &&
          llvm::none_of(chain, [&](int p) { return tileOf[p] == l; }))
        perTile.push_back(l);
      if (dimensionOf[l] >= 0)
        dims.push_back(dimensionOf[l]);
    }
    chain = dims;
  };
  std::vector<Write> writes;
  std::vector<int> newIndex(scope.writes.size(), -1);
  for (size_t w = 0; w < scope.writes.size(); ++w) {
    Write write = scope.writes[w];
    if (inDroppedCopy(write.lhs) || droppedOrders.contains(write.order))
      continue;
    move(write.loops, write.perTile);
    for (auto [loop, term] : firstTerms)
      if (holds(loops[loop].body.front(), write.lhs))
        write.rhs = term;
    newIndex[w] = writes.size();
    writes.push_back(write);
  }
  scope.writes = writes;
  // Only jammed copies declare locals (areCopies).
  std::vector<LocalDef> locals;
  for (LocalDef local : scope.locals) {
    if (droppedOrders.contains(local.order))
      continue;
    move(local.loops, local.perTile);
    locals.push_back(local);
  }
  scope.locals = locals;
  std::vector<BetaBranch> branches;
  for (BetaBranch branch : scope.betaBranches) {
    if (newIndex[branch.zero] < 0)
      continue;
    branch.zero = newIndex[branch.zero];
    if (branch.scale)
      branch.scale = newIndex[*branch.scale];
    branches.push_back(branch);
  }
  scope.betaBranches = branches;
}

bool Shaper::run() {
  int size = loops.size();
  for (int l = 0; l < size; ++l) {
    std::optional<LoopHeader> header = readHeader(scope, l);
    if (!header)
      return false;
    headers.push_back(*header);
  }
  for (int l = 0; l < size; ++l)
    if (headers[l].step == SymExpr::constant(1) && !findTile(l))
      return false;
  for (int l = 0; l < size; ++l)
    if (!findRemainder(l))
      return false;
  for (int l = 0; l < size; ++l) {
    if (tileOf[l] < 0 && roles[l] != Role::Tile && !checkRectangular(l))
      return false;
    // An unrolled loop with no remainder: its copies cover [L, X).
    std::optional<int64_t> step = headers[l].step.getConstant();
    const Expr *first = nullptr;
    if (steppedAlone(l)) {
      size_t copy = loops[l].body.size() / *step;
      bool copies =
          loops[l].body.size() == 1
              ? areCopies(scope, loops[l].body, l, loops[l].body, l, *step,
                          &first)
              : loops[l].body.size() % *step == 0 &&
                    areCopies(scope, loops[l].body, l,
                              ArrayRef(loops[l].body).take_front(copy), l,
                              *step);
      if (copies) {
        roles[l] = Role::Rerolled;
        if (first)
          firstTerms[l] = first;
      }
    }
  }
  // Loops jammed into a loop inside them, inner first and again until none
  // is left: two loops may be jammed into one (i and j into a loop over k).
  for (bool more = true; more;) {
    more = false;
    for (int l = size - 1; l >= 0; --l)
      if (steppedAlone(l) && !droppedLoops[l] && findJam(l))
        roles[l] = Role::Rerolled, more = true;
    if (scope.failed())
      return false;
  }
  dimensionOf.assign(size, -1);
  for (int l = 0; l < size; ++l) {
    if (roles[l] == Role::Tile || roles[l] == Role::Unrolled ||
        droppedLoops[l] || inDroppedCopy(loops[l].stmt))
      continue;
    std::optional<Loop> dim = dimension(l);
    if (!dim)
      return false;
    auto note = [&](const std::string &shape) {
      if (!llvm::is_contained(scope.shapes, shape))
        scope.shapes.push_back(shape);
    };
    if (int tile = tileOf[l]; tile >= 0)
      note(
          relative[l] ? quoted(loops[tile].iv->getNameAsString() + " + " +
                               loops[l].iv->getNameAsString()) +
                            " runs over one dimension in tiles"
                      : name(l) + " runs within the tiles of " + name(tile));
    if (int unrolled = unrolledOf[l]; unrolled >= 0)
      note(name(unrolled) + " is unrolled by " +
                             headers[unrolled].step.str() +
                             " with a remainder loop");
    if (auto jam = jammedInto.find(l); jam != jammedInto.end())
      note(name(l) + " is unrolled by " + headers[l].step.str() +
           " and jammed into " + name(jam->second));
    else if (roles[l] == Role::Rerolled)
      note(name(l) + " is unrolled by " +
                             headers[l].step.str());
    dimensionOf[l] = scope.loops.size();
    scope.loops.push_back(*dim);
  }
  remap();
  return true;
}

} // namespace

bool mlir::gemm::shapeLoops(NestScope &scope) { return Shaper(scope).run(); }
