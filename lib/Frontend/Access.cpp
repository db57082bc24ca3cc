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

#include "NestScope.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace mlir::gemm;

std::nullopt_t NestScope::reject(const std::string &reason, bool peelable) {
  if (!rejection)
    rejection = Rejection{reason, peelable};
  return std::nullopt;
}

int NestScope::ivIndex(const VarDecl *var) const {
  if (activeLoops) {
    for (auto it = activeLoops->rbegin(); it != activeLoops->rend(); ++it)
      if (loops[*it].iv == var)
        return *it;
    return -1;
  }
  for (size_t i = 0; i < loops.size(); ++i)
    if (loops[i].iv == var)
      return i;
  return -1;
}

const LocalDef *NestScope::findLocal(const VarDecl *var) const {
  for (const LocalDef &local : locals)
    if (local.var == var)
      return &local;
  return nullptr;
}

std::string NestScope::print(const Expr *e) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  e->printPretty(os, nullptr, PrintingPolicy(ctx.getLangOpts()));
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
    return e;
  }
}

static bool isStdVector(QualType type) {
  const CXXRecordDecl *record = type.getNonReferenceType()->getAsCXXRecordDecl();
  return record && record->isInStdNamespace() && record->getName() == "vector";
}

static const CXXOperatorCallExpr *asVectorSubscript(const Expr *e) {
  const auto *call = dyn_cast<CXXOperatorCallExpr>(e);
  if (call && call->getOperator() == OO_Subscript && call->getNumArgs() == 2 &&
      isStdVector(call->getArg(0)->getType()))
    return call;
  return nullptr;
}

bool mlir::gemm::isMemoryAccess(const Expr *e) {
  e = stripCasts(e);
  return isa<ArraySubscriptExpr>(e) || asVectorSubscript(e);
}

const VarDecl *NestScope::findVaryingVar(const Expr *e) const {
  if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
    const auto *var = dyn_cast<VarDecl>(ref->getDecl());
    if (var && (written.contains(var) || findLocal(var)))
      return var;
  }
  for (const Stmt *child : e->children())
    if (const auto *sub = dyn_cast_or_null<Expr>(child))
      if (const VarDecl *var = findVaryingVar(sub))
        return var;
  return nullptr;
}

bool NestScope::isInvariant(const Expr *e) const {
  e = e->IgnoreParens();
  if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
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
  if (const auto *cast = dyn_cast<CastExpr>(e))
    return isInvariant(cast->getSubExpr());
  if (const auto *unary = dyn_cast<UnaryOperator>(e)) {
    if (unary->getOpcode() == UO_Deref) {
      if (!isInvariant(unary->getSubExpr()))
        return false;
      if (integerReadsInvariant && unary->getType()->isIntegerType())
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
  if (const auto *binary = dyn_cast<BinaryOperator>(e))
    return !binary->isAssignmentOp() && !binary->isCompoundAssignmentOp() &&
           isInvariant(binary->getLHS()) && isInvariant(binary->getRHS());
  if (const auto *cond = dyn_cast<ConditionalOperator>(e))
    return isInvariant(cond->getCond()) && isInvariant(cond->getTrueExpr()) &&
           isInvariant(cond->getFalseExpr());
  // A constant of an activation, `sqrtf(2.0f / M_PI)`.
  if (std::optional<MathCall> call = asMathCall(e))
    return isInvariant(call->arg);
  // v.size() and v.data() of an unchanged vector are invariant.
  if (const auto *call = dyn_cast<CXXMemberCallExpr>(e)) {
    const CXXMethodDecl *method = call->getMethodDecl();
    return method && method->getIdentifier() &&
           (method->getName() == "size" || method->getName() == "data") &&
           isStdVector(call->getImplicitObjectArgument()->getType()) &&
           isInvariant(call->getImplicitObjectArgument());
  }
  return false;
}

const Expr *NestScope::substitutableInit(const VarDecl *var) const {
  if (!var || !findLocal(var) || written.contains(var) || !var->getInit())
    return nullptr;
  const Expr *init = var->getInit();
  QualType type = var->getType(), from = init->IgnoreImpCasts()->getType();
  if (type->isPointerType())
    return init;
  // An integer that holds its initialiser's every value: a narrower one
  // would wrap where the substituted expression does not.
  if (type->isIntegerType() && from->isIntegerType() &&
      ctx.getTypeSize(type) >= ctx.getTypeSize(from) &&
      (type->isSignedIntegerType() == from->isSignedIntegerType() ||
       ctx.getTypeSize(type) > ctx.getTypeSize(from)))
    return init;
  return nullptr;
}

std::optional<SymExpr> NestScope::symbolic(const Expr *e) {
  std::optional<AffineForm> form = linearize(e);
  if (!form)
    return std::nullopt;
  if (!form->isInvariant())
    return reject("'" + print(e) + "' is not loop-invariant");
  return form->constant;
}

std::optional<std::string> NestScope::spelledValue(const Expr *e) const {
  const SourceManager &sm = ctx.getSourceManager();
  const LangOptions &lang = ctx.getLangOpts();
  SourceLocation begin = e->getBeginLoc(), end = e->getEndLoc();
  if (isa<IntegerLiteral, CharacterLiteral>(e) && !begin.isMacroID())
    return std::nullopt;
  // Only an integer constant expression can be asserted (C's const
  // variables fold, but are not one). In a macro, only a whole expansion
  // (EXTENT) has a spelling of its own; a part of one (the 9 of IX(r, c,
  // 9)) does not.
  if (!e->isIntegerConstantExpr(ctx) ||
      (begin.isMacroID() && !Lexer::isAtStartOfMacroExpansion(begin, sm, lang)) ||
      (end.isMacroID() && !Lexer::isAtEndOfMacroExpansion(end, sm, lang)))
    return std::nullopt;
  CharSourceRange range = sm.getExpansionRange(e->getSourceRange());
  StringRef text = Lexer::getSourceText(range, sm, lang);
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

std::optional<AffineForm> NestScope::linearize(const Expr *e) {
  e = stripCasts(e);
  AffineForm form(loops.size());
  if (isInvariant(e)) {
    Expr::EvalResult value;
    if (e->isValueDependent() || !e->EvaluateAsInt(value, ctx)) {
      form.constant = SymExpr::symbol(print(e));
      return form;
    }
    int64_t constant = value.Val.getInt().getExtValue();
    form.constant = SymExpr::constant(constant);
    if (std::optional<std::string> spelling = spelledValue(e))
      assumptions.emplace_back(*spelling, constant);
    return form;
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
    return reject("index uses '" + print(e) + "', which changes in the nest");
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
  return reject("index '" + print(e) +
                "' is not an affine function of the loop indices");
}

const VarDecl *mlir::gemm::referencedVar(const Expr *e) {
  const auto *ref = dyn_cast<DeclRefExpr>(stripCasts(e));
  return ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
}

/// A pointer expression as a base and an element offset: `p + off`,
/// `off + p`, `&p[off]`, or `p` (offset null). The base is the operand of
/// pointer or array type.
static std::optional<std::pair<const Expr *, const Expr *>>
splitPointer(const Expr *e) {
  e = stripCasts(e);
  if (const auto *sum = dyn_cast<BinaryOperator>(e);
      sum && sum->getOpcode() == BO_Add) {
    const Expr *lhs = stripCasts(sum->getLHS()), *rhs = stripCasts(sum->getRHS());
    if (lhs->getType()->isIntegerType())
      std::swap(lhs, rhs);
    if (rhs->getType()->isIntegerType())
      return std::make_pair(lhs, rhs);
    return std::nullopt;
  }
  if (const auto *address = dyn_cast<UnaryOperator>(e);
      address && address->getOpcode() == UO_AddrOf)
    if (const auto *element = dyn_cast<ArraySubscriptExpr>(
            stripCasts(address->getSubExpr()));
        element && !stripCasts(element->getBase())->getType()->isArrayType())
      return std::make_pair(stripCasts(element->getBase()), element->getIdx());
  if (e->getType()->isPointerType() || e->getType()->isArrayType())
    return std::make_pair(e, nullptr);
  return std::nullopt;
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

namespace {
/// A row read from a table: `A[i]` of `float **A` or `float *A[8]`, `v[i]`
/// of a `std::vector<float *>` or of a vector of vectors, `p[i]` of a
/// `std::vector<float> *`.
struct TableRow {
  const Expr *table; ///< The table as written.
  std::string first; ///< Address of the table's row 0.
  const Expr *index;
  bool vectors; ///< The rows are std::vectors, else pointers.
};
} // namespace

/// `row` as a row of a table, or nullopt where it is no row of a table
/// that is itself a variable (a table of tables).
static std::optional<TableRow> asTableRow(const Expr *row,
                                          const NestScope &scope) {
  row = stripCasts(row);
  QualType type = row->getType();
  bool vectors = isStdVector(type);
  if (!vectors && !type->isPointerType())
    return std::nullopt;
  TableRow result{nullptr, "", nullptr, vectors};
  if (const auto *subscript = dyn_cast<ArraySubscriptExpr>(row)) {
    result.table = stripCasts(subscript->getBase());
    result.first = scope.print(result.table);
    result.index = subscript->getIdx();
  } else if (const CXXOperatorCallExpr *call = asVectorSubscript(row)) {
    result.table = stripCasts(call->getArg(0));
    result.first = parenthesize(scope.print(result.table)) + ".data()";
    result.index = call->getArg(1);
  } else {
    return std::nullopt;
  }
  if (isMemoryAccess(result.table))
    return std::nullopt;
  return result;
}

std::optional<Access>
NestScope::decomposeAccess(const Expr *e, const std::vector<int> &context) {
  activeLoops = &context;
  auto restore = llvm::make_scope_exit([&] { activeLoops = nullptr; });
  e = stripCasts(e);
  QualType elementType = e->getType().getCanonicalType().getUnqualifiedType();
  if (!elementType->isSpecificBuiltinType(BuiltinType::Float) &&
      !elementType->isSpecificBuiltinType(BuiltinType::Double))
    return reject("element type '" + elementType.getAsString() +
                  "' of '" + print(e) + "' is not float or double");

  AffineForm index(loops.size());
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
      basePtr = print(root) + ".data()";
  } else {
    // Peel the subscripts: X[e0][e1] is (X[e0])[e1]. Every base but the
    // innermost must be an array; a row of a table is the innermost.
    const Expr *cur = e;
    int depth = 0;
    // (subscripts peeled before, elements per step) of the array-typed rows.
    std::vector<std::pair<int, int64_t>> arraySteps;
    while (const auto *subscript = dyn_cast<ArraySubscriptExpr>(cur)) {
      const Expr *base = stripCasts(subscript->getBase());
      // A row of a table (`A[i]` of `float **A`) ends the peeling.
      bool tableRow = isMemoryAccess(base) && !base->getType()->isArrayType();
      if (tableRow && depth > 0)
        return reject("non-contiguous rows: '" + print(base) +
                      "' is a pointer, so '" + print(e) +
                      "' does not address one strided buffer");
      std::optional<AffineForm> sub = linearize(subscript->getIdx());
      std::optional<SymExpr> step = elementsPerStep(subscript->getType(), *this);
      if (!sub || !step)
        return std::nullopt;
      if (std::optional<int64_t> elements = step->getConstant();
          elements && isa_and_nonnull<ConstantArrayType>(
                          subscript->getType()->getAsArrayTypeUnsafe()))
        arraySteps.emplace_back(depth, *elements);
      index = index + sub->scaled(*step);
      cur = base;
      ++depth;
      if (tableRow)
        break;
    }
    if (!isa<ArraySubscriptExpr>(e))
      return reject("unsupported access '" + print(e) + "'");
    // A pointer declared in the nest (`const float *row = w + o * C;`)
    // stands for its initialiser: its base and offset.
    while (const Expr *init =
               depth == 1 ? substitutableInit(referencedVar(cur)) : nullptr) {
      std::optional<std::pair<const Expr *, const Expr *>> parts =
          splitPointer(init);
      if (!parts)
        return reject("pointer '" + print(cur) + "' is set to '" +
                      print(init) + "', not a buffer plus an offset");
      if (parts->second) {
        std::optional<AffineForm> offset = linearize(parts->second);
        if (!offset)
          return std::nullopt;
        index = index + *offset;
      }
      cur = parts->first;
    }
    if (isMemoryAccess(cur) && depth == 1)
      row = cur;
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
    basePtr = depth > 1 ? "&" + zeros(depth) : print(root);
  }
  std::optional<AffineForm> rowIndex;
  bool vectorRows = false;
  if (row) {
    std::optional<TableRow> table = asTableRow(row, *this);
    if (!table)
      return reject("non-contiguous rows: '" + print(row) +
                    "' is a row of a table of tables, not one strided "
                    "buffer or table of rows");
    if (!(rowIndex = linearize(table->index)))
      return std::nullopt;
    root = table->table;
    basePtr = table->first;
    vectorRows = table->vectors;
  }
  if (!isInvariant(root)) {
    if (const VarDecl *var = findVaryingVar(root))
      return reject("pointer '" + var->getNameAsString() +
                    "' is written inside the nest");
    return reject("the buffer '" + print(root) + "' is not a fixed variable");
  }
  return Access{e, print(root), basePtr, index, elementType, rowIndex,
                vectorRows};
}
