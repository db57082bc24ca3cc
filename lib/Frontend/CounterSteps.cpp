//===- CounterSteps.cpp - Loop counters stepped mid-body ------------------===//
//
// Moving `v--` past statements that do not change v is exact where those
// statements read `v - 1` instead: they see the value they saw before, and
// the loop's test sees the same v after the body. A `for` whose body is
// empty runs its increment after each test, as a body would.
//
//===----------------------------------------------------------------------===//

#include "CounterSteps.h"
#include "LoopHeader.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

using namespace clang;
using namespace mlir::gemm;

CounterSteps::CounterSteps(NestScope &scope) : CounterSteps(scope, false) {
  sink(const_cast<Stmt *>(scope.outer));
}

CounterSteps::~CounterSteps() {
  for (auto it = slots.rbegin(); it != slots.rend(); ++it)
    *it->first = it->second;
}

void CounterSteps::sinkInlined(NestScope &scope,
                               ArrayRef<const Stmt *> statements) {
  CounterSteps steps(scope, true);
  for (const Stmt *s : statements)
    steps.sink(const_cast<Stmt *>(s));
}

void CounterSteps::replace(Stmt *&slot, Stmt *with) {
  if (untilScopeEnds)
    return scope.replace(&slot, with);
  slots.emplace_back(&slot, slot);
  slot = with;
}

void CounterSteps::incrementAsBody(ForStmt *loop) {
  const auto *block = dyn_cast<CompoundStmt>(loop->getBody());
  if (!loop->getInc() || !(isa<NullStmt>(loop->getBody()) ||
                           (block && block->body_empty())))
    return;
  std::vector<Stmt *> parts;
  llvm::append_range(parts, commaParts(loop->getInc()));
  Stmt *body = parts.size() == 1
                   ? parts.front()
                   : CompoundStmt::Create(ctx, parts, FPOptionsOverride(),
                                          loop->getInc()->getBeginLoc(),
                                          loop->getInc()->getEndLoc());
  const Stmt *inc = loop->getInc(), *empty = loop->getBody();
  for (Stmt *&child : loop->children())
    if (child && child == inc)
      replace(child, nullptr);
    else if (child && child == empty)
      replace(child, body);
}

void CounterSteps::sink(Stmt *s) {
  if (!s)
    return;
  if (auto *loop = dyn_cast<ForStmt>(s))
    incrementAsBody(loop);
  for (Stmt *child : s->children())
    sink(child);
  const Expr *cond = nullptr;
  Stmt *body = nullptr;
  if (auto *loop = dyn_cast<WhileStmt>(s))
    cond = loop->getCond(), body = loop->getBody();
  else if (auto *loop = dyn_cast<DoStmt>(s))
    cond = loop->getCond(), body = loop->getBody();
  else if (auto *loop = dyn_cast<ForStmt>(s); loop && !loop->getInc())
    cond = loop->getCond(), body = loop->getBody();
  auto *block = dyn_cast_or_null<CompoundStmt>(body);
  // A test that steps its counter itself (`n-- > 0`) is counted as such.
  if (!block || !cond || cond->HasSideEffects(ctx))
    return;
  MutableArrayRef<Stmt *> statements(block->body_begin(), block->size());
  for (size_t n = 0; n + 1 < statements.size(); ++n) {
    std::optional<Step> step = asStep(statements[n]);
    if (!step || !step->var->getType()->isIntegerType() ||
        !mentions(cond, step->var) ||
        (step->amount && mentions(step->amount, step->var)))
      continue;
    for (size_t m = 0; m < statements.size(); ++m)
      if (m != n && findChange(statements[m], step->var))
        return;
    QualType type = step->var->getType().getUnqualifiedType();
    Expr *by =
        step->amount
            ? const_cast<Expr *>(step->amount)
            : IntegerLiteral::Create(ctx, llvm::APInt(ctx.getIntWidth(type), 1),
                                     type, SourceLocation());
    if (!ctx.hasSameType(by->getType(), type))
      by = ImplicitCastExpr::Create(ctx, type, CK_IntegralCast, by, nullptr,
                                    VK_PRValue, FPOptionsOverride());
    Stmt *stepped = statements[n];
    for (size_t m = n + 1; m < statements.size(); ++m) {
      readStepped(statements[m], step->var, by, step->down ? BO_Sub : BO_Add);
      replace(statements[m - 1], statements[m]);
    }
    replace(statements.back(), stepped);
    return;
  }
}

void CounterSteps::readStepped(Stmt *&slot, const VarDecl *var, Expr *by,
                               BinaryOperatorKind op) {
  if (!slot)
    return;
  if (auto *read = dyn_cast<ImplicitCastExpr>(slot);
      read && read->getCastKind() == CK_LValueToRValue &&
      referencedVar(read->getSubExpr()) == var) {
    Expr *value = BinaryOperator::Create(ctx, read, by, op, read->getType(),
                                         VK_PRValue, OK_Ordinary,
                                         SourceLocation(), FPOptionsOverride());
    return replace(slot, new (ctx) ParenExpr(read->getBeginLoc(),
                                             read->getEndLoc(), value));
  }
  for (Stmt *&child : slot->children())
    readStepped(child, var, by, op);
}
