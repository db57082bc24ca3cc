//===- Inline.h - Calls whose bodies are visible, inlined -------*- C++ -*-===//
//
// A nest often hides its product behind a call: an index helper, an
// accessor of a matrix class, a conversion operator, a lambda, a dot-product
// or axpy helper. Where the callee's body is visible and does nothing but
// compute what it returns and write the elements its pointers name, the
// walk reads the body in place of the call (Inline.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_INLINE_H
#define GEMM_OPT_LIB_FRONTEND_INLINE_H

#include "NestScope.h"

namespace mlir::gemm {

/// The statements that stand for `s`, a statement of the nest, with each
/// call to a function of the user's code replaced by its body: parameters
/// bound to the arguments (a pointer to the address it holds, so that
/// `*gamma` is the element `&C(i,j)` names), `this` to the object, the
/// callee's locals declared afresh, and the returned expression in the
/// call's place. `out` stays empty where `s` calls nothing to inline.
/// Returns false, with the scope's rejection set, where a call cannot be
/// inlined: no visible body, recursion, a virtual call or one through a
/// function pointer, or a write other than of the elements its pointers
/// name.
bool inlineCalls(NestScope &scope, const clang::Stmt *s,
                 std::vector<const clang::Stmt *> &out);

/// The value of `call` where its callee only returns an expression of its
/// parameters and object (`A.rows()`, `idx(r, c, ld)`): that expression
/// with the arguments bound; else null.
const clang::Expr *inlinedValue(clang::ASTContext &ctx,
                                const clang::CallExpr *call);

/// Forgets the initialisers inlineCalls rebuilt: called before each
/// translation unit, whose nodes may reuse an earlier one's addresses.
void forgetInlinedCalls();

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_INLINE_H
