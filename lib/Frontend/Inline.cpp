//===- Inline.cpp - Calls whose bodies are visible, inlined ---------------===//
//
// The body of a called function is rebuilt in the nest's terms: each
// parameter stands for its argument, `this` for the object the call names,
// the callee's locals become fresh locals of the nest, and the returned
// expression takes the call's place. The rest of the front end then reads
// the nest as if it had been written inline, and prints operands in the
// caller's terms. Subtrees that name nothing of the callee are shared, not
// copied.
//
// Only what the inlined code would do in place is allowed: a callee may
// write its own locals and the elements that pointers name (the nest's
// checks then judge those writes as any other), but not a global, a static
// local or a member of its object, which the launcher would not update.
//
//===----------------------------------------------------------------------===//

#include "Inline.h"
#include "PrivateMembers.h"
#include "Unswitch.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclFriend.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

using namespace clang;
using namespace mlir::gemm;

namespace {

/// One call being inlined: what its parameters, locals and `this` stand
/// for.
struct Frame {
  const FunctionDecl *callee = nullptr;
  std::string name; ///< As the call spells it, for messages.
  /// By-value parameters read as their argument's value.
  llvm::DenseMap<const VarDecl *, Expr *> values;
  /// Reference parameters (and objects passed by trivial copy) as the
  /// argument's lvalue.
  llvm::DenseMap<const VarDecl *, Expr *> lvalues;
  /// Locals, and parameters the body writes, declared afresh in the nest.
  llvm::DenseMap<const VarDecl *, VarDecl *> fresh;
  /// The object the method is called on; null for a lambda, whose `this`
  /// and captures are those of `outer`.
  Expr *object = nullptr;
  bool objectIsPointer = false;
  const Frame *outer = nullptr;
  bool lambda = false;
};

/// The name a call spells for its callee, for messages: a lambda's is
/// the variable that holds it.
std::string calleeName(const CallExpr *call) {
  if (const auto *method =
          dyn_cast_or_null<CXXMethodDecl>(call->getDirectCallee());
      method && method->getParent()->isLambda() &&
      isa<CXXOperatorCallExpr>(call))
    if (const VarDecl *var = referencedVar(call->getArg(0)))
      return var->getNameAsString();
  const Expr *callee = call->getCallee()->IgnoreParenImpCasts();
  if (const auto *unary = dyn_cast<UnaryOperator>(callee);
      unary && unary->getOpcode() == UO_Deref)
    callee = unary->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *ref = dyn_cast<DeclRefExpr>(callee))
    return ref->getDecl()->getNameAsString();
  if (const auto *member = dyn_cast<MemberExpr>(callee))
    return member->getMemberDecl()->getNameAsString();
  if (const FunctionDecl *direct = call->getDirectCallee())
    return direct->getNameAsString();
  return "?";
}

/// Whether `e` is printed as one operand without parentheses.
bool isPrimary(const Expr *e) {
  e = e->IgnoreImpCasts();
  return isa<DeclRefExpr, IntegerLiteral, FloatingLiteral, CharacterLiteral,
             CXXBoolLiteralExpr, ParenExpr, CallExpr, ArraySubscriptExpr,
             MemberExpr, CXXThisExpr>(e);
}

class Inliner {
public:
  Inliner(ASTContext &ctx, NestScope *scope) : ctx(ctx), scope(scope) {
    if (!scope)
      return;
    // The nest's text, and the locals that earlier statements' calls
    // declared in it.
    collectNames(scope->outer);
    for (const LocalDef &local : scope->locals)
      taken.insert(local.var->getNameAsString());
    for (const SourceLoop &loop : scope->sourceLoops)
      taken.insert(loop.iv->getNameAsString());
  }

  std::string failure;

  /// Whether `call` is left as a call: the pure library calls the nest may
  /// hold (min, max, libm) and the functions of system headers and std,
  /// which the walk judges (std::vector's accessors are allowed).
  bool isKept(const CallExpr *call) const {
    if (asMinMaxCall(call) || asMathCall(call))
      return true;
    const FunctionDecl *callee = call->getDirectCallee();
    return callee && (callee->isInStdNamespace() ||
                      (callee->getParent() && isa<CXXRecordDecl>(
                                                  callee->getParent()) &&
                       cast<CXXRecordDecl>(callee->getParent())
                           ->isInStdNamespace()) ||
                      ctx.getSourceManager().isInSystemHeader(
                          callee->getLocation()));
  }

  /// Whether `s` names anything that inlining changes: a call to inline,
  /// or, inside a callee, its parameters, locals or `this`.
  bool touches(const Stmt *s, const Frame *f) const {
    if (!s)
      return false;
    if (const auto *call = dyn_cast<CallExpr>(s); call && !isKept(call))
      return true;
    if (f) {
      if (const auto *ref = dyn_cast<DeclRefExpr>(s))
        if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()))
          return lookup(var, f) != nullptr;
      if (isa<CXXThisExpr>(s))
        return thisFrame(f) != nullptr;
    }
    if (const auto *arg = dyn_cast<CXXDefaultArgExpr>(s))
      return touches(arg->getExpr(), f);
    return llvm::any_of(s->children(),
                        [&](const Stmt *child) { return touches(child, f); });
  }

  /// `e` rebuilt with its calls inlined (their bodies appended to `out`)
  /// and, inside a callee, its parameters, locals and `this` bound. Null,
  /// with `failure` set, where that cannot be done.
  Expr *rebuild(const Expr *e, const Frame *f, std::vector<Stmt *> &out);

  /// Appends the statements that stand for `s`, a statement of `f`'s body
  /// (or of the nest, where `f` is null), to `out`.
  bool cloneInto(const Stmt *s, Frame *f, std::vector<Stmt *> &out);

  /// The statements `body` runs at its top level, each `switch` there that
  /// a version fixes (or a constant picks) read as its case: a case that
  /// returns (`case 1: return f(v);`) ends the body.
  std::vector<const Stmt *> topStatements(const CompoundStmt *body,
                                          const Frame &f) {
    std::vector<const Stmt *> statements(body->body_begin(), body->body_end());
    for (size_t n = 0; scope && n < statements.size(); ++n) {
      const auto *choice = dyn_cast<SwitchStmt>(statements[n]);
      std::vector<Stmt *> hoisted;
      Expr *read = choice ? rebuild(choice->getCond(), &f, hoisted) : nullptr;
      std::optional<std::vector<const Stmt *>> run =
          read && hoisted.empty() ? assumedCase(choice, read, *scope)
                                  : std::nullopt;
      if (!run || run->empty() || !isa<ReturnStmt>(run->back()))
        continue;
      statements.erase(statements.begin() + n, statements.end());
      statements.insert(statements.end(), run->begin(), run->end());
      break;
    }
    return statements;
  }

  /// Inlines `call`: its body's statements go to `out`; returns its value
  /// (null for a void callee), or nullopt with `failure` set.
  std::optional<Expr *> inlineCall(const CallExpr *call, const Frame *caller,
                                   std::vector<Stmt *> &out);

private:
  ASTContext &ctx;
  NestScope *scope;
  std::vector<const FunctionDecl *> stack;
  llvm::StringSet<> taken; ///< Names a fresh local must not print as.

  std::nullptr_t fail(const std::string &reason) {
    if (failure.empty())
      failure = reason;
    return nullptr;
  }
  bool failed(const std::string &reason) { return fail(reason), false; }

  std::string print(const Expr *e) const {
    std::string text;
    llvm::raw_string_ostream os(text);
    e->printPretty(os, nullptr, PrintingPolicy(ctx.getLangOpts()));
    return text;
  }

  void collectNames(const Stmt *s) {
    if (!s)
      return;
    if (const auto *ref = dyn_cast<DeclRefExpr>(s))
      taken.insert(ref->getDecl()->getNameAsString());
    if (const auto *decl = dyn_cast<DeclStmt>(s))
      for (const Decl *d : decl->decls())
        if (const auto *named = dyn_cast<NamedDecl>(d))
          taken.insert(named->getNameAsString());
    for (const Stmt *child : s->children())
      collectNames(child);
  }

  /// What a variable of some frame stands for: its fresh copy, its bound
  /// value or lvalue; null where it is not the frame's (a global, or the
  /// caller's variable a lambda captures).
  const void *lookup(const VarDecl *var, const Frame *f) const {
    for (; f; f = f->lambda ? f->outer : nullptr) {
      if (VarDecl *copy = f->fresh.lookup(var))
        return copy;
      if (Expr *value = f->values.lookup(var))
        return value;
      if (Expr *lvalue = f->lvalues.lookup(var))
        return lvalue;
    }
    return nullptr;
  }

  /// The frame whose object `this` names (a lambda's is its definer's).
  const Frame *thisFrame(const Frame *f) const {
    while (f && f->lambda)
      f = f->outer;
    return f && f->object ? f : nullptr;
  }

  Expr *paren(Expr *e) {
    return isPrimary(e) ? e
                        : new (ctx) ParenExpr(e->getBeginLoc(), e->getEndLoc(),
                                              e);
  }

  /// A local of the nest that stands for `var`, printed under a name that
  /// nothing else in the nest prints as.
  VarDecl *freshVar(const VarDecl *var, QualType type, const std::string &callee) {
    std::string name = var->getNameAsString();
    if (taken.contains(name))
      name += "_" + callee;
    for (int n = 2; taken.contains(name); ++n)
      name = var->getNameAsString() + "_" + callee + std::to_string(n);
    taken.insert(name);
    return VarDecl::Create(ctx, const_cast<DeclContext *>(var->getDeclContext()),
                           var->getBeginLoc(), var->getLocation(),
                           &ctx.Idents.get(name), type,
                           var->getTypeSourceInfo(), SC_None);
  }

  Stmt *declare(VarDecl *var) {
    return new (ctx) DeclStmt(DeclGroupRef(var), var->getBeginLoc(),
                              var->getEndLoc());
  }

  /// Why a write to `target` inside `f`'s body is not one the inlined code
  /// may perform in place, or an empty string.
  std::string writeObstacle(const Expr *target, const Frame &f) const;
  /// Checks every write in `s`, a statement of `f`'s body.
  bool checkWrites(const Stmt *s, const Frame *f);
  bool checkWrite(const Expr *target, const Frame *f) {
    if (!f)
      return true;
    std::string why = writeObstacle(target, *f);
    return why.empty() || failed(why);
  }

  /// Whether the launcher call, at the nest, can name `member` of the
  /// object a method was inlined for.
  bool nameable(const ValueDecl *member) const;
  /// The function the nest is in, where the launcher call goes.
  const FunctionDecl *nestFunction() const;
  std::optional<std::string> captureObstacle(const CXXRecordDecl *lambda,
                                             const std::string &name) const;
  Stmt *cloneBody(const Stmt *s, Frame *f);
  Expr *rebuildCall(const CallExpr *call, const Frame *f,
                    std::vector<Stmt *> &out);
  Expr *rebuildMember(const MemberExpr *member, const Frame *f,
                      std::vector<Stmt *> &out);
  bool bindArguments(const CallExpr *call, const FunctionDecl *def,
                     unsigned first, const Frame *caller, Frame &frame,
                     std::vector<Stmt *> &out);
};

/// Whether the by-value parameter `param` is used other than as a value
/// (written, incremented, its address taken): it then becomes a local.
bool usedAsObject(const Stmt *s, const VarDecl *param, bool asValue = false) {
  if (!s)
    return false;
  if (const auto *ref = dyn_cast<DeclRefExpr>(s))
    return ref->getDecl() == param && !asValue;
  if (const auto *cast = dyn_cast<ImplicitCastExpr>(s);
      cast && cast->getCastKind() == CK_LValueToRValue)
    return usedAsObject(cast->getSubExpr()->IgnoreParens(), param, true);
  // std::max and std::min read the values their references bind (a clamp
  // helper's `min(max(x, lo), hi)`).
  if (const auto *call = dyn_cast<CallExpr>(s); call && asMinMaxCall(call))
    return llvm::any_of(call->arguments(), [&](const Expr *arg) {
      // Through the conversion to `const T &`.
      arg = arg->IgnoreParens();
      if (const auto *cast = dyn_cast<ImplicitCastExpr>(arg);
          cast && cast->getCastKind() == CK_NoOp)
        arg = cast->getSubExpr()->IgnoreParens();
      return usedAsObject(arg, param, true);
    });
  return llvm::any_of(s->children(), [&](const Stmt *child) {
    return usedAsObject(child, param);
  });
}

/// Whether `body` assigns `var`, increments it or takes its address.
bool changes(const Stmt *s, const VarDecl *var) {
  if (!s)
    return false;
  const Expr *target = nullptr;
  if (const auto *binary = dyn_cast<BinaryOperator>(s);
      binary && binary->isAssignmentOp())
    target = binary->getLHS();
  if (const auto *unary = dyn_cast<UnaryOperator>(s);
      unary && (unary->isIncrementDecrementOp() ||
                unary->getOpcode() == UO_AddrOf))
    target = unary->getSubExpr();
  if (target && referencedVar(target) == var)
    return true;
  return llvm::any_of(s->children(),
                      [&](const Stmt *child) { return changes(child, var); });
}

std::string Inliner::writeObstacle(const Expr *target, const Frame &f) const {
  target = target->IgnoreParenImpCasts();
  std::string who = "'" + f.name + "' writes '";
  if (const auto *ref = dyn_cast<DeclRefExpr>(target)) {
    const auto *var = dyn_cast<VarDecl>(ref->getDecl());
    if (!var || lookup(var, &f))
      return "";
    std::string name = var->getNameAsString();
    if (var->isStaticLocal())
      return who + name + "', a static local that keeps its value from "
                          "call to call";
    if (var->hasGlobalStorage())
      return who + name + "', a global the loop does not write";
    // A caller's variable that a lambda captures by reference: the nest
    // writes it, as the walk judges. One captured by copy is the lambda's.
    if (f.lambda)
      for (const LambdaCapture &capture :
           cast<CXXMethodDecl>(f.callee)->getParent()->captures())
        if (capture.capturesVariable() && capture.getCapturedVar() == var &&
            capture.getCaptureKind() == LCK_ByCopy)
          return who + name + "', its own copy of a captured variable";
    return "";
  }
  if (const auto *member = dyn_cast<MemberExpr>(target);
      member && !member->getType()->isArrayType())
    return who + member->getMemberDecl()->getNameAsString() +
           "', a member of the object it is called on, which the launcher "
           "would not update";
  return ""; // An element: the nest's checks judge it.
}

const FunctionDecl *Inliner::nestFunction() const {
  const FunctionDecl *function = nullptr;
  DynTypedNodeList parents = ctx.getParents(*scope->outer);
  while (!parents.empty() && !function) {
    function = parents[0].get<FunctionDecl>();
    if (!function)
      parents = ctx.getParents(parents[0]);
  }
  return function;
}

bool Inliner::nameable(const ValueDecl *member) const {
  AccessSpecifier access = member->getAccess();
  if (access == AS_public || access == AS_none || !scope)
    return true;
  const auto *owner = dyn_cast<CXXRecordDecl>(member->getDeclContext());
  const FunctionDecl *function = nestFunction();
  if (!owner || !function)
    return false;
  const auto *method = dyn_cast<CXXMethodDecl>(function);
  if (method && (method->getParent() == owner ||
                 (access == AS_protected &&
                  method->getParent()->isDerivedFrom(owner))))
    return true;
  // A friend function template befriends every instantiation
  // (`template <class U> friend void mult(...)`).
  const FunctionTemplateDecl *pattern = function->getPrimaryTemplate();
  for (const FriendDecl *friendDecl : owner->friends()) {
    if (const NamedDecl *decl = friendDecl->getFriendDecl();
        decl && decl->getAsFunction() &&
        decl->getAsFunction()->getCanonicalDecl() ==
            function->getCanonicalDecl())
      return true;
    if (const auto *friendTemplate = dyn_cast_or_null<FunctionTemplateDecl>(
            friendDecl->getFriendDecl());
        friendTemplate && pattern &&
        friendTemplate->getCanonicalDecl() == pattern->getCanonicalDecl())
      return true;
    if (const TypeSourceInfo *type = friendDecl->getFriendType();
        type && method &&
        type->getType()->getAsCXXRecordDecl() == method->getParent())
      return true;
  }
  return false;
}

std::optional<std::string>
Inliner::captureObstacle(const CXXRecordDecl *lambda,
                         const std::string &name) const {
  // A copy made where the lambda is defined holds the value then; it is
  // the variable's value in the nest only if nothing assigns the variable.
  const auto *definer = dyn_cast<FunctionDecl>(lambda->getDeclContext());
  for (const LambdaCapture &capture : lambda->captures()) {
    if (!capture.capturesVariable() ||
        capture.getCaptureKind() != LCK_ByCopy)
      continue;
    const auto *var = dyn_cast<VarDecl>(capture.getCapturedVar());
    if (var && !var->getType().isConstQualified() &&
        (!definer || changes(definer->getBody(), var)))
      return "'" + name + "' captures '" + var->getNameAsString() +
             "' by copy, and '" + var->getNameAsString() +
             "' is assigned in the function: the copy may hold an older "
             "value";
  }
  return std::nullopt;
}

Expr *Inliner::rebuildMember(const MemberExpr *member, const Frame *f,
                             std::vector<Stmt *> &out) {
  const Expr *base = member->getBase();
  Expr *newBase;
  bool arrow = member->isArrow();
  if (isa<CXXThisExpr>(base->IgnoreParenImpCasts()) && thisFrame(f)) {
    const Frame *owner = thisFrame(f);
    if (!nameable(member->getMemberDecl())) {
      // Read through a member pointer (PrivateMembers.h) where it can be.
      const auto *field = dyn_cast<FieldDecl>(member->getMemberDecl());
      const FunctionDecl *function = nestFunction();
      std::optional<std::string> why =
          field && function
              ? privateReachObstacle(ctx, function, scope->outer, field)
              : std::optional<std::string>("it is no data member");
      if (why)
        return fail("'" + owner->name + "' reads '" +
                    member->getMemberDecl()->getNameAsString() +
                    "', a member that the launcher call, where the nest is, "
                    "cannot name: " + *why);
      if (!llvm::is_contained(scope->privateMembers, field))
        scope->privateMembers.push_back(field);
    }
    newBase = owner->object;
    arrow = owner->objectIsPointer;
  } else if (!(newBase = rebuild(base, f, out))) {
    return nullptr;
  }
  return MemberExpr::Create(
      ctx, newBase, arrow, member->getOperatorLoc(),
      member->getQualifierLoc(), member->getTemplateKeywordLoc(),
      member->getMemberDecl(), member->getFoundDecl(),
      member->getMemberNameInfo(), nullptr, member->getType(),
      member->getValueKind(), member->getObjectKind(), NOUR_None);
}

Expr *Inliner::rebuildCall(const CallExpr *call, const Frame *f,
                           std::vector<Stmt *> &out) {
  if (!isKept(call)) {
    std::optional<Expr *> value = inlineCall(call, f, out);
    if (!value)
      return nullptr;
    if (!*value)
      return fail("'" + calleeName(call) + "' returns nothing, but its "
                  "value is used");
    return *value;
  }
  // A kept call whose arguments change: the same call of them.
  Expr *callee = rebuild(call->getCallee(), f, out);
  if (!callee)
    return nullptr;
  SmallVector<Expr *> args;
  for (const Expr *arg : call->arguments()) {
    args.push_back(rebuild(arg, f, out));
    if (!args.back())
      return nullptr;
  }
  FPOptionsOverride fp;
  if (const auto *op = dyn_cast<CXXOperatorCallExpr>(call))
    return CXXOperatorCallExpr::Create(ctx, op->getOperator(), callee, args,
                                       call->getType(), call->getValueKind(),
                                       op->getOperatorLoc(), fp);
  if (isa<CXXMemberCallExpr>(call))
    return CXXMemberCallExpr::Create(ctx, callee, args, call->getType(),
                                     call->getValueKind(), call->getRParenLoc(),
                                     fp);
  return CallExpr::Create(ctx, callee, args, call->getType(),
                          call->getValueKind(), call->getRParenLoc(), fp);
}

Expr *Inliner::rebuild(const Expr *e, const Frame *f, std::vector<Stmt *> &out) {
  if (!touches(e, f))
    return const_cast<Expr *>(e);
  if (const auto *p = dyn_cast<ParenExpr>(e)) {
    Expr *sub = rebuild(p->getSubExpr(), f, out);
    return sub ? new (ctx) ParenExpr(p->getLParen(), p->getRParen(), sub)
               : nullptr;
  }
  if (const auto *conv = dyn_cast<CastExpr>(e)) {
    // A by-value parameter read is its argument's value.
    if (const auto *ref =
            dyn_cast<DeclRefExpr>(conv->getSubExpr()->IgnoreParens());
        ref && conv->getCastKind() == CK_LValueToRValue && f)
      if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()))
        for (const Frame *g = f; g; g = g->lambda ? g->outer : nullptr)
          if (Expr *value = g->values.lookup(var))
            return value;
    Expr *sub = rebuild(conv->getSubExpr(), f, out);
    if (!sub)
      return nullptr;
    // A conversion operator's call is inlined: its value is the result.
    if (conv->getCastKind() == CK_UserDefinedConversion ||
        conv->getCastKind() == CK_ConstructorConversion)
      return sub;
    CXXCastPath path;
    for (const CXXBaseSpecifier *base : conv->path())
      path.push_back(const_cast<CXXBaseSpecifier *>(base));
    if (isa<ImplicitCastExpr>(conv))
      return ImplicitCastExpr::Create(ctx, conv->getType(), conv->getCastKind(),
                                      sub, &path, conv->getValueKind(),
                                      FPOptionsOverride());
    const auto *explicitCast = cast<ExplicitCastExpr>(conv);
    return CStyleCastExpr::Create(
        ctx, conv->getType(), conv->getValueKind(), conv->getCastKind(), sub,
        &path, FPOptionsOverride(), explicitCast->getTypeInfoAsWritten(),
        conv->getBeginLoc(), conv->getEndLoc());
  }
  if (const auto *binary = dyn_cast<BinaryOperator>(e)) {
    if (binary->isAssignmentOp() && !checkWrite(binary->getLHS(), f))
      return nullptr;
    Expr *lhs = rebuild(binary->getLHS(), f, out);
    Expr *rhs = lhs ? rebuild(binary->getRHS(), f, out) : nullptr;
    if (!rhs)
      return nullptr;
    if (const auto *compound = dyn_cast<CompoundAssignOperator>(binary))
      return CompoundAssignOperator::Create(
          ctx, lhs, rhs, binary->getOpcode(), binary->getType(),
          binary->getValueKind(), binary->getObjectKind(),
          binary->getOperatorLoc(), FPOptionsOverride(),
          compound->getComputationLHSType(),
          compound->getComputationResultType());
    return BinaryOperator::Create(ctx, lhs, rhs, binary->getOpcode(),
                                  binary->getType(), binary->getValueKind(),
                                  binary->getObjectKind(),
                                  binary->getOperatorLoc(), FPOptionsOverride());
  }
  if (const auto *unary = dyn_cast<UnaryOperator>(e)) {
    if (unary->isIncrementDecrementOp() && !checkWrite(unary->getSubExpr(), f))
      return nullptr;
    Expr *sub = rebuild(unary->getSubExpr(), f, out);
    if (!sub)
      return nullptr;
    // `*gamma` of `gamma = &C(i,j)` is the element; `&*p` is p.
    const auto *inner = dyn_cast<UnaryOperator>(sub->IgnoreParenImpCasts());
    if (inner && ((unary->getOpcode() == UO_Deref &&
                   inner->getOpcode() == UO_AddrOf) ||
                  (unary->getOpcode() == UO_AddrOf &&
                   inner->getOpcode() == UO_Deref)))
      return paren(inner->getSubExpr());
    return UnaryOperator::Create(ctx, sub, unary->getOpcode(),
                                 unary->getType(), unary->getValueKind(),
                                 unary->getObjectKind(),
                                 unary->getOperatorLoc(), unary->canOverflow(),
                                 FPOptionsOverride());
  }
  if (const auto *subscript = dyn_cast<ArraySubscriptExpr>(e)) {
    Expr *lhs = rebuild(subscript->getLHS(), f, out);
    Expr *rhs = lhs ? rebuild(subscript->getRHS(), f, out) : nullptr;
    return rhs ? new (ctx) ArraySubscriptExpr(
                     lhs, rhs, subscript->getType(), subscript->getValueKind(),
                     subscript->getObjectKind(), subscript->getRBracketLoc())
               : nullptr;
  }
  if (const auto *cond = dyn_cast<ConditionalOperator>(e)) {
    Expr *c = rebuild(cond->getCond(), f, out);
    Expr *t = c ? rebuild(cond->getTrueExpr(), f, out) : nullptr;
    Expr *x = t ? rebuild(cond->getFalseExpr(), f, out) : nullptr;
    return x ? new (ctx) ConditionalOperator(
                   c, cond->getQuestionLoc(), t, cond->getColonLoc(), x,
                   cond->getType(), cond->getValueKind(),
                   cond->getObjectKind())
             : nullptr;
  }
  if (const auto *member = dyn_cast<MemberExpr>(e))
    return rebuildMember(member, f, out);
  if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
    const auto *var = dyn_cast<VarDecl>(ref->getDecl());
    for (const Frame *g = f; g; g = g->lambda ? g->outer : nullptr) {
      if (VarDecl *copy = g->fresh.lookup(var))
        return DeclRefExpr::Create(ctx, NestedNameSpecifierLoc(),
                                   SourceLocation(), copy, false,
                                   ref->getLocation(), ref->getType(),
                                   ref->getValueKind());
      if (Expr *lvalue = g->lvalues.lookup(var))
        return lvalue;
      // Bound to a reference of std::max or std::min, which reads it.
      if (Expr *value = g->values.lookup(var))
        return value;
    }
    return fail("'" + f->name + "' uses its parameter '" +
                var->getNameAsString() + "' other than by its value");
  }
  if (isa<CXXThisExpr>(e)) {
    const Frame *owner = thisFrame(f);
    if (owner->objectIsPointer)
      return owner->object;
    return paren(UnaryOperator::Create(
        ctx, owner->object, UO_AddrOf, e->getType(), VK_PRValue, OK_Ordinary,
        e->getBeginLoc(), false, FPOptionsOverride()));
  }
  if (const auto *call = dyn_cast<CallExpr>(e))
    return rebuildCall(call, f, out);
  if (const auto *temp = dyn_cast<MaterializeTemporaryExpr>(e))
    return rebuild(temp->getSubExpr(), f, out);
  if (const auto *cleanups = dyn_cast<ExprWithCleanups>(e))
    return rebuild(cleanups->getSubExpr(), f, out);
  if (const auto *arg = dyn_cast<CXXDefaultArgExpr>(e))
    return rebuild(arg->getExpr(), f, out);
  return fail("'" + (f ? f->name : std::string("the nest")) +
              "' computes with an expression ('" + e->getStmtClassName() +
              "') whose value gemm-opt does not follow");
}

Stmt *Inliner::cloneBody(const Stmt *s, Frame *f) {
  std::vector<Stmt *> inner;
  if (!cloneInto(s, f, inner))
    return nullptr;
  if (inner.size() == 1)
    return inner.front();
  return CompoundStmt::Create(ctx, inner, FPOptionsOverride(), s->getBeginLoc(),
                              s->getEndLoc());
}

bool Inliner::checkWrites(const Stmt *s, const Frame *f) {
  if (!s)
    return true;
  if (const auto *binary = dyn_cast<BinaryOperator>(s);
      binary && binary->isAssignmentOp() && !checkWrite(binary->getLHS(), f))
    return false;
  if (const auto *unary = dyn_cast<UnaryOperator>(s);
      unary && unary->isIncrementDecrementOp() &&
      !checkWrite(unary->getSubExpr(), f))
    return false;
  return llvm::all_of(s->children(), [&](const Stmt *child) {
    return checkWrites(child, f);
  });
}

bool Inliner::cloneInto(const Stmt *s, Frame *f, std::vector<Stmt *> &out) {
  std::string where = f ? "'" + f->name + "'" : "the nest";
  if (isa<ReturnStmt>(s))
    return failed(where + " returns before the end of its body");
  if (!checkWrites(s, f))
    return false;
  if (const auto *attributed = dyn_cast<AttributedStmt>(s))
    return cloneInto(attributed->getSubStmt(), f, out);
  if (const auto *label = dyn_cast<LabelStmt>(s); label && !isJumpTarget(s))
    return cloneInto(label->getSubStmt(), f, out);
  // A directive in a callee only spreads its loop over threads: the loop
  // computes the same without it.
  if (const auto *omp = dyn_cast<OMPExecutableDirective>(s);
      omp && omp->hasAssociatedStmt())
    return cloneInto(omp->getRawStmt(), f, out);
  if (isa<NullStmt>(s))
    return true;
  if (!touches(s, f)) {
    out.push_back(const_cast<Stmt *>(s));
    return true;
  }
  if (const auto *block = dyn_cast<CompoundStmt>(s)) {
    std::vector<Stmt *> inner;
    for (const Stmt *child : block->body())
      if (!cloneInto(child, f, inner))
        return false;
    out.push_back(CompoundStmt::Create(ctx, inner, FPOptionsOverride(),
                                       block->getLBracLoc(),
                                       block->getRBracLoc()));
    return true;
  }
  if (const auto *decl = dyn_cast<DeclStmt>(s)) {
    for (const Decl *d : decl->decls()) {
      const auto *var = dyn_cast<VarDecl>(d);
      // Types, and statics (one object for every call: shared, and a
      // write to one is rejected as a write to a global).
      if (!var || var->hasGlobalStorage())
        continue;
      Expr *init = nullptr;
      if (var->getInit() && !(init = rebuild(var->getInit(), f, out)))
        return false;
      VarDecl *copy = freshVar(var, var->getType(), f->name);
      if (init)
        copy->setInit(init);
      f->fresh[var] = copy;
      out.push_back(declare(copy));
    }
    return true;
  }
  if (const auto *e = dyn_cast<Expr>(s)) {
    if (const auto *call = dyn_cast<CallExpr>(e->IgnoreImplicit());
        call && !isKept(call) && call->getType()->isVoidType())
      return inlineCall(call, f, out).has_value();
    Expr *rebuilt = rebuild(e, f, out);
    if (rebuilt)
      out.push_back(rebuilt);
    return rebuilt;
  }
  // Loop headers and conditions may not hold calls with statements: they
  // would have to run at each test.
  auto header = [&](const Expr *e) -> Expr * {
    if (!e)
      return nullptr;
    std::vector<Stmt *> hoisted;
    Expr *rebuilt = rebuild(e, f, hoisted);
    if (rebuilt && !hoisted.empty())
      return fail(where + " calls a function with statements of its own in "
                          "a loop header or condition");
    return rebuilt;
  };
  auto headerOk = [&](const Expr *e, Expr *rebuilt) {
    return !e || rebuilt;
  };
  if (const auto *loop = dyn_cast<ForStmt>(s)) {
    std::vector<Stmt *> init;
    if (loop->getInit() && (!cloneInto(loop->getInit(), f, init) ||
                            init.size() > 1))
      return failed(where + " calls a function with statements of its own "
                            "in a loop header or condition");
    Expr *cond = header(loop->getCond());
    Expr *inc = header(loop->getInc());
    if (!headerOk(loop->getCond(), cond) || !headerOk(loop->getInc(), inc) ||
        loop->getConditionVariable())
      return failed(where + " declares a variable in a loop condition");
    Stmt *body = cloneBody(loop->getBody(), f);
    if (!body)
      return false;
    out.push_back(new (ctx) ForStmt(ctx, init.empty() ? nullptr : init[0], cond,
                                    nullptr, inc, body, loop->getForLoc(),
                                    loop->getLParenLoc(), loop->getRParenLoc()));
    return true;
  }
  if (const auto *loop = dyn_cast<WhileStmt>(s)) {
    Expr *cond = header(loop->getCond());
    Stmt *body = cond && !loop->getConditionVariable()
                     ? cloneBody(loop->getBody(), f)
                     : nullptr;
    if (!body)
      return failed(where + " declares a variable in a loop condition");
    out.push_back(WhileStmt::Create(ctx, nullptr, cond, body,
                                    loop->getWhileLoc(), loop->getLParenLoc(),
                                    loop->getRParenLoc()));
    return true;
  }
  if (const auto *loop = dyn_cast<DoStmt>(s)) {
    Expr *cond = header(loop->getCond());
    Stmt *body = cond ? cloneBody(loop->getBody(), f) : nullptr;
    if (!body)
      return false;
    out.push_back(new (ctx) DoStmt(body, cond, loop->getDoLoc(),
                                   loop->getWhileLoc(), loop->getRParenLoc()));
    return true;
  }
  if (const auto *branch = dyn_cast<IfStmt>(s)) {
    if (branch->getInit() || branch->getConditionVariable() ||
        branch->isConsteval())
      return failed(where + " declares a variable in a condition");
    Expr *cond = header(branch->getCond());
    Stmt *then = cond ? cloneBody(branch->getThen(), f) : nullptr;
    Stmt *otherwise = nullptr;
    if (!then || (branch->getElse() &&
                  !(otherwise = cloneBody(branch->getElse(), f))))
      return false;
    out.push_back(IfStmt::Create(ctx, branch->getIfLoc(),
                                 IfStatementKind::Ordinary, nullptr, nullptr,
                                 cond, branch->getLParenLoc(),
                                 branch->getRParenLoc(), then,
                                 branch->getElseLoc(), otherwise));
    return true;
  }
  // A case that a versioned nest fixes, or that a constant picks
  // (Unswitch.cpp).
  if (const auto *choice = dyn_cast<SwitchStmt>(s)) {
    Expr *read = header(choice->getCond());
    if (!read)
      return false;
    std::optional<std::vector<const Stmt *>> run =
        scope ? assumedCase(choice, read, *scope) : std::nullopt;
    if (!run)
      return failed(unversionedSwitch(choice, where, print(read), ctx));
    for (const Stmt *statement : *run)
      if (!cloneInto(statement, f, out))
        return false;
    return true;
  }
  return failed(where + " holds a statement ('" + s->getStmtClassName() +
                "') whose effects gemm-opt does not model");
}

bool Inliner::bindArguments(const CallExpr *call, const FunctionDecl *def,
                            unsigned first, const Frame *caller, Frame &frame,
                            std::vector<Stmt *> &out) {
  const Stmt *body = def->getBody();
  for (unsigned i = 0; i < def->getNumParams(); ++i) {
    const ParmVarDecl *param = def->getParamDecl(i);
    if (first + i >= call->getNumArgs())
      return failed("'" + frame.name + "' is called with fewer arguments "
                    "than it has parameters");
    const Expr *arg = call->getArg(first + i);
    if (const auto *dflt = dyn_cast<CXXDefaultArgExpr>(arg))
      arg = dflt->getExpr();
    Expr *value = rebuild(arg, caller, out);
    if (!value)
      return false;
    std::string which = "'" + frame.name + "' takes '" +
                        param->getNameAsString() + "'";
    if (value->HasSideEffects(ctx, /*IncludePossibleEffects=*/false))
      return failed(which + " as '" + print(arg) +
                    "', which has effects of its own");
    QualType type = param->getType();
    // An integer parameter that does not hold every value of its
    // argument wraps where the substituted expression would not.
    QualType from = arg->IgnoreImpCasts()->getType();
    if (type->isIntegerType() && from->isIntegerType() &&
        (ctx.getTypeSize(type) < ctx.getTypeSize(from) ||
         (ctx.getTypeSize(type) == ctx.getTypeSize(from) &&
          type->isSignedIntegerType() != from->isSignedIntegerType())))
      return failed(which + " as '" + type.getAsString() +
                    "', which does not hold every value of its argument ('" +
                    from.getAsString() + "')");
    if (type->isReferenceType()) {
      frame.lvalues[param] = paren(value);
    } else if (type->isRecordType()) {
      // An object passed by value: a trivial copy reads as the original.
      const auto *copy = dyn_cast<CXXConstructExpr>(value->IgnoreImplicit());
      const CXXRecordDecl *record = type->getAsCXXRecordDecl();
      if (!copy || copy->getNumArgs() != 1 || !record ||
          !record->hasTrivialCopyConstructor() || changes(body, param))
        return failed(which + " by value as an object that it copies or "
                              "changes");
      frame.lvalues[param] =
          paren(const_cast<Expr *>(copy->getArg(0)->IgnoreImplicit()));
    } else if (usedAsObject(body, param)) {
      VarDecl *copy = freshVar(param, type.getUnqualifiedType(), frame.name);
      copy->setInit(value);
      frame.fresh[param] = copy;
      out.push_back(declare(copy));
    } else {
      frame.values[param] = paren(value);
    }
  }
  return true;
}

std::optional<Expr *> Inliner::inlineCall(const CallExpr *call,
                                          const Frame *caller,
                                          std::vector<Stmt *> &out) {
  std::string name = calleeName(call);
  const FunctionDecl *callee = call->getDirectCallee();
  if (!callee)
    return fail("'" + name + "' is called through a function pointer, whose "
                "target is not known at compile time"), std::nullopt;
  const auto *method = dyn_cast<CXXMethodDecl>(callee);
  const auto *memberCall = dyn_cast<CXXMemberCallExpr>(call);
  if (method && method->isVirtual()) {
    const auto *member =
        memberCall ? dyn_cast<MemberExpr>(memberCall->getCallee()->IgnoreParens())
                   : nullptr;
    if (!(member && member->hasQualifier()) &&
        !(memberCall && method->getDevirtualizedMethod(
                            memberCall->getImplicitObjectArgument(), false)))
      return fail("'" + name + "' is virtual: the function called depends "
                  "on the object's dynamic type"), std::nullopt;
  }
  const FunctionDecl *def = callee->getDefinition();
  if (!def || !def->getBody())
    return fail("'" + name + "' has no body in this translation unit, so "
                "its effects are unknown"), std::nullopt;
  if (llvm::is_contained(stack, def))
    return fail("'" + name + "' is recursive"), std::nullopt;
  if (def->isVariadic())
    return fail("'" + name + "' takes a variable number of arguments"),
           std::nullopt;
  const auto *body = dyn_cast<CompoundStmt>(def->getBody());
  if (!body)
    return fail("'" + name + "' has a function-try-block"), std::nullopt;

  Frame frame;
  frame.callee = def;
  frame.name = name;
  unsigned first = 0;
  if (method && !method->isStatic()) {
    const Expr *object = nullptr;
    if (memberCall) {
      object = memberCall->getImplicitObjectArgument();
      frame.objectIsPointer =
          cast<MemberExpr>(memberCall->getCallee()->IgnoreParens())->isArrow();
    } else if (isa<CXXOperatorCallExpr>(call)) {
      object = call->getArg(0);
      first = 1;
    }
    if (method->getParent()->isLambda()) {
      if (std::optional<std::string> why =
              captureObstacle(method->getParent(), name))
        return fail(*why), std::nullopt;
      frame.lambda = true;
      frame.outer = caller;
    } else if (!object || isa<MaterializeTemporaryExpr>(object) ||
               !(frame.object = rebuild(object, caller, out))) {
      return fail("'" + name + "' is called on a temporary object"),
             std::nullopt;
    } else if (frame.object->HasSideEffects(ctx, false)) {
      return fail("'" + name + "' is called on an object whose expression "
                  "has effects of its own"), std::nullopt;
    } else {
      frame.object = paren(frame.object);
    }
  } else if (isa<CXXOperatorCallExpr>(call) && method) {
    first = 1; // A static operator(): the object is not read.
  }
  if (!bindArguments(call, def, first, caller, frame, out))
    return std::nullopt;

  // The callee's own names for globals print as they are in the nest.
  std::function<void(const Stmt *)> globals = [&](const Stmt *s) {
    if (const auto *ref = dyn_cast_or_null<DeclRefExpr>(s))
      if (const auto *var = dyn_cast<VarDecl>(ref->getDecl());
          var && var->getDeclContext() != def)
        taken.insert(var->getNameAsString());
    if (s)
      for (const Stmt *child : s->children())
        globals(child);
  };
  globals(body);
  stack.push_back(def);
  const ReturnStmt *ret = nullptr;
  std::vector<const Stmt *> statements = topStatements(body, frame);
  if (!statements.empty() && (ret = dyn_cast<ReturnStmt>(statements.back())))
    statements.pop_back();
  for (const Stmt *s : statements)
    if (!cloneInto(s, &frame, out))
      return stack.pop_back(), std::nullopt;
  Expr *value = nullptr;
  if (ret && ret->getRetValue() &&
      (!checkWrites(ret->getRetValue(), &frame) ||
       !(value = rebuild(ret->getRetValue(), &frame, out))))
    return stack.pop_back(), std::nullopt;
  stack.pop_back();
  return value ? paren(value) : nullptr;
}

/// The original initialiser of a nest's local whose initialiser was
/// rebuilt with its calls inlined, so that a second walk of the nest (an
/// inner nest tried after the outer one failed) inlines them again.
struct Replaced {
  const Expr *original, *rebuilt;
};
llvm::DenseMap<const VarDecl *, Replaced> &replacedInits() {
  static llvm::DenseMap<const VarDecl *, Replaced> map;
  return map;
}
/// The declarations that stand for a nest's own after its initialisers'
/// calls were inlined: walked as they are.
llvm::DenseSet<const Stmt *> &redeclared() {
  static llvm::DenseSet<const Stmt *> set;
  return set;
}

} // namespace

bool mlir::gemm::inlineCalls(NestScope &scope, const Stmt *s,
                             std::vector<const Stmt *> &out) {
  Inliner inliner(scope.ctx, &scope);
  std::vector<Stmt *> statements;
  bool ok = true;
  if (const auto *decl = dyn_cast<DeclStmt>(s); decl && !redeclared().contains(s)) {
    // The nest's own local keeps its declaration; its initialiser is
    // rebuilt in place, after the statements of the calls it makes.
    for (const Decl *d : decl->decls()) {
      auto *var = const_cast<VarDecl *>(dyn_cast<VarDecl>(d));
      if (!var || !var->getInit())
        continue;
      auto it = replacedInits().find(var);
      const Expr *init = it != replacedInits().end() &&
                                 it->second.rebuilt == var->getInit()
                             ? it->second.original
                             : var->getInit();
      if (!inliner.touches(init, nullptr))
        continue;
      Expr *rebuilt = inliner.rebuild(init, nullptr, statements);
      if (!(ok = rebuilt))
        break;
      var->setInit(rebuilt);
      replacedInits()[var] = {init, rebuilt};
    }
    if (ok && !statements.empty()) {
      auto *same = new (scope.ctx) DeclStmt(
          const_cast<DeclStmt *>(decl)->getDeclGroup(), decl->getBeginLoc(),
          decl->getEndLoc());
      redeclared().insert(same);
      statements.push_back(same);
    }
  } else if (const auto *e = dyn_cast<Expr>(s);
             e && inliner.touches(e, nullptr)) {
    ok = inliner.cloneInto(e, nullptr, statements);
    // A void call of an empty body stands for nothing.
    if (ok && statements.empty())
      statements.push_back(new (scope.ctx) NullStmt(s->getBeginLoc()));
  }
  if (!ok)
    return scope.reject(inliner.failure), false;
  out.assign(statements.begin(), statements.end());
  return true;
}

void mlir::gemm::forgetInlinedCalls() {
  replacedInits().clear();
  redeclared().clear();
}

const Expr *mlir::gemm::inlinedValue(ASTContext &ctx, const CallExpr *call) {
  Inliner inliner(ctx, nullptr);
  if (inliner.isKept(call))
    return nullptr;
  std::vector<Stmt *> statements;
  std::optional<Expr *> value = inliner.inlineCall(call, nullptr, statements);
  return value && *value && statements.empty() ? *value : nullptr;
}
