//===- CopyLanes.cpp - One accumulator per copy of a jammed loop ----------===//
//
// Unroll-and-jam written with loops instead of copies of the text: an array
// r of U accumulators, and loops over x in [0, U) that touch r[x] only (the
// copy loops), some inside the loops that walk K. Copy x of every copy loop
// touches r[x] alone, so running copy 0's statements first, then copy 1's,
// and so on computes the same values where the copies share nothing else
// they write. Scalar expansion read back: r becomes a scalar of one copy,
// and one loop over the copies stands around the statements that name r.
//
//===----------------------------------------------------------------------===//

#include "CopyLanes.h"

#include "LoopHeader.h"

#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

/// A loop over the copies: its source statement (wrappers included), the
/// `for` itself and its induction variable.
struct CopyLoop {
  Stmt **slot; ///< Where it stands inside a loop around it; null at the top.
  ForStmt *loop;
  VarDecl *iv;
};

class CopyLanes {
public:
  CopyLanes(NestScope &scope, std::vector<const Stmt *> &list)
      : scope(scope), ctx(scope.ctx), list(list) {}

  void run() {
    for (auto [n, var] : localArrays(list))
      expand(n, var);
  }

private:
  NestScope &scope;
  ASTContext &ctx;
  std::vector<const Stmt *> &list;

  // State of the array being expanded.
  VarDecl *array = nullptr;
  std::string name;
  std::optional<uint64_t> copies; ///< The copy loops' trip count.
  std::vector<CopyLoop> loops;
  std::vector<Stmt **> accesses; ///< Every `r[x]`.
  bool whole = false; ///< The array is used as a whole somewhere.
  /// Declarations, assignments and loop headers outside the copy loops,
  /// which run in every copy once the copies are fused.
  std::vector<const Stmt *> perCopy;

  bool fail(const std::string &reason) {
    scope.laneObstacles[array] = reason;
    return false;
  }
  std::string text(const Stmt *s) {
    return quoted(scope.print(cast<Expr>(s)));
  }

  void replace(Stmt **slot, Stmt *with) { scope.replace(slot, with); }

  /// The elements of `array` that `s` reads or writes, each `r[e]` with
  /// its slot; a use of the whole array sets `whole`.
  void usesIn(Stmt *&slot, std::vector<Stmt **> &out) {
    Stmt *s = slot;
    if (!s)
      return;
    if (const auto *access = dyn_cast<ArraySubscriptExpr>(s);
        access && referencedVar(access->getBase()) == array) {
      out.push_back(&slot);
      for (Stmt *&child : s->children())
        if (child == access->getIdx())
          usesIn(child, out);
      return;
    }
    if (const auto *ref = dyn_cast<DeclRefExpr>(s); ref && ref->getDecl() == array)
      whole = true;
    for (Stmt *&child : s->children())
      usesIn(child, out);
  }

  static const Expr *indexOf(Stmt *const *slot) {
    return cast<ArraySubscriptExpr>(*slot)->getIdx();
  }

  /// The induction variable and trip count of `for (x = 0; x < N; x++)`
  /// (or `x <= N - 1`, `x != N`; `++x`, `x += 1`) with a constant N, whose
  /// body does not assign x.
  std::optional<std::pair<VarDecl *, uint64_t>> copyHeader(const ForStmt *f) {
    VarDecl *iv = nullptr;
    if (const auto *decl = dyn_cast_or_null<DeclStmt>(f->getInit());
        decl && decl->isSingleDecl()) {
      iv = const_cast<VarDecl *>(dyn_cast<VarDecl>(decl->getSingleDecl()));
      if (iv && !(iv->getInit() && isLiteral(iv->getInit(), 0)))
        iv = nullptr;
    } else if (const auto *set = dyn_cast_or_null<BinaryOperator>(f->getInit());
               set && set->getOpcode() == BO_Assign &&
               isLiteral(set->getRHS(), 0)) {
      iv = const_cast<VarDecl *>(referencedVar(set->getLHS()));
    }
    if (!iv || !iv->getType()->isIntegerType())
      return std::nullopt;
    const auto *test = dyn_cast_or_null<BinaryOperator>(f->getCond());
    if (!test || referencedVar(test->getLHS()) != iv)
      return std::nullopt;
    // A bound temporary (f2c's `i__2 = 4;` before the loop) reads its value.
    const Expr *limit = test->getRHS();
    if (const auto *ref = dyn_cast<DeclRefExpr>(stripCasts(limit)))
      if (const Expr *value = scope.boundValues.lookup(ref))
        limit = value;
    Expr::EvalResult bound;
    if (limit->isValueDependent() || !limit->EvaluateAsInt(bound, ctx))
      return std::nullopt;
    int64_t value = bound.Val.getInt().getExtValue();
    if (test->getOpcode() == BO_LE)
      ++value;
    else if (test->getOpcode() != BO_LT && test->getOpcode() != BO_NE)
      return std::nullopt;
    const Expr *inc = f->getInc() ? f->getInc()->IgnoreParens() : nullptr;
    bool byOne = false;
    if (const auto *unary = dyn_cast_or_null<UnaryOperator>(inc))
      byOne = unary->isIncrementOp() &&
              referencedVar(unary->getSubExpr()) == iv;
    else if (const auto *add = dyn_cast_or_null<BinaryOperator>(inc))
      byOne = add->getOpcode() == BO_AddAssign &&
              referencedVar(add->getLHS()) == iv && isLiteral(add->getRHS(), 1);
    llvm::SmallPtrSet<const VarDecl *, 1> none;
    if (!byOne || value <= 0 || assignsOutside(f->getBody(), none, iv))
      return std::nullopt;
    return std::make_pair(iv, uint64_t(value));
  }

  /// A variable other than those in `own` that `s` assigns, increments or
  /// takes the address of (`only` set: that variable alone), or null.
  static const VarDecl *
  assignsOutside(const Stmt *s, const llvm::SmallPtrSetImpl<const VarDecl *> &own,
                 const VarDecl *only = nullptr) {
    if (!s)
      return nullptr;
    const Expr *target = nullptr;
    if (const auto *op = dyn_cast<BinaryOperator>(s);
        op && op->isAssignmentOp())
      target = op->getLHS();
    else if (const auto *unary = dyn_cast<UnaryOperator>(s);
             unary && (unary->isIncrementDecrementOp() ||
                       unary->getOpcode() == UO_AddrOf))
      target = unary->getSubExpr();
    if (target)
      if (const auto *ref = dyn_cast<DeclRefExpr>(target->IgnoreParens()))
        if (const auto *var = dyn_cast<VarDecl>(ref->getDecl());
            var && !own.contains(var) && (!only || var == only))
          return var;
    for (const Stmt *child : s->children())
      if (const VarDecl *var = assignsOutside(child, own, only))
        return var;
    return nullptr;
  }

  static void declaredIn(const Stmt *s,
                         llvm::SmallPtrSetImpl<const VarDecl *> &out) {
    if (const auto *decl = dyn_cast<DeclStmt>(s))
      for (const Decl *d : decl->decls())
        if (const auto *var = dyn_cast<VarDecl>(d))
          out.insert(var);
    for (const Stmt *child : s->children())
      if (child)
        declaredIn(child, out);
  }

  /// The `for` loops in `s` that start their index by `v = e` where `body`
  /// names v only inside such loops: each copy sets v before reading it.
  static void loopIndicesIn(const Stmt *s, const Stmt *body,
                            llvm::SmallPtrSetImpl<const VarDecl *> &out) {
    if (const VarDecl *v = loopVar(s); v && !isa<DeclStmt>(
                                              cast<ForStmt>(s)->getInit()) &&
                                       !namedOutsideItsLoops(body, v))
      out.insert(v);
    for (const Stmt *child : s->children())
      if (child)
        loopIndicesIn(child, body, out);
  }
  static bool namedOutsideItsLoops(const Stmt *s, const VarDecl *v) {
    if (const VarDecl *index = loopVar(s); index == v)
      return false;
    if (const auto *ref = dyn_cast<DeclRefExpr>(s); ref && ref->getDecl() == v)
      return true;
    return llvm::any_of(s->children(), [&](const Stmt *child) {
      return child && namedOutsideItsLoops(child, v);
    });
  }

  static bool jumps(const Stmt *s) {
    if (isa<BreakStmt, ContinueStmt, ReturnStmt, GotoStmt, IndirectGotoStmt,
            SwitchStmt>(s) ||
        isJumpTarget(s))
      return true;
    return llvm::any_of(s->children(), [](const Stmt *child) {
      return child && jumps(child);
    });
  }

  /// The indices of the loops in `s` that count from 0 to a constant.
  void copyIndices(const Stmt *s, llvm::SmallPtrSetImpl<const VarDecl *> &out) {
    if (const auto *f = dyn_cast<ForStmt>(s))
      if (auto header = copyHeader(f))
        out.insert(header->first);
    for (const Stmt *child : s->children())
      if (child)
        copyIndices(child, out);
  }

  /// The slot of `loop`'s body among its children.
  static Stmt **bodySlot(Stmt *loop) {
    const Stmt *body = loopBody(loop);
    for (Stmt *&child : loop->children())
      if (child == body)
        return &child;
    llvm_unreachable("a loop's body is one of its children");
  }

  /// A loop over the copies, at `slot` (null at the top of the block).
  bool copyLoop(Stmt **slot, ForStmt *loop, VarDecl *iv, uint64_t count) {
    std::string x = quoted(iv->getNameAsString());
    if (copies && *copies != count)
      return fail("the loops over the copies of " + quoted(name) +
                  " run over " + std::to_string(*copies) + " and " +
                  std::to_string(count) +
                  " copies, so some copies have no statement in the others");
    if (count > arraySize())
      return fail("the loop over " + x + " runs past the " +
                  std::to_string(arraySize()) + " elements of " +
                  quoted(name));
    copies = count;
    std::vector<Stmt **> found;
    usesIn(*bodySlot(loop), found);
    for (Stmt **use : found)
      if (referencedVar(indexOf(use)) != iv)
        return fail(quoted(name) + " is indexed by " + text(indexOf(use)) +
                    " inside the loop over " + x +
                    ", so copy " + x + " touches other copies' elements");
    if (jumps(loop->getBody()))
      return fail("the loop over " + x + " that touches " + quoted(name) +
                  " leaves its copy early (break, continue, return or goto)");
    llvm::SmallPtrSet<const VarDecl *, 8> own;
    declaredIn(loop->getBody(), own);
    loopIndicesIn(loop->getBody(), loop->getBody(), own);
    if (const VarDecl *shared = assignsOutside(loop->getBody(), own))
      return fail("the loop over " + x + " assigns " +
                  quoted(shared->getNameAsString()) +
                  ", which every copy of " + quoted(name) +
                  " shares, so the copies depend on each other");
    accesses.insert(accesses.end(), found.begin(), found.end());
    loops.push_back({slot, loop, iv});
    return true;
  }

  uint64_t arraySize() const {
    QualType type = array->getType();
    if (const auto *fixed = ctx.getAsConstantArrayType(type))
      return fixed->getSize().getZExtValue();
    Expr::EvalResult size;
    const auto *variable = ctx.getAsVariableArrayType(type);
    return variable && variable->getSizeExpr() &&
                   variable->getSizeExpr()->EvaluateAsInt(size, ctx)
               ? size.Val.getInt().getZExtValue()
               : 0;
  }

  /// A statement outside the copy loops, at `slot` (null at the top of the
  /// block): a scalar declaration or assignment, a block, a copy loop, or a
  /// loop around copy loops.
  bool outside(Stmt **slot, Stmt *s) {
    if (isa<NullStmt>(s))
      return true;
    if (auto *block = dyn_cast<CompoundStmt>(s)) {
      for (Stmt *&child : block->children())
        if (!outside(&child, child))
          return false;
      return true;
    }
    std::vector<Stmt **> found;
    usesIn(slot ? *slot : s, found);
    if (const auto *decl = dyn_cast<DeclStmt>(s)) {
      for (const Decl *d : decl->decls())
        if (const auto *var = dyn_cast<VarDecl>(d);
            !var || !var->hasLocalStorage() || var->getType()->isArrayType())
          return fail("every copy of " + quoted(name) + " would declare " +
                      quoted(cast<NamedDecl>(d)->getNameAsString()) +
                      ", which is no local scalar");
      if (!found.empty())
        return fail(text(*found[0]) + " is read outside a loop over the "
                                      "copies of " + quoted(name));
      perCopy.push_back(s);
      return true;
    }
    // `v = e;` of a scalar: every copy sets it to the same value before
    // reading it, where e reads neither v nor what the copies write.
    if (const auto *set = dyn_cast<BinaryOperator>(s);
        set && set->getOpcode() == BO_Assign && found.empty()) {
      const VarDecl *var = referencedVar(set->getLHS());
      if (var && isa<DeclRefExpr>(set->getLHS()->IgnoreParens()) &&
          !var->getType()->isArrayType() && !mentions(set->getRHS(), var) &&
          !set->getRHS()->HasSideEffects(ctx)) {
        perCopy.push_back(s);
        return true;
      }
    }
    auto *inner = const_cast<Stmt *>(unwrapLoopWrappers(s));
    if (!isLoop(inner))
      return fail(statement(s) + " runs between the loops over the copies "
                  "of " + quoted(name) + ", once, not per copy");
    if (auto *f = dyn_cast<ForStmt>(inner))
      if (auto header = copyHeader(f);
          header && llvm::any_of(found, [&](Stmt **use) {
            return mentions(indexOf(use), header->first);
          }))
        return copyLoop(slot, f, header->first, header->second);
    const VarDecl *var = loopVar(inner);
    std::string loop = var ? "the loop over " + quoted(var->getNameAsString())
                           : statement(s);
    if (found.empty())
      return fail(loop + " runs between the loops over the copies of " +
                  quoted(name) + ", once, not per copy");
    if (var && llvm::any_of(found, [&](Stmt **use) {
          return referencedVar(indexOf(use)) == var;
        }))
      return fail(loop + " indexes " + quoted(name) +
                  " but is no loop over its copies (one that counts by 1 "
                  "from 0 to a constant)");
    for (Stmt *child : inner->children())
      if (child && child != loopBody(inner)) {
        if (mentions(child, array))
          return fail("the header of " + loop + " reads " + quoted(name));
        perCopy.push_back(child);
      }
    Stmt **body = bodySlot(inner);
    return outside(body, *body);
  }

  /// `s` for messages: an expression as printed, else its kind and line.
  std::string statement(const Stmt *s) {
    if (const auto *e = dyn_cast<Expr>(s))
      return quoted(scope.print(e));
    const SourceManager &sm = ctx.getSourceManager();
    return std::string("the ") + (isLoop(s) ? "loop" : "statement") +
           " at line " +
           std::to_string(sm.getExpansionLineNumber(s->getBeginLoc()));
  }

  /// The variable a `for` sets in its init statement, or null.
  static const VarDecl *loopVar(const Stmt *loop) {
    const auto *f = dyn_cast<ForStmt>(loop);
    if (!f || !f->getInit())
      return nullptr;
    if (const auto *decl = dyn_cast<DeclStmt>(f->getInit()))
      return decl->isSingleDecl() ? dyn_cast<VarDecl>(decl->getSingleDecl())
                                  : nullptr;
    const auto *set = dyn_cast<BinaryOperator>(f->getInit());
    return set && set->getOpcode() == BO_Assign ? referencedVar(set->getLHS())
                                                : nullptr;
  }

  void expand(size_t n, VarDecl *var) {
    array = var;
    name = var->getNameAsString();
    copies.reset();
    loops.clear();
    accesses.clear();
    perCopy.clear();
    whole = false;
    QualType element = ctx.getBaseElementType(var->getType());
    if (!element->isRealFloatingType() ||
        ctx.getAsArrayType(var->getType())->getElementType()->isArrayType() ||
        !arraySize())
      return;
    size_t first = n + 1;
    while (first < list.size() && !mentions(list[first], var))
      ++first;
    size_t last = list.size();
    while (last > first && !mentions(list[last - 1], var))
      --last;
    if (first >= last)
      return;
    std::vector<Stmt **> all;
    for (size_t m = first; m < last; ++m) {
      Stmt *s = const_cast<Stmt *>(list[m]);
      usesIn(s, all);
    }
    // Some element is picked by a copy index alone; an array of constant
    // lanes, or of lanes picked otherwise (`t[p % 4]`), is PartialSums.cpp's,
    // and a tile copied into an array (`t[i*BS + j]`) is no set of
    // accumulators.
    llvm::SmallPtrSet<const VarDecl *, 4> indices;
    for (size_t m = first; m < last; ++m)
      copyIndices(list[m], indices);
    if (llvm::none_of(all, [&](Stmt **use) {
          return indices.contains(referencedVar(indexOf(use)));
        }))
      return;
    if (whole) {
      fail(quoted(name) + " is used as a whole array, not element by "
                          "element, so its elements are no accumulators of "
                          "separate copies");
      return;
    }
    if (const auto *values = dyn_cast_or_null<InitListExpr>(var->getInit());
        var->getInit() &&
        !(values && llvm::all_of(values->inits(), [](const Expr *e) {
            return isa<ImplicitValueInitExpr>(e) || isLiteral(e, 0);
          }))) {
      fail(quoted(name) + " starts at values other than zero in its "
                          "declaration, one per copy");
      return;
    }
    for (size_t m = first; m < last; ++m)
      if (!outside(nullptr, const_cast<Stmt *>(list[m])))
        return;
    if (accesses.size() != all.size()) {
      fail(quoted(name) + " is used outside the loops over its copies");
      return;
    }
    // A copy index declared before its loop holds the copy count after it;
    // fused, it would hold the copy's number.
    for (const CopyLoop &copy : loops)
      for (const Stmt *s : perCopy)
        if (mentions(s, copy.iv)) {
          fail("the copy index " + quoted(copy.iv->getNameAsString()) +
               " is read between the loops over the copies of " +
               quoted(name));
          return;
        }
    fuse(n, first, last, element);
  }

  /// One loop over the copies around list[first, last), which declares the
  /// scalar that list[declaration] declared as the array.
  void fuse(size_t declaration, size_t first, size_t last,
            QualType element) {
    VarDecl *iv = loops[0].iv;
    SourceLocation loc = loops[0].loop->getBeginLoc();
    for (const CopyLoop &copy : loops) {
      if (copy.iv != iv)
        renameIn(copy.loop->getBody(), copy.iv, iv);
      if (copy.slot)
        replace(copy.slot, copy.loop->getBody());
    }
    QualType type = array->getType();
    TypeSourceInfo *info = array->getTypeSourceInfo();
    Expr *init = array->getInit();
    scope.restore.push_back([var = array, type, info, init] {
      var->setType(type);
      var->setTypeSourceInfo(info);
      var->setInit(init);
    });
    array->setType(element);
    array->setTypeSourceInfo(ctx.getTrivialTypeSourceInfo(element));
    // A zero initialiser starts every copy's accumulator.
    array->setInit(init ? zeroOf(ctx, element, init->getBeginLoc()) : nullptr);
    for (Stmt **use : accesses)
      replace(use, DeclRefExpr::Create(ctx, NestedNameSpecifierLoc(),
                                       SourceLocation(), array, false,
                                       (*use)->getBeginLoc(), element,
                                       VK_LValue));
    // The scalar is declared in each copy; the array's declaration keeps
    // the other variables it declares.
    const auto *decl = cast<DeclStmt>(list[declaration]);
    std::vector<Decl *> others;
    for (Decl *d : decl->decls())
      if (d != array)
        others.push_back(d);
    list[declaration] =
        others.empty()
            ? static_cast<Stmt *>(new (ctx) NullStmt(decl->getBeginLoc()))
            : new (ctx) DeclStmt(
                  DeclGroupRef::Create(ctx, others.data(), others.size()),
                  decl->getBeginLoc(), decl->getEndLoc());
    std::vector<Stmt *> body{new (ctx) DeclStmt(DeclGroupRef(array),
                                                decl->getBeginLoc(),
                                                decl->getEndLoc())};
    for (size_t m = first; m < last; ++m) {
      auto *s = const_cast<Stmt *>(list[m]);
      auto top = llvm::find_if(loops, [&](const CopyLoop &copy) {
        return !copy.slot && unwrapLoopWrappers(s) == copy.loop;
      });
      body.push_back(top != loops.end() ? top->loop->getBody() : s);
      list[m] = new (ctx) NullStmt(s->getBeginLoc());
    }
    scope.notes.push_back(quoted(name + "[" + iv->getNameAsString() + "]") +
                          " is one accumulator per copy of the loops over " +
                          quoted(iv->getNameAsString()) +
                          ", which run one copy after another");
    const ForStmt *header = loops[0].loop;
    list[first] = new (ctx) ForStmt(
        ctx, const_cast<Stmt *>(header->getInit()),
        const_cast<Expr *>(header->getCond()), nullptr,
        const_cast<Expr *>(header->getInc()),
        CompoundStmt::Create(ctx, body, FPOptionsOverride(), loc, loc),
        header->getForLoc(), header->getLParenLoc(), header->getRParenLoc());
  }

  void renameIn(Stmt *s, VarDecl *from, VarDecl *to) {
    if (!s)
      return;
    if (auto *ref = dyn_cast<DeclRefExpr>(s); ref && ref->getDecl() == from) {
      scope.restore.push_back([ref, from] { ref->setDecl(from); });
      ref->setDecl(to);
    }
    for (Stmt *child : s->children())
      renameIn(child, from, to);
  }
};

} // namespace

void mlir::gemm::readCopyLanes(NestScope &scope,
                               std::vector<const Stmt *> &statements) {
  CopyLanes(scope, statements).run();
}
