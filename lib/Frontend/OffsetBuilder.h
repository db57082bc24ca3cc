//===- OffsetBuilder.h - Integer offsets built as expressions ---*- C++ -*-===//
//
// Pointer walks and byte offsets turn what the source spells as pointer
// moves into element offsets, built as clang expressions of type ptrdiff_t
// so that the rest of the front end prints and linearises them like offsets
// the source spells itself. They live for one recognition and are never
// compiled.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_OFFSETBUILDER_H
#define GEMM_OPT_LIB_FRONTEND_OFFSETBUILDER_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

namespace mlir::gemm {

class OffsetBuilder {
public:
  explicit OffsetBuilder(clang::ASTContext &ctx)
      : ctx(ctx), diff(ctx.getPointerDiffType()) {}

  clang::IntegerLiteral *literal(int64_t value);
  /// `e` as a ptrdiff_t, parenthesised where it is an operation.
  clang::Expr *asDiff(const clang::Expr *e);
  /// `lhs op rhs`, operands parenthesised where precedence needs it.
  clang::Expr *binary(clang::Expr *lhs, clang::Expr *rhs,
                      clang::BinaryOperatorKind op);

protected:
  clang::ASTContext &ctx;
  clang::QualType diff;
};

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_OFFSETBUILDER_H
