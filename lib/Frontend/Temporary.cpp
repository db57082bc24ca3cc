//===- Temporary.cpp - A product that goes through a temporary ------------===//
//
// The nest N runs, in each iteration of the loops around its K loop, the K
// loop (s += A * B over k) and statements R beside it. Where those loops
// are a box that R can neither stop nor skip (no branch around the K loop,
// no early exit), and R stores to no memory of A or B, every product that
// the K loop sums reads A and B as they were before N. Computing them all
// first, into T, and then running N with `s += T[...]` in place of the K
// loop computes what N does, up to the order of the sum. The walk reads
// only the K loop and the loops and blocks around it (LoopNest.cpp), so the
// recognition proves the box and the product; R's effects are read here.
//
//===----------------------------------------------------------------------===//

#include "Temporary.h"
#include "SplitOff.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

/// The one statement of a loop's body, through braces, or null.
const Stmt *soleStatement(const Stmt *loop) {
  const Stmt *body = loopBody(loop);
  while (const auto *block = dyn_cast<CompoundStmt>(body)) {
    if (block->size() != 1)
      return nullptr;
    body = block->body_front();
  }
  return body;
}

/// The assignment that a K loop's body is, or null.
const BinaryOperator *accumulationOf(const Stmt *loop) {
  const auto *op = dyn_cast_or_null<BinaryOperator>(soleStatement(loop));
  return op && op->isAssignmentOp() ? op : nullptr;
}

void collectCandidates(const Stmt *s, bool inLoop,
                       std::vector<const Stmt *> &out) {
  s = unwrapLoopWrappers(s);
  if (isLoop(s) && inLoop && accumulationOf(s)) {
    out.push_back(s);
    return;
  }
  for (const Stmt *child : s->children())
    if (child)
      collectCandidates(child, inLoop || isLoop(s), out);
}

/// Whether `type` is a container whose elements it holds itself (not a
/// view, as std::span is).
bool ownsElements(QualType type) {
  const CXXRecordDecl *record = type->getAsCXXRecordDecl();
  return isStdContainer(type) && record && record->getName() != "span";
}

/// The variable whose own storage holds what `e` names: a local array or
/// container of the function, or an element or member of one; null for
/// memory reached through a pointer or a reference, and for globals.
const VarDecl *ownerOf(const Expr *e) {
  e = e->IgnoreParenImpCasts();
  if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
    const auto *var = dyn_cast<VarDecl>(ref->getDecl());
    bool own = var && var->hasLocalStorage() &&
               !var->getType()->isReferenceType() &&
               !var->getType()->isPointerType();
    return own ? var : nullptr;
  }
  if (const auto *element = dyn_cast<ArraySubscriptExpr>(e)) {
    const Expr *base = element->getBase()->IgnoreParenImpCasts();
    return base->getType()->isArrayType() ? ownerOf(base) : nullptr;
  }
  if (const auto *call = dyn_cast<CXXOperatorCallExpr>(e);
      call && call->getOperator() == OO_Subscript)
    return ownsElements(call->getArg(0)->getType()) ? ownerOf(call->getArg(0))
                                                    : nullptr;
  if (const auto *member = dyn_cast<MemberExpr>(e);
      member && !member->isArrow())
    return ownerOf(member->getBase());
  return nullptr;
}

/// Whether `method` appends to a container (`push_back`, `emplace_back`).
bool isAppend(const CXXMethodDecl *method) {
  return method && method->getIdentifier() &&
         (method->getName() == "push_back" ||
          method->getName() == "emplace_back");
}

/// The one parent of `e` if it is a T, else null.
template <class T> const T *parentAs(ASTContext &ctx, const Expr &e) {
  DynTypedNodeList parents = ctx.getParents(e);
  return parents.size() == 1 ? parents[0].get<T>() : nullptr;
}

/// Whether the use `e` of an object (a variable, or an element of one)
/// only reads or writes it in place: an element read or assigned, a
/// container's accessor or append, a copy; not an address taken, a
/// reference bound or an array decaying to a pointer, which would let
/// another name (A or B) reach its storage.
bool usedInPlace(ASTContext &ctx, const Expr *e) {
  if (const auto *cast = parentAs<ImplicitCastExpr>(ctx, *e)) {
    if (cast->getCastKind() == CK_LValueToRValue)
      return true;
    if (cast->getCastKind() == CK_NoOp)
      return usedInPlace(ctx, cast);
    const auto *element = cast->getCastKind() == CK_ArrayToPointerDecay
                              ? parentAs<ArraySubscriptExpr>(ctx, *cast)
                              : nullptr;
    return element && element->getBase() == cast && usedInPlace(ctx, element);
  }
  if (const auto *paren = parentAs<ParenExpr>(ctx, *e))
    return usedInPlace(ctx, paren);
  if (const auto *op = parentAs<BinaryOperator>(ctx, *e))
    return op->isAssignmentOp() && op->getLHS() == e;
  if (const auto *op = parentAs<UnaryOperator>(ctx, *e))
    return op->isIncrementDecrementOp();
  if (const auto *call = parentAs<CXXOperatorCallExpr>(ctx, *e))
    return call->getOperator() == OO_Subscript && call->getArg(0) == e &&
           usedInPlace(ctx, call);
  if (const auto *member = parentAs<MemberExpr>(ctx, *e)) {
    const auto *call = parentAs<CXXMemberCallExpr>(ctx, *member);
    const auto *method = call ? call->getMethodDecl() : nullptr;
    return method && method->getIdentifier() &&
           (method->getName() == "size" || method->getName() == "empty" ||
            isAppend(method));
  }
  // Appended to a container, or copied into one, or returned (a copy).
  if (const auto *call = parentAs<CXXMemberCallExpr>(ctx, *e))
    return isAppend(call->getMethodDecl()) &&
           llvm::is_contained(call->arguments(), e);
  if (const auto *copy = parentAs<CXXConstructExpr>(ctx, *e))
    return ownsElements(copy->getType());
  return parentAs<ReturnStmt>(ctx, *e);
}

/// Whether `var`, a local array or container, is named in its function
/// only in place (usedInPlace), so that no pointer can reach it.
bool ownedAlone(ASTContext &ctx, const VarDecl *var) {
  struct Uses : RecursiveASTVisitor<Uses> {
    ASTContext &ctx;
    const VarDecl *var;
    bool inPlace = true;
    bool VisitDeclRefExpr(DeclRefExpr *ref) {
      inPlace &= ref->getDecl() != var || usedInPlace(ctx, ref);
      return inPlace;
    }
  } uses{{}, ctx, var};
  const auto *function =
      dyn_cast_or_null<FunctionDecl>(var->getParentFunctionOrMethod());
  return function && function->getBody() &&
         (uses.TraverseStmt(function->getBody()), uses.inPlace);
}

/// Reads the effects of the statements beside the K loop (effectsBeside).
class Effects {
public:
  Effects(NestScope &scope, std::vector<const Expr *> &stores)
      : scope(scope), stores(stores) {}

  /// `s`, inside a loop beside the K loop's (whose `break` and `continue`
  /// end only that loop) where `beside`.
  bool read(const Stmt *s, bool beside) {
    s = unwrapLoopWrappers(s);
    if (s == scope.temporary)
      return target(accumulationOf(s)->getLHS());
    if (isa<BreakStmt, ContinueStmt>(s) && !beside)
      return scope.reject(std::string("'") +
                          (isa<BreakStmt>(s) ? "break" : "continue") +
                          "' in the loops around the K loop may skip or "
                          "end their iterations"),
             false;
    if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, LabelStmt, SwitchStmt,
            CXXThrowExpr, CXXTryStmt, AsmStmt, LambdaExpr>(s))
      return scope.reject(std::string("the nest holds a statement ('") +
                          s->getStmtClassName() +
                          "') that may end its loops or whose effects "
                          "gemm-opt does not model"),
             false;
    if (const auto *op = dyn_cast<BinaryOperator>(s);
        op && op->isAssignmentOp() && !target(op->getLHS()))
      return false;
    if (const auto *op = dyn_cast<UnaryOperator>(s);
        op && op->isIncrementDecrementOp() && !target(op->getSubExpr()))
      return false;
    if (const auto *call = dyn_cast<CallExpr>(s); call && !known(call))
      return false;
    if (const auto *make = dyn_cast<CXXConstructExpr>(s);
        make && !make->getConstructor()->isTrivial() &&
        !ownsElements(make->getType()))
      return scope.reject("the nest constructs a '" +
                          make->getType().getAsString() +
                          "', whose effects gemm-opt does not model"),
             false;
    bool loop = isLoop(s) && !holds(s, scope.temporary);
    return llvm::all_of(s->children(), [&](const Stmt *child) {
      return !child || read(child, beside || loop);
    });
  }

private:
  NestScope &scope;
  std::vector<const Expr *> &stores;

  /// What an assignment or a step writes: a local scalar, or memory.
  bool target(const Expr *lhs) {
    lhs = lhs->IgnoreParenImpCasts();
    if (const auto *ref = dyn_cast<DeclRefExpr>(lhs)) {
      const auto *var = dyn_cast<VarDecl>(ref->getDecl());
      if (!var || !var->hasLocalStorage() || var->getType()->isReferenceType())
        return scope.reject("the nest assigns '" + scope.print(lhs) +
                            "', no local of the function, which may be "
                            "memory of A or B"),
               false;
      scope.written.insert(var);
      return true;
    }
    stores.push_back(lhs);
    return true;
  }

  /// A call whose effects are known: pure math, and standard containers'
  /// accessors, and appends to a container of the function.
  bool known(const CallExpr *call) {
    if (asMinMaxCall(call) || asMathCall(call))
      return true;
    const auto *method = dyn_cast_or_null<CXXMethodDecl>(call->getCalleeDecl());
    const Expr *object =
        isa<CXXOperatorCallExpr>(call) && call->getNumArgs() > 0
            ? call->getArg(0)
        : isa<CXXMemberCallExpr>(call)
            ? cast<CXXMemberCallExpr>(call)->getImplicitObjectArgument()
            : nullptr;
    if (method && object && isStdContainer(object->getType())) {
      StringRef name = method->getOverloadedOperator() == OO_Subscript
                           ? "operator[]"
                       : method->getIdentifier() ? method->getName()
                                                 : "";
      if (llvm::is_contained(
              {"operator[]", "size", "data", "empty", "front", "back"}, name))
        return true;
      const VarDecl *owner = ownerOf(object);
      if (owner && isAppend(method) && ownedAlone(scope.ctx, owner)) {
        scope.written.insert(owner);
        return true;
      }
    }
    const auto *callee = call->getDirectCallee();
    return scope.reject("the nest calls " +
                        (callee ? "'" + callee->getNameAsString() + "'"
                                : std::string("through a pointer")) +
                        " beside the product; gemm-opt does not know what "
                        "it writes"),
           false;
  }
};

/// Whether `text` names `name` as an identifier.
bool names(StringRef text, StringRef name) {
  auto identifier = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  for (size_t at = text.find(name); at != StringRef::npos;
       at = text.find(name, at + 1))
    if ((at == 0 || !identifier(text[at - 1])) &&
        (at + name.size() == text.size() ||
         !identifier(text[at + name.size()])))
      return true;
  return false;
}

/// Whether `access` (A or B) may read `var`'s storage: it names the
/// variable, as written or through the locals it was read through.
bool readsVar(const Access &access, const VarDecl *var) {
  return mentions(access.expr, var) || names(access.basePtr, var->getName()) ||
         names(access.root, var->getName());
}

/// The source text of `range` (tokens), or nullopt in a macro.
std::optional<std::string> written(NestScope &scope, SourceRange range) {
  if (range.getBegin().isMacroID() || range.getEnd().isMacroID())
    return std::nullopt;
  return Lexer::getSourceText(CharSourceRange::getTokenRange(range),
                              scope.ctx.getSourceManager(),
                              scope.ctx.getLangOpts())
      .str();
}

} // namespace

std::vector<const Stmt *> mlir::gemm::temporaryCandidates(const Stmt *outer) {
  std::vector<const Stmt *> out;
  collectCandidates(outer, false, out);
  if (out.size() > 3)
    out.resize(3);
  return out;
}

bool mlir::gemm::effectsBeside(NestScope &scope,
                               std::vector<const Expr *> &stores) {
  return Effects(scope, stores).read(scope.outer, false);
}

std::optional<Access> mlir::gemm::temporaryAccess(NestScope &scope,
                                                  const Contraction &c,
                                                  const Access &x,
                                                  const Access &y) {
  if (scope.writes.size() != 1)
    return scope.reject("the K loop holds more than its multiply-accumulate");
  const Write &mac = scope.writes.front();
  int k = c.macLoops.back();
  // The K loop adds its sum into one scalar or element.
  if (!referencedVar(mac.lhs)) {
    std::optional<Access> target = scope.decomposeAccess(mac.lhs, c.macLoops);
    if (!target || target->movesWith(k))
      return scope.reject("the K loop accumulates into '" +
                          scope.print(mac.lhs) +
                          "', not into one element for all its iterations");
  }
  Access t{mac.lhs, temporaryName.str(), temporaryName.str(),
           AffineForm(scope.loops.size()),
           mac.lhs->getType().getCanonicalType().getUnqualifiedType()};
  SymExpr stride = SymExpr::constant(1);
  for (int d : llvm::reverse(c.macLoops)) {
    const Loop &loop = scope.loops[d];
    if (loop.members.size() != 1)
      return scope.reject("the loop over '" + loop.iv->getNameAsString() +
                          "' around the K loop is tiled or unrolled, and "
                          "a temporary is indexed by plain loops");
    if (d == k || !(x.movesWith(d) || y.movesWith(d)))
      continue;
    t.index.ivCoeffs[d] = stride;
    stride = stride * loop.extent;
  }
  if (scope.sourceLoops[scope.loops[k].anchor].stmt != scope.temporary)
    return scope.reject("the multiply-accumulate is not the K loop's");
  return t;
}

std::optional<std::string>
mlir::gemm::throughTemporary(NestScope &scope, ArrayRef<const Expr *> stores,
                             const Access &x, const Access &y, const Access &t,
                             Nest &nest) {
  // Each store misses A and B: it is an object of the function that they
  // do not read, or its span misses theirs (tested before the launcher).
  nest.sideChecks = {temporaryName.str()};
  for (const Expr *e : stores) {
    if (const VarDecl *owner = ownerOf(e); owner && !readsVar(x, owner) &&
                                           !readsVar(y, owner) &&
                                           ownedAlone(scope.ctx, owner))
      continue;
    std::string what = "the nest stores to '" + scope.print(e) + "'";
    std::vector<int> context;
    for (size_t d = 0; d < scope.loops.size(); ++d)
      if (holds(loopBody(scope.sourceLoops[scope.loops[d].anchor].stmt), e))
        context.push_back(d);
    std::optional<Access> store = scope.decomposeAccess(e, context);
    if (!store || store->rowIndex)
      return scope.reject(what + ", whose span gemm-opt cannot tell apart "
                                 "from A's and B's");
    for (const Access *input : {&x, &y}) {
      if (store->root == input->root)
        return scope.reject(what + ", an element of '" + input->root +
                            "', which the product reads");
      if (input->rowIndex)
        return scope.reject(what + ", and '" + input->root +
                            "' is a table of rows, whose rows' spans are "
                            "not checked against it");
      std::string check =
          disjoint(spanOf(scope, *store), spanOf(scope, *input));
      if (!llvm::is_contained(nest.sideChecks, check))
        nest.sideChecks.push_back(check);
    }
  }
  // The nest as written, its K loop one statement that adds T's element,
  // on as many lines.
  std::optional<NestText> text = nestText(scope, "the rest of the nest");
  const Stmt *kLoop = scope.temporary;
  const Expr *target = scope.writes.front().lhs;
  std::optional<std::string> loopText =
      written(scope, {kLoop->getBeginLoc(), endOfStmt(kLoop)});
  std::optional<std::string> targetText =
      written(scope, target->getSourceRange());
  if (!text || !loopText || !targetText)
    return scope.reject("the K loop is written in a macro, so no copy of "
                        "the nest can read the temporary in its place");
  std::vector<std::string> index, sizes;
  for (size_t d = 0; d < scope.loops.size(); ++d) {
    const SymExpr &stride = t.index.ivCoeffs[d];
    if (stride.isZero())
      continue;
    const Loop &loop = scope.loops[d];
    std::string at = scope.sourceLoops[loop.anchor].iv->getNameAsString();
    if (!loop.first.isZero())
      at = "(" + at + " - " + parenthesize(loop.first.str()) + ")";
    if (loop.step.getConstant() != 1)
      at = "(" + at + ") / " + parenthesize(loop.step.str());
    index.push_back(stride.getConstant() == 1
                        ? at
                        : at + " * " + parenthesize(stride.str()));
    sizes.push_back(parenthesize(loop.extent.str()));
  }
  SourceManager &sm = scope.ctx.getSourceManager();
  unsigned from = sm.getFileOffset(kLoop->getBeginLoc());
  std::string reads = *targetText + " += " + temporaryName.str() + "[" +
                      llvm::join(index, " + ") + "];" +
                      std::string(StringRef(*loopText).count('\n'), '\n');
  nest.sideText = text->with({{from, from + unsigned(loopText->size())}},
                             [&](size_t) { return reads; });
  nest.sideLine = text->line;
  nest.temporaryType = nest.isDouble ? "double" : "float";
  for (const std::string &size : sizes)
    nest.temporarySize += (nest.temporarySize.empty() ? "" : " * ") +
                          std::string("(size_t)") + size;
  return "the product goes through a temporary of " + llvm::join(sizes, " x ") +
         " elements, and the rest of the nest runs as written (the K loop "
         "at line " +
         std::to_string(sm.getExpansionLineNumber(kLoop->getBeginLoc())) +
         " reads it" +
         (nest.sideChecks.size() > 1
              ? "; where its stores may meet A or B, the loop runs"
              : "") +
         ")";
}
