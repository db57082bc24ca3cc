//===- RealConj.h - Complex helpers applied to real values ------*- C++ -*-===//
//
// Code written once for real and complex element types (a `T` that is float
// in one build and float complex in another) conjugates a factor:
// `x[r][i] * conjf(x[c][i])`. With a real T, C converts the real value to
// complex, conjugates it and converts the product back to T, which keeps
// its real part: the real product itself. The front end reads such an
// expression as that real expression; complex arithmetic that is not so
// (a complex operand, a product of two complex values) stays as written.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_REALCONJ_H
#define GEMM_OPT_LIB_FRONTEND_REALCONJ_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>
#include <string>

namespace mlir::gemm {

/// The real expression that `e` equals exactly where `e` reads back as real
/// the real part of complex arithmetic over real values (a conversion of a
/// complex value to its real type, creal*, std::real): the same tree
/// without the conversions and the conjugations; null otherwise. The
/// expression is built once per node, in the context startRealParts gave.
const clang::Expr *realPart(const clang::Expr *e);

/// Why `e` cannot be read as real arithmetic, where it is a complex value
/// that realPart does not fold ("'conjf' of the complex value 'z[k]'").
std::optional<std::string> complexObstacle(const clang::Expr *e);

/// Builds real expressions in `ctx` from now on, forgetting those built for
/// an earlier translation unit, whose nodes this one may reuse the
/// addresses of.
void startRealParts(clang::ASTContext &ctx);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_REALCONJ_H
