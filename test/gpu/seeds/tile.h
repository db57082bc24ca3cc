//===- tile.h - What the seed kernels share ---------------------*- C++ -*-===//
//
// The seed kernels (magma_*.cu, tan_dgemm.cu, volkov_sgemm.cu) differ in how
// they move a K slice of A and B through shared memory and registers, but not
// in how they cover the problem or finish it. This header holds that common
// part: the grid and the walk over tiles and batches (those of the generated
// kernels, gemm_kernels/walk.cuh), and the alpha/beta epilogue.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_TILE_H
#define GEMM_RUNTIME_TILE_H

#include "gemm_kernels/walk.cuh"
#include "seeds.h"

#include <algorithm>
#include <cstdint>

namespace gemm_seeds::detail {
using namespace gemm_rt;

using gemm_kernels::forEachTile;
using gemm_kernels::tileGrid;

/// True if a launcher has nothing to launch: no element of C exists. (K == 0
/// still has work to do: C = beta * C.)
inline bool hasNoOutput(const Problem &p) {
  return p.batch <= 0 || p.m <= 0 || p.n <= 0;
}

/// True if `ptr` is a multiple of `bytes`.
inline bool isAligned(const void *ptr, uintptr_t bytes) {
  return reinterpret_cast<uintptr_t>(ptr) % bytes == 0;
}

/// The epilogue: out = alpha * acc + beta * out. BLAS semantics: with
/// beta == 0 the old value is not read, so NaN in an uninitialised C does not
/// leak into the result.
template <class T>
__device__ __forceinline__ void storeResult(T *out, T acc, T alpha, T beta) {
  *out = beta == T(0) ? alpha * acc : alpha * acc + beta * *out;
}

} // namespace gemm_seeds::detail

#endif // GEMM_RUNTIME_TILE_H
