//===- LaneRegisters.h - A block of C kept in an array ----------*- C++ -*-===//
//
// Hand-blocked kernels keep their block of C in an array as often as in
// scalars (catseye's `real c[4] = {0};`, `c[0] += A0k * Bk0;`, then
// `C[i * N + j] += c[0];`). Indexed only by constants, each element is a
// variable of its own: the array is read as one scalar per element, which
// the register accumulators (Registers.h) then read as elements of C.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_LANEREGISTERS_H
#define GEMM_OPT_LIB_FRONTEND_LANEREGISTERS_H

#include "NestScope.h"

namespace mlir::gemm {

/// In `statements`, one block of the nest, reads each local array of
/// floating-point elements with a constant size, started at zero or not
/// started, that no OpenMP directive names, as one scalar per element
/// (named `t[c]`, as the remarks spell it), where every use is `t[c]`
/// with c a constant in range, either the target of an assignment or the
/// whole value stored into something else (`X = t[c];`, `X += t[c];`):
/// the shape of a register block, not of partial sums that are read
/// together (PartialSums.h). `statements` changes in place, and the AST
/// until the scope ends.
void splitLaneRegisters(NestScope &scope,
                        std::vector<const clang::Stmt *> &statements);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_LANEREGISTERS_H
