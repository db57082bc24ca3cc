//===- Recognizer.cpp - Prove a loop nest is a GEMM -----------------------===//
//
// Given the contraction of a nest, classify every loop as the batch, M, N or
// K dimension from which operands its induction variable indexes, check the
// bounds, the fused init, aliasing and the variables the nest leaves behind,
// and bind the operands as strided views or tables of rows.
//
//===----------------------------------------------------------------------===//

#include "Recognizer.h"
#include "BoundTemporaries.h"
#include "CopiedLocals.h"
#include "Contraction.h"
#include "BetaStore.h"
#include "CounterSteps.h"
#include "GuardedBias.h"
#include "NestLocals.h"
#include "PeeledStep.h"
#include "PointerWalk.h"
#include "ReadAfterLoop.h"
#include "PrivateMembers.h"
#include "SplitOff.h"
#include "Temporary.h"
#include "Unswitch.h"
#include "gemm-opt/Frontend/SourceRewriter.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SetOperations.h"
#include "llvm/ADT/StringExtras.h"

#include <set>

using namespace clang;
using namespace mlir::gemm;

namespace {

enum Dim { Batch, M, N, K };

/// Finds references to a variable outside a statement.
class OutsideUse : public RecursiveASTVisitor<OutsideUse> {
public:
  /// `start`: the statement that starts the nest's outermost loop (which
  /// may lie blocks above it), or an invalid range.
  OutsideUse(const VarDecl *var, SourceRange nest, SourceRange start,
             const SourceManager &sm)
      : var(var), nest(nest), start(start), sm(sm) {}
  bool VisitDeclRefExpr(DeclRefExpr *ref) {
    SourceLocation loc = ref->getLocation();
    // The nest's own pragma lines count as the nest: an OpenMP clause there
    // names its variables (`private(j)`) but reads nothing after it.
    bool inside = !sm.isBeforeInTranslationUnit(loc, pragmasTop) &&
                  !sm.isBeforeInTranslationUnit(nest.getEnd(), loc);
    inside |= start.isValid() &&
              !sm.isBeforeInTranslationUnit(loc, start.getBegin()) &&
              !sm.isBeforeInTranslationUnit(start.getEnd(), loc);
    found |= ref->getDecl() == var && !inside;
    return !found;
  }
  /// A loop apart from the nest that starts with `var = ...`, like the next
  /// nest's `for (i = 0; ...)` where `i` is declared once for both, reads
  /// the variable only after giving it a new value.
  /// Its start may set several variables (`for (jg = jj, j = 0; ...)`).
  bool TraverseForStmt(ForStmt *loop) {
    bool apart = sm.isBeforeInTranslationUnit(nest.getEnd(),
                                              loop->getBeginLoc()) ||
                 sm.isBeforeInTranslationUnit(endOfStmt(loop), nest.getBegin());
    std::vector<Expr *> starts;
    for (Expr *e = dyn_cast_or_null<Expr>(loop->getInit()); e;) {
      auto *comma = dyn_cast<BinaryOperator>(e->IgnoreParens());
      if (!comma || comma->getOpcode() != BO_Comma) {
        starts.insert(starts.begin(), e);
        break;
      }
      starts.insert(starts.begin(), comma->getRHS());
      e = comma->getLHS();
    }
    for (Expr *start : starts) {
      const auto *init = dyn_cast<BinaryOperator>(start->IgnoreParens());
      const auto *lhs = init ? dyn_cast<DeclRefExpr>(init->getLHS()) : nullptr;
      if (apart && init && init->getOpcode() == BO_Assign && lhs &&
          lhs->getDecl() == var)
        return TraverseStmt(init->getRHS());
      if (!TraverseStmt(start))
        return false;
    }
    return RecursiveASTVisitor::TraverseForStmt(loop);
  }
  bool found = false;

private:
  const VarDecl *var;
  SourceRange nest, start;
  const SourceManager &sm;
  /// The first line of the pragmas above the nest (pragmasAbove).
  SourceLocation pragmasTop = [&] {
    auto [file, offset] = sm.getDecomposedExpansionLoc(nest.getBegin());
    return sm.getComposedLoc(
        file, unsigned(pragmasAbove(sm.getBufferData(file), offset).top));
  }();
};

/// How many of `init`'s loops, outermost first, are the accumulation's own:
/// the loops that enclose both.
size_t sharedLoops(const Write &init, const Contraction &c) {
  size_t shared = 0;
  while (shared < init.loops.size() && shared < c.macLoops.size() &&
         init.loops[shared] == c.macLoops[shared])
    ++shared;
  return shared;
}

class Recognizer {
public:
  Recognizer(const Stmt *outer, const FunctionDecl *function,
             ASTContext &ctx, LoopStart start, const Stmt *side = nullptr,
             const Stmt *temporary = nullptr)
      : scope(ctx, outer) {
    scope.outerStart = start;
    scope.function = function;
    scope.side = side;
    scope.temporary = temporary;
  }

  Recognition run() {
    Recognition result;
    // Branches on constants read as their arm (Unswitch.cpp).
    KnownBranches known(scope.ctx);
    // Pointers declared ahead of the nest that it sets before each use are
    // its own (NestLocals.cpp).
    NestLocals locals(scope);
    // Counters stepped mid-body step at its end (CounterSteps.cpp), and
    // walked pointers read as offsets, until the recognition ends.
    CounterSteps steps(scope);
    PointerWalk walks(scope);
    // A bias assigned under a test reads as a `?:` until then too
    // (GuardedBias.cpp).
    GuardedBias guards(scope);
    // And a `?:` on beta == 0 whose arms differ by beta * C reads as the arm
    // with the term (BetaStore.cpp).
    BetaChoices choices(scope);
    // Around a product through a temporary, the pointers the nest moves
    // are variables it writes: A and B are read through none of them.
    std::optional<Nest> nest = scope.temporary || walks.normalise()
                                   ? recognize()
                                   : std::optional<Nest>();
    if (nest) {
      for (const clang::FieldDecl *field : scope.privateMembers)
        nest->declarations += privateMemberDeclarations(scope.ctx, field);
      result.nest = std::move(nest);
      result.summary = summary;
      result.elementParams = elementParams;
      result.typedByParams = typedByParams;
    } else {
      result.rejection = scope.rejection.value_or(
          Rejection{"the nest is not a matrix multiplication", false});
    }
    return result;
  }

private:
  NestScope scope;
  std::string summary;
  std::vector<SymExpr> extents; ///< Per dimension.
  std::vector<const TemplateTypeParmDecl *> elementParams;
  bool typedByParams = false;

  std::string ivName(int loop) const {
    return scope.loops[loop].iv->getNameAsString();
  }
  /// The loops over tiles that the dimensions' point loops run within.
  std::set<int> tilesOf(ArrayRef<int> dims) const {
    std::set<int> tiles;
    for (int dim : dims)
      for (auto [l, weight] : scope.loops[dim].members)
        if (l != scope.loops[dim].anchor)
          tiles.insert(l);
    return tiles;
  }

  std::optional<Nest> recognize();
  bool checkPerTile(const Contraction &c);
  bool checkInit(const Contraction &c, const Write *init,
                 const Access &cAccess,
                 const std::vector<std::optional<Dim>> &dims,
                 std::vector<std::pair<int, int>> *matched = nullptr);
  bool checkLeftovers();
  bool checkTemporaryLeftovers();
  bool scalarsUnreachable();
  bool checkRows(const Access &access, const char *name, int row, int col,
                 bool batched);
  bool checkEpilogue(const Contraction &c, const Access *bias,
                     const Access &out,
                     const std::vector<std::optional<Dim>> &dims);
  OperandBinding bind(const Access &access, const std::vector<int> &loops,
                      const std::vector<int> &dims);
};

/// A statement inside a loop over tiles but outside its point loop runs
/// once per tile. Over the tiles of the reduction, that splits the sum into
/// partial sums: the same product where each is zeroed and added into C
/// (`s = 0; ...; C += s`), with nothing else (a bias, an activation) applied
/// per tile.
bool Recognizer::checkPerTile(const Contraction &c) {
  auto partial = [&](const Write *w) {
    const VarDecl *target = referencedVar(w->lhs);
    bool store = w->lhs == c.c &&
                 (w->op == BO_AddAssign || w->op == BO_SubAssign);
    bool start = c.accumulator && target == c.accumulator &&
                 w->op == BO_Assign && isLiteral(w->rhs, 0);
    return (store || start) && !c.bias && c.activation.empty();
  };
  auto reject = [&](const std::string &what, const std::vector<int> &tiles) {
    const SourceLoop &tile = scope.sourceLoops[tiles.front()];
    scope.reject("'" + what + "' runs once per tile of '" +
                 tile.iv->getNameAsString() +
                 "', outside the loop within its tiles; per tile, only a "
                 "partial sum may be zeroed and added into C (s = 0; ...; "
                 "C += s)");
    return false;
  };
  // A floating-point value the nest reads (`float a_ik = A[i * K + k];`
  // ahead of the loop over j, or `temp_x = m1[...]` set there) is the same
  // wherever it is read: the nest writes only C, which the launcher checks
  // overlaps no operand.
  auto value = [&](const VarDecl *var, const Expr *e) {
    return var && e && var->getType()->isRealFloatingType() &&
           e->IgnoreImpCasts()->getType()->isRealFloatingType() &&
           scope.ctx.getTypeSize(var->getType()) >=
               scope.ctx.getTypeSize(e->IgnoreImpCasts()->getType()) &&
           !e->HasSideEffects(scope.ctx) && !mentions(e, var);
  };
  for (const Write &w : scope.writes)
    if (!w.perTile.empty() && !partial(&w) &&
        !(w.op == BO_Assign && isa<DeclRefExpr>(stripCasts(w.lhs)) &&
          referencedVar(w.lhs) != c.accumulator &&
          value(referencedVar(w.lhs), w.rhs)))
      return reject(scope.print(w.lhs) + " " +
                        BinaryOperator::getOpcodeStr(w.op).str() + " " +
                        scope.print(w.rhs),
                    w.perTile);
  // An integer or pointer that the nest never assigns (`int ie = min(M, i
  // + x);`) is read as its initialiser, and a loop's induction variable
  // declared apart (`int ii; for (ii = i; ...)`) as the loop's: neither
  // does anything per tile; nor does a value that the nest never assigns.
  auto folded = [&](const VarDecl *var) {
    return (!scope.written.contains(var) && value(var, var->getInit())) ||
           scope.substitutableInit(var) ||
           llvm::any_of(scope.sourceLoops, [&](const SourceLoop &loop) {
             return loop.iv == var;
           });
  };
  for (const LocalDef &local : scope.locals)
    if (!local.perTile.empty() && !folded(local.var) &&
        !(local.var == c.accumulator && local.var->getInit() &&
          isLiteral(local.var->getInit(), 0) && !c.bias &&
          c.activation.empty()))
      return reject(local.var->getNameAsString() + " = ...", local.perTile);
  return true;
}

/// A fused init must reach every element of C exactly once, before its
/// accumulation: the loops it shares with the accumulation index C, and its
/// own loops run over the remaining C dimensions with the same bounds
/// (`matched` gets each own loop with the accumulation's loop it runs
/// alongside).
bool Recognizer::checkInit(const Contraction &c, const Write *initWrite,
                           const Access &cAccess,
                           const std::vector<std::optional<Dim>> &dims,
                           std::vector<std::pair<int, int>> *matched) {
  if (!initWrite)
    return true;
  const std::vector<int> &initLoops = initWrite->loops;
  size_t shared = sharedLoops(*initWrite, c);
  std::optional<Access> init =
      scope.decomposeAccess(initWrite->lhs, initWrite->loops);
  if (!init)
    return false;
  std::string bad = "the fused init of '" + scope.print(initWrite->lhs) +
                    "' does not cover C exactly once before the accumulation";
  for (size_t i = 0; i < shared; ++i)
    if (dims[c.macLoops[i]] == K)
      return scope.reject(bad + " (it runs inside the reduction loop)"),
             false;
  // Under a loop over tiles around both, the init meets each element in
  // the tile that accumulates into it only where both run within its tiles
  // along that dimension.
  std::set<int> around = tilesOf(initLoops), macTiles = tilesOf(c.macLoops);
  llvm::set_intersect(around, macTiles);
  auto sameTile = [&](int l, int own) {
    std::set<int> x = tilesOf({l}), y = tilesOf({own});
    llvm::set_intersect(x, around);
    llvm::set_intersect(y, around);
    return x == y;
  };
  std::vector<int> pending(c.macLoops.begin() + shared, c.macLoops.end());
  for (size_t i = shared; i < initLoops.size(); ++i) {
    int own = initLoops[i];
    auto match = std::find_if(pending.begin(), pending.end(), [&](int l) {
      return dims[l] != K &&
             cAccess.index.ivCoeffs[l] == init->index.ivCoeffs[own] &&
             (!cAccess.rowIndex ||
              (init->rowIndex && cAccess.rowIndex->ivCoeffs[l] ==
                                     init->rowIndex->ivCoeffs[own])) &&
             extents[l] == extents[own] && sameTile(l, own);
    });
    if (match == pending.end())
      return scope.reject(bad), false;
    if (matched)
      matched->push_back({own, *match});
    pending.erase(match);
  }
  bool coversAll = std::none_of(pending.begin(), pending.end(), [&](int l) {
    return dims[l] != K;
  });
  if (!coversAll || init->root != cAccess.root ||
      !(init->index.constant == cAccess.index.constant) ||
      init->rowIndex.has_value() != cAccess.rowIndex.has_value() ||
      (init->rowIndex &&
       !(init->rowIndex->constant == cAccess.rowIndex->constant)))
    return scope.reject(bad), false;
  return true;
}

/// Variables declared before the nest and assigned in it (induction
/// variables, accumulators) would keep stale values after the rewrite, so
/// they must be dead after the nest.
bool Recognizer::checkLeftovers() {
  if (!scope.function || !scope.function->getBody())
    return true;
  SourceRange nest(scope.outer->getBeginLoc(), endOfStmt(scope.outer));
  // The statement that starts the outermost loop is read as the loop's; a
  // variable it declares lives on after the nest.
  const Stmt *start = scope.outerStart.statement;
  SourceRange startRange =
      start ? SourceRange(start->getBeginLoc(), endOfStmt(start))
            : SourceRange();
  for (const VarDecl *var : scope.written) {
    // A container that the rest of a nest through a temporary appends to
    // is updated as written.
    if (scope.findLocal(var) || nest.fullyContains(var->getSourceRange()) ||
        !var->getType()->isScalarType())
      continue;
    // A static local keeps what the nest leaves for the next call, which
    // must store it before any use (f2c's loop indices do).
    std::optional<const Stmt *> read;
    if (var->isStaticLocal() &&
        (!(read = readOnEntry(scope.function, var)) || *read))
      return scope.reject("'" + var->getNameAsString() +
                          "' is a static local that the nest assigns and a "
                          "call may read before storing it; the rewrite "
                          "would not leave it the loop's value"),
             false;
    OutsideUse finder(var, nest, startRange, scope.ctx.getSourceManager());
    finder.TraverseStmt(scope.function->getBody());
    if (finder.found && !deadAfterNest(scope, var, scope.function))
      return scope.reject("'" + var->getNameAsString() +
                          "' is declared outside the nest, assigned in it "
                          "and used elsewhere; the rewrite would not update "
                          "it"),
             false;
  }
  return true;
}

/// Around a product through a temporary, the nest runs as written but for
/// its K loop: the K loop's index must be read nowhere else, and no pointer
/// (A or B) may reach a scalar the nest assigns. (Like any nest's, its
/// scalars are dead after it: none carries the reordered sum out.)
bool Recognizer::checkTemporaryLeftovers() {
  if (!scope.floatReadsChecked)
    return scope.reject(scope.reachableScalar
                            ? "the nest assigns '" +
                                  scope.reachableScalar->getNameAsString() +
                                  "', which a pointer may reach"
                            : "the nest is in no function body"),
           false;
  const Stmt *loop = scope.temporary;
  for (const SourceLoop &source : scope.sourceLoops) {
    if (source.stmt != loop)
      continue;
    OutsideUse finder(source.iv, {loop->getBeginLoc(), endOfStmt(loop)},
                      SourceRange(), scope.ctx.getSourceManager());
    finder.TraverseStmt(scope.function->getBody());
    if (finder.found)
      return scope.reject("'" + source.iv->getNameAsString() +
                          "', the K loop's index, is read outside it, where "
                          "the K loop's copy would leave it another value"),
             false;
  }
  return true;
}

/// One activation step for the remark: "max with '0'", "tanh",
/// "GELU (tanh form, k = '...', c = '...')".
std::string describeStep(const ActivationStep &step) {
  using Kind = StepBinding::Kind;
  auto quoted = [&](size_t i) { return "'" + step.params[i] + "'"; };
  switch (step.kind) {
  case Kind::Lower:
  case Kind::Upper:
    return std::string(step.kind == Kind::Upper ? "min" : "max") + " with " +
           quoted(0) + (step.nanToBound ? "" : " (NaN kept)");
  case Kind::Tanh:
    return "tanh";
  case Kind::Sigmoid:
    return "sigmoid";
  case Kind::GeluTanh:
    return "GELU (tanh form, k = " + quoted(0) + ", c = " + quoted(1) + ")";
  case Kind::GeluErf:
    return "GELU (erf form, erf(x * " + quoted(0) + "))";
  }
  llvm_unreachable("unknown activation step");
}

/// Whether no pointer can reach a scalar that the nest assigns: each is
/// declared in the nest, or is a local of the function (static or not)
/// whose address is never taken. Else notes the scalar in scope.reachableScalar.
bool Recognizer::scalarsUnreachable() {
  if (!scope.function || !scope.function->getBody())
    return false;
  for (const VarDecl *var : scope.written) {
    if (scope.findLocal(var))
      continue;
    if (reachable(var, scope.function->getBody())) {
      scope.reachableScalar = var;
      return false;
    }
  }
  return true;
}

/// The bias is a buffer apart from C, of C's element type, indexed by C's
/// dimensions alone (a vector along M or N, or per batch), and a null check
/// tests its own pointer. The activation computes in the element type.
bool Recognizer::checkEpilogue(const Contraction &c, const Access *bias,
                               const Access &out,
                               const std::vector<std::optional<Dim>> &dims) {
  for (const ActivationStep &step : c.activation) {
    QualType type = step.expr->getType();
    if (!type->isRealFloatingType() ||
        scope.ctx.getFloatingTypeOrder(type, out.elementType) < 0)
      return scope.reject("the activation '" + scope.print(step.expr) +
                          "' computes in '" + type.getAsString() +
                          "'; C is '" + out.elementType.getAsString() + "'"),
             false;
  }
  if (!bias)
    return true;
  std::string name = scope.print(c.bias);
  if (bias->rowIndex)
    return scope.reject("the bias '" + name + "' is read from a table of "
                        "rows; a bias must be one strided buffer"),
           false;
  if (bias->root == out.root)
    return scope.reject("the bias '" + name + "' reads C, which the nest "
                        "writes"),
           false;
  if (bias->elementType != out.elementType)
    return scope.reject("the bias '" + name + "' is '" +
                        bias->elementType.getAsString() + "' but C is '" +
                        out.elementType.getAsString() + "'"),
           false;
  for (size_t l = 0; l < scope.loops.size(); ++l)
    if (bias->movesWith(l) && (!dims[l] || dims[l] == K))
      return scope.reject("the bias '" + name + "' is indexed by '" +
                          ivName(l) + "', which is no dimension of C"),
             false;
  if (c.biasGuard && c.biasGuard->getType()->isPointerType() &&
      scope.print(c.biasGuard) != bias->root)
    return scope.reject("the null check of '" + scope.print(c.biasGuard) +
                        "' does not test the bias's buffer '" + bias->root +
                        "'"),
           false;
  return true;
}

/// A table of rows is read one row per step of one of the operand's loops
/// and one element per step of the other, so that the rows the loop reads
/// are whole rows of the gathered copy; batches hold no tables.
bool Recognizer::checkRows(const Access &access, const char *name, int row,
                           int col, bool batched) {
  if (!access.rowIndex)
    return true;
  std::string what = std::string("the rows of ") + name + " ('" +
                     scope.print(access.expr) + "')";
  if (batched)
    return scope.reject(what + " are a table in a batched nest"), false;
  const SymExpr one = SymExpr::constant(1);
  auto steps = [&](const AffineForm &form, int along, int across) {
    return form.ivCoeffs[along] == one && form.ivCoeffs[across].isZero();
  };
  if (!(steps(*access.rowIndex, row, col) && steps(access.index, col, row)) &&
      !(steps(*access.rowIndex, col, row) && steps(access.index, row, col)))
    return scope.reject(what + " are not read one row per step of '" +
                        ivName(row) + "' or '" + ivName(col) +
                        "' and one element per step of the other"),
           false;
  return true;
}

/// `base + offset`, or base alone where the offset is 0.
static std::string offsetBy(const std::string &base, const SymExpr &offset) {
  return offset.isZero() ? base
                         : parenthesize(base) + " + " +
                               parenthesize(offset.str());
}

OperandBinding Recognizer::bind(const Access &access,
                                const std::vector<int> &loops,
                                const std::vector<int> &dims) {
  OperandBinding binding;
  // The dimensions' first values are in the forms' constants (project).
  auto start = [](const AffineForm &form) { return form.constant; };
  for (int l : dims) {
    binding.sizes.push_back(extents[l].str());
    binding.staticSizes.push_back(extents[l].getConstant());
  }
  if (access.rowIndex) {
    // checkRows: rank 2, the table along one dimension, the row along the
    // other. The gathered copy has a unit stride along the row.
    RowTableBinding rows;
    rows.vectors = access.vectorRows;
    rows.made = access.madeRows;
    rows.columns = !access.rowIndex->ivCoeffs[dims[1]].isZero();
    rows.table = offsetBy(access.basePtr, start(*access.rowIndex));
    rows.offset = start(access.index).str();
    const std::optional<int64_t> unit = 1, table;
    binding.staticStrides = {rows.columns ? unit : table,
                             rows.columns ? table : unit};
    binding.rows = std::move(rows);
    return binding;
  }
  binding.ptr = offsetBy(access.basePtr, start(access.index));
  for (int l : dims) {
    binding.strides.push_back(access.index.ivCoeffs[l].str());
    binding.staticStrides.push_back(access.index.ivCoeffs[l].getConstant());
  }
  return binding;
}

std::optional<Nest> Recognizer::recognize() {
  bindTemporaries(scope, scope.function);
  // What the nest does beside a product through a temporary.
  std::vector<const Expr *> stores;
  if (scope.temporary && !effectsBeside(scope, stores))
    return std::nullopt;
  if (!walkNest(scope))
    return std::nullopt;
  scope.integerReadsInvariant =
      llvm::all_of(scope.writes,
                   [](const Write &w) {
                     return !isMemoryAccess(w.lhs) ||
                            w.lhs->getType()->isRealFloatingType();
                   }) &&
      llvm::all_of(stores, [](const Expr *e) {
        return e->getType()->isRealFloatingType();
      });
  scope.floatReadsChecked = scalarsUnreachable();
  if (!checkAssumedBranch(scope) || !checkBoundValues(scope))
    return std::nullopt;
  bindCopies(scope);
  if (!shapeLoops(scope))
    return std::nullopt;
  for (const Loop &dim : scope.loops)
    extents.push_back(dim.extent);
  std::optional<Contraction> c =
      scope.temporary ? matchProduct(scope) : matchContraction(scope);
  if (!c || !checkPerTile(*c))
    return std::nullopt;
  std::optional<Access> x = scope.decomposeAccess(c->lhs, c->macLoops);
  std::optional<Access> y = scope.decomposeAccess(c->rhs, c->macLoops);
  if (!x || !y)
    return std::nullopt;
  std::optional<Access> out = scope.temporary
                                  ? temporaryAccess(scope, *c, *x, *y)
                                  : scope.decomposeAccess(c->c, c->cLoops);
  if (!out)
    return std::nullopt;
  // The bias is read where C is written, as an operand shaped like C.
  std::optional<Access> bias;
  if (c->bias && !(bias = scope.decomposeAccess(c->bias, c->cLoops)))
    return std::nullopt;

  // Classify each loop around the multiply-accumulate by the operands it
  // indexes. A is the product's first factor, as written, so that the loop
  // order does not turn the problem into its transpose.
  std::vector<std::optional<Dim>> dims(scope.loops.size());
  std::vector<int> byDim[4];
  for (int l : c->macLoops) {
    bool inX = x->movesWith(l);
    bool inY = y->movesWith(l);
    bool inC = out->movesWith(l);
    // A loop around a K loop whose product it does not change (a repeat
    // loop) reads the same element of the temporary in each iteration.
    if (scope.temporary && !inC && !inX && !inY)
      continue;
    // A loop over C alone is a batch that both inputs are broadcast over.
    if (inC && (inX == inY)) {
      dims[l] = Batch;
    } else if (!inC && inX && inY) {
      dims[l] = K;
    } else if (inC && inX != inY) {
      dims[l] = inX ? M : N;
    } else {
      return scope.reject("loop '" + ivName(l) +
                              "' is not a dimension of a matrix product: "
                              "its index map is not a contraction",
                          /*peelable=*/l == 0);
    }
    byDim[*dims[l]].push_back(l);
  }
  // Loops along one side of C (`out[(b*T + t)*OC + o]`), or K loops
  // (`dW[o][i] += dout[(b*T + t)*OC + o] * in[(b*T + t)*C + i]`), innermost
  // pair first: one dimension where their strides compose in every
  // operand, else (M, N) the outer ones are batches that the operand they
  // do not index is broadcast over (a sum factorisation's `u[l][a*P*P +
  // jk][e]`: jk and e make N, l is a batch). A fused init in loops of its own names the loops it
  // covers, so it keeps M or N loops apart; one inside both (`out[...] = 0;`
  // ahead of the sum) does not. Two K loops merge only where the products
  // go straight into C and no init of C sits inside the outer one: a
  // scalar accumulator may start again, or be stored, inside it.
  auto initShares = [&](int loop) {
    return llvm::any_of(
        std::initializer_list<const Write *>{c->init, c->zeroInit},
        [&](const Write *w) {
          return w &&
                 llvm::is_contained(
                     ArrayRef<int>(w->loops).take_front(sharedLoops(*w, *c)),
                     loop);
        });
  };
  auto initInside = [&](int outer, int inner) {
    return llvm::all_of(
        std::initializer_list<const Write *>{c->init, c->zeroInit},
        [&](const Write *w) {
          if (!w)
            return true;
          ArrayRef<int> shared =
              ArrayRef<int>(w->loops).take_front(sharedLoops(*w, *c));
          return llvm::is_contained(shared, outer) &&
                 llvm::is_contained(shared, inner);
        });
  };
  SmallVector<const Access *, 4> operands = {&*x, &*y, &*out};
  if (bias)
    operands.push_back(&*bias);
  auto composesIn = [&](const AffineForm &form, int outer, int inner) {
    return form.ivCoeffs[outer] == form.ivCoeffs[inner] * extents[inner];
  };
  for (Dim side : {M, N, K}) {
    while (byDim[side].size() > 1) {
      int inner = byDim[side].back();
      int outer = byDim[side][byDim[side].size() - 2];
      if (side == K ? c->accumulator || initShares(outer)
                    : !initInside(outer, inner))
        break;
      bool composes = llvm::all_of(operands, [&](const Access *a) {
        return composesIn(a->index, outer, inner) &&
               (!a->rowIndex || composesIn(*a->rowIndex, outer, inner));
      });
      if (composes) {
        extents[inner] = extents[outer] * extents[inner];
        byDim[side].erase(byDim[side].end() - 2);
        continue;
      }
      if (side == K)
        break;
      for (int l : ArrayRef<int>(byDim[side]).drop_back())
        dims[l] = Batch;
      byDim[Batch].insert(byDim[Batch].end(), byDim[side].begin(),
                          byDim[side].end() - 1);
      llvm::sort(byDim[Batch]);
      byDim[side] = {inner};
    }
  }
  // Batch loops one inside another (tflite's b0, b1, b2 over 5-D tensors):
  // one batch dimension, innermost first, where each operand's stride of
  // the outer is its stride of the inner times the inner extent, or the
  // outer runs once, as known here or else tested before the nest (a
  // precondition: a broadcast operand's strides are all 0, and one
  // broadcast along some loops only runs the loops as written).
  while (byDim[Batch].size() > 1 &&
         llvm::none_of(operands, [](const Access *a) { return a->rowIndex; })) {
    int inner = byDim[Batch].back();
    int outer = byDim[Batch][byDim[Batch].size() - 2];
    std::vector<std::string> tests;
    for (const Access *a : operands)
      if (!composesIn(a->index, outer, inner))
        tests.push_back(
            parenthesize(a->index.ivCoeffs[outer].str()) + " == " +
            parenthesize((a->index.ivCoeffs[inner] * extents[inner]).str()));
    if (!tests.empty())
      scope.preconditions.push_back(
          parenthesize(extents[outer].str()) + " == 1 || " +
          (tests.size() > 1 ? "(" + llvm::join(tests, " && ") + ")"
                            : tests.front()));
    extents[inner] = extents[outer] * extents[inner];
    byDim[Batch].erase(byDim[Batch].end() - 2);
  }
  // One side of C missing: a matrix-vector product. It reads each element
  // of the matrix once, so for host data the copy to the GPU costs about
  // what the loop does; it stays on the CPU (docs/frontend.md).
  bool oneSide = (byDim[M].size() == 1) != (byDim[N].size() == 1);
  if (oneSide && byDim[M].size() + byDim[N].size() == 1 &&
      byDim[K].size() == 1)
    return scope.reject(
        "matrix-vector product (" +
        std::string(byDim[M].empty() ? "N" : "M") + " x K = " +
        parenthesize(extents[byDim[M].empty() ? byDim[N][0] : byDim[M][0]]
                         .str()) +
        " x " + parenthesize(extents[byDim[K][0]].str()) +
        (byDim[Batch].empty() ? "" : ", batched") +
        "): it reads each matrix element once, so a GPU call would spend "
        "longer copying host data than the loop spends computing; left to "
        "the CPU");
  if (byDim[M].size() != 1 || byDim[N].size() != 1 || byDim[K].size() != 1 ||
      byDim[Batch].size() > 1)
    return scope.reject("index maps are not a contraction: need one loop "
                        "each for M, N and K, and at most one batch loop");
  // Two dimensions of C with strides s and s (`C[i + j]`) or s and -s put
  // several elements of the product on one element of C.
  std::vector<int> cDims = byDim[Batch];
  cDims.insert(cDims.end(), {byDim[M][0], byDim[N][0]});
  bool batched = !byDim[Batch].empty();
  if (!checkRows(*x, "A", byDim[M][0], byDim[K][0], batched) ||
      !checkRows(*y, "B", byDim[K][0], byDim[N][0], batched) ||
      !checkRows(*out, "C", byDim[M][0], byDim[N][0], batched))
    return std::nullopt;
  // A table of rows keeps its rows apart (checkRows).
  for (size_t p = 0; p < cDims.size() && !out->rowIndex; ++p)
    for (size_t q = p + 1; q < cDims.size(); ++q) {
      const SymExpr &sp = out->index.ivCoeffs[cDims[p]];
      const SymExpr &sq = out->index.ivCoeffs[cDims[q]];
      if (sp == sq || (sp + sq).isZero())
        return scope.reject("index maps are not a contraction: loops '" +
                            ivName(cDims[p]) + "' and '" + ivName(cDims[q]) +
                            "' step C by the same distance, so different "
                            "elements of the product land on one element "
                            "of C");
    }
  for (size_t l = 0; l < scope.loops.size(); ++l) {
    bool used = dims[l] ||
                llvm::any_of(std::initializer_list<const Write *>{
                                 c->init, c->zeroInit},
                             [&](const Write *w) {
                               return w && llvm::is_contained(w->loops, l);
                             });
    // A loop around the statement beside the product, and not around the
    // product, runs only in the statement's copy of the nest (SplitOff).
    used |= scope.side && llvm::any_of(scope.loops[l].members, [&](auto m) {
              return holds(loopBody(scope.sourceLoops[m.first].stmt),
                           scope.side);
            });
    used |= scope.temporary && llvm::is_contained(c->macLoops, l);
    if (!used)
      return scope.reject("loop '" + ivName(l) +
                              "' does not enclose the multiply-accumulate",
                          /*peelable=*/l == 0);
  }
  std::vector<std::pair<int, int>> initLoops;
  if (!checkInit(*c, c->init, *out, dims, &initLoops) ||
      !checkInit(*c, c->zeroInit, *out, dims))
    return std::nullopt;
  if (c->peeled && !foldPeeledStep(scope, *c->peeled, initLoops, byDim[K][0],
                                   *x, *y, extents[byDim[K][0]]))
    return std::nullopt;
  if (x->elementType != y->elementType || x->elementType != out->elementType)
    return scope.reject("mixed element types (" +
                        x->elementType.getAsString() + ", " +
                        y->elementType.getAsString() + " -> " +
                        out->elementType.getAsString() +
                        "): A, B and C must all be float or all double");
  // The loop rounds each partial sum to its accumulator's type: the kernel
  // sums in the element type, or for float matrices summed in a double, in
  // double (the launcher widens the operands, runtime/include/gemm_widen.h).
  bool sumsInDouble = false;
  if (c->accumulator) {
    QualType acc = c->accumulator->getType().getCanonicalType();
    QualType element = out->elementType;
    sumsInDouble = acc->isSpecificBuiltinType(BuiltinType::Double) &&
                   element->isSpecificBuiltinType(BuiltinType::Float);
    if (sumsInDouble && (x->rowIndex || y->rowIndex || out->rowIndex))
      return scope.reject("accumulator '" +
                          c->accumulator->getNameAsString() +
                          "' sums float rows in double, and the rows are "
                          "separate allocations (a table of rows), which the "
                          "launcher cannot widen to double");
    if (acc.getUnqualifiedType() != element && !sumsInDouble)
      return scope.reject("accumulator '" +
                          c->accumulator->getNameAsString() + "' is '" +
                          acc.getUnqualifiedType().getAsString() +
                          "' but A, B and C are '" + element.getAsString() +
                          "': the loop rounds each partial sum to '" +
                          acc.getUnqualifiedType().getAsString() +
                          "', the kernel would sum in '" +
                          element.getAsString() + "'");
  }
  for (const Access *in : {&*x, &*y})
    if (in->root == out->root)
      return scope.reject("C and an input are the same buffer '" + out->root +
                          "': the nest updates it in place (aliasing)");
  if (!checkEpilogue(*c, bias ? &*bias : nullptr, *out, dims))
    return std::nullopt;
  if (!checkLeftovers() || (scope.temporary && !checkTemporaryLeftovers()))
    return std::nullopt;

  std::vector<int> batch = byDim[Batch];
  auto withBatch = [&](int r, int col) {
    std::vector<int> d = batch;
    d.push_back(r);
    d.push_back(col);
    return d;
  };
  for (const Access *operand : operands)
    if (const auto *param =
            operand->expr->getType()->getAs<SubstTemplateTypeParmType>())
      elementParams.push_back(param->getReplacedParameter());
  typedByParams = llvm::all_of(llvm::ArrayRef(operands).take_front(3),
                               [](const Access *operand) {
                                 return operand->expr->getType()
                                     ->getAs<SubstTemplateTypeParmType>();
                               });
  Nest nest;
  nest.isDouble = out->elementType->isSpecificBuiltinType(BuiltinType::Double);
  nest.sumsInDouble = sumsInDouble;
  nest.batched = !batch.empty();
  nest.a = bind(*x, c->macLoops, withBatch(byDim[M][0], byDim[K][0]));
  nest.b = bind(*y, c->macLoops, withBatch(byDim[K][0], byDim[N][0]));
  nest.c = bind(*out, c->cLoops, withBatch(byDim[M][0], byDim[N][0]));
  nest.alpha = c->alpha;
  // The launcher checks at run time that C holds none of these.
  if (scope.scalarReads.size() > 4)
    return scope.reject("the nest reads " +
                        std::to_string(scope.scalarReads.size()) +
                        " scalars through pointers; at most 4 are checked "
                        "against C");
  for (const UnaryOperator *read : scope.scalarReads)
    nest.scalarReads.push_back(
        {scope.print(read->getSubExpr()),
         read->getType()->isSpecificBuiltinType(BuiltinType::Double)});
  nest.beta = c->beta;
  for (const auto &assumption : scope.assumptions)
    if (!llvm::is_contained(nest.assumptions, assumption))
      nest.assumptions.push_back(assumption);
  nest.preconditions = scope.preconditions;
  if (bias) {
    nest.bias = bind(*bias, c->cLoops, withBatch(byDim[M][0], byDim[N][0]));
    if (c->biasGuard)
      nest.bias->ptr = parenthesize(scope.print(c->biasGuard)) + " ? " +
                       parenthesize(nest.bias->ptr) + " : 0";
  }
  for (const ActivationStep &step : c->activation)
    nest.activation.push_back({step.kind, step.nanToBound, step.params});

  // Parenthesised, so that `hi - lo x n` cannot be misread.
  auto extent = [&](int l) { return parenthesize(extents[l].str()); };
  summary = std::string("GEMM recognised: ") + (nest.isDouble ? "f64" : "f32") +
            ", M x N x K = " + extent(byDim[M][0]) + " x " +
            extent(byDim[N][0]) + " x " + extent(byDim[K][0]);
  if (nest.batched)
    summary += ", batch " + extent(batch[0]);
  if (sumsInDouble)
    summary += "; summed in double, as the accumulator '" +
               c->accumulator->getNameAsString() +
               "' is: the operands are widened to double";
  summary += "; A " + layoutName(nest.a) + ", B " + layoutName(nest.b) +
             ", C " + layoutName(nest.c) + "; " + c->form + ", alpha = " +
             nest.alpha + ", beta = " + nest.beta;
  for (const UnaryOperator *read : scope.scalarReads)
    summary += "; reads '" + scope.print(read) +
               "' before the nest (the loop runs where C holds it)";
  for (const std::string &shape : scope.shapes)
    summary += "; " + shape;
  for (const std::string &note : scope.notes)
    summary += "; " + note;
  if (!nest.preconditions.empty())
    summary += "; the launcher runs only where " +
               llvm::join(nest.preconditions, " and ") +
               " (there the loops cover exactly this domain; elsewhere the "
               "loop runs)";
  for (const std::string &factor : scope.zeroSkips)
    summary += "; the terms it skips where '" + factor +
               "' is 0 are 0 unless A or B holds Inf or NaN";
  SmallVector<std::string> epilogue;
  if (bias)
    epilogue.push_back(
        "+ '" + scope.print(c->bias) + "'" +
        (!c->biasGuard ? ""
         : c->biasGuard->getType()->isPointerType()
             ? " (none if null)"
             : " (none where '" + scope.print(c->biasGuard) + "' is false)"));
  for (const ActivationStep &step : c->activation)
    epilogue.push_back(describeStep(step));
  if (!epilogue.empty())
    summary += "; epilogue: " + llvm::join(epilogue, ", ");
  if (scope.side) {
    std::vector<const Access *> operands = {&*x, &*y, &*out};
    if (bias)
      operands.push_back(&*bias);
    std::optional<std::string> split = splitOff(scope, operands, nest);
    if (!split)
      return std::nullopt;
    summary += "; " + *split;
  }
  if (scope.temporary) {
    std::optional<std::string> through =
        throughTemporary(scope, stores, *x, *y, *out, nest);
    if (!through)
      return std::nullopt;
    summary += "; " + *through;
  }
  return nest;
}

} // namespace

Recognition mlir::gemm::recognizeNest(const Stmt *outer,
                                      const FunctionDecl *function,
                                      ASTContext &ctx, LoopStart start) {
  Recognition whole = Recognizer(outer, function, ctx, start).run();
  if (whole.nest)
    return whole;
  // A product beside another computation: the nest without it (SplitOff).
  for (const Stmt *side : sideCandidates(outer))
    if (Recognition split = Recognizer(outer, function, ctx, start, side).run();
        split.nest)
      return split;
  return whole;
}

Recognition mlir::gemm::recognizeThroughTemporary(
    const Stmt *outer, const FunctionDecl *function, ASTContext &ctx,
    const std::string &whole, LoopStart start) {
  for (const Stmt *loop : temporaryCandidates(outer))
    if (Recognition r =
            Recognizer(outer, function, ctx, start, nullptr, loop).run();
        r.nest) {
      r.summary += ", since as a whole the nest is no GEMM: " + whole;
      return r;
    }
  return {};
}

std::string mlir::gemm::layoutName(const OperandBinding &b) {
  if (b.rows)
    return std::string(b.rows->columns ? "column " : "row ") +
           (b.rows->vectors ? "vectors"
            : b.rows->made  ? "valarrays"
                            : "pointers");
  size_t r = b.strides.size() - 2;
  if (b.staticStrides[r + 1] == 1)
    return "row-major";
  if (b.staticStrides[r] == 1)
    return "column-major";
  return "strided";
}

