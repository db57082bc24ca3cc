//===- tile.h - What the seed kernels share ---------------------*- C++ -*-===//
//
// The seed kernels (magma_*.cu, tan_dgemm.cu, volkov_sgemm.cu) differ in how
// they move a K slice of A and B through shared memory and registers, but not
// in how they cover the problem or finish it. This header holds that common
// part: the grid, the walk over tiles and batches, and the alpha/beta epilogue.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_TILE_H
#define GEMM_RUNTIME_TILE_H

#include "gemm_runtime.h"

#include <algorithm>
#include <cstdint>

namespace gemm_rt::detail {

/// Hardware limits of a grid (compute capability 3.0 and later).
constexpr int64_t maxGridX = 2147483647;
constexpr int64_t maxGridYZ = 65535;

/// The grid of one block per tileM x tileN tile of C and per batch, clipped
/// to the hardware limits; forEachTile walks whatever lies past them.
inline dim3 tileGrid(const Problem &p, int tileM, int tileN) {
  int64_t tilesM = (p.m + tileM - 1) / tileM;
  int64_t tilesN = (p.n + tileN - 1) / tileN;
  return dim3(unsigned(std::min(tilesM, maxGridX)),
              unsigned(std::min(tilesN, maxGridYZ)),
              unsigned(std::min(p.batch, maxGridYZ)));
}

/// True if a launcher has nothing to launch: no element of C exists. (K == 0
/// still has work to do: C = beta * C.)
inline bool hasNoOutput(const Problem &p) {
  return p.batch <= 0 || p.m <= 0 || p.n <= 0;
}

/// True if `ptr` is a multiple of `bytes`.
inline bool isAligned(const void *ptr, uintptr_t bytes) {
  return reinterpret_cast<uintptr_t>(ptr) % bytes == 0;
}

/// Calls body(batch, m0, n0) for every tileM x tileN tile of C this block
/// owns. Every thread of a block takes the same path, so the body may use
/// __syncthreads(); it must end with one after its last shared-memory read,
/// because the next tile's loads overwrite shared memory.
template <int TileM, int TileN, class Body>
__device__ __forceinline__ void forEachTile(const Problem &p, Body body) {
  const int64_t tilesM = (p.m + TileM - 1) / TileM;
  const int64_t tilesN = (p.n + TileN - 1) / TileN;
  for (int64_t batch = blockIdx.z; batch < p.batch; batch += gridDim.z)
    for (int64_t tn = blockIdx.y; tn < tilesN; tn += gridDim.y)
      for (int64_t tm = blockIdx.x; tm < tilesM; tm += gridDim.x)
        body(batch, tm * TileM, tn * TileN);
}

/// The epilogue: out = alpha * acc + beta * out. BLAS semantics: with
/// beta == 0 the old value is not read, so NaN in an uninitialised C does not
/// leak into the result.
template <class T>
__device__ __forceinline__ void storeResult(T *out, T acc, T alpha, T beta) {
  *out = beta == T(0) ? alpha * acc : alpha * acc + beta * *out;
}

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_TILE_H
