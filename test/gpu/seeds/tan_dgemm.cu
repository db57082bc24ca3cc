//===- tan_dgemm.cu - Tan et al.'s double-buffered 128-bit DGEMM ----------===//
//
// Algorithm 3 of [Tan et al. 2011] (section 4; docs/references.md), in CUDA C:
//
//  - blocking (section 3.1): a 64 x 64 tile of C per block of 256 threads,
//    bk = 16, and a 4 x 4 register block per thread;
//  - 128-bit memory operations (section 4.1): a thread moves two doubles per
//    load or store. Each shared-memory read fetches a double2, so one K step
//    of a thread is 4 loads for 16 DFMAs instead of 8. Thread (tx, ty) owns
//    rows 2tx, 2tx+1, 2tx+32, 2tx+33 and the same columns with ty: the
//    stride-16 block of MAGMA, made of pairs;
//  - shared-memory double buffering (section 4.2): the 64 x 16 slices are split
//    into halves of 64 x 8, each in its own buffer. While the block multiplies
//    out of one buffer, the global loads of the next half are in flight and are
//    stored into the other buffer, so a single barrier per half-step suffices
//    and no extra register set is needed for the prefetch beyond the one
//    double2 per operand in flight.
//
// The paper schedules the instructions by hand in Fermi assembly (section
// 4.3); here the compiler schedules them. 128-bit global loads need the
// operand to be unit-stride along the loaded direction and 16-byte aligned;
// the launcher checks that and otherwise picks the scalar loaders of the same
// kernel (the math and the shared-memory side are unchanged).
//
//===----------------------------------------------------------------------===//
#include "tile.h"

#include <cstdlib>

namespace gemm_seeds {
using namespace gemm_rt;

namespace {
using detail::forEachTile;
using detail::storeResult;

constexpr int blkM = 64; ///< Rows of C per block.
constexpr int blkN = 64; ///< Columns of C per block.
constexpr int halfK = 8; ///< Depth of one buffer: half of the paper's bk=16.
constexpr int dimX = 16; ///< Compute threads along M.
constexpr int dimY = 16; ///< Compute threads along N.
constexpr int threads = dimX * dimY;
constexpr int pairs = blkM / 2; ///< double2 per row of a buffer.

/// How a thread brings its share of one 64 x 8 half slice from global memory.
/// Rows means M for A and N for B.
enum class Load {
  VecRows,    ///< One double2 of two adjacent rows (unit row stride).
  VecK,       ///< One double2 of two adjacent k (unit K stride).
  ScalarRows, ///< Two doubles, adjacent threads on adjacent rows.
  ScalarK,    ///< Two doubles, adjacent threads on adjacent k.
};

/// One operand's half-slice loader. Shared memory is laid out [k][row] with
/// 64 doubles per row, 16-byte aligned, so the compute loop reads double2.
template <Load Mode> class HalfLoader {
public:
  __device__ HalfLoader(int tid, int64_t rowStride, int64_t kStride)
      : rowStride(rowStride), kStride(kStride) {
    switch (Mode) {
    case Load::VecRows: // 32 pairs of rows x 8 k: the paper's 32 x 8 threads.
      row = 2 * (tid % pairs);
      k = tid / pairs;
      break;
    case Load::VecK: // 4 pairs of k x 64 rows.
      k = 2 * (tid % (halfK / 2));
      row = tid / (halfK / 2);
      break;
    case Load::ScalarRows: // 64 rows x 4 k, twice (k and k + 4).
      row = tid % blkM;
      k = tid / blkM;
      break;
    case Load::ScalarK: // 8 k x 32 rows, twice (row and row + 32).
      k = tid % halfK;
      row = tid / halfK;
      break;
    }
  }

  /// Loads the half slice at `slice` (its element (0, 0)); rows >= rowsLeft
  /// and k >= kLeft are zero.
  __device__ __forceinline__ void load(const double *slice, int64_t rowsLeft,
                                       int64_t kLeft) {
    const double *at = slice + row * rowStride + k * kStride;
    switch (Mode) {
    case Load::VecRows:
      if (row + 1 < rowsLeft && k < kLeft) {
        v = *reinterpret_cast<const double2 *>(at);
      } else {
        v.x = row < rowsLeft && k < kLeft ? at[0] : 0.0;
        v.y = row + 1 < rowsLeft && k < kLeft ? at[rowStride] : 0.0;
      }
      break;
    case Load::VecK:
      if (row < rowsLeft && k + 1 < kLeft) {
        v = *reinterpret_cast<const double2 *>(at);
      } else {
        v.x = row < rowsLeft && k < kLeft ? at[0] : 0.0;
        v.y = row < rowsLeft && k + 1 < kLeft ? at[kStride] : 0.0;
      }
      break;
    case Load::ScalarRows:
      v.x = row < rowsLeft && k < kLeft ? at[0] : 0.0;
      v.y = row < rowsLeft && k + 4 < kLeft ? at[4 * kStride] : 0.0;
      break;
    case Load::ScalarK:
      v.x = row < rowsLeft && k < kLeft ? at[0] : 0.0;
      v.y = row + 32 < rowsLeft && k < kLeft ? at[32 * rowStride] : 0.0;
      break;
    }
  }

  /// Stores the loaded values into a [halfK][blkM] buffer.
  __device__ __forceinline__ void store(double (*buf)[blkM]) const {
    switch (Mode) {
    case Load::VecRows:
      *reinterpret_cast<double2 *>(&buf[k][row]) = v;
      break;
    case Load::VecK:
      buf[k][row] = v.x;
      buf[k + 1][row] = v.y;
      break;
    case Load::ScalarRows:
      buf[k][row] = v.x;
      buf[k + 4][row] = v.y;
      break;
    case Load::ScalarK:
      buf[k][row] = v.x;
      buf[k][row + 32] = v.y;
      break;
    }
  }

private:
  int row, k;
  int64_t rowStride, kStride;
  double2 v; ///< The loaded values, in flight during the math.
};

template <Load ALoad, Load BLoad>
__global__ void __launch_bounds__(threads) tanDgemmKernel(Problem p) {
  // Two buffers per operand; 16 KB in all.
  __shared__ __align__(16) double sA[2][halfK][blkM];
  __shared__ __align__(16) double sB[2][halfK][blkN];

  const double *__restrict__ a = static_cast<const double *>(p.a.ptr);
  const double *__restrict__ b = static_cast<const double *>(p.b.ptr);
  double *c = static_cast<double *>(const_cast<void *>(p.c.ptr));
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * dimX + tx;
  const int64_t steps = (p.k + halfK - 1) / halfK;

  forEachTile<blkM, blkN>(p, [&](int64_t batch, int64_t m0, int64_t n0) {
    HalfLoader<ALoad> loadA(tid, p.a.sr, p.a.sc);
    HalfLoader<BLoad> loadB(tid, p.b.sc, p.b.sr);
    const double *aSlice = a + batch * p.a.sb + m0 * p.a.sr;
    const double *bSlice = b + batch * p.b.sb + n0 * p.b.sc;
    const int64_t rowsLeft = p.m - m0, colsLeft = p.n - n0;

    double acc[4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j)
        acc[i][j] = 0.0;

    // Prologue: the first half slice into buffer 0.
    if (steps > 0) {
      loadA.load(aSlice, rowsLeft, p.k);
      loadB.load(bSlice, colsLeft, p.k);
      loadA.store(sA[0]);
      loadB.store(sB[0]);
    }
    __syncthreads();

    for (int64_t step = 0; step < steps; ++step) {
      const int cur = int(step & 1);
      const bool more = step + 1 < steps;
      if (more) {
        // ld.gm.128 of the next half, issued before the math it overlaps.
        aSlice += halfK * p.a.sc;
        bSlice += halfK * p.b.sr;
        const int64_t kLeft = p.k - (step + 1) * halfK;
        loadA.load(aSlice, rowsLeft, kLeft);
        loadB.load(bSlice, colsLeft, kLeft);
      }
#pragma unroll
      for (int kk = 0; kk < halfK; ++kk) {
        // ld.sm.128 x 4, then 16 DFMA.
        const double2 *rowA = reinterpret_cast<const double2 *>(sA[cur][kk]);
        const double2 *rowB = reinterpret_cast<const double2 *>(sB[cur][kk]);
        const double2 a01 = rowA[tx], a23 = rowA[tx + pairs / 2];
        const double2 b01 = rowB[ty], b23 = rowB[ty + pairs / 2];
        const double ra[4] = {a01.x, a01.y, a23.x, a23.y};
        const double rb[4] = {b01.x, b01.y, b23.x, b23.y};
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
          for (int j = 0; j < 4; ++j)
            acc[i][j] += ra[i] * rb[j];
      }
      // st.sm.128 into the other buffer: nobody reads it during this step,
      // since its last readers finished before the previous barrier.
      if (more) {
        loadA.store(sA[cur ^ 1]);
        loadB.store(sB[cur ^ 1]);
      }
      // The one barrier of the step: the stores above become visible to the
      // next step, and this step's reads of buffer `cur` are over before the
      // next step overwrites it.
      __syncthreads();
    }

    double *cTile = c + batch * p.c.sb + m0 * p.c.sr + n0 * p.c.sc;
    const double alpha = p.alpha, beta = p.beta;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      // Register i holds row 2tx + (i & 1) + 32 (i >> 1).
      const int row = 2 * tx + (i & 1) + blkM / 2 * (i >> 1);
      if (row >= rowsLeft)
        continue;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int col = 2 * ty + (j & 1) + blkN / 2 * (j >> 1);
        if (col < colsLeft)
          storeResult(cTile + row * p.c.sr + col * p.c.sc, acc[i][j], alpha,
                      beta);
      }
    }
  });
}

using Kernel = void (*)(Problem);

template <Load ALoad> Kernel pickKernel(Load bLoad) {
  switch (bLoad) {
  case Load::VecRows:
    return tanDgemmKernel<ALoad, Load::VecRows>;
  case Load::VecK:
    return tanDgemmKernel<ALoad, Load::VecK>;
  case Load::ScalarRows:
    return tanDgemmKernel<ALoad, Load::ScalarRows>;
  case Load::ScalarK:
    break;
  }
  return tanDgemmKernel<ALoad, Load::ScalarK>;
}

Kernel pickKernel(Load aLoad, Load bLoad) {
  switch (aLoad) {
  case Load::VecRows:
    return pickKernel<Load::VecRows>(bLoad);
  case Load::VecK:
    return pickKernel<Load::VecK>(bLoad);
  case Load::ScalarRows:
    return pickKernel<Load::ScalarRows>(bLoad);
  case Load::ScalarK:
    break;
  }
  return pickKernel<Load::ScalarK>(bLoad);
}

/// The loader for an operand with these strides along the tile's rows and
/// along K. A double2 at an even row (or k) offset from `ptr` is 16-byte
/// aligned exactly when `ptr` is and every other stride is even; tiles start
/// at multiples of 64 and 8, so the offsets are even.
Load pickLoad(const void *ptr, int64_t rowStride, int64_t kStride,
              int64_t batchStride, int64_t batch) {
  const bool aligned =
      detail::isAligned(ptr, 16) && (batch == 1 || batchStride % 2 == 0);
  if (aligned && rowStride == 1 && kStride % 2 == 0)
    return Load::VecRows;
  if (aligned && kStride == 1 && rowStride % 2 == 0)
    return Load::VecK;
  return std::abs(kStride) < std::abs(rowStride) ? Load::ScalarK
                                                 : Load::ScalarRows;
}
} // namespace

cudaError_t launchTanDgemm(const Problem &device, cudaStream_t stream) {
  if (device.dtype != DType::F64 || hasEpilogue(device.epilogue))
    return cudaErrorInvalidValue;
  if (detail::hasNoOutput(device))
    return cudaSuccess;
  const Load aLoad = pickLoad(device.a.ptr, device.a.sr, device.a.sc,
                              device.a.sb, device.batch);
  const Load bLoad = pickLoad(device.b.ptr, device.b.sc, device.b.sr,
                              device.b.sb, device.batch);
  dim3 grid;
  if (const cudaError_t err = detail::tileGrid(device, blkM, blkN, grid);
      err != cudaSuccess)
    return err;
  pickKernel(aLoad, bLoad)<<<grid, dim3(dimX, dimY), 0, stream>>>(device);
  return cudaGetLastError();
}

} // namespace gemm_seeds
