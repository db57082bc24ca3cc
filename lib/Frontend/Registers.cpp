//===- Registers.cpp - Values a kernel keeps in registers -----------------===//
//
// Both forms are rewritten in the AST for the rest of the walk, like the
// partial sums (PartialSums.cpp): a step register's reads become the value
// it was set to, and a register accumulator's additions go to its element
// of C. What either needs is that nothing but these statements names the
// variable, which a declaration in the block itself guarantees.
//
//===----------------------------------------------------------------------===//

#include "Registers.h"

#include "PartialSums.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>
#include <map>

using namespace clang;
using namespace mlir::gemm;

namespace {

const Expr *bare(const Expr *e) { return e->IgnoreParenImpCasts(); }

/// The variables `e` names and the roots of the memory it reads.
void inputsOf(const Stmt *e, llvm::SmallPtrSetImpl<const VarDecl *> &vars,
              llvm::SmallPtrSetImpl<const VarDecl *> &roots, bool &unknown) {
  if (!e)
    return;
  if (const auto *ref = dyn_cast<DeclRefExpr>(e))
    if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()))
      vars.insert(var);
  // An element's address (`&B[j * ldb]`) and a row of an array (`a[i]` of
  // `&a[i][j]`) read no memory; their bases and indices may.
  if (const auto *op = dyn_cast<UnaryOperator>(e);
      op && op->getOpcode() == UO_AddrOf)
    if (const auto *element =
            dyn_cast<ArraySubscriptExpr>(op->getSubExpr()->IgnoreParens())) {
      for (const Stmt *child : element->children())
        inputsOf(child, vars, roots, unknown);
      return;
    }
  if (const auto *x = dyn_cast<Expr>(e);
      x && !x->getType()->isArrayType() &&
      (indexed(x) || (isa<UnaryOperator>(x) &&
                      cast<UnaryOperator>(x)->getOpcode() == UO_Deref))) {
    if (const VarDecl *root = rootOf(x))
      roots.insert(root);
    else
      unknown = true;
  }
  for (const Stmt *child : e->children())
    inputsOf(child, vars, roots, unknown);
}

/// A read of a step register: the slot that holds its value (the read, or
/// the bump whose value is the old one) and the slot of the node above.
struct Read {
  Stmt **slot, **above;
  bool bump;
};

class Registers {
public:
  Registers(NestScope &scope, std::vector<const Stmt *> &list)
      : scope(scope), ctx(scope.ctx), list(list) {}

  void run() {
    collect();
    for (auto [d, var] : declared)
      stepRegister(d, var);

    // Every accumulator is judged on the loop as written, before any
    // retargets an addition into C.
    std::vector<Retarget> retargets;
    for (auto [d, var] : declared)
      if (std::optional<Retarget> r = accumulator(d, var))
        retargets.push_back(*r);
    // A block of them: one accumulator alone is the classic dot product,
    // which the recognition reads as written (and names in its remark).
    std::vector<const Retarget *> block;
    for (const Retarget &r : retargets)
      if (llvm::count_if(retargets, [&](const Retarget &other) {
            return other.loop == r.loop;
          }) > 1)
        block.push_back(&r);
    llvm::SmallPtrSet<const VarDecl *, 16> moved;
    for (const Retarget *r : block)
      moved.insert(r->var);
    // The values that the block's loop keeps in registers (`double u0 =
    // al * A(r, s);`), read on the loop as written: once an accumulator is
    // read as its element of C, a store into C could meet what they read.
    llvm::SmallPtrSet<size_t, 4> loops;
    for (const Retarget *r : block)
      if (loops.insert(r->loop).second) {
        CompoundStmt *body = nullptr;
        std::vector<Stmt *> statements = bodyOf(list[r->loop], body);
        std::vector<const Stmt *> inner(statements.begin(), statements.end());
        Registers nested(scope, inner);
        nested.collect();
        for (auto [d, var] : nested.declared)
          nested.valueRegister(d, var);
      }
    // An accumulator stored by `X = t;` sums into X from zero: X is set to
    // zero just before the loop (nothing between names C or reads memory).
    std::map<size_t, std::vector<const Stmt *>> zeroed;
    for (const Retarget *r : block) {
      retarget(*r, moved);
      if (r->overwrite)
        zeroed[r->loop].push_back(zeroStore(r->element));
    }
    for (size_t n : dropped)
      list[n] = new (ctx) NullStmt(list[n]->getBeginLoc());
    for (auto it = zeroed.rbegin(); it != zeroed.rend(); ++it)
      list.insert(list.begin() + it->first, it->second.begin(),
                  it->second.end());
  }

private:
  NestScope &scope;
  ASTContext &ctx;
  std::vector<const Stmt *> &list;

  /// The local variables that the statements declare.
  void collect() {
    for (size_t d = 0; d < list.size(); ++d)
      if (const auto *decl = dyn_cast<DeclStmt>(list[d]))
        for (Decl *decl : decl->decls())
          if (auto *var = dyn_cast<VarDecl>(decl);
              var && var->hasLocalStorage() &&
              !var->getType().isVolatileQualified())
            declared.push_back({d, var});
  }

  std::vector<size_t> dropped;
  std::vector<std::pair<size_t, VarDecl *>> declared;

  /// An accumulator to read as its element: the loop that sums into it,
  /// and the statements that go.
  struct Retarget {
    VarDecl *var;
    Expr *element;
    size_t loop;
    std::vector<size_t> gone;
    bool overwrite; ///< Started at zero and stored by `X = t;`.
  };

  /// `element = 0`, in the element's type.
  Stmt *zeroStore(Expr *element) {
    QualType type = element->getType().getUnqualifiedType();
    return BinaryOperator::Create(
        ctx, element, zeroOf(ctx, type, element->getBeginLoc()), BO_Assign,
        type,
        ctx.getLangOpts().CPlusPlus ? VK_LValue : VK_PRValue, OK_Ordinary,
        element->getBeginLoc(), FPOptionsOverride());
  }

  /// The variables that `s` starts at zero: `x = 0;`, or a chain
  /// `x = y = ... = 0;`; none for any other statement.
  static SmallVector<const VarDecl *> zeroChain(const Stmt *s) {
    SmallVector<const VarDecl *> vars;
    const Expr *e = dyn_cast<Expr>(s);
    for (const BinaryOperator *assign;
         e && (assign = dyn_cast<BinaryOperator>(stripCasts(e))) &&
         assign->getOpcode() == BO_Assign;
         e = assign->getRHS()) {
      const VarDecl *var = referencedVar(assign->getLHS());
      if (!var)
        return {};
      vars.push_back(var);
    }
    if (!e || !isLiteral(e, 0))
      return {};
    return vars;
  }

  /// The indices after `d` of the statements that name `var`.
  std::vector<size_t> mentionsAfter(size_t d, const VarDecl *var) const {
    std::vector<size_t> at;
    for (size_t m = d + 1; m < list.size(); ++m)
      if (mentions(list[m], var))
        at.push_back(m);
    return at;
  }

  /// The statements of the body of `loop` (a loop of the block), or none.
  static std::vector<Stmt *> bodyOf(const Stmt *loop, CompoundStmt *&block) {
    const Stmt *body = nullptr;
    if (const auto *f = dyn_cast<ForStmt>(loop))
      body = f->getBody();
    else if (const auto *w = dyn_cast<WhileStmt>(loop))
      body = w->getBody();
    else if (const auto *d = dyn_cast<DoStmt>(loop))
      body = d->getBody();
    block = const_cast<CompoundStmt *>(dyn_cast_or_null<CompoundStmt>(body));
    if (!block)
      return {};
    return {block->body_begin(), block->body_end()};
  }

  /// The reads of `var` in the subtree in `slot`, whose node above is in
  /// `above`; false where it names var otherwise.
  static bool readsIn(Stmt *&slot, Stmt **above, const VarDecl *var,
                      std::vector<Read> &out) {
    Stmt *s = slot;
    if (!s)
      return true;
    if (auto *cast = dyn_cast<ImplicitCastExpr>(s);
        cast && cast->getCastKind() == CK_LValueToRValue &&
        isa<DeclRefExpr>(cast->getSubExpr()->IgnoreParens()) &&
        referencedVar(cast->getSubExpr()) == var) {
      out.push_back({&slot, above, false});
      return true;
    }
    if (auto *op = dyn_cast<UnaryOperator>(s);
        op && op->isPostfix() && op->isIncrementDecrementOp() &&
        isa<DeclRefExpr>(op->getSubExpr()->IgnoreParens()) &&
        referencedVar(op->getSubExpr()) == var) {
      out.push_back({&slot, above, true});
      return true;
    }
    if (const auto *ref = dyn_cast<DeclRefExpr>(s);
        ref && ref->getDecl() == var)
      return false;
    for (Stmt *&child : s->children())
      if (!readsIn(child, &slot, var, out))
        return false;
    return true;
  }

  /// Drops `var`'s initialiser, which nothing reads once the register is
  /// read away, so that its declaration declares only (a loop that holds
  /// nothing but declarations and one loop is a jam's).
  void dropInit(VarDecl *var) {
    Expr *init = var->getInit();
    if (!init || init->HasSideEffects(ctx))
      return;
    scope.restore.push_back([var, init] { var->setInit(init); });
    var->setInit(nullptr);
  }

  /// Whether `s` declares floating-point variables only, each started at
  /// an element of `root` (`double s00 = C(r, q), s01 = C(r, q + 1);`).
  static bool startsAtElements(const Stmt *s, const VarDecl *root) {
    const auto *decl = dyn_cast<DeclStmt>(s);
    return decl && llvm::all_of(decl->decls(), [&](const Decl *d) {
             const auto *var = dyn_cast<VarDecl>(d);
             const Expr *init = var ? var->getInit() : nullptr;
             return init && var->getType()->isRealFloatingType() &&
                    !init->HasSideEffects(var->getASTContext()) &&
                    rootOf(stripCasts(init)) == root;
           });
  }

  void stepRegister(size_t d, VarDecl *var);
  void valueRegister(size_t d, VarDecl *var);
  /// Whether what `value` reads keeps its value through the statements
  /// [from, to] of `body`: none assigns a variable it reads or may write
  /// memory it reads.
  bool keepsValue(const Expr *value, llvm::ArrayRef<const Stmt *> body,
                  size_t from, size_t to) const;
  std::optional<Retarget> accumulator(size_t d, VarDecl *var);
  /// Reads `r.var` as its element in the loop; its start goes where every
  /// variable that the start sets is `moved` too.
  void retarget(const Retarget &r,
                const llvm::SmallPtrSetImpl<const VarDecl *> &moved);
};

void Registers::stepRegister(size_t d, VarDecl *var) {
  QualType type = var->getType();
  if (!type->isArithmeticType() && !type->isPointerType())
    return;
  std::vector<size_t> at = mentionsAfter(d, var);
  if (at.size() != 1 || !isLoop(list[at[0]]))
    return;
  const Stmt *loop = list[at[0]];
  CompoundStmt *block = nullptr;
  std::vector<Stmt *> body = bodyOf(loop, block);
  // Named in the body only, first by its set.
  auto set =
      llvm::find_if(body, [&](const Stmt *s) { return mentions(s, var); });
  if (set == body.end() ||
      llvm::any_of(loop->children(), [&](const Stmt *child) {
        return child && child != block && mentions(child, var);
      }))
    return;
  const auto *assign = dyn_cast<BinaryOperator>(*set);
  if (!assign || assign->getOpcode() != BO_Assign ||
      !isa<DeclRefExpr>(assign->getLHS()->IgnoreParens()) ||
      referencedVar(assign->getLHS()) != var)
    return;
  Expr *value = assign->getRHS();
  if (mentions(value, var) || value->HasSideEffects(ctx))
    return;
  // Then reads; a bump only as the last, alone in its statement, so that
  // nothing reads the bumped value.
  size_t first = set - body.begin(), last = first;
  std::vector<Read> reads;
  for (size_t n = first + 1; n < body.size(); ++n) {
    if (!mentions(body[n], var))
      continue;
    size_t before = reads.size();
    if (!readsIn(*(block->body_begin() + n), nullptr, var, reads) ||
        (reads.back().bump && reads.size() - before != 1))
      return;
    last = n;
  }
  if (reads.empty() ||
      llvm::any_of(llvm::drop_end(reads), [](const Read &r) { return r.bump; }))
    return;
  // What the value reads stays as it was until the last read.
  if (!keepsValue(value, ArrayRef<const Stmt *>(body.data(), body.size()),
                  first + 1, last))
    return;
  // Each read is the value; `*v` of `v = &x` is x.
  const auto *address = dyn_cast<UnaryOperator>(bare(value));
  Expr *element = address && address->getOpcode() == UO_AddrOf
                      ? address->getSubExpr()
                      : nullptr;
  for (const Read &r : reads) {
    auto *deref = r.above ? dyn_cast<UnaryOperator>(*r.above) : nullptr;
    if (element && deref && deref->getOpcode() == UO_Deref)
      scope.replace(r.above, element);
    else
      scope.replace(r.slot, value);
  }
  // The set goes now, so that no later normalisation reads it (LateInit
  // would declare the register there).
  Stmt *&slot = *(block->body_begin() + first);
  scope.replace(&slot, new (ctx) NullStmt(slot->getBeginLoc()));
  dropInit(var);
  scope.written.insert(var);
}

bool Registers::keepsValue(const Expr *value, ArrayRef<const Stmt *> body,
                           size_t from, size_t to) const {
  llvm::SmallPtrSet<const VarDecl *, 8> vars, roots;
  bool unknown = false;
  inputsOf(value, vars, roots, unknown);
  if (unknown)
    return false;
  for (size_t n = from; n <= to; ++n)
    if (llvm::any_of(vars,
                     [&](const VarDecl *v) { return assigns(body[n], v); }) ||
        llvm::any_of(roots, [&](const VarDecl *root) {
          return writesMemory(body[n], root);
        }))
      return false;
  return true;
}

void Registers::valueRegister(size_t d, VarDecl *var) {
  // A register set where it is declared and only read after (`double u0 =
  // al * A(r, s), u1 = ...;` in a hand-blocked K loop): each read is its
  // value, where nothing between changes what that reads.
  Expr *value = var->getInit();
  QualType type = var->getType();
  if (!value || value->HasSideEffects(ctx) || mentions(value, var) ||
      isa<InitListExpr>(value))
    return;
  // It holds the value exactly: a pointer, an integer no narrower, or a
  // floating-point value no narrower.
  QualType from = value->IgnoreImpCasts()->getType();
  bool exact =
      type->isPointerType()
          ? ctx.hasSameUnqualifiedType(type, value->getType())
      : type->isRealFloatingType()
          ? from->isRealFloatingType() &&
                ctx.getTypeSize(type) >= ctx.getTypeSize(from)
          : holdsEveryValue(ctx, type, from);
  if (!exact)
    return;
  // Named by no other declaration of its statement.
  for (const Decl *other : cast<DeclStmt>(list[d])->decls())
    if (const auto *v = dyn_cast<VarDecl>(other);
        v && v != var && v->getInit() && mentions(v->getInit(), var))
      return;
  std::vector<size_t> at = mentionsAfter(d, var);
  if (at.empty())
    return;
  std::vector<Read> reads;
  for (size_t n : at)
    if (!readsIn(const_cast<Stmt *&>(list[n]), nullptr, var, reads))
      return;
  if (llvm::any_of(reads, [](const Read &r) { return r.bump; }) ||
      !keepsValue(value, list, d + 1, at.back()))
    return;
  for (const Read &r : reads)
    scope.replace(r.slot, value);
  dropInit(var);
  scope.written.insert(var);
}

std::optional<Registers::Retarget> Registers::accumulator(size_t d,
                                                          VarDecl *var) {
  QualType type = var->getType();
  if (!type->isRealFloatingType())
    return std::nullopt;
  std::vector<size_t> at = mentionsAfter(d, var);
  // Its start, the loop that sums into it and the read.
  size_t start = d, next = 0;
  // Or started at the element it is stored to (`t = X; ... X = t;`).
  const Expr *loaded = nullptr;
  if (const Expr *init = var->getInit()) {
    if (!isLiteral(init, 0))
      loaded = init;
  } else {
    if (at.empty() || !llvm::is_contained(zeroChain(list[at[0]]), var))
      return std::nullopt;
    start = at[0];
    next = 1;
  }
  if (at.size() != next + 2)
    return std::nullopt;
  size_t loop = at[next], read = at[next + 1];
  if (!isLoop(list[loop]) || !accumulatesOnly(list[loop], var, nullptr))
    return std::nullopt;
  const auto *add = dyn_cast<BinaryOperator>(list[read]);
  if (!add ||
      (add->getOpcode() != BO_Assign &&
       (loaded || add->getOpcode() != BO_AddAssign)) ||
      referencedVar(add->getRHS()) != var || referencedVar(add->getLHS()))
    return std::nullopt;
  Expr *element = add->getLHS();
  if (loaded && scope.print(stripCasts(loaded)) != scope.print(element))
    return std::nullopt;
  const VarDecl *root = rootOf(element);
  if (!root || element->getType().getCanonicalType().getUnqualifiedType() !=
                   type.getCanonicalType().getUnqualifiedType())
    return std::nullopt;
  // The element's address is the same from the start to the read: nothing
  // in between assigns what it names or may write the memory it reads
  // (its array, or a table of rows).
  llvm::SmallPtrSet<const VarDecl *, 8> vars, roots;
  bool unknown = false;
  inputsOf(element, vars, roots, unknown);
  if (unknown)
    return std::nullopt;
  for (size_t m = start; m <= read; ++m) {
    if (m != read && llvm::any_of(vars, [&](const VarDecl *v) {
          return assigns(list[m], v);
        }))
      return std::nullopt;
    // Between, no statement but other accumulators' reads like this one
    // (and the declarations that start them at their elements) names C or
    // reads memory (which may be C by another name).
    const auto *other = dyn_cast<BinaryOperator>(list[m]);
    bool store = other && other->getOpcode() == add->getOpcode() &&
                 referencedVar(other->getRHS()) &&
                 !referencedVar(other->getLHS()) &&
                 rootOf(other->getLHS()) == root;
    if (loaded && m < loop && startsAtElements(list[m], root))
      continue;
    llvm::SmallPtrSet<const VarDecl *, 8> names, reads;
    bool unknownRead = false;
    inputsOf(list[m], names, reads, unknownRead);
    if (m != read && m != loop && !store &&
        (mentions(list[m], root) || !reads.empty() || unknownRead))
      return std::nullopt;
    // The loop neither names C nor writes memory.
    if (m == loop && (mentions(list[m], root) || writesMemory(list[m])))
      return std::nullopt;
  }
  std::vector<size_t> gone{read};
  if (start != d)
    gone.push_back(start);
  return Retarget{var, element, loop, gone,
                  !loaded && add->getOpcode() == BO_Assign};
}

void Registers::retarget(
    const Retarget &r, const llvm::SmallPtrSetImpl<const VarDecl *> &moved) {
  std::function<void(Stmt *&)> into = [&](Stmt *&slot) {
    if (!slot)
      return;
    if (const auto *ref = dyn_cast<DeclRefExpr>(slot);
        ref && ref->getDecl() == r.var) {
      scope.replace(&slot, r.element);
      return;
    }
    for (Stmt *&child : slot->children())
      into(child);
  };
  for (Stmt *&child : const_cast<Stmt *>(list[r.loop])->children())
    into(child);
  for (size_t n : r.gone)
    if (llvm::all_of(zeroChain(list[n]),
                     [&](const VarDecl *v) { return moved.contains(v); }))
      dropped.push_back(n);
  dropInit(r.var);
  scope.written.insert(r.var);
}

} // namespace

void mlir::gemm::readRegisters(NestScope &scope,
                               std::vector<const Stmt *> &statements) {
  Registers(scope, statements).run();
}
