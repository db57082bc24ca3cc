//===- TileSum.h - Which tile loop a point loop runs within -----*- C++ -*-===//
#ifndef GEMM_OPT_LIB_FRONTEND_TILESUM_H
#define GEMM_OPT_LIB_FRONTEND_TILESUM_H

#include "NestScope.h"

namespace mlir::gemm {

/// Whether every access of the nest reads the induction variables of the
/// source loops `point` and `tile` only as their sum `tile + point` (times
/// one stride), as a point loop within the tiles of `tile` is read; an
/// access that does not decompose says nothing.
bool readsAsTileSum(NestScope &scope, int point, int tile);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_TILESUM_H
