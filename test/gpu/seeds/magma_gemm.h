//===- magma_gemm.h - MAGMA's Fermi GEMM as a template ----------*- C++ -*-===//
//
// The GEMM for Fermi of [Nath et al. 2010] (Figure 2; docs/references.md), with
// the parameters of [Kurzak et al. 2011] Table 2. A block of 16 x 16 threads
// computes a BlkM x BlkN tile of C. Each K step (BlkK deep) the block copies a
// BlkM x BlkK slice of A and a BlkK x BlkN slice of B into shared memory, then
// every thread multiplies them out of shared memory into a ThrM x ThrN register
// block. Thread (tx, ty) owns the elements (tx + 16 i, ty + 16 j) of the tile:
// the register block is strided by 16, so that 16 neighbouring threads read
// neighbouring shared words and write neighbouring elements of C.
//
// The next slice is prefetched into registers while the current one is being
// multiplied (the software pipelining that MAGMA and CUBLAS 3.2 use, [Tan et
// al. 2011] Algorithm 2 and [Kurzak et al. 2011] Algorithm 1), so its
// global-memory latency hides behind the math.
//
// magma_dgemm.cu and magma_sgemm.cu instantiate it for the two tiles.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_MAGMA_GEMM_H
#define GEMM_RUNTIME_MAGMA_GEMM_H

#include "tile.h"

#include <cstdlib>

namespace gemm_seeds::detail::magma {

constexpr int dimX = 16; ///< Threads along M.
constexpr int dimY = 16; ///< Threads along N.
constexpr int threads = dimX * dimY;

/// Copies one Rows x BlkK slice of an operand (Rows along M for A, along N
/// for B) from global memory into registers, and from there into shared
/// memory laid out [k][row]. Edges are zero-filled, so a ragged tile
/// multiplies as if padded with zeros.
///
/// The 256 threads sweep the slice in the direction in which the operand is
/// contiguous ([Nath et al. 2010]: "16 x 16 or 64 x 4, depending upon Op(A)"),
/// so that a warp's loads coalesce: along K when KFast, along the rows
/// otherwise.
template <class T, int Rows, int BlkK, bool KFast> class SliceLoader {
  /// Elements adjacent threads take along the fast direction.
  static constexpr int fastRun = KFast ? BlkK : (Rows % 64 == 0 ? 64 : 32);
  static constexpr int rowStep = KFast ? threads / BlkK : fastRun;
  static constexpr int kStep = KFast ? BlkK : threads / fastRun;
  static constexpr int rowPasses = Rows / rowStep;
  static constexpr int kPasses = BlkK / kStep;
  static_assert(threads % fastRun == 0 && Rows % rowStep == 0 &&
                    BlkK % kStep == 0,
                "the threads must tile the slice exactly");

public:
  /// rowStride and kStride are the operand's strides along the tile's rows
  /// and along K.
  __device__ SliceLoader(int tid, int64_t rowStride, int64_t kStride)
      : row0(KFast ? tid / BlkK : tid % fastRun),
        k0(KFast ? tid % BlkK : tid / fastRun),
        offset(row0 * rowStride + k0 * kStride), rowJump(rowStep * rowStride),
        kJump(kStep * kStride) {}

  /// Loads the slice whose element (0, 0) is `slice`; only rows < rowsLeft
  /// and k < kLeft exist.
  __device__ __forceinline__ void load(const T *slice, int64_t rowsLeft,
                                       int64_t kLeft) {
#pragma unroll
    for (int r = 0; r < rowPasses; ++r)
#pragma unroll
      for (int q = 0; q < kPasses; ++q) {
        bool inside = row0 + r * rowStep < rowsLeft && k0 + q * kStep < kLeft;
        regs[r][q] = inside ? slice[offset + r * rowJump + q * kJump] : T(0);
      }
  }

  /// Stores the loaded slice into shared memory.
  template <int Ld> __device__ __forceinline__ void store(T (*smem)[Ld]) const {
#pragma unroll
    for (int r = 0; r < rowPasses; ++r)
#pragma unroll
      for (int q = 0; q < kPasses; ++q)
        smem[k0 + q * kStep][row0 + r * rowStep] = regs[r][q];
  }

private:
  int row0, k0;
  int64_t offset, rowJump, kJump;
  T regs[rowPasses][kPasses];
};

/// C = alpha * A * B + beta * C for BlkM x BlkN tiles with BlkK-deep K steps.
/// AKFast and BKFast pick the loaders' sweep (see SliceLoader).
template <class T, int BlkM, int BlkN, int BlkK, bool AKFast, bool BKFast>
__global__ void __launch_bounds__(threads) gemmKernel(Problem p) {
  constexpr int thrM = BlkM / dimX, thrN = BlkN / dimY;
  static_assert(thrM * dimX == BlkM && thrN * dimY == BlkN,
                "the tile must be a multiple of the thread block");
  // One word of padding per row keeps the transposing stores of a slice
  // that is contiguous along K free of bank conflicts.
  __shared__ T sA[BlkK][BlkM + 1];
  __shared__ T sB[BlkK][BlkN + 1];

  const T *__restrict__ a = static_cast<const T *>(p.a.ptr);
  const T *__restrict__ b = static_cast<const T *>(p.b.ptr);
  T *c = static_cast<T *>(const_cast<void *>(p.c.ptr));
  const T alpha = T(p.alpha), beta = T(p.beta);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * dimX + tx;
  const int64_t kSteps = (p.k + BlkK - 1) / BlkK;

  forEachTile<BlkM, BlkN>(p, [&](int64_t batch, int64_t m0, int64_t n0) {
    SliceLoader<T, BlkM, BlkK, AKFast> loadA(tid, p.a.sr, p.a.sc);
    SliceLoader<T, BlkN, BlkK, BKFast> loadB(tid, p.b.sc, p.b.sr);
    const T *aSlice = a + batch * p.a.sb + m0 * p.a.sr;
    const T *bSlice = b + batch * p.b.sb + n0 * p.b.sc;
    const int64_t rowsLeft = p.m - m0, colsLeft = p.n - n0;

    T acc[thrM][thrN];
#pragma unroll
    for (int i = 0; i < thrM; ++i)
#pragma unroll
      for (int j = 0; j < thrN; ++j)
        acc[i][j] = T(0);

    if (kSteps > 0) {
      loadA.load(aSlice, rowsLeft, p.k);
      loadB.load(bSlice, colsLeft, p.k);
      loadA.store(sA);
      loadB.store(sB);
    }
    __syncthreads();
    for (int64_t step = 0; step < kSteps; ++step) {
      const bool more = step + 1 < kSteps;
      if (more) {
        // Issue the next slice's global loads now; they complete while the
        // FMAs below run.
        aSlice += BlkK * p.a.sc;
        bSlice += BlkK * p.b.sr;
        const int64_t kLeft = p.k - (step + 1) * BlkK;
        loadA.load(aSlice, rowsLeft, kLeft);
        loadB.load(bSlice, colsLeft, kLeft);
      }
#pragma unroll
      for (int kk = 0; kk < BlkK; ++kk) {
        T ra[thrM], rb[thrN];
#pragma unroll
        for (int i = 0; i < thrM; ++i)
          ra[i] = sA[kk][tx + dimX * i];
#pragma unroll
        for (int j = 0; j < thrN; ++j)
          rb[j] = sB[kk][ty + dimY * j];
#pragma unroll
        for (int i = 0; i < thrM; ++i)
#pragma unroll
          for (int j = 0; j < thrN; ++j)
            acc[i][j] += ra[i] * rb[j];
      }
      // Everyone is done reading the slice before it is overwritten.
      __syncthreads();
      if (!more)
        break;
      loadA.store(sA);
      loadB.store(sB);
      __syncthreads();
    }

    T *cTile = c + batch * p.c.sb + m0 * p.c.sr + n0 * p.c.sc;
#pragma unroll
    for (int i = 0; i < thrM; ++i) {
      const int row = tx + dimX * i;
      if (row >= rowsLeft)
        continue;
#pragma unroll
      for (int j = 0; j < thrN; ++j) {
        const int col = ty + dimY * j;
        if (col < colsLeft)
          storeResult(cTile + row * p.c.sr + col * p.c.sc, acc[i][j], alpha,
                      beta);
      }
    }
  });
}

/// Launches gemmKernel with the loaders that suit p's layout: each operand is
/// swept along its smaller stride.
template <class T, int BlkM, int BlkN, int BlkK>
cudaError_t launch(const Problem &p, cudaStream_t stream) {
  if (hasNoOutput(p))
    return cudaSuccess;
  const bool aKFast = std::abs(p.a.sc) < std::abs(p.a.sr);
  const bool bKFast = std::abs(p.b.sr) < std::abs(p.b.sc);
  void (*kernel)(Problem) =
      aKFast ? (bKFast ? gemmKernel<T, BlkM, BlkN, BlkK, true, true>
                       : gemmKernel<T, BlkM, BlkN, BlkK, true, false>)
             : (bKFast ? gemmKernel<T, BlkM, BlkN, BlkK, false, true>
                       : gemmKernel<T, BlkM, BlkN, BlkK, false, false>);
  dim3 grid;
  if (const cudaError_t err = tileGrid(p, BlkM, BlkN, grid); err != cudaSuccess)
    return err;
  kernel<<<grid, dim3(dimX, dimY), 0, stream>>>(p);
  return cudaGetLastError();
}

} // namespace gemm_seeds::detail::magma

#endif // GEMM_RUNTIME_MAGMA_GEMM_H
