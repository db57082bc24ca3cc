//===- volkov_sgemm.cu - Volkov and Demmel's 64 x 16 SGEMM ----------------===//
//
// The matrix-multiply routine of [Volkov & Demmel 2008] (section 4.1 and Figure
// 4; docs/references.md). The GPU is programmed as a vector machine of vector
// length 64: a block of 64 threads computes a 64 x 16 tile of C, thread t
// holding row t of the tile, 16 values, in registers (c[1:16] in Figure 4).
// Each K step the block stores the next 16 x 16 block of B in shared memory;
// every thread then streams its row of A from global memory through registers
// and does 16 rank-1 updates, each a scalar of A times a row of the B block. A
// is fetched four values ahead of its use (the paper's a[4] prefetch), so its
// latency overlaps the math.
//
// Reads of A coalesce when A is unit-stride along M (column-major, the
// paper's case); other layouts are correct but slower.
//
//===----------------------------------------------------------------------===//
#include "tile.h"

#include <cstdlib>

namespace gemm_seeds {
using namespace gemm_rt;

namespace {
using detail::forEachTile;
using detail::storeResult;

constexpr int blkM = 64; ///< Rows of C per block: the vector length.
constexpr int blkN = 16; ///< Columns of C per block: registers per thread.
constexpr int blkK = 16; ///< Depth of the B block in shared memory.
constexpr int threads = blkM;
constexpr int aAhead = 4; ///< How far ahead of its use A is loaded.
/// Padding of a B-block row: the paper pads by one word against the bank
/// conflicts of the transposing store; four words do the same and keep rows
/// 16-byte aligned, so a row is read with 128-bit broadcast loads.
constexpr int bPad = 4;
constexpr int bLoads = blkK * blkN / threads; ///< B elements per thread.

template <bool BKFast>
__global__ void __launch_bounds__(threads) volkovSgemmKernel(Problem p) {
  __shared__ __align__(16) float bs[blkK][blkN + bPad];

  const float *__restrict__ a = static_cast<const float *>(p.a.ptr);
  const float *__restrict__ b = static_cast<const float *>(p.b.ptr);
  float *c = static_cast<float *>(const_cast<void *>(p.c.ptr));
  const float alpha = float(p.alpha), beta = float(p.beta);
  const int tid = threadIdx.x;
  // This thread's share of the B block: adjacent threads along B's
  // contiguous direction, so the loads coalesce.
  const int bK = BKFast ? tid % blkK : tid / blkN;
  const int bN = BKFast ? tid / blkK : tid % blkN;
  constexpr int bKStep = BKFast ? 0 : threads / blkN;
  constexpr int bNStep = BKFast ? threads / blkK : 0;

  forEachTile<blkM, blkN>(p, [&](int64_t batch, int64_t m0, int64_t n0) {
    const bool rowInside = tid < p.m - m0;
    const int64_t colsLeft = p.n - n0;
    // Rows past the edge read nothing; point them at row 0 of the tile.
    const float *aRow =
        a + batch * p.a.sb + (m0 + (rowInside ? tid : 0)) * p.a.sr;
    const float *bBlock = b + batch * p.b.sb + n0 * p.b.sc;

    float acc[blkN];
#pragma unroll
    for (int j = 0; j < blkN; ++j)
      acc[j] = 0.0f;

    for (int64_t k0 = 0; k0 < p.k; k0 += blkK) {
      const int64_t kLeft = p.k - k0;
      // b[1:16][1:16] = next 16 x 16 block in B, zero past the edges.
#pragma unroll
      for (int q = 0; q < bLoads; ++q) {
        const int kk = bK + q * bKStep, nn = bN + q * bNStep;
        bs[kk][nn] = kk < kLeft && nn < colsLeft
                         ? bBlock[kk * p.b.sr + nn * p.b.sc]
                         : 0.0f;
      }
      // The first values of A, loaded before the barrier so that their
      // latency overlaps it.
      float ahead[aAhead];
#pragma unroll
      for (int q = 0; q < aAhead; ++q)
        ahead[q] = rowInside && q < kLeft ? aRow[q * p.a.sc] : 0.0f;
      __syncthreads(); // b[][] is written by all threads.

#pragma unroll
      for (int kk = 0; kk < blkK; ++kk) {
        const float x = ahead[kk % aAhead];
        if (kk + aAhead < blkK)
          ahead[kk % aAhead] = rowInside && kk + aAhead < kLeft
                                   ? aRow[(kk + aAhead) * p.a.sc]
                                   : 0.0f;
        // c[1:16] += a * b[kk][1:16], the row read as four float4.
        const float4 *row = reinterpret_cast<const float4 *>(bs[kk]);
#pragma unroll
        for (int q = 0; q < blkN / 4; ++q) {
          const float4 y = row[q];
          acc[4 * q + 0] += x * y.x;
          acc[4 * q + 1] += x * y.y;
          acc[4 * q + 2] += x * y.z;
          acc[4 * q + 3] += x * y.w;
        }
      }
      aRow += blkK * p.a.sc;
      bBlock += blkK * p.b.sr;
      __syncthreads(); // Done with b[][] before it is overwritten.
    }

    if (!rowInside)
      return;
    float *cRow = c + batch * p.c.sb + (m0 + tid) * p.c.sr + n0 * p.c.sc;
#pragma unroll
    for (int j = 0; j < blkN; ++j)
      if (j < colsLeft)
        storeResult(cRow + j * p.c.sc, acc[j], alpha, beta);
  });
}
} // namespace

cudaError_t launchVolkovSgemm(const Problem &device, cudaStream_t stream) {
  if (device.dtype != DType::F32 || hasEpilogue(device.epilogue))
    return cudaErrorInvalidValue;
  if (detail::hasNoOutput(device))
    return cudaSuccess;
  const bool bKFast = std::abs(device.b.sr) < std::abs(device.b.sc);
  void (*kernel)(Problem) =
      bKFast ? volkovSgemmKernel<true> : volkovSgemmKernel<false>;
  dim3 grid;
  if (const cudaError_t err = detail::tileGrid(device, blkM, blkN, grid);
      err != cudaSuccess)
    return err;
  kernel<<<grid, threads, 0, stream>>>(device);
  return cudaGetLastError();
}

} // namespace gemm_seeds
