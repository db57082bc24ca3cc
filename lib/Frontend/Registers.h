//===- Registers.h - Values a kernel keeps in registers ---------*- C++ -*-===//
//
// Hand-blocked kernels keep what one step of the K loop reads in registers
// and the block of C they compute in register accumulators
// (how-to-optimize-gemm's AddDot4x4: `a_0p_reg = A(0, p);`, `c_00_reg +=
// a_0p_reg * B(p, 0);`, then `C(0, 0) += c_00_reg;` after the loop). Both
// spell the product with other names: a register read in the step that
// sets it stands for the value it was set to, and an accumulator started at
// zero, summed into by one loop and then added to one element of C is that
// element summed into (the same sum in another order, within the error
// bound that any order of the K loop has).
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_REGISTERS_H
#define GEMM_OPT_LIB_FRONTEND_REGISTERS_H

#include "NestScope.h"

namespace mlir::gemm {

/// Reads the registers of `statements`, one block of the nest, whose
/// variables it declares (so nothing else names them):
/// - a step register `v` (scalar or pointer) that only one loop of the
///   block names, whose body first sets it (`v = e;`, e with no side
///   effect and nothing it reads assigned before the reads) and then only
///   reads it, or bumps it where nothing reads it after (`*v++`): each read
///   is e (`*v` of `v = &x` is x), and the set goes;
/// - accumulators of a block of C: two or more `t`, each started at zero
///   (`t = 0;` or its initialiser), summed into (`t += e`) only inside the
///   same loop of the block and read once after it by `X += t;` or
///   `X = t;`, X an element of t's type whose address nothing in between
///   changes and whose array nothing in between names: `t += e` is
///   `X += e`, the start and the read go, and `X = t;` leaves `X = 0;`
///   just before the loop. (One alone is the classic dot product, which
///   the recognition reads as written.)
/// `statements` changes in place, and the AST until the scope ends. The
/// variables go into scope.written, so that the rewrite checks them as
/// any variable the nest assigns.
void readRegisters(NestScope &scope,
                   std::vector<const clang::Stmt *> &statements);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_REGISTERS_H
