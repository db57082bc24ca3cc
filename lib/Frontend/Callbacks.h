//===- Callbacks.h - Functions that run as another's loop body --*- C++ -*-===//
//
// A function whose address the program passes on (to a thread pool's
// parallel-for, say) runs once per index that its caller's loops give it.
// Where its own loop sums the products of one element of a matrix, the
// loops over the element's row and column are out of sight: its remark
// says so, since the loop alone is no nest.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_CALLBACKS_H
#define GEMM_OPT_LIB_FRONTEND_CALLBACKS_H

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <string>

namespace mlir::gemm {

/// The functions (canonical declarations) whose address the translation
/// unit takes other than to call them.
llvm::DenseSet<const clang::FunctionDecl *>
passedFunctions(clang::ASTContext &ctx);

/// Why `loop`, the one loop of `function`, a function in `passed` whose
/// loop sums products, is left as written: the element it computes has its
/// row and column among the function's integer parameters, which its
/// callers' loops give it. nullopt where `function` is no such element.
std::optional<std::string>
elementOfCallersNest(const clang::Stmt *loop,
                     const clang::FunctionDecl *function,
                     const llvm::DenseSet<const clang::FunctionDecl *> &passed);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_CALLBACKS_H
