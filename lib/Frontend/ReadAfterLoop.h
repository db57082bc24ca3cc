//===- ReadAfterLoop.h - What a loop leaves for the code after it ---------===//
//
// Whether code after a loop reads the value a variable holds where the
// loop ends, by the function's control flow: a variable that every path
// from there stores before it reads is dead, wherever it is named.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_OPT_FRONTEND_READAFTERLOOP_H
#define GEMM_OPT_FRONTEND_READAFTERLOOP_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <optional>

namespace mlir::gemm {

/// The first use of `var` that a path from the end of `loop` (a loop of
/// `function`'s body) reaches before a store to it or the loop again, or
/// null where every path stores first or uses none; nullopt where the loop
/// ends nowhere in the function's control flow that gemm-opt finds.
std::optional<const clang::Stmt *>
readAfterLoop(const clang::FunctionDecl *function, const clang::Stmt *loop,
              const clang::VarDecl *var);

/// The first use of `var` that a path from the entry of `function`
/// reaches before a store to it, or null; nullopt without a CFG. A static
/// local with none starts each call afresh: no call reads what another
/// left in it.
std::optional<const clang::Stmt *>
readOnEntry(const clang::FunctionDecl *function, const clang::VarDecl *var);

} // namespace mlir::gemm

#endif
