//===- Unswitch.h - Versioning a nest on loop-invariant choices -*- C++ -*-===//
//
// A branch inside a nest whose condition the nest never changes (a layout
// flag: `if (param->need_trans == 0) w = W[i*K+k]; else w = W[k*N+i];`,
// `isTransB ? B[..] : B[..]`) makes the nest two nests, one per arm; a
// `switch` on an integer that the nest never changes (an activation type,
// in the nest or in a helper it calls) makes it one nest per way into the
// switch's body (SwitchCases.h). Several such choices (`transA ? .. : ..`
// and `transB ? .. : ..`) make one nest per combination of their ways.
// Each version is recognised on its own, with the choices substituted; the
// rewrite tests the conditions once and runs the version's launcher, or
// the original nest where a version is no GEMM (Unswitch.cpp). A choice on
// a constant (a template's `bool isTransB`, a helper called with a literal
// type) needs no version: its arm or case is read.
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

/// Once the walk is complete: rejects the nest where a condition assumed
/// for it is not loop-invariant ("the branch on 'x' depends on 'k'"), or a
/// helper's switch is read with two conditions.
bool checkAssumedBranch(NestScope &scope);

/// One version of a nest: what it assumes, and its nest or its rejection.
struct Version {
  /// For each choice of the nest's Versions, the way this version takes.
  std::vector<size_t> ways;
  /// For the remark: "it holds", "it is 1 or 2", "'transA' holds and
  /// 'transB' does not".
  std::string when;
  Recognition recognition;
};

/// A nest recognised once per combination of the ways of its choices (a
/// branch: where it holds, then where not; a switch: its ways in).
struct Versions {
  std::vector<VersionChoice> choices;
  /// For the remark: "'transA' and 'transB'", "the 'switch' on 'fc.kind'".
  std::string on;
  std::vector<Version> versions;
};

/// The most versions a nest is recognised in: a choice more that doubles
/// them costs more recognitions and launchers than it is likely to repay.
inline constexpr size_t maxVersions = 16;
/// How many versions one nest is recognised in while looking for the
/// choices to version it on, at most.
inline constexpr size_t maxVersionTrials = 256;

/// The nest versioned on the fewest choices in it (the first, in source
/// order, among as many; a helper's switch where the helper is called) for
/// which some version is a GEMM, at most maxVersions versions; nullopt if
/// there are none. Where no choices give one, `why` becomes the obstacle
/// of a condition that varies in the nest, of each case of a switch, or
/// the choices that would make too many versions.
std::optional<Versions> versionNest(const clang::Stmt *outer,
                                    const clang::FunctionDecl *function,
                                    clang::ASTContext &ctx, LoopStart start,
                                    Rejection &why);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_UNSWITCH_H
