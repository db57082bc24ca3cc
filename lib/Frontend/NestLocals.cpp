//===- NestLocals.cpp - Variables the nest sets before every use ----------===//
//
// Walks the nest in program order as C's scopes nest: a set `p = e;` that
// is a statement of a block covers the rest of that block, and a use of p
// that no set covers makes p no local of the nest. Each covering set gets
// a fresh variable of p's name and type; the uses it covers read it.
//
//===----------------------------------------------------------------------===//

#include "NestLocals.h"
#include "ReadAfterLoop.h"

#include "llvm/ADT/MapVector.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

/// A variable's sets and uses in the nest, each use with the set that
/// covers it.
struct Uses {
  std::vector<std::pair<Stmt **, BinaryOperator *>> sets;
  std::vector<std::pair<Stmt **, BinaryOperator *>> covered;
  bool uncovered = false;
  /// A set lies under a branch, where pointer walks cannot follow it.
  bool branched = false;
  /// Every use is in an element's index (`m1[i_col + k]`).
  bool indexOnly = true;
};

/// The variable that `s`, a statement, sets to a value that does not read
/// it (`p = e;`), or null.
const VarDecl *setVar(const Stmt *s, BinaryOperator *&assign) {
  assign = dyn_cast<BinaryOperator>(const_cast<Stmt *>(s));
  if (!assign || assign->getOpcode() != BO_Assign ||
      !isa<DeclRefExpr>(assign->getLHS()->IgnoreParens()))
    return nullptr;
  const VarDecl *var = referencedVar(assign->getLHS());
  return var && !mentions(assign->getRHS(), var) ? var : nullptr;
}

class Finder {
public:
  llvm::MapVector<const VarDecl *, Uses> uses;

  /// `covering` holds, per variable, the set whose block the walk is in.
  void walk(Stmt *&slot,
            llvm::DenseMap<const VarDecl *, BinaryOperator *> covering) {
    Stmt *s = slot;
    if (!s)
      return;
    if (auto *block = dyn_cast<CompoundStmt>(s)) {
      for (Stmt *&child : block->body()) {
        BinaryOperator *assign = nullptr;
        if (const VarDecl *var = setVar(child, assign)) {
          // The value is read where the set stands.
          for (Stmt *&part : assign->children())
            if (part == assign->getRHS())
              walk(part, covering);
          uses[var].sets.emplace_back(&child, assign);
          uses[var].branched |= branches > 0;
          covering[var] = assign;
          continue;
        }
        walk(child, covering);
      }
      return;
    }
    if (auto *ref = dyn_cast<DeclRefExpr>(s))
      if (const auto *var = dyn_cast<VarDecl>(ref->getDecl())) {
        BinaryOperator *set = covering.lookup(var);
        Uses &u = uses[var];
        if (set)
          u.covered.emplace_back(&slot, set);
        else
          u.uncovered = true;
        u.indexOnly &= indices > 0;
      }
    bool branch = isa<IfStmt, SwitchStmt, AbstractConditionalOperator>(s);
    const auto *element = dyn_cast<ArraySubscriptExpr>(s);
    branches += branch;
    for (Stmt *&child : s->children()) {
      bool index = element && child == element->getIdx();
      indices += index;
      walk(child, covering);
      indices -= index;
    }
    branches -= branch;
  }

private:
  int branches = 0; ///< Branches around the walk.
  int indices = 0;  ///< Elements' indices around the walk.
};

} // namespace

NestLocals::NestLocals(NestScope &scope) {
  const FunctionDecl *function = scope.function;
  if (!function || !function->getBody())
    return;
  Stmt *root = const_cast<Stmt *>(unwrapLoopWrappers(scope.outer));
  Finder finder;
  Stmt *slot = root;
  finder.walk(slot, llvm::DenseMap<const VarDecl *, BinaryOperator *>());
  ASTContext &ctx = scope.ctx;
  for (auto &[var, u] : finder.uses) {
    // An integer set from what the nest changes (`i_col = i * n;`) and
    // read in indices only is an index of its own iteration; one set from
    // what it does not (f2c's `i__2 = *m;`) is a bound the walk reads as
    // its value.
    bool index =
        var->getType()->isIntegerType() && u.indexOnly &&
        llvm::all_of(u.sets, [&](const std::pair<Stmt **, BinaryOperator *> &set) {
          return findVar(set.second->getRHS(), [&](const VarDecl *read) {
                   return assigns(root, read);
                 }) != nullptr;
        });
    if (u.uncovered || !(index || (u.branched && var->getType()->isPointerType())) ||
        var->isStaticLocal() || reachable(var, function->getBody()))
      continue;
    std::optional<const Stmt *> after = readAfterLoop(function, root, var);
    if (!after || *after)
      continue;
    llvm::DenseMap<const BinaryOperator *, VarDecl *> fresh;
    for (auto [setSlot, assign] : u.sets) {
      auto *local = VarDecl::Create(
          ctx, const_cast<DeclContext *>(var->getDeclContext()),
          assign->getBeginLoc(), assign->getLHS()->getBeginLoc(),
          var->getIdentifier(), var->getType(), var->getTypeSourceInfo(),
          SC_None);
      local->setInit(assign->getRHS());
      fresh[assign] = local;
      slots.emplace_back(setSlot, *setSlot);
      *setSlot = new (ctx)
          DeclStmt(DeclGroupRef(local), assign->getBeginLoc(), assign->getEndLoc());
    }
    for (auto [useSlot, set] : u.covered) {
      auto *ref = cast<DeclRefExpr>(*useSlot);
      slots.emplace_back(useSlot, *useSlot);
      *useSlot = DeclRefExpr::Create(
          ctx, NestedNameSpecifierLoc(), SourceLocation(), fresh.lookup(set),
          false, ref->getLocation(), ref->getType(), ref->getValueKind());
    }
  }
}

NestLocals::~NestLocals() {
  for (auto it = slots.rbegin(); it != slots.rend(); ++it)
    *it->first = it->second;
}
