//===- NullTests.h - Tests that a moved pointer is null ---------*- C++ -*-===//
//
// Reference code guards an operand's pointer before using it (`data1 =
// input1 + b * stride; if (data1 == NULL) return -1;`, Tengine's style).
// In C, `q + i` is null only where `q` is (any other null result would be
// undefined), so the test asks whether `q` is null, the same in every
// iteration: where `q` is not, it never takes its branch.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_NULLTESTS_H
#define GEMM_OPT_LIB_FRONTEND_NULLTESTS_H

#include "NestScope.h"

namespace mlir::gemm {

/// In `statements`, one block of the nest, replaces each `if (p == NULL)
/// ...` without `else` (or `!p`, `p == 0`, `nullptr`), where p is `q + i`
/// (through sums, `&q[i]`, casts, and pointers of the nest to the last
/// value the block gave them, nothing else in the block naming them
/// between; q a pointer declared outside the nest that it never changes),
/// by a null statement, and adds `q != 0` to the launcher's preconditions:
/// where q is null the loop runs, and takes the branch as written.
void readNullTests(NestScope &scope,
                   std::vector<const clang::Stmt *> &statements);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_NULLTESTS_H
