//===- TeamSingle.h - A shared loop of a parallel region, launched once -*- C++ -*-===//
//
// A `#pragma omp parallel` region often shares its products out with `omp
// for` among other statements (ParRes's repeat loop, a timer, a check):
// every thread of the team meets the loop. The rewrite lets one thread
// launch for the team and tells the others whether it did:
//
//   { int gemm_opt_launched = 0;
//   #pragma omp single copyprivate(gemm_opt_launched)
//   gemm_opt_launched = launcher(...);
//   if (!gemm_opt_launched) { #pragma omp for ... the loop as written } }
//
// `single` ends in a barrier, as the `omp for` did, and every thread then
// takes the same branch, so the team either shares the loop as written or
// skips it. That holds where one thread's launch computes what the team's
// loop did: the operands and every value the nest reads are shared by the
// team, and the `for` has no clause that acts after the loop.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_TEAMSINGLE_H
#define GEMM_OPT_LIB_FRONTEND_TEAMSINGLE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::gemm {

/// Why the `omp for` line `forPragma` on the nest keeps one thread's launch
/// from standing for the team's loop (a clause that acts after the loop or
/// orders it), or nullopt.
std::optional<std::string> sharedForObstacle(llvm::StringRef forPragma);

/// Why the nest `loop` inside the region `regionPragma` (whose block is
/// `block`, at `regionLine`) reads a value private to each thread, so that
/// one thread's launch would not compute what each thread's share did:
/// a variable it reads but does not write that is declared in the block,
/// named by a data-sharing clause of the region, thread-local, or private
/// by the region's default. Nullopt where every one is shared.
std::optional<std::string> teamObstacle(const clang::Stmt *loop,
                                        const clang::Stmt *block,
                                        llvm::StringRef regionPragma,
                                        unsigned regionLine);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_TEAMSINGLE_H
