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

/// The lowest and highest element an access reaches over the box (its
/// first plus each dimension's coefficient times 0 or extent - 1, whichever
/// is lower, resp. higher), as C++ valid before the nest.
struct Span {
  std::string base, low, high;
};
Span spanOf(const NestScope &scope, const Access &a);

/// A run-time test that two spans share no element.
std::string disjoint(const Span &x, const Span &y);

/// The nest's text in the main file, for a copy of it that runs after the
/// launcher.
struct NestText {
  unsigned from = 0; ///< Its offset in the main file.
  std::string text;
  unsigned line = 0; ///< The line it starts on.
  /// The text with each of `ranges` (main file offsets, in order) replaced
  /// by `replacement` of its index.
  std::string
  with(llvm::ArrayRef<std::pair<unsigned, unsigned>> ranges,
       const std::function<std::string(size_t)> &replacement) const;
};

/// The nest's text; nullopt (with the obstacle in scope.rejection, naming
/// `what` the copy would run) where it is written in a macro or an included
/// file, or holds a preprocessor line other than an OpenACC directive.
std::optional<NestText> nestText(NestScope &scope, const std::string &what);

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
