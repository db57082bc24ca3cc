//===- Access.cpp - Invariance, linear forms and buffer accesses ----------===//
//
// Turns index expressions into affine forms over the induction variables and
// subscripts into (buffer, linear index) pairs. The buffer is one strided
// allocation (a pointer, an array of any rank or a std::vector) or a table
// of separately allocated rows (row pointers, a vector of vectors), one
// level deep: the access is then a row's index in the table and an index
// within the row.
//
//===----------------------------------------------------------------------===//

#include "ByteOffset.h"
#include "Inline.h"
#include "MacroText.h"
#include "NestScope.h"
#include "PrivateMembers.h"
#include "RealConj.h"
#include "Unswitch.h"
#include "gemm-opt/Frontend/SourceRewriter.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace mlir::gemm;

std::nullopt_t NestScope::reject(const std::string &reason, bool peelable,
                                 const Stmt *at) {
  if (!rejection)
    // A loop's analysis may concern the loops inside it: no one statement.
    rejection = Rejection{reason, peelable,
                          at ? at : walking && !isLoop(walking) ? walking
                                                                : nullptr};
  return std::nullopt;
}

int NestScope::ivIndex(const VarDecl *var) const {
  if (activeLoops) {
    for (auto it = activeLoops->rbegin(); it != activeLoops->rend(); ++it)
      if (sourceLoops[*it].iv == var)
        return *it;
    return -1;
  }
  for (size_t i = 0; i < sourceLoops.size(); ++i)
    if (sourceLoops[i].iv == var)
      return i;
  return -1;
}

std::optional<AffineForm>
NestScope::linearize(const Expr *e, const std::vector<int> &context) {
  const std::vector<int> *outside = activeLoops;
  activeLoops = &context;
  auto restore = llvm::make_scope_exit([&] { activeLoops = outside; });
  return linearize(e);
}

std::optional<AffineForm> NestScope::project(const AffineForm &form,
                                             const Expr *e) {
  AffineForm out(loops.size());
  out.constant = form.constant;
  std::vector<bool> covered(sourceLoops.size(), false);
  for (size_t d = 0; d < loops.size(); ++d) {
    const Loop &dim = loops[d];
    std::optional<SymExpr> weight;
    std::string sum; ///< The weight-1 members, as their sum.
    for (auto [l, w] : dim.members) {
      covered[l] = true;
      const SymExpr &c = form.ivCoeffs[l];
      std::string read = "'" + print(e) + "' reads '" +
                         sourceLoops[l].iv->getNameAsString() + "'";
      if (w == 0 && !c.isZero())
        return reject(read + ", the index of the tiles that '" +
                      dim.iv->getNameAsString() + "' runs within, itself; "
                      "only '" + dim.iv->getNameAsString() +
                      "' runs over the dimension");
      std::string iv = sourceLoops[l].iv->getNameAsString();
      if (w == 1 && weight && !(*weight == c))
        return reject("'" + print(e) + "' reads '" + sum + "' and '" + iv +
                      "' apart; only their sum '" + sum + " + " + iv +
                      "' runs over one dimension");
      if (w == 1) {
        weight = c;
        sum += (sum.empty() ? "" : " + ") + iv;
      }
    }
    if (!weight)
      continue;
    out.ivCoeffs[d] = *weight * dim.step;
    out.constant = out.constant + *weight * dim.first;
  }
  for (size_t l = 0; l < sourceLoops.size(); ++l)
    if (!covered[l] && !form.ivCoeffs[l].isZero())
      return reject("'" + print(e) + "' reads '" +
                    sourceLoops[l].iv->getNameAsString() +
                    "' of a loop whose statements stand for copies");
  return out;
}

const LocalDef *NestScope::findLocal(const VarDecl *var) const {
  for (const LocalDef &local : locals)
    if (local.var == var)
      return &local;
  return nullptr;
}

const Expr *NestScope::fixedPointer(const VarDecl *var) const {
  const Expr *init = var ? var->getInit() : nullptr;
  return init && var->getType()->isPointerType() && findLocal(var) &&
                 !written.contains(var) && !init->HasSideEffects(ctx)
             ? init
             : nullptr;
}

namespace {
/// Prints a bound temporary's read as its value (BoundTemporaries.cpp),
/// and a private member's as a read through its member pointer.
class BoundValuePrinter : public PrinterHelper {
public:
  explicit BoundValuePrinter(const NestScope &scope) : scope(scope) {}
  bool handledStmt(Stmt *s, raw_ostream &os) override {
    if (const auto *member = dyn_cast<MemberExpr>(s)) {
      const auto *field = dyn_cast<FieldDecl>(member->getMemberDecl());
      if (!field || !llvm::is_contained(scope.privateMembers, field))
        return false;
      os << privateMemberRead(scope.ctx, field, scope.print(member->getBase()),
                              member->isArrow());
      return true;
    }
    const auto *ref = dyn_cast<DeclRefExpr>(s);
    const Expr *value = ref ? scope.boundValues.lookup(ref) : nullptr;
    if (value)
      os << parenthesize(scope.print(value));
    return value;
  }

private:
  const NestScope &scope;
};
} // namespace

std::string NestScope::print(const Expr *e) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  BoundValuePrinter bound(*this);
  e->printPretty(os,
                 boundValues.empty() && privateMembers.empty() ? nullptr
                                                               : &bound,
                 PrintingPolicy(ctx.getLangOpts()));
  return text;
}

const Expr *mlir::gemm::stripCasts(const Expr *e) {
  while (true) {
    e = e->IgnoreParens();
    if (const auto *cast = dyn_cast<CastExpr>(e)) {
      CastKind kind = cast->getCastKind();
      if (kind == CK_LValueToRValue || kind == CK_NoOp ||
          kind == CK_IntegralCast || kind == CK_FloatingCast ||
          kind == CK_IntegralToFloating || kind == CK_ArrayToPointerDecay) {
        e = cast->getSubExpr();
        continue;
      }
    }
    if (const auto *cleanups = dyn_cast<ExprWithCleanups>(e)) {
      e = cleanups->getSubExpr();
      continue;
    }
    if (const auto *temp = dyn_cast<MaterializeTemporaryExpr>(e)) {
      e = temp->getSubExpr();
      continue;
    }
    // The real value a complex helper leaves of a real one (RealConj.cpp).
    if (const Expr *real = realPart(e)) {
      e = real;
      continue;
    }
    // The arm of a `?:` that a versioned nest fixes (Unswitch.cpp).
    if (const auto *choice = dyn_cast<ConditionalOperator>(e))
      if (std::optional<bool> value = assumedValue(choice->getCond())) {
        e = *value ? choice->getTrueExpr() : choice->getFalseExpr();
        continue;
      }
    return e;
  }
}

/// The name of a standard container of `type` (its std:: class), or "".
static StringRef stdClass(QualType type) {
  const CXXRecordDecl *record = type.getNonReferenceType()->getAsCXXRecordDecl();
  return record && record->isInStdNamespace() && record->getIdentifier()
             ? record->getName()
             : "";
}

static bool isStdVector(QualType type) { return stdClass(type) == "vector"; }

bool mlir::gemm::isStdContainer(QualType type) {
  return llvm::is_contained({"vector", "array", "valarray", "span"},
                             stdClass(type));
}

/// The buffer of `container`, printed: its data(), or for a valarray,
/// which has none, std::begin (null where it is empty).
static std::string bufferOf(const Expr *container, const std::string &text) {
  return stdClass(container->getType()) == "valarray"
             ? "std::begin(" + text + ")"
             : parenthesize(text) + ".data()";
}

static const CXXOperatorCallExpr *asVectorSubscript(const Expr *e) {
  const auto *call = dyn_cast<CXXOperatorCallExpr>(e);
  if (call && call->getOperator() == OO_Subscript && call->getNumArgs() == 2 &&
      isStdContainer(call->getArg(0)->getType()))
    return call;
  return nullptr;
}

static const UnaryOperator *asOffsetDeref(const Expr *e);

bool mlir::gemm::isMemoryAccess(const Expr *e) {
  e = stripCasts(e);
  return isa<ArraySubscriptExpr>(e) || asVectorSubscript(e) ||
         asOffsetDeref(e);
}

const VarDecl *mlir::gemm::findVar(
    const Expr *e, llvm::function_ref<bool(const VarDecl *)> wanted) {
  if (const auto *ref = dyn_cast<DeclRefExpr>(e))
    if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()); var && wanted(var))
      return var;
  for (const Stmt *child : e->children())
    if (const auto *sub = dyn_cast_or_null<Expr>(child))
      if (const VarDecl *var = findVar(sub, wanted))
        return var;
  return nullptr;
}

const VarDecl *NestScope::findVaryingVar(const Expr *e) const {
  return findVar(e, [&](const VarDecl *var) {
    return written.contains(var) || findLocal(var);
  });
}

bool mlir::gemm::mentions(const Stmt *e, const VarDecl *var) {
  if (const auto *ref = dyn_cast<DeclRefExpr>(e); ref && ref->getDecl() == var)
    return true;
  return llvm::any_of(e->children(), [&](const Stmt *child) {
    return child && mentions(child, var);
  });
}

bool mlir::gemm::namedByDirective(const Stmt *s, const VarDecl *var) {
  if (!s)
    return false;
  if (isa<OMPExecutableDirective>(s))
    return mentions(s, var);
  return llvm::any_of(s->children(), [&](const Stmt *child) {
    return namedByDirective(child, var);
  });
}

bool mlir::gemm::assigns(const Stmt *s, const VarDecl *var) {
  if (!s)
    return false;
  if (const auto *op = dyn_cast<BinaryOperator>(s);
      op && op->isAssignmentOp() && referencedVar(op->getLHS()) == var)
    return true;
  if (const auto *op = dyn_cast<UnaryOperator>(s);
      op && (op->isIncrementDecrementOp() || op->getOpcode() == UO_AddrOf) &&
      referencedVar(op->getSubExpr()) == var)
    return true;
  return llvm::any_of(s->children(),
                      [&](const Stmt *child) { return assigns(child, var); });
}

const Expr *mlir::gemm::indexed(const Expr *e) {
  if (const auto *access = dyn_cast<ArraySubscriptExpr>(e))
    return access->getBase();
  if (const auto *call = dyn_cast<CXXOperatorCallExpr>(e);
      call && call->getOperator() == OO_Subscript &&
      isStdContainer(call->getArg(0)->getType()))
    return call->getArg(0);
  return nullptr;
}

const VarDecl *mlir::gemm::rootOf(const Expr *e) {
  e = e->IgnoreParenImpCasts();
  if (const auto *member = dyn_cast<MemberExpr>(e))
    return rootOf(member->getBase());
  if (const Expr *base = indexed(e))
    return rootOf(base);
  if (const auto *op = dyn_cast<UnaryOperator>(e);
      op && (op->getOpcode() == UO_Deref || op->getOpcode() == UO_AddrOf))
    return rootOf(op->getSubExpr());
  if (const auto *op = dyn_cast<BinaryOperator>(e); op && op->isAdditiveOp())
    return rootOf(op->getLHS()->getType()->isPointerType() ? op->getLHS()
                                                           : op->getRHS());
  return referencedVar(e);
}

bool mlir::gemm::writesMemory(const Stmt *s, const VarDecl *root) {
  if (!s)
    return false;
  auto target = [&](const Expr *lhs) {
    // A variable, unless a reference, which may name an element.
    if (const VarDecl *var = referencedVar(lhs);
        var && !var->getType()->isReferenceType())
      return false;
    const VarDecl *at = rootOf(lhs);
    return !root || !at || at == root;
  };
  if (const auto *op = dyn_cast<BinaryOperator>(s);
      op && op->isAssignmentOp() && target(op->getLHS()))
    return true;
  if (const auto *op = dyn_cast<UnaryOperator>(s);
      op && op->isIncrementDecrementOp() && target(op->getSubExpr()))
    return true;
  if (const auto *call = dyn_cast<CallExpr>(s);
      call && !call->getBuiltinCallee() && !indexed(call))
    return true;
  return llvm::any_of(s->children(), [&](const Stmt *child) {
    return writesMemory(child, root);
  });
}

namespace {
/// Finds where a variable's address escapes: `&var`, a reference bound to
/// it (`float &r = var;`, an argument for a reference parameter).
class AddressTaken : public RecursiveASTVisitor<AddressTaken> {
public:
  explicit AddressTaken(const VarDecl *var) : var(var) {}
  bool VisitUnaryOperator(UnaryOperator *op) {
    found |= op->getOpcode() == UO_AddrOf &&
             referencedVar(op->getSubExpr()) == var;
    return !found;
  }
  bool VisitVarDecl(VarDecl *decl) {
    found |= decl->getType()->isReferenceType() && decl->getInit() &&
             referencedVar(decl->getInit()) == var;
    return !found;
  }
  bool VisitCallExpr(CallExpr *call) {
    const FunctionDecl *callee = call->getDirectCallee();
    // A member operator's object is its first argument; what a variadic
    // call passes past its parameters goes by value.
    unsigned first =
        isa<CXXOperatorCallExpr>(call) && isa_and_nonnull<CXXMethodDecl>(callee);
    for (unsigned n = first; n < call->getNumArgs(); ++n)
      found |= referencedVar(call->getArg(n)) == var &&
               (!callee || (n - first < callee->getNumParams() &&
                            callee->getParamDecl(n - first)
                                ->getType()
                                ->isReferenceType()));
    return !found;
  }
  bool found = false;

private:
  const VarDecl *var;
};

/// An integer object that C's aliasing rule keeps floating-point stores
/// from changing: not a character, which may alias anything.
bool isIntegerObject(QualType type) {
  return type->isIntegerType() && !type->isAnyCharacterType() &&
         !type->isSpecificBuiltinType(BuiltinType::UChar) &&
         !type->isSpecificBuiltinType(BuiltinType::SChar);
}
} // namespace

bool mlir::gemm::reachable(const VarDecl *var, const Stmt *body) {
  const auto *function =
      dyn_cast_or_null<FunctionDecl>(var->getParentFunctionOrMethod());
  // A static local is named by its function alone (f2c declares every
  // local static): only its address can lead elsewhere to it.
  if ((!var->hasLocalStorage() && !var->isStaticLocal()) ||
      var->getType()->isReferenceType() || !function ||
      function->getBody() != body)
    return true;
  AddressTaken finder(var);
  finder.TraverseStmt(const_cast<Stmt *>(body));
  return finder.found;
}

bool mlir::gemm::keptByFloatStores(const Expr *e) {
  e = e->IgnoreParens();
  if (isa<CallExpr, CXXConstructExpr, CXXNewExpr, CXXDeleteExpr, StmtExpr>(e))
    return false;
  if (const auto *op = dyn_cast<UnaryOperator>(e);
      op && op->isIncrementDecrementOp())
    return false;
  if (const auto *op = dyn_cast<BinaryOperator>(e);
      op && op->isAssignmentOp())
    return false;
  if (const auto *read = dyn_cast<ImplicitCastExpr>(e);
      read && read->getCastKind() == CK_LValueToRValue &&
      !isIntegerObject(read->getType()) && !read->getType()->isPointerType())
    return false;
  return llvm::all_of(e->children(), [](const Stmt *child) {
    const auto *sub = dyn_cast_or_null<Expr>(child);
    return !child || (sub && keptByFloatStores(sub));
  });
}

bool mlir::gemm::storesOnlyFloats(const Stmt *s, const Stmt *body) {
  if (!s)
    return true;
  auto kept = [&](const Expr *target) {
    target = target->IgnoreParens();
    if (target->getType()->isRealFloatingType())
      return true;
    const VarDecl *var = referencedVar(target);
    return var && isa<DeclRefExpr>(stripCasts(target)) &&
           !reachable(var, body);
  };
  if (isa<CallExpr, CXXConstructExpr, CXXNewExpr, CXXDeleteExpr, AsmStmt,
          CXXThrowExpr>(s))
    return false;
  if (const auto *op = dyn_cast<BinaryOperator>(s);
      op && op->isAssignmentOp() && !kept(op->getLHS()))
    return false;
  if (const auto *op = dyn_cast<UnaryOperator>(s);
      op && op->isIncrementDecrementOp() && !kept(op->getSubExpr()))
    return false;
  return llvm::all_of(s->children(), [&](const Stmt *child) {
    return storesOnlyFloats(child, body);
  });
}

std::string NestScope::describeVarying(const VarDecl *var) const {
  std::string name = "'" + var->getNameAsString() + "'";
  if (llvm::any_of(sourceLoops,
                   [&](const SourceLoop &loop) { return loop.iv == var; }))
    return ivIndex(var) >= 0 || !activeLoops
               ? "the loop index " + name
               : "the loop index " + name + ", of a loop around another "
                                            "statement";
  if (written.contains(var))
    return name + ", which is assigned inside the nest";
  if (findLocal(var)) {
    const Expr *init = var->getInit();
    if (!init)
      return name + ", which is declared inside the nest without a value";
    if (substitutableInit(var))
      return name + ", declared inside the nest as '" +
             print(init->IgnoreImpCasts()) + "'";
    if (mentions(init, var))
      return name + ", whose initialiser reads it before it has a value";
    QualType from = init->IgnoreImpCasts()->getType();
    if (var->getType()->isIntegerType() && from->isIntegerType())
      return name + ", declared inside the nest as '" +
             var->getType().getAsString() + "', which does not hold every "
             "value of its initialiser '" + print(init->IgnoreImpCasts()) +
             "' ('" + from.getAsString() + "')";
    return name + ", declared inside the nest as '" +
           var->getType().getAsString() + "'";
  }
  return name;
}

bool NestScope::isInvariant(const Expr *e) const {
  e = e->IgnoreParens();
  if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
    if (const Expr *value = boundValues.lookup(ref))
      return isInvariant(value);
    if (isa<EnumConstantDecl>(ref->getDecl()))
      return true;
    const auto *var = dyn_cast<VarDecl>(ref->getDecl());
    return var && !written.contains(var) && !findLocal(var);
  }
  if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr, CharacterLiteral,
          CXXThisExpr, UnaryExprOrTypeTraitExpr>(e))
    return true;
  if (const auto *member = dyn_cast<MemberExpr>(e))
    return isInvariant(member->getBase());
  if (const Expr *real = realPart(e))
    return isInvariant(real);
  if (const auto *cast = dyn_cast<CastExpr>(e))
    return isInvariant(cast->getSubExpr());
  if (const auto *unary = dyn_cast<UnaryOperator>(e)) {
    if (unary->getOpcode() == UO_Deref) {
      if (!isInvariant(unary->getSubExpr()))
        return false;
      if ((integerReadsInvariant && isIntegerObject(unary->getType())) ||
          isStdContainer(unary->getType()))
        return true;
      if (!floatReadsChecked || !unary->getType()->isRealFloatingType())
        return false;
      if (llvm::none_of(scalarReads, [&](const UnaryOperator *read) {
            return print(read) == print(unary);
          }))
        scalarReads.push_back(unary);
      return true;
    }
    return !unary->isIncrementDecrementOp() &&
           isInvariant(unary->getSubExpr());
  }
  // An integer element, `a->shape[0]`, as an integer `*p`; a vector that a
  // pointer points to (`OUT[0]` of `std::vector<...> *OUT`), which only a
  // call could change, and the nest makes none but the vector's accessors.
  if (const auto *element = dyn_cast<ArraySubscriptExpr>(e))
    return ((integerReadsInvariant && isIntegerObject(element->getType())) ||
            isStdContainer(element->getType())) &&
           isInvariant(element->getBase()) && isInvariant(element->getIdx());
  if (const auto *binary = dyn_cast<BinaryOperator>(e))
    return !binary->isAssignmentOp() && !binary->isCompoundAssignmentOp() &&
           isInvariant(binary->getLHS()) && isInvariant(binary->getRHS());
  if (const auto *cond = dyn_cast<ConditionalOperator>(e))
    return isInvariant(cond->getCond()) && isInvariant(cond->getTrueExpr()) &&
           isInvariant(cond->getFalseExpr());
  // A constant of an activation, `sqrtf(2.0f / M_PI)`.
  if (std::optional<MathCall> call = asMathCall(e))
    return isInvariant(call->arg);
  // `A.rows()`: what the callee returns (Inline.cpp).
  if (const auto *call = dyn_cast<CallExpr>(e))
    if (const Expr *value = inlinedValue(ctx, call))
      return isInvariant(value);
  // An integer element of an unchanged container (`dims[0]` of a
  // std::vector<int>), as an integer read through a pointer.
  if (const auto *call = dyn_cast<CXXOperatorCallExpr>(e);
      call && call->getOperator() == OO_Subscript && call->getNumArgs() == 2)
    return integerReadsInvariant && isIntegerObject(call->getType()) &&
           isStdContainer(call->getArg(0)->getType()) &&
           isInvariant(call->getArg(0)) && isInvariant(call->getArg(1));
  // v.size() and v.data() of an unchanged container are invariant.
  if (const auto *call = dyn_cast<CXXMemberCallExpr>(e)) {
    const CXXMethodDecl *method = call->getMethodDecl();
    return method && method->getIdentifier() &&
           (method->getName() == "size" || method->getName() == "data") &&
           isStdContainer(call->getImplicitObjectArgument()->getType()) &&
           isInvariant(call->getImplicitObjectArgument());
  }
  return false;
}

const Expr *NestScope::substitutableInit(const VarDecl *var) const {
  // `float *p = p + 1;` reads p before it has a value.
  if (!var || !findLocal(var) || written.contains(var) || !var->getInit() ||
      mentions(var->getInit(), var))
    return nullptr;
  const Expr *init = var->getInit();
  QualType type = var->getType(), from = init->IgnoreImpCasts()->getType();
  if (type->isPointerType() || holdsEveryValue(ctx, type, from))
    return init;
  return nullptr;
}

/// Whether `s` reads `var` only for its value (no assignment, increment,
/// address or reference): its initialiser is then its value everywhere.
static bool readOnlyForValue(const Stmt *s, const VarDecl *var, bool asValue = false) {
  if (const auto *ref = dyn_cast<DeclRefExpr>(s))
    return ref->getDecl() != var || asValue;
  if (isa<UnaryExprOrTypeTraitExpr>(s))
    return true;
  bool value = false;
  if (const auto *cast = dyn_cast<ImplicitCastExpr>(s))
    value = cast->getCastKind() == CK_LValueToRValue;
  if (isa<ParenExpr>(s))
    value = asValue;
  return llvm::all_of(s->children(), [&](const Stmt *child) {
    return !child || readOnlyForValue(child, var, value);
  });
}

/// Whether `e` reads only variables and constants (no memory, no call).
static bool readsOnlyVariables(const Stmt *e,
                               llvm::SmallVectorImpl<const VarDecl *> &vars) {
  if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
    if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()))
      vars.push_back(var);
    return true;
  }
  if (isa<CallExpr, ArraySubscriptExpr, MemberExpr>(e) ||
      (isa<UnaryOperator>(e) &&
       cast<UnaryOperator>(e)->getOpcode() == UO_Deref))
    return false;
  return llvm::all_of(e->children(), [&](const Stmt *child) {
    return !child || readsOnlyVariables(child, vars);
  });
}

/// Whether `s` holds the declaration of `var`.
static bool declares(const Stmt *s, const VarDecl *var) {
  if (const auto *decl = dyn_cast<DeclStmt>(s))
    for (const Decl *d : decl->decls())
      if (d == var)
        return true;
  return llvm::any_of(s->children(), [&](const Stmt *child) {
    return child && declares(child, var);
  });
}

const Expr *NestScope::fixedInit(const VarDecl *var, bool exact) const {
  const auto *function =
      var ? dyn_cast_or_null<FunctionDecl>(var->getParentFunctionOrMethod())
          : nullptr;
  // A local of an inlined call is declared afresh outside its callee's
  // body, which then says nothing of what changes it (`while (n-- > 0)`).
  if (!function || !function->getBody() || isa<ParmVarDecl>(var) ||
      !var->getType()->isIntegerType() || !var->hasLocalStorage() ||
      !var->getInit() || mentions(var->getInit(), var) ||
      !declares(function->getBody(), var) ||
      !readOnlyForValue(function->getBody(), var))
    return nullptr;
  llvm::SmallVector<const VarDecl *, 4> reads;
  if (exact && !(readsOnlyVariables(var->getInit(), reads) &&
                 llvm::all_of(reads, [&](const VarDecl *read) {
                   return read->hasLocalStorage() &&
                          readOnlyForValue(function->getBody(), read);
                 })))
    return nullptr;
  return var->getInit();
}

bool mlir::gemm::holdsEveryValue(const ASTContext &ctx, QualType type,
                                 QualType from) {
  // A narrower integer would wrap where the substituted expression does
  // not.
  return type->isIntegerType() && from->isIntegerType() &&
         ctx.getTypeSize(type) >= ctx.getTypeSize(from) &&
         (type->isSignedIntegerType() == from->isSignedIntegerType() ||
          ctx.getTypeSize(type) > ctx.getTypeSize(from));
}

std::optional<SymExpr> NestScope::symbolic(const Expr *e) {
  std::optional<AffineForm> form = linearize(e);
  if (!form)
    return std::nullopt;
  if (!form->isInvariant())
    return reject("'" + print(e) + "' is not loop-invariant");
  return form->constant;
}

std::optional<int64_t> NestScope::constantNoted(const Expr *e) {
  Expr::EvalResult result;
  if (e->isValueDependent() || !e->EvaluateAsInt(result, ctx))
    return std::nullopt;
  int64_t value = result.Val.getInt().getExtValue();
  if (std::optional<std::string> spelling = spelledValue(stripCasts(e)))
    assumptions.emplace_back(*spelling, value);
  return value;
}

std::optional<std::string> NestScope::spelledValue(const Expr *e) const {
  const SourceManager &sm = ctx.getSourceManager();
  const LangOptions &lang = ctx.getLangOpts();
  SourceLocation begin = e->getBeginLoc(), end = e->getEndLoc();
  if (isa<IntegerLiteral, CharacterLiteral>(e) && inNestText(sm, begin))
    return std::nullopt;
  // Only an integer constant expression can be asserted (C's const
  // variables fold, but are not one). In a macro, only a whole expansion
  // (EXTENT) has a spelling of its own; a part of one (the 9 of IX(r, c,
  // 9)) does not.
  if (!e->isIntegerConstantExpr(ctx))
    return std::nullopt;
  std::optional<CharSourceRange> range =
      wholeSpelling(sm, lang, SourceRange(begin, end));
  if (!range)
    return std::nullopt;
  StringRef text = Lexer::getSourceText(*range, sm, lang);
  if (text.empty())
    return std::nullopt;
  return text.str();
}

bool NestScope::boundsSpelledAsLiterals(const Expr *array) const {
  const DeclaratorDecl *decl = nullptr;
  if (const auto *ref = dyn_cast<DeclRefExpr>(array))
    decl = dyn_cast<DeclaratorDecl>(ref->getDecl());
  else if (const auto *member = dyn_cast<MemberExpr>(array))
    decl = dyn_cast<DeclaratorDecl>(member->getMemberDecl());
  if (!decl || !decl->getTypeSourceInfo())
    return false;
  TypeLoc loc = decl->getTypeSourceInfo()->getTypeLoc();
  while (true) {
    loc = loc.getUnqualifiedLoc();
    if (auto array = loc.getAs<ArrayTypeLoc>()) {
      if (!array.getSizeExpr() || spelledValue(array.getSizeExpr()))
        return false;
      loc = array.getElementLoc();
    } else if (auto paren = loc.getAs<ParenTypeLoc>()) {
      loc = paren.getInnerLoc();
    } else if (auto pointer = loc.getAs<PointerTypeLoc>()) {
      loc = pointer.getPointeeLoc();
    } else {
      // A typedef may hide bounds of its own.
      return !loc.getType()->isArrayType();
    }
  }
}

/// True if `e` is a sum, difference, product or sign of integers: what a
/// polynomial in its operands states exactly.
static bool isRingOperation(const Expr *e) {
  if (!e->getType()->isIntegerType())
    return false;
  if (const auto *unary = dyn_cast<UnaryOperator>(e))
    return unary->getOpcode() == UO_Plus || unary->getOpcode() == UO_Minus;
  if (const auto *binary = dyn_cast<BinaryOperator>(e))
    return binary->getOpcode() == BO_Add || binary->getOpcode() == BO_Sub ||
           binary->getOpcode() == BO_Mul;
  return false;
}

std::optional<AffineForm> NestScope::linearize(const Expr *e) {
  e = stripCasts(e);
  if (const auto *ref = dyn_cast<DeclRefExpr>(e); ref && boundValues.count(ref))
    return linearize(boundValues.lookup(ref));
  AffineForm form(sourceLoops.size());
  // A non-type template parameter is a constant of the instantiation,
  // whose launchers the call picks by the instance tag (Nest::instance).
  if (const auto *param = dyn_cast<SubstNonTypeTemplateParmExpr>(e)) {
    Expr::EvalResult value;
    if (param->EvaluateAsInt(value, ctx)) {
      form.constant = SymExpr::constant(value.Val.getInt().getExtValue());
      return form;
    }
  }
  if (isInvariant(e)) {
    if (std::optional<int64_t> constant = constantNoted(e)) {
      form.constant = SymExpr::constant(*constant);
      return form;
    }
    // An invariant sum or product is a polynomial in its operands, so that
    // `b*(T*OC)` gives b the coefficient of `b*T*OC`; anything else is one
    // opaque symbol.
    if (!isRingOperation(e)) {
      QualType type = e->getType();
      uint64_t bits = ctx.getTypeSize(type);
      const bool narrow = type->isUnsignedIntegerType() &&
                          bits >= ctx.getTypeSize(ctx.IntTy) && bits < 64;
      form.constant =
          SymExpr::symbol((narrow ? kNarrowUnsigned : "") + print(e));
      return form;
    }
  }
  if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
    const auto *var = dyn_cast<VarDecl>(ref->getDecl());
    int index = ivIndex(var);
    if (index >= 0) {
      form.ivCoeffs[index] = SymExpr::constant(1);
      return form;
    }
    if (const Expr *init = substitutableInit(var))
      return linearize(init);
    return reject("index uses " + describeVarying(var));
  }
  if (const auto *unary = dyn_cast<UnaryOperator>(e)) {
    if (unary->getOpcode() == UO_Plus || unary->getOpcode() == UO_Minus) {
      std::optional<AffineForm> sub = linearize(unary->getSubExpr());
      if (!sub)
        return std::nullopt;
      return unary->getOpcode() == UO_Plus
                 ? *sub
                 : sub->scaled(SymExpr::constant(-1));
    }
  }
  if (const auto *binary = dyn_cast<BinaryOperator>(e)) {
    BinaryOperatorKind op = binary->getOpcode();
    if (op == BO_Add || op == BO_Sub || op == BO_Mul) {
      std::optional<AffineForm> lhs = linearize(binary->getLHS());
      std::optional<AffineForm> rhs = linearize(binary->getRHS());
      if (!lhs || !rhs)
        return std::nullopt;
      if (op == BO_Add)
        return *lhs + *rhs;
      if (op == BO_Sub)
        return *lhs + rhs->scaled(SymExpr::constant(-1));
      if (lhs->isInvariant())
        return rhs->scaled(lhs->constant);
      if (rhs->isInvariant())
        return lhs->scaled(rhs->constant);
    }
  }
  // The loops inside may still be a product of their own (a batch loop's
  // operands found through a broadcast's `at % size`).
  return reject("index '" + print(e) +
                    "' is not an affine function of the loop indices",
                /*peelable=*/true);
}

const VarDecl *mlir::gemm::referencedVar(const Expr *e) {
  const auto *ref = dyn_cast<DeclRefExpr>(stripCasts(e));
  return ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
}

namespace {
/// Pointer arithmetic: `pointer + offset`, `offset + pointer` or
/// `pointer - offset`.
struct PointerStep {
  const Expr *pointer, *offset;
  bool negate;
};
} // namespace

static std::optional<PointerStep> asPointerStep(const Expr *e) {
  const auto *op = dyn_cast<BinaryOperator>(stripCasts(e));
  if (!op || (op->getOpcode() != BO_Add && op->getOpcode() != BO_Sub))
    return std::nullopt;
  const Expr *lhs = stripCasts(op->getLHS()), *rhs = stripCasts(op->getRHS());
  if (op->getOpcode() == BO_Add && lhs->getType()->isIntegerType())
    std::swap(lhs, rhs);
  if (!rhs->getType()->isIntegerType() ||
      !(lhs->getType()->isPointerType() || lhs->getType()->isArrayType()))
    return std::nullopt;
  return PointerStep{lhs, rhs, op->getOpcode() == BO_Sub};
}

/// `*(p + e)`, `*(e + p)` or `*(p - e)`: p[e] (or p[-e]) spelled with a
/// dereference, e also in bytes (`*(float *)((char *)p + e)`). A bare `*p` is not one: it reads a scalar through a pointer
/// (`*alpha`), or walks a pointer that the nest moves.
static const UnaryOperator *asOffsetDeref(const Expr *e) {
  const auto *deref = dyn_cast<UnaryOperator>(stripCasts(e));
  return deref && deref->getOpcode() == UO_Deref &&
                 (asPointerStep(deref->getSubExpr()) ||
                  isByteAddress(deref->getSubExpr()))
             ? deref
             : nullptr;
}

/// What one step of a pointer or array moves over: its pointee or element.
static QualType steppedType(QualType type) {
  if (const ArrayType *array = type->getAsArrayTypeUnsafe())
    return array->getElementType();
  return type->getPointeeType();
}

/// Elements spanned by one step of a subscript whose result has this type.
static std::optional<SymExpr> elementsPerStep(QualType type, NestScope &scope) {
  SymExpr count = SymExpr::constant(1);
  while (const ArrayType *array = type->getAsArrayTypeUnsafe()) {
    if (const auto *fixed = dyn_cast<ConstantArrayType>(array)) {
      count = count * SymExpr::constant(fixed->getSize().getSExtValue());
    } else if (const auto *variable = dyn_cast<VariableArrayType>(array)) {
      std::optional<SymExpr> size = scope.symbolic(variable->getSizeExpr());
      if (!size)
        return std::nullopt;
      count = count * *size;
    } else {
      return scope.reject("array of unknown bound in an access");
    }
    type = array->getElementType();
  }
  return count;
}

/// The std::vector whose elements `e` points to where `e` is `&v[i]` or
/// `v.data()` of a vector of scalars, else null.
static const Expr *vectorBuffer(const Expr *e) {
  e = stripCasts(e);
  const Expr *vector = nullptr;
  if (const auto *address = dyn_cast<UnaryOperator>(e);
      address && address->getOpcode() == UO_AddrOf)
    if (const CXXOperatorCallExpr *call =
            asVectorSubscript(stripCasts(address->getSubExpr())))
      vector = call->getArg(0);
  if (const auto *call = dyn_cast<CXXMemberCallExpr>(e)) {
    const CXXMethodDecl *method = call->getMethodDecl();
    if (method && method->getIdentifier() && method->getName() == "data" &&
        call->getNumArgs() == 0 &&
        isStdContainer(call->getImplicitObjectArgument()->getType()))
      vector = call->getImplicitObjectArgument();
  }
  if (!vector || !e->getType()->getPointeeType()->isArithmeticType())
    return nullptr;
  return stripCasts(vector);
}

namespace {
/// A row read from a table: `A[i]` of `float **A` or `float *A[8]`, `v[i]`
/// of a `std::vector<float *>` or of a vector of vectors, `p[i]` of a
/// `std::vector<float> *`.
struct TableRow {
  const Expr *table; ///< The table as written.
  const Expr *index;
  bool vectors;     ///< The rows are std::vectors, else pointers.
  bool valarrays;   ///< The rows are std::valarrays.
  bool vectorTable; ///< The table is a container, else a pointer or array.
};
} // namespace

/// `row` as a row of a table, or nullopt where it is no row.
static std::optional<TableRow> asTableRow(const Expr *row) {
  row = stripCasts(row);
  QualType type = row->getType();
  bool vectors = isStdVector(type), valarrays = stdClass(type) == "valarray";
  if (!vectors && !valarrays && !type->isPointerType())
    return std::nullopt;
  if (const auto *subscript = dyn_cast<ArraySubscriptExpr>(row))
    return TableRow{stripCasts(subscript->getBase()), subscript->getIdx(),
                    vectors, valarrays, false};
  if (const CXXOperatorCallExpr *call = asVectorSubscript(row))
    return TableRow{stripCasts(call->getArg(0)), call->getArg(1), vectors,
                    valarrays, true};
  return std::nullopt;
}

std::optional<Access>
NestScope::decomposeAccess(const Expr *e, const std::vector<int> &context) {
  // The source loops of the dimensions around it.
  std::vector<int> around;
  for (int d : context)
    for (auto [l, weight] : loops[d].members)
      around.push_back(l);
  llvm::sort(around);
  std::optional<Access> access = sourceAccess(e, around);
  if (!access)
    return std::nullopt;
  std::optional<AffineForm> index = project(access->index, e);
  if (!index || (access->rowIndex &&
                 !(access->rowIndex = project(*access->rowIndex, e))))
    return std::nullopt;
  access->index = *index;
  return access;
}

std::optional<Access>
NestScope::sourceAccess(const Expr *e, const std::vector<int> &around) {
  activeLoops = &around;
  auto restore = llvm::make_scope_exit([&] { activeLoops = nullptr; });
  e = stripCasts(e);
  QualType elementType = e->getType().getCanonicalType().getUnqualifiedType();
  if (!elementType->isSpecificBuiltinType(BuiltinType::Float) &&
      !elementType->isSpecificBuiltinType(BuiltinType::Double))
    return reject("element type '" + elementType.getAsString() +
                  "' of '" + print(e) + "' is not float or double");

  AffineForm index(sourceLoops.size());
  const Expr *root = nullptr;
  std::string basePtr;
  // The row that the last subscript reads where it is a row of a table.
  const Expr *row = nullptr;
  if (const CXXOperatorCallExpr *call = asVectorSubscript(e)) {
    root = stripCasts(call->getArg(0));
    std::optional<AffineForm> sub = linearize(call->getArg(1));
    if (!sub)
      return std::nullopt;
    index = *sub;
    if (isMemoryAccess(root))
      row = root;
    else
      basePtr = bufferOf(root, print(root));
  } else {
    // Peel the address down to one buffer: X[e0][e1] is (X[e0])[e1], and
    // the pointer that a subscript indexes is the buffer plus an offset
    // however it is spelled (`out + b*T*OC + t*OC`, `&out[b][t][0]`, a
    // pointer declared in the nest, one declared from another). Every
    // array base steps by its rows' elements; a row of a table ends it.
    const Expr *cur = e;
    // Subscripts applied to cur: 0 while cur is an element, else cur is a
    // pointer or an array.
    int depth = 0;
    // (subscripts peeled before, elements per step) of the array-typed rows.
    std::vector<std::pair<int, int64_t>> arraySteps;
    // Adds `steps` times the elements one step of a `type` spans.
    auto addSteps = [&](const Expr *steps, QualType type,
                        bool negate) -> bool {
      std::optional<AffineForm> sub = linearize(steps);
      std::optional<SymExpr> step = elementsPerStep(type, *this);
      if (!sub || !step)
        return false;
      if (std::optional<int64_t> elements = step->getConstant();
          elements && isa_and_nonnull<ConstantArrayType>(
                          type->getAsArrayTypeUnsafe()))
        arraySteps.emplace_back(depth - 1, *elements);
      index = index + sub->scaled(negate ? SymExpr::constant(-1) * *step
                                         : *step);
      return true;
    };
    // `*(p + e)` is p[e]: the pointer is peeled like a subscript's base.
    if (const UnaryOperator *deref = asOffsetDeref(e)) {
      cur = stripCasts(deref->getSubExpr());
      depth = 1;
    } else if (!isa<ArraySubscriptExpr>(e)) {
      return reject("unsupported access '" + print(e) + "'");
    }
    while (true) {
      if (depth > 0) {
        // A pointer declared in the nest (`const float *row = w + o*C;`)
        // stands for its initialiser.
        if (const Expr *init = substitutableInit(referencedVar(cur))) {
          cur = stripCasts(init);
          continue;
        }
        // `(float *)((unsigned char *)p + bytes)`: p plus the bytes in
        // elements (ByteOffset.cpp).
        if (std::optional<ByteStep> step = asByteStep(*this, cur)) {
          if (!step->elements)
            return reject(step->why);
          if (!addSteps(step->elements, cur->getType(), false))
            return std::nullopt;
          cur = stripCasts(step->pointer);
          continue;
        }
        if (std::optional<PointerStep> step = asPointerStep(cur)) {
          if (!addSteps(step->offset, steppedType(step->pointer->getType()),
                        step->negate))
            return std::nullopt;
          cur = step->pointer;
          continue;
        }
        // `&X[i]` indexed by j is X[i + j].
        if (const auto *address = dyn_cast<UnaryOperator>(cur);
            address && address->getOpcode() == UO_AddrOf &&
            isa<ArraySubscriptExpr>(stripCasts(address->getSubExpr()))) {
          cur = stripCasts(address->getSubExpr());
          --depth;
          continue;
        }
        // `&v[i]` and `v.data()` of a std::vector v: its buffer, where v
        // is a variable, or a row of a table of vectors.
        if (const Expr *vector = vectorBuffer(cur)) {
          if (const auto *address = dyn_cast<UnaryOperator>(cur))
            if (!addSteps(asVectorSubscript(stripCasts(
                              address->getSubExpr()))->getArg(1),
                          cur->getType()->getPointeeType(), false))
              return std::nullopt;
          cur = vector;
          if (isMemoryAccess(cur)) {
            row = cur;
          } else {
            root = cur;
            basePtr = bufferOf(root, print(root));
          }
          break;
        }
        // A row read from a table (`A[i]` of `float **A`) ends the peeling.
        if (isMemoryAccess(cur) && !cur->getType()->isArrayType()) {
          if (depth > 1)
            return reject("non-contiguous rows: '" + print(cur) +
                          "' is a pointer, so '" + print(e) +
                          "' does not address one strided buffer");
          row = cur;
          break;
        }
      }
      const auto *subscript = dyn_cast<ArraySubscriptExpr>(cur);
      if (!subscript)
        break;
      ++depth;
      if (!addSteps(subscript->getIdx(), subscript->getType(), false))
        return std::nullopt;
      cur = stripCasts(subscript->getBase());
    }
    if (!basePtr.empty())
      depth = 1;
    root = cur;
    // `root` with n subscripts 0: the row whose size tells a step's
    // elements, sizeof(row) / sizeof(element), and element 0's address.
    auto zeros = [&](int n) {
      std::string text = parenthesize(print(root));
      for (int i = 0; i < n; ++i)
        text += "[0]";
      return text;
    };
    if (boundsSpelledAsLiterals(root))
      arraySteps.clear();
    for (auto [peeled, elements] : arraySteps)
      assumptions.emplace_back("sizeof(" + zeros(depth - peeled) +
                                   ") / sizeof(" + zeros(depth) + ")",
                               elements);
    if (basePtr.empty())
      basePtr = depth > 1 ? "&" + zeros(depth) : print(root);
  }
  std::optional<AffineForm> rowIndex;
  bool vectorRows = false, madeRows = false;
  if (row) {
    std::optional<TableRow> table = asTableRow(row);
    if (!table || !(rowIndex = linearize(table->index)))
      return table ? std::nullopt
                   : reject("non-contiguous rows: '" + print(row) +
                            "' is not a row of one table");
    // A table of pointers is itself a pointer plus an offset in rows,
    // however spelled (`float **t = tabs + b;`, `&tabs[b]`).
    const Expr *cur = table->table;
    while (!table->vectorTable) {
      if (const Expr *init = substitutableInit(referencedVar(cur))) {
        cur = stripCasts(init);
      } else if (std::optional<PointerStep> step = asPointerStep(cur);
                 step && !steppedType(step->pointer->getType())->isArrayType()) {
        std::optional<AffineForm> offset = linearize(step->offset);
        if (!offset)
          return std::nullopt;
        *rowIndex = *rowIndex +
                    offset->scaled(SymExpr::constant(step->negate ? -1 : 1));
        cur = step->pointer;
      } else if (const auto *address = dyn_cast<UnaryOperator>(cur);
                 address && address->getOpcode() == UO_AddrOf &&
                 isa<ArraySubscriptExpr>(stripCasts(address->getSubExpr()))) {
        const auto *element =
            cast<ArraySubscriptExpr>(stripCasts(address->getSubExpr()));
        std::optional<AffineForm> offset = linearize(element->getIdx());
        if (!offset)
          return std::nullopt;
        *rowIndex = *rowIndex + *offset;
        cur = stripCasts(element->getBase());
      } else {
        break;
      }
    }
    if (isMemoryAccess(cur) && !(table->vectorTable && isInvariant(cur)))
      return reject("non-contiguous rows: '" + print(row) +
                    "' is a row of a table of tables, not one strided "
                    "buffer or table of rows");
    root = cur;
    basePtr = table->vectorTable ? bufferOf(cur, print(cur)) : print(cur);
    // Rows of valarrays (which have no data()) go as a table of their
    // buffers, made where the nest is (SourceRewriter.cpp, rowPointers).
    if (table->valarrays)
      basePtr = rowPointers.str() + "(" + print(cur) + ").data()";
    vectorRows = table->vectors;
    madeRows = table->valarrays;
  }
  if (!isInvariant(root)) {
    const VarDecl *var = findVaryingVar(root);
    if (var && var == referencedVar(root) && written.contains(var))
      return reject("pointer '" + var->getNameAsString() +
                    "' is written inside the nest");
    std::string what = "the buffer '" + print(root) + "' of '" + print(e) + "'";
    if (var)
      return reject(what + " is not one buffer for the whole nest: it "
                    "depends on " + describeVarying(var));
    return reject(what + " is not a fixed variable (it reads memory or "
                  "calls a function)");
  }
  return Access{e, print(root), basePtr, index, elementType, rowIndex,
                vectorRows, madeRows};
}
