//===- LateInit.h - Declarations whose value comes later --------*- C++ -*-===//
//
// C89 code declares its locals at the top of a block and gives them their
// values later (`double *b_p0;` ... `b_p0 = &B(p, 0);` in the loop that
// uses it). A declaration without initialiser whose first use on every path
// is an assignment is the same as a declaration with that initialiser, at
// the assignment.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_LATEINIT_H
#define GEMM_OPT_LIB_FRONTEND_LATEINIT_H

#include "NestScope.h"

namespace mlir::gemm {

/// In `statements`, one block of the nest, moves each pointer or scalar
/// declared without initialiser to its first use where that is `v = e;`
/// (e not reading v): a statement of the block, or the first statement
/// that names v in the body of a loop of the block (so in each iteration)
/// whose header does not name v, where nothing after that loop names v.
/// The assignment becomes `T v = e;`; a declaration that the block names
/// nowhere else goes. `statements` changes in place, and the AST until the
/// scope ends. A scalar moves only into a loop (a factor hoisted out of the
/// update, `aik = a[i][k];` in each K step, is then a local of the step);
/// set in the block itself, the walk reads the assignment as it is.
void declareWhereSet(NestScope &scope,
                     std::vector<const clang::Stmt *> &statements);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_LATEINIT_H
