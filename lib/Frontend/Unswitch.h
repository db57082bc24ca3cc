//===- Unswitch.h - Versioning a nest on a loop-invariant choice -*- C++ -*-===//
//
// A branch inside a nest whose condition the nest never changes (a layout
// flag: `if (param->need_trans == 0) w = W[i*K+k]; else w = W[k*N+i];`,
// `isTransB ? B[..] : B[..]`) makes the nest two nests, one per arm; a
// `switch` on an integer that the nest never changes (an activation type,
// in the nest or in a helper it calls) makes it one nest per way into the
// switch's body (SwitchCases.h). Each version is recognised on its own,
// with the choice substituted; the rewrite tests the condition once and
// runs the version's launcher, or the original nest where a version is no
// GEMM (Unswitch.cpp). A choice on a constant (a template's `bool
// isTransB`, a helper called with a literal type) needs no version: its arm
// or case is read.
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

/// The statements that the recognition in progress runs for the `switch`
/// `s`, of the nest or of a helper it inlines, whose condition the nest
/// reads as `read` (a helper's with the caller's arguments): the case that
/// a constant `read` picks, else the case of the versioned nest, `read`
/// then noted in the scope for checkAssumedBranch. Nullopt where neither
/// fixes the case.
std::optional<std::vector<const clang::Stmt *>>
assumedCase(const clang::SwitchStmt *s, const clang::Expr *read,
            NestScope &scope);

/// Replaces each `switch` of `statements`, a block of the nest, whose case
/// is fixed (assumedCase) by that case's statements, so that the block's
/// other normalisations see them in its place (`int bi;` above a case that
/// sets bi). A case declares nothing at its top (SwitchCases.h), so the
/// names in the block stay the same.
void readAssumedCases(NestScope &scope,
                      std::vector<const clang::Stmt *> &statements);

/// Why `who` ("the nest", "'act'") cannot be read where it holds the
/// `switch` `s` on `read`, whose case no version fixes.
std::string unversionedSwitch(const clang::SwitchStmt *s,
                              const std::string &who, const std::string &read,
                              const clang::ASTContext &ctx);

/// For its lifetime, the choices of `ctx`'s AST on constants fold (one
/// recognition).
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
/// for it is not loop-invariant ("the branch on 'x' depends on 'k'"), or a
/// helper's switch is read with two conditions.
bool checkAssumedBranch(NestScope &scope);

/// One version of a nest: what it assumes, and its nest or its rejection.
struct Version {
  std::string when; ///< For the remark: "it holds", "it is 1 or 2".
  /// A switch's: the labels that the rewrite's own `switch` gives it
  /// (`case 1LL: case 2LL:`, `default:`).
  std::string cases;
  Recognition recognition;
};

/// A nest recognised once per arm of a branch (where it holds, then where
/// not) or per way into a switch, on `condition`.
struct Versions {
  std::string condition; ///< Valid before the nest.
  bool onSwitch = false;
  std::vector<Version> versions;
};

/// The nest versioned on the first choice in it (in source order, a
/// helper's switch where the helper is called) for which some version is a
/// GEMM; nullopt if there is none. Where no choice gives one, `why` becomes
/// the obstacle of a condition that varies in the nest, or of each case of
/// a switch.
std::optional<Versions> versionNest(const clang::Stmt *outer,
                                    const clang::FunctionDecl *function,
                                    clang::ASTContext &ctx, LoopStart start,
                                    Rejection &why);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_UNSWITCH_H
