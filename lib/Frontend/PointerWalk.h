//===- PointerWalk.h - Pointer induction as affine offsets ------*- C++ -*-===//
//
// Code that walks pointers (`*out++ = s;`, `p += ld;` once per iteration,
// `sum += *a++ * *b++;`) reads the same elements as code that indexes: each
// read of a walked pointer is its last set value plus the bumps made since,
// counted from the trip counts of the loops. PointerWalk rewrites, for the
// time of one recognition, every such read into `(base + offset)` with the
// offset an integer expression of the induction variables, and removes the
// bumps; the rest of the front end then sees ordinary accesses.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_POINTERWALK_H
#define GEMM_OPT_LIB_FRONTEND_POINTERWALK_H

#include "NestScope.h"

namespace mlir::gemm {

/// Rewrites the walked pointers of scope.outer in place, and puts the AST
/// back as it was when destroyed (a nest that is rejected is tried again
/// loop by loop, and the source is spliced from its text, never from the
/// AST).
class PointerWalk {
public:
  explicit PointerWalk(NestScope &scope) : scope(scope) {}
  ~PointerWalk();
  PointerWalk(const PointerWalk &) = delete;
  PointerWalk &operator=(const PointerWalk &) = delete;

  /// False, with scope's rejection set, where a walk is no affine offset: a
  /// bump that depends on data or is made conditionally, a step the loop's
  /// step does not divide, a pointer read before the statement that resets
  /// it, or one read after the nest.
  bool normalise();

private:
  NestScope &scope;
  /// Child slots this walk changed, with what they held.
  std::vector<std::pair<clang::Stmt **, clang::Stmt *>> undo;
};

/// The same for `statements`, a call's body as the walk inlines it
/// (Inline.cpp), which PointerWalk did not see: the pointers the body
/// declares (its locals, and parameters it moves) are followed from their
/// declarations, the changes last until the scope ends, and `statements`
/// takes the rewritten list. False, with scope's rejection set, as above.
bool normaliseInlinedWalks(NestScope &scope,
                           std::vector<const clang::Stmt *> &statements);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_POINTERWALK_H
