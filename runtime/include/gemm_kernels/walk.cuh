//===- walk.cuh - The grid and its walk over tiles of C ---------*- C++ -*-===//
//
// How every kernel of gemm-opt and of the runtime covers a problem: one block
// per tile of C and per batch, consecutive blocks along N (they share A's
// row tile in L2), and the row tiles and batches past the grid's limits
// walked in turn. The grid's x holds every tile along N: a loop over them
// would keep its counter live across the kernel's body, which pushes
// register-bound kernels into spills.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_KERNELS_WALK_CUH
#define GEMM_KERNELS_WALK_CUH

#include "gemm_runtime.h"

#include <algorithm>
#include <cstdint>

namespace gemm_kernels {

/// Hardware limits of a grid (compute capability 3.0 and later).
constexpr int64_t maxGridX = 2147483647;
constexpr int64_t maxGridYZ = 65535;

/// Sets `grid` to one block per tileM x tileN tile of C and per batch: x
/// along N, y along M, z over the batch, the latter two clipped to the
/// hardware limits. Fails, launching nothing, when N has more tiles than a
/// grid's x holds.
inline cudaError_t tileGrid(const gemm_rt::Problem &p, int tileM, int tileN,
                            dim3 &grid) {
  const int64_t tilesM = (p.m + tileM - 1) / tileM;
  const int64_t tilesN = (p.n + tileN - 1) / tileN;
  if (tilesN > maxGridX)
    return cudaErrorInvalidConfiguration;
  grid = dim3(unsigned(tilesN), unsigned(std::min(tilesM, maxGridYZ)),
              unsigned(std::min(p.batch, maxGridYZ)));
  return cudaSuccess;
}

/// Calls body(batch, m0, n0) for every TileM x TileN tile of C this block
/// owns. Every thread of a block takes the same path, so the body may use
/// __syncthreads(); it must end with one after its last shared-memory read,
/// because the next tile's loads overwrite shared memory.
template <int TileM, int TileN, class Body>
__device__ __forceinline__ void forEachTile(const gemm_rt::Problem &p,
                                            Body body) {
  const int64_t n0 = int64_t(blockIdx.x) * TileN;
  for (int64_t batch = blockIdx.z; batch < p.batch; batch += gridDim.z)
    for (int64_t m0 = int64_t(blockIdx.y) * TileM; m0 < p.m;
         m0 += int64_t(gridDim.y) * TileM)
      body(batch, m0, n0);
}

} // namespace gemm_kernels

#endif // GEMM_KERNELS_WALK_CUH
