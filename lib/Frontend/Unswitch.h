//===- Unswitch.h - Versioning a nest on a loop-invariant branch -*- C++ -*-===//
//
// A branch inside a nest whose condition the nest never changes (a layout
// flag: `if (param->need_trans == 0) w = W[i*K+k]; else w = W[k*N+i];`,
// `isTransB ? B[..] : B[..]`) makes the nest two nests, one per arm. Each arm
// is recognised on its own, with the condition's truth value substituted;
// the rewrite tests the condition once and runs the arm's launcher, or the
// original nest where an arm is no GEMM (Unswitch.cpp). A branch on a
// constant (a template's `bool isTransB`) needs no version: its arm is read.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_UNSWITCH_H
#define GEMM_OPT_LIB_FRONTEND_UNSWITCH_H

#include "Recognizer.h"

namespace mlir::gemm {

/// The value that the recognition in progress assumes for the branch
/// condition `cond` (an `if`'s or a `?:`'s, as written): the versioned
/// arm's, or the condition's own where it is a constant; else nullopt.
std::optional<bool> assumedValue(const clang::Expr *cond);

/// For its lifetime, assumedValue folds the constant conditions of `ctx`'s
/// AST (one recognition).
class KnownBranches {
public:
  explicit KnownBranches(const clang::ASTContext &ctx);
  ~KnownBranches();
  KnownBranches(const KnownBranches &) = delete;
  KnownBranches &operator=(const KnownBranches &) = delete;

private:
  const clang::ASTContext *outer;
};

/// Once the walk is complete: rejects the nest where the condition assumed
/// for it is not loop-invariant ("the branch on 'x' depends on 'k'").
bool checkAssumedBranch(NestScope &scope);

/// A nest recognised once per arm of a branch on `condition`: `whenTrue`
/// and `whenFalse` each hold the arm's nest or its rejection.
struct Versions {
  std::string condition; ///< As written, valid before the nest.
  Recognition whenTrue, whenFalse;
};

/// The nest versioned on the first branch in it (in source order) for which
/// some arm is a GEMM; nullopt if there is none. Where no branch gives one
/// and a branch condition varies in the nest, `why` becomes that obstacle.
std::optional<Versions> versionNest(const clang::Stmt *outer,
                                    const clang::FunctionDecl *function,
                                    clang::ASTContext &ctx, LoopStart start,
                                    Rejection &why);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_UNSWITCH_H
