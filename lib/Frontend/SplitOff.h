//===- SplitOff.h - A product beside another computation --------*- C++ -*-===//
//
// A nest may compute more than the product: llm.c's weight gradient also
// sums `dbias[o] += d` in the loops that accumulate dW. Where the other
// statement touches nothing the product writes, and the product reads
// nothing it writes, the two are independent: the product goes to the
// launcher, and the statement runs after it in the nest's own loops.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_SPLITOFF_H
#define GEMM_OPT_LIB_FRONTEND_SPLITOFF_H

#include "NestScope.h"
#include "gemm-opt/Frontend/Nest.h"

namespace mlir::gemm {

/// The statements of the nest at `outer` that could be split off, in
/// source order: statements of a block or a loop body, no declaration and
/// holding no loop, that store to memory (at most three; each is tried).
std::vector<const clang::Stmt *> sideCandidates(const clang::Stmt *outer);

/// For a nest recognised without scope.side: checks that the side
/// statement is independent of the product whose `operands` (A, B, C and
/// the bias) the recognition bound, and gives `nest` its side text and the
/// run-time checks that its memory overlaps none of theirs. Returns the
/// remark's note, or nullopt with the obstacle in scope.rejection.
std::optional<std::string>
splitOff(NestScope &scope, llvm::ArrayRef<const Access *> operands, Nest &nest);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_SPLITOFF_H
