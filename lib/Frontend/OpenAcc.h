//===- OpenAcc.h - OpenACC directives in a nest's text ----------*- C++ -*-===//
//
// OpenACC directives are read from the text, so that a file parsed without
// -fopenacc (where clang drops them) is judged as one parsed with it.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_OPENACC_H
#define GEMM_OPT_LIB_FRONTEND_OPENACC_H

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"

namespace mlir::gemm {

/// The line (from 1) of the first OpenACC directive in `text`, `#pragma acc`
/// or `_Pragma("acc ...")`, or 0.
size_t firstOpenaccLine(llvm::StringRef text);

/// Whether every line of `text` that holds a `#` is an OpenACC directive.
bool onlyOpenaccLines(llvm::StringRef text);

/// The line of the `#pragma acc routine` that makes `function` device code:
/// one right above a declaration of it, or `routine(name)` in that
/// declaration's file; 0 where none does.
size_t routineLine(const clang::FunctionDecl *function,
                   const clang::SourceManager &sm);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_OPENACC_H
