//===- Recognizer.h - Match a loop nest against the GEMM forms --*- C++ -*-===//
#ifndef GEMM_OPT_LIB_FRONTEND_RECOGNIZER_H
#define GEMM_OPT_LIB_FRONTEND_RECOGNIZER_H

#include "NestScope.h"
#include "gemm-opt/Frontend/Nest.h"

namespace mlir::gemm {

/// The outcome for one candidate nest: a Nest with its operands bound (name,
/// file and offsets are left to the caller) and the remark saying what was
/// recognised, or the reason it was not.
struct Recognition {
  std::optional<Nest> nest;
  std::string summary;
  Rejection rejection;
  /// In a template's instantiation: the template type parameters whose
  /// arguments the element types of A, B, C and the bias are, as the
  /// instantiation's types say (`const Ta *lhs`).
  std::vector<const clang::TemplateTypeParmDecl *> elementParams;
  /// A, B and C are each of a template type parameter (`T *in`): another
  /// instantiation's call passes pointers to its own type, which only a
  /// launcher of that type takes.
  bool typedByParams = false;
};

/// `start`: the statement before the nest that starts its outermost loop
/// (startOfLoop), if any.
Recognition recognizeNest(const clang::Stmt *outer,
                          const clang::FunctionDecl *function,
                          clang::ASTContext &ctx,
                          LoopStart start = {});

/// A nest that no GEMM form covers whose K loop sums a product that can go
/// through a temporary (Temporary.cpp): the recognition of that product
/// into T, or none.
/// `whole` is why the whole nest is no GEMM, for the remark.
Recognition recognizeThroughTemporary(const clang::Stmt *outer,
                                      const clang::FunctionDecl *function,
                                      clang::ASTContext &ctx,
                                      const std::string &whole,
                                      LoopStart start = {});

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_RECOGNIZER_H
