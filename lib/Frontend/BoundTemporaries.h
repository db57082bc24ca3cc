//===- BoundTemporaries.h - Values of scalars assigned in the nest -*- C++ -*-===//
#ifndef GEMM_OPT_LIB_FRONTEND_BOUNDTEMPORARIES_H
#define GEMM_OPT_LIB_FRONTEND_BOUNDTEMPORARIES_H

#include "NestScope.h"

#include "clang/AST/ParentMap.h"

namespace mlir::gemm {

/// `var = e;` as a statement, or the last part of a comma list that names
/// var (`for (ig = ii, i = 0; ...)`); else null.
const clang::BinaryOperator *asAssignmentTo(const clang::Stmt *s,
                                            const clang::VarDecl *var);

/// Whether `s` changes `var` or lets it escape: an assignment, an
/// increment, its address, a reference bound to it, a declaration.
bool changes(const clang::Stmt *s, const clang::VarDecl *var);

/// The statement that gives `var` its value at `read` on every path: an
/// assignment `var = e;` or a declaration of var, before it in a block
/// around it with no statement between that `changed` accepts (one that
/// changes var, for its value alone), in no loop (between them) that
/// `changed` accepts; null where no single one does. The function must hold
/// no jumps (holdsJumps).
const clang::Stmt *
reachingDefinition(const clang::Stmt *read, const clang::VarDecl *var,
                   const clang::ParentMap &parents,
                   llvm::function_ref<bool(const clang::Stmt *)> changed);

/// Whether `body` holds a `goto`, a computed goto or a label one names.
bool holdsJumps(clang::Stmt *body);

/// Finds the integer locals of `function` that the nest sets only by
/// statements `x = e;` and reads only where one such statement reaches the
/// read on every path (f2c's `i__2 = *m;` before each loop it bounds), and
/// that no read after the nest needs: fills scope.boundValues (each read's
/// e) and scope.boundAssignments (which the walk skips).
void bindTemporaries(NestScope &scope, const clang::FunctionDecl *function);

/// Once the walk knows what the nest writes: rejects a bound value that is
/// not loop-invariant.
bool checkBoundValues(NestScope &scope);

/// Whether no value that the nest gives `var` is read after it: every read
/// outside the nest is preceded, on every path from the nest, by an
/// assignment `var = e;` (C89 and f2c code reuse one `temp` in every nest).
bool deadAfterNest(const NestScope &scope, const clang::VarDecl *var,
                   const clang::FunctionDecl *function);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_BOUNDTEMPORARIES_H
