//===- RealConj.cpp - Complex helpers applied to real values --------------===//
//
// The real part of complex arithmetic over real values is real arithmetic,
// exactly, for the operations whose real part reads only real parts: a
// real value converted to complex (x + 0i), its conjugate (x - 0i), sums and
// differences, negation, and a product with one real factor (clang
// multiplies a real by a complex value part by part, so the real part is
// x * re(z) with no other term). A product of two complex values adds
// -im*im, which a NaN or an infinity in either imaginary part would change,
// so it stays complex.
//
//===----------------------------------------------------------------------===//

#include "RealConj.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>

using namespace clang;
using namespace mlir::gemm;

namespace {

/// The translation unit's context, in which the real expressions are built.
ASTContext *context = nullptr;

llvm::DenseMap<const Expr *, const Expr *> &built() {
  static llvm::DenseMap<const Expr *, const Expr *> map;
  return map;
}

/// The name of the library function that `call` calls with one argument:
/// C's conj* and creal* or std::conj and std::real, declared in a system
/// header (a user's function of that name may compute anything); else
/// empty.
StringRef libraryName(const CallExpr *call) {
  const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  if (!callee || !callee->getIdentifier() || call->getNumArgs() != 1 ||
      isa<CXXMethodDecl>(callee) ||
      !callee->getASTContext().getSourceManager().isInSystemHeader(
          callee->getLocation()))
    return "";
  StringRef name = callee->getName();
  if (callee->isInStdNamespace())
    return name == "conj" || name == "real" ? name : "";
  if (!callee->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return "";
  return llvm::is_contained(
             {"conj", "conjf", "conjl", "creal", "crealf", "creall"}, name)
             ? name
             : "";
}

bool isConj(StringRef name) { return name.starts_with("conj"); }

bool isReal(StringRef name) { return name.contains("real"); }

/// `e` without parentheses and the wrappers of a C++ temporary (a
/// std::complex returned by std::conj and bound to std::real's reference).
const Expr *bare(const Expr *e) {
  while (true) {
    e = e->IgnoreParens();
    if (const auto *temp = dyn_cast<MaterializeTemporaryExpr>(e))
      e = temp->getSubExpr();
    else if (const auto *bind = dyn_cast<CXXBindTemporaryExpr>(e))
      e = bind->getSubExpr();
    else if (const auto *cast = dyn_cast<ImplicitCastExpr>(e);
             cast && cast->getCastKind() == CK_NoOp)
      e = cast->getSubExpr();
    else
      return e;
  }
}

bool isComplex(const Expr *e) {
  QualType type = e->getType();
  if (type->isAnyComplexType())
    return true;
  const CXXRecordDecl *record = type->getAsCXXRecordDecl();
  return record && record->isInStdNamespace() && record->getName() == "complex";
}

class RealOf {
public:
  RealOf(ASTContext &ctx, QualType type)
      : ctx(ctx), type(type.getCanonicalType().getUnqualifiedType()) {}

  /// The real part of `e` (complex, or real of the element type) as a
  /// real expression of the element type, where exact; else null.
  const Expr *operator()(const Expr *e) {
    e = bare(e);
    if (!isComplex(e))
      return sameType(e) ? e : nullptr;
    if (const auto *cast = dyn_cast<ImplicitCastExpr>(e);
        cast && cast->getCastKind() == CK_FloatingRealToComplex)
      return sameType(cast->getSubExpr()) ? cast->getSubExpr() : nullptr;
    if (const auto *call = dyn_cast<CallExpr>(e); isConj(libraryName(call)))
      return (*this)(call->getArg(0));
    if (const auto *unary = dyn_cast<UnaryOperator>(e)) {
      const Expr *sub = (*this)(unary->getSubExpr());
      if (!sub || unary->getOpcode() == UO_Plus)
        return sub;
      if (unary->getOpcode() != UO_Minus)
        return nullptr;
      return UnaryOperator::Create(
          ctx, const_cast<Expr *>(sub), UO_Minus, type, VK_PRValue, OK_Ordinary,
          unary->getOperatorLoc(), false, FPOptionsOverride());
    }
    const auto *binary = dyn_cast<BinaryOperator>(e);
    if (!binary ||
        !llvm::is_contained({BO_Add, BO_Sub, BO_Mul}, binary->getOpcode()))
      return nullptr;
    // One factor of a product must be real: re(z * w) = re z re w - im z
    // im w reads the imaginary parts.
    if (binary->getOpcode() == BO_Mul && isComplex(bare(binary->getLHS())) &&
        isComplex(bare(binary->getRHS())))
      return nullptr;
    const Expr *lhs = (*this)(binary->getLHS());
    const Expr *rhs = lhs ? (*this)(binary->getRHS()) : nullptr;
    if (!rhs)
      return nullptr;
    return BinaryOperator::Create(
        ctx, const_cast<Expr *>(lhs), const_cast<Expr *>(rhs),
        binary->getOpcode(), type, VK_PRValue, OK_Ordinary,
        binary->getOperatorLoc(), FPOptionsOverride());
  }

private:
  ASTContext &ctx;
  QualType type;

  bool sameType(const Expr *e) const {
    return e->getType().getCanonicalType().getUnqualifiedType() == type &&
           type->isRealFloatingType();
  }
};

/// Whether `e` is a real value converted to complex.
bool isRealValue(const Expr *e) {
  const auto *cast = dyn_cast<ImplicitCastExpr>(bare(e));
  return cast && cast->getCastKind() == CK_FloatingRealToComplex;
}

/// The complex value that `e` reads the real part of, or null.
const Expr *readsRealPart(const Expr *e) {
  e = e->IgnoreParens();
  if (const auto *cast = dyn_cast<CastExpr>(e);
      cast && cast->getCastKind() == CK_FloatingComplexToReal)
    return cast->getSubExpr();
  const auto *call = dyn_cast<CallExpr>(e);
  if (!isReal(libraryName(call)))
    return nullptr;
  // std::real of a real value is the value.
  return call->getArg(0);
}

} // namespace

const Expr *mlir::gemm::realPart(const Expr *e) {
  const Expr *complex = context ? readsRealPart(e) : nullptr;
  if (!complex)
    return nullptr;
  auto [it, fresh] = built().try_emplace(e, nullptr);
  if (fresh)
    it->second = RealOf(*context, e->getType())(complex);
  return it->second;
}

std::optional<std::string> mlir::gemm::complexObstacle(const Expr *e) {
  if (!isComplex(e) && !readsRealPart(e))
    return std::nullopt;
  // Name the conjugation of a complex value where there is one.
  std::function<const CallExpr *(const Stmt *)> conjOfComplex =
      [&](const Stmt *s) -> const CallExpr * {
    const auto *call = dyn_cast<CallExpr>(s);
    if (call && isConj(libraryName(call)) && isComplex(bare(call->getArg(0))) &&
        !isRealValue(call->getArg(0)))
      return call;
    for (const Stmt *child : s->children())
      if (const CallExpr *found = child ? conjOfComplex(child) : nullptr)
        return found;
    return nullptr;
  };
  if (const CallExpr *conj = conjOfComplex(e))
    return "'" + conj->getDirectCallee()->getNameAsString() +
           "' of a complex value: the nest computes in complex arithmetic, "
           "which a real GEMM does not";
  return std::string("the nest computes in complex arithmetic (a product of "
                     "two complex values, or a complex value read as real), "
                     "which a real GEMM does not");
}

void mlir::gemm::startRealParts(ASTContext &ctx) {
  built().clear();
  context = &ctx;
}
