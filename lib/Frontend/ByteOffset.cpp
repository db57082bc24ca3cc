//===- ByteOffset.cpp - Pointers moved by byte offsets --------------------===//
//
// A byte offset E moves a pointer to T by E / sizeof(T) elements when
// sizeof(T) divides E. The division is done on E's terms: a product is
// divided through a constant factor (`sizeof(T)`, `<< 3`) or through one
// factor that divides (a sum of such terms, a local defined as one); what
// is left is an integer expression in elements that the rest of the front
// end reads like any other offset. A loop-varying offset that no constant
// proves whole (ncnn's `w * y * elemsize`) takes its element-size factor
// for sizeof(T), and the launcher runs only where that holds.
//
//===----------------------------------------------------------------------===//

#include "ByteOffset.h"
#include "OffsetBuilder.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/SaveAndRestore.h"

#include <numeric>

using namespace clang;
using namespace mlir::gemm;

namespace {

bool isByteType(QualType type) {
  QualType t = type.getCanonicalType().getUnqualifiedType();
  return t->isCharType() || t->isStdByteType();
}

bool pointsToBytes(const Expr *e) {
  return e->getType()->isPointerType() &&
         isByteType(e->getType()->getPointeeType());
}

/// A term added to (or subtracted from) a byte address.
struct Term {
  const Expr *bytes;
  bool negate;
};

/// The pointer that `e`, a byte address (a byte pointer, or a pointer as
/// an integer at least as wide; any integer without `ctx`), starts from,
/// with the terms added to it appended to `terms`; null where `e` is no
/// such address.
const Expr *peel(const ASTContext *ctx, const Expr *e,
                 std::vector<Term> &terms) {
  e = e->IgnoreParens();
  bool bytePointer = pointsToBytes(e);
  if (const auto *cast = dyn_cast<CastExpr>(e)) {
    CastKind kind = cast->getCastKind();
    const Expr *sub = cast->getSubExpr();
    bool wide = e->getType()->isIntegerType() &&
                (!ctx || ctx->getTypeSize(e->getType()) >=
                             ctx->getTypeSize(ctx->VoidPtrTy));
    if (kind == CK_PointerToIntegral && wide)
      return sub;
    if (kind == CK_IntegralCast && wide)
      return peel(ctx, sub, terms);
    if ((kind == CK_BitCast || kind == CK_NoOp) && bytePointer)
      return sub->getType()->isPointerType() ? sub : nullptr;
  }
  if (const auto *op = dyn_cast<BinaryOperator>(e);
      op && (op->getOpcode() == BO_Add || op->getOpcode() == BO_Sub) &&
      (bytePointer || e->getType()->isIntegerType())) {
    bool sub = op->getOpcode() == BO_Sub;
    std::vector<Term> inner;
    if (const Expr *base = peel(ctx, op->getLHS(), inner)) {
      terms.insert(terms.end(), inner.begin(), inner.end());
      terms.push_back({op->getRHS(), sub});
      return base;
    }
    inner.clear();
    if (!sub)
      if (const Expr *base = peel(ctx, op->getRHS(), inner)) {
        terms.insert(terms.end(), inner.begin(), inner.end());
        terms.push_back({op->getLHS(), false});
        return base;
      }
    return nullptr;
  }
  // `&q[E]` of a byte pointer q.
  if (const auto *address = dyn_cast<UnaryOperator>(e);
      address && address->getOpcode() == UO_AddrOf)
    if (const auto *element =
            dyn_cast<ArraySubscriptExpr>(address->getSubExpr()->IgnoreParens());
        element && pointsToBytes(element->getBase()->IgnoreImpCasts())) {
      const Expr *base = peel(ctx, element->getBase(), terms);
      terms.push_back({element->getIdx(), false});
      return base;
    }
  return bytePointer ? e : nullptr;
}

/// Parentheses and value-preserving integer casts.
const Expr *skip(const Expr *e) {
  while (true) {
    e = e->IgnoreParens();
    const auto *cast = dyn_cast<CastExpr>(e);
    if (!cast || (cast->getCastKind() != CK_IntegralCast &&
                  cast->getCastKind() != CK_NoOp))
      return e;
    e = cast->getSubExpr();
  }
}

/// Divides byte offsets into elements, building the quotient as an
/// expression.
class Divider : OffsetBuilder {
public:
  Divider(NestScope &scope, int64_t size)
      : OffsetBuilder(scope.ctx), scope(scope), size(size) {}

  /// Whether a product of scalars may take its element-size factor for
  /// `size`.
  bool version = false;
  /// The factors so taken, as printed.
  std::vector<std::string> tested;
  /// Why the last division failed.
  std::string why;

  Expr *divide(const Expr *e, int64_t by) {
    e = skip(e);
    if (by == 1)
      return asDiff(e);
    if (const auto *op = dyn_cast<BinaryOperator>(e);
        op && (op->getOpcode() == BO_Add || op->getOpcode() == BO_Sub)) {
      Expr *lhs = divide(op->getLHS(), by);
      Expr *rhs = lhs ? divide(op->getRHS(), by) : nullptr;
      return rhs ? binary(lhs, rhs, op->getOpcode()) : nullptr;
    }
    if (const auto *op = dyn_cast<UnaryOperator>(e);
        op && (op->getOpcode() == UO_Minus || op->getOpcode() == UO_Plus)) {
      Expr *q = divide(op->getSubExpr(), by);
      return q && op->getOpcode() == UO_Minus ? binary(literal(0), q, BO_Sub)
                                              : q;
    }
    int64_t coeff = 1;
    SmallVector<const Expr *> factors;
    flatten(e, coeff, factors);
    if (coeff == 0)
      return literal(0);
    int64_t common = std::gcd(coeff < 0 ? -coeff : coeff, by);
    int64_t need = by / common;
    if (need == 1)
      return product(factors, -1, nullptr, coeff / by);
    for (size_t j = 0; j < factors.size(); ++j) {
      llvm::SaveAndRestore<bool> noVersion(version, false);
      llvm::SaveAndRestore<std::string> keep(why);
      if (Expr *q = divideFactor(factors[j], need))
        return product(factors, j, q, coeff / common);
    }
    why = "its term '" + scope.print(e) + "' is " +
          (common > 1 ? "a multiple of " + std::to_string(common) + ", " : "") +
          "not provably a multiple of " + std::to_string(by);
    if (version && coeff == 1 && !factors.empty())
      return versioned(factors, by);
    return nullptr;
  }

  /// The terms' sum in elements, left to right.
  Expr *sum(ArrayRef<Term> terms) {
    Expr *out = nullptr;
    for (const Term &term : terms) {
      Expr *q = divide(term.bytes, size);
      if (!q)
        return nullptr;
      out = out || term.negate
                ? binary(out ? out : literal(0), q,
                         term.negate ? BO_Sub : BO_Add)
                : q;
    }
    return out;
  }

private:
  NestScope &scope;
  int64_t size;


  /// `e` as coeff times factors, through products and shifts by constants.
  void flatten(const Expr *e, int64_t &coeff,
               SmallVectorImpl<const Expr *> &factors) {
    e = skip(e);
    if (std::optional<int64_t> value = scope.constantNoted(e)) {
      coeff *= *value;
      return;
    }
    if (const auto *op = dyn_cast<BinaryOperator>(e)) {
      if (op->getOpcode() == BO_Mul) {
        flatten(op->getLHS(), coeff, factors);
        flatten(op->getRHS(), coeff, factors);
        return;
      }
      std::optional<int64_t> shift =
          op->getOpcode() == BO_Shl ? scope.constantNoted(op->getRHS())
                                    : std::nullopt;
      if (shift && *shift >= 0 && *shift < 62) {
        coeff *= int64_t(1) << *shift;
        flatten(op->getLHS(), coeff, factors);
        return;
      }
    }
    factors.push_back(e);
  }

  /// coeff times the factors, factor `j` replaced by `q` (dropped where
  /// null).
  Expr *product(ArrayRef<const Expr *> factors, int j, Expr *q,
                int64_t coeff) {
    Expr *out = coeff == 1 ? nullptr : literal(coeff);
    for (size_t n = 0; n < factors.size(); ++n) {
      Expr *f = int(n) == j ? q : asDiff(factors[n]);
      if (f)
        out = out ? binary(out, f, BO_Mul) : f;
    }
    return out ? out : literal(coeff);
  }

  /// `f` divided by `by` where it is a sum of such terms or an integer
  /// variable whose value is one; else null.
  Expr *divideFactor(const Expr *f, int64_t by) {
    f = skip(f);
    if (isa<BinaryOperator, UnaryOperator>(f))
      return divide(f, by);
    const auto *cast = dyn_cast<ImplicitCastExpr>(f);
    const VarDecl *var = referencedVar(f);
    if (!cast || cast->getCastKind() != CK_LValueToRValue || !var ||
        !var->getType()->isIntegerType())
      return nullptr;
    // Declared in the nest: its initialiser stands for it.
    if (const Expr *init = scope.substitutableInit(var))
      return divide(init, by);
    // A local of the function that holds its initialiser wherever the nest
    // reads it: `var / by` is exact.
    const Expr *init = scope.fixedInit(var);
    if (!init || !scope.isInvariant(f) || !divide(init, by))
      return nullptr;
    return binary(asDiff(f), literal(by), BO_Div);
  }

  /// A product of scalars whose element-size factor is taken for `by`: the
  /// last factor of type size_t, else the last, where it is a variable or
  /// a member of one that the nest does not change (so that the launcher
  /// can read it first).
  Expr *versioned(ArrayRef<const Expr *> factors, int64_t by) {
    int chosen = factors.size() - 1;
    for (int n = factors.size() - 1; n >= 0; --n)
      if (ctx.hasSameType(factors[n]->getType(), ctx.getSizeType())) {
        chosen = n;
        break;
      }
    const Expr *x = factors[chosen];
    std::string name = "'" + scope.print(x) + "'";
    if (!isScalar(x)) {
      why += ", and its factor " + name + " is no variable or member that "
             "the launcher could test to be " + std::to_string(by);
      return nullptr;
    }
    if (!scope.isInvariant(x)) {
      const VarDecl *var = scope.findVaryingVar(x);
      why += ", and its factor " + name + ", which the launcher would test "
             "to be " + std::to_string(by) + ", depends on " +
             (var ? scope.describeVarying(var) : "memory the nest writes");
      return nullptr;
    }
    tested.push_back(scope.print(x));
    return product(factors, chosen, nullptr, 1);
  }

  /// A variable, or a member of one or of `this`, read where it cannot
  /// fault.
  static bool isScalar(const Expr *e) {
    e = e->IgnoreParenImpCasts();
    while (const auto *member = dyn_cast<MemberExpr>(e)) {
      e = member->getBase()->IgnoreParenImpCasts();
      if (member->isArrow())
        return isa<CXXThisExpr>(e);
    }
    return isa<DeclRefExpr>(e) && isa<VarDecl>(cast<DeclRefExpr>(e)->getDecl());
  }
};

/// The cast to T * of a byte address that `e` is, with the pointer the
/// address starts from and its terms; null where it is none.
const CastExpr *byteCast(const ASTContext *ctx, const Expr *e,
                         const Expr *&pointer, std::vector<Term> &terms) {
  const auto *cast = dyn_cast<CastExpr>(e->IgnoreParens());
  if (!cast || (cast->getCastKind() != CK_BitCast &&
                cast->getCastKind() != CK_IntegralToPointer))
    return nullptr;
  QualType element = cast->getType()->getPointeeType();
  if (element.isNull() || element->isVoidType() || isByteType(element) ||
      element->isIncompleteType() || element->isFunctionType())
    return nullptr;
  pointer = peel(ctx, cast->getSubExpr(), terms);
  return pointer && !terms.empty() ? cast : nullptr;
}

} // namespace

bool mlir::gemm::isByteAddress(const Expr *e) {
  const Expr *pointer;
  std::vector<Term> terms;
  return byteCast(nullptr, e, pointer, terms);
}

std::optional<ByteStep> mlir::gemm::asByteStep(NestScope &scope,
                                               const Expr *e, bool walking) {
  ASTContext &ctx = scope.ctx;
  const Expr *pointer;
  std::vector<Term> terms;
  const CastExpr *cast = byteCast(&ctx, e, pointer, terms);
  if (!cast)
    return std::nullopt;
  QualType element = cast->getType()->getPointeeType();
  // The pointer under its byte views (`(unsigned char *)data`).
  while (true) {
    pointer = pointer->IgnoreParens();
    const auto *view = dyn_cast<CastExpr>(pointer);
    if (!view ||
        (view->getCastKind() != CK_BitCast && view->getCastKind() != CK_NoOp) ||
        !view->getSubExpr()->getType()->isPointerType())
      break;
    pointer = view->getSubExpr();
  }
  bool invariant = !walking && scope.isInvariant(e);
  std::string type = element.getUnqualifiedType().getAsString();
  QualType from = pointer->getType()->getPointeeType();
  std::string what = "the byte offset '" +
                     scope.print(cast->getSubExpr()->IgnoreParens()) + "'";
  if (from->isVoidType() || isByteType(from)) {
    pointer = CStyleCastExpr::Create(
        ctx, cast->getType(), VK_PRValue, CK_BitCast,
        const_cast<Expr *>(pointer), nullptr, FPOptionsOverride(),
        ctx.getTrivialTypeSourceInfo(cast->getType()), SourceLocation(),
        SourceLocation());
  } else if (!ctx.hasSameUnqualifiedType(from, element)) {
    if (invariant)
      return std::nullopt;
    return ByteStep{pointer, nullptr,
                    what + " reads the '" + from.getAsString() + "' buffer '" +
                        scope.print(pointer) + "' as '" + type +
                        "' elements"};
  }
  int64_t size = ctx.getTypeSizeInChars(element).getQuantity();
  Divider divider(scope, size);
  Expr *elements = divider.sum(terms);
  if (!elements && invariant)
    return std::nullopt;
  if (!elements && !walking) {
    divider.version = true;
    elements = divider.sum(terms);
  }
  if (!elements)
    return ByteStep{pointer, nullptr,
                    what + " is not provably a whole number of '" + type +
                        "' elements (" + std::to_string(size) +
                        " bytes): " + divider.why};
  for (const std::string &factor : divider.tested) {
    std::string condition = factor + " == sizeof(" + type + ")";
    if (llvm::is_contained(scope.preconditions, condition))
      continue;
    scope.preconditions.push_back(condition);
    scope.notes.push_back("byte offsets in units of '" + factor +
                          "', taken as sizeof(" + type + ")");
  }
  return ByteStep{pointer, elements, ""};
}
