//===- Temporary.h - A product that goes through a temporary ----*- C++ -*-===//
//
// A nest may sum a clean product in its K loop and then use the sum in
// ways no GEMM form covers (a bias scaled with it, a store chosen by a flag,
// a row pushed into a vector). The product then goes through a temporary T
// of the box's shape: the launcher computes T = alpha * A * B first, and
// the nest runs as written but for its K loop, which adds T's element.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_TEMPORARY_H
#define GEMM_OPT_LIB_FRONTEND_TEMPORARY_H

#include "Contraction.h"
#include "NestScope.h"
#include "gemm-opt/Frontend/Nest.h"

namespace mlir::gemm {

/// The loops of the nest at `outer`, inside another of its loops, whose
/// body is one accumulation: the K loops whose product could go through a
/// temporary, in source order (at most three).
std::vector<const clang::Stmt *> temporaryCandidates(const clang::Stmt *outer);

/// Before the walk: what the nest does besides scope.temporary, which runs
/// as written after the launcher. Every scalar it assigns goes into
/// scope.written, and `stores` gets the memory it stores to (the K loop's
/// own target too); false (with the obstacle) for an effect that could end
/// the loops early or reach memory gemm-opt does not track (a call, a
/// global, an early exit).
bool effectsBeside(NestScope &scope, std::vector<const clang::Expr *> &stores);

/// T as C: an element per point of the loops around the K loop (`c`'s
/// innermost) that move A (`x`) or B (`y`), the innermost loop's stride 1;
/// nullopt (with the obstacle) for loops that are not plain counted loops
/// (tiles, unrolled copies), and for a K loop that accumulates into memory
/// that moves with it.
std::optional<Access> temporaryAccess(NestScope &scope, const Contraction &c,
                                      const Access &x, const Access &y);

/// After the recognition of the product into T: checks that the nest's
/// `stores` miss A and B (`x`, `y`), at compile time or by run-time span
/// checks, and gives `nest` its temporary, the nest's text with the K loop
/// reading T, and the checks. Returns the remark's note, or nullopt with
/// the obstacle in scope.rejection.
std::optional<std::string>
throughTemporary(NestScope &scope, llvm::ArrayRef<const clang::Expr *> stores,
                 const Access &x, const Access &y, const Access &t, Nest &nest);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_TEMPORARY_H
