//===- multiply.cuh - One K step of the register tile -----------*- C++ -*-===//
//
// acc += A tile * B tile on a thread's fragments: scalar FMAs, or FP64
// tensor-core mma.sync where the configuration's DMMA_K is set. A whole K
// tile unrolled (multiplyTile; `Fence` puts a __syncwarp halfway through, see
// the pipelines in kernel.cuh), or the K remainder's rows rolled
// (multiplyRest).
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_KERNELS_MULTIPLY_CUH
#define GEMM_KERNELS_MULTIPLY_CUH

#include "gemm_kernels/config.cuh"

namespace gemm_kernels {

/// One k of the FMA multiply: (ty, tx) is the thread's place in the
/// (BM / TM) x (BN / TN) grid.
template <class Cfg>
__device__ __forceinline__ void
fmaStep(typename Cfg::T (&acc)[Cfg::TM][Cfg::TN],
        const typename Cfg::T (&ta)[Cfg::BK][Cfg::BM + Cfg::PAD],
        const typename Cfg::T (&tb)[Cfg::BK][Cfg::BN + Cfg::PAD], int ty,
        int tx, int kk) {
  using T = typename Cfg::T;
  static_assert(!Cfg::A::K_INNER && !Cfg::B::K_INNER,
                "FMA kernels read k-major tiles");
  constexpr int TM = Cfg::TM, TN = Cfg::TN;
  constexpr int ROW_GROUP = Cfg::ROW_GROUP, COL_GROUP = Cfg::COL_GROUP;
  Pack<T, ROW_GROUP> fa[TM / ROW_GROUP];
  Pack<T, COL_GROUP> fb[TN / COL_GROUP];
#pragma unroll
  for (int g = 0; g < TM / ROW_GROUP; ++g)
    fa[g] = *reinterpret_cast<const Pack<T, ROW_GROUP> *>(
        &ta[kk][column<typename Cfg::A>(
            kk, g * Cfg::ROW_STEP + ty * ROW_GROUP)]);
#pragma unroll
  for (int g = 0; g < TN / COL_GROUP; ++g)
    fb[g] = *reinterpret_cast<const Pack<T, COL_GROUP> *>(
        &tb[kk][column<typename Cfg::B>(
            kk, g * Cfg::COL_STEP + tx * COL_GROUP)]);
  // Columns outer, rows serpentine from the last: each FMA shares an
  // operand with the one before, which ptxas serves from its reuse cache.
  // Which row starts sets ptxas's register banks (docs/codegen.md).
#pragma unroll
  for (int j = 0; j < TN; ++j)
#pragma unroll
    for (int s = 0; s < TM; ++s) {
      const int i = j % 2 ? s : TM - 1 - s;
      acc[i][j] += fa[i / ROW_GROUP].v[i % ROW_GROUP] *
                   fb[j / COL_GROUP].v[j % COL_GROUP];
    }
}

/// Where the product's column 2 * (lane % 4) + c of 8-column block j lies in
/// a dmma lane's accumulators, in the order of its columns.
template <class Cfg>
__device__ constexpr int accColumn(int j, int c) {
  return (j / Cfg::B_GROUP) * 2 * Cfg::B_GROUP + c * Cfg::B_GROUP +
         j % Cfg::B_GROUP;
}

/// The fragments of a tile stored x-major (a tile move's K_INNER) for DMMA_K 8:
/// lane tx's two k of x0 + 8 b + tx / 4, 2 (tx % 4) and the next, as one
/// 16-byte pack, for each of N 8-row (8-column) blocks b.
template <class M, int N, class Tile>
__device__ __forceinline__ void pairedFragments(double (&f)[2][N],
                                                const Tile &tile, int k0,
                                                int x0, int tx) {
#pragma unroll
  for (int b = 0; b < N; ++b) {
    const Pack<double, 2> p = *reinterpret_cast<const Pack<double, 2> *>(
        &element<M>(tile, k0 + 2 * (tx % 4), x0 + 8 * b + tx / 4));
    f[0][b] = p.v[0];
    f[1][b] = p.v[1];
  }
}

/// The fragments at k of a tile stored k-major, for dmmaStep: lane tx's
/// x0 + 8 GROUP g + GROUP (tx / 4) + h, h < GROUP, as one pack of GROUP,
/// for each of N / GROUP groups of 8-row (8-column) blocks g.
template <int GROUP, int N, class Tile>
__device__ __forceinline__ void groupedFragments(double (&f)[N],
                                                 const Tile &tile, int k,
                                                 int x0, int tx) {
#pragma unroll
  for (int g = 0; g < N / GROUP; ++g) {
    const Pack<double, GROUP> x = *reinterpret_cast<const Pack<double, GROUP> *>(
        &tile[k][x0 + g * 8 * GROUP + GROUP * (tx / 4)]);
#pragma unroll
    for (int h = 0; h < GROUP; ++h)
      f[g * GROUP + h] = x.v[h];
  }
}

/// DMMA_K k of the FP64 tensor-core multiply, from k0: (ty, tx) is the warp
/// and the lane; each warp computes a WM x WN tile of 8 x 8 products. Lane
/// l holds A[l/4][l%4] and B[l%4][l/4] of each 8 x 4 and 4 x 8 block and
/// C[l/4][2*(l%4) + {0, 1}] of each 8 x 8 result, which is the m8n8k4 layout
/// and, for row blocks taken in pairs, the m16n8kK one; sm_90 has the wider
/// products (PTX ISA 7.8), which need an even TM. Which rows and columns of
/// the warp tile a product's rows and columns stand for is free, so that a
/// lane's fragments of neighbouring blocks lie side by side and load as one
/// 16-byte pack: with A_GROUP = 2, row g of block pair p is warp row
/// 16p + 2g (block 2p) or 16p + 2g + 1 (block 2p + 1); B_GROUP = 2 does the
/// same for the columns of block pairs. A lane's C then holds groups of 2
/// rows and 2 * B_GROUP adjacent columns, which accColumn orders. Which k
/// a product's k stands for is free too, as long as A and B agree: where a
/// tile is stored x-major, lane l takes k 2 (l % 4) + s in step s of a
/// product, not 4 s + l % 4, and reads both from that tile as one pack.
template <class Cfg>
__device__ __forceinline__ void
dmmaStep(double (&acc)[Cfg::TM][Cfg::TN],
         const double (&ta)[Cfg::BK][Cfg::BM + Cfg::PAD],
         const double (&tb)[Cfg::BK][Cfg::BN + Cfg::PAD], int ty, int tx,
         int k0) {
  constexpr int TM = Cfg::TM, TN = Cfg::TN, K = Cfg::DMMA_K;
  constexpr int A_GROUP = Cfg::A_GROUP, B_GROUP = Cfg::B_GROUP;
  constexpr int WM = 8 * TM, WN = 4 * TN;
  // m16n8kK exists from sm_90 on.
#if __CUDA_ARCH__ >= 900
  constexpr bool WIDE = Cfg::DMMA_WIDE;
#else
  constexpr bool WIDE = false;
#endif
  const int wm0 = (ty / (Cfg::BN / WN)) * WM, wn0 = (ty % (Cfg::BN / WN)) * WN;
  constexpr bool A_PAIRED = Cfg::A::K_INNER, B_PAIRED = Cfg::B::K_INNER;
  constexpr bool PAIRED = A_PAIRED || B_PAIRED;
  static_assert((!PAIRED || K == 8) && (!A_PAIRED || A_GROUP == 1) &&
                    (!B_PAIRED || B_GROUP == 1),
                "an x-major tile pairs the k of m16n8k8, one block a pack");
  double fa[K / 4][TM], fb[K / 4][TN / 2];
  if constexpr (A_PAIRED)
    pairedFragments<typename Cfg::A>(fa, ta, k0, wm0, tx);
  if constexpr (B_PAIRED)
    pairedFragments<typename Cfg::B>(fb, tb, k0, wn0, tx);
#pragma unroll
  for (int s = 0; s < K / 4; ++s) {
    const int k = PAIRED ? k0 + 2 * (tx % 4) + s : k0 + 4 * s + tx % 4;
    if constexpr (!A_PAIRED)
      groupedFragments<A_GROUP>(fa[s], ta, k, wm0, tx);
    if constexpr (!B_PAIRED)
      groupedFragments<B_GROUP>(fb[s], tb, k, wn0, tx);
  }
  if constexpr (WIDE) {
    // One m16n8kK product per pair of 8-row blocks and 8-column block: its
    // A registers are the rows' fragments for each 4 k in turn, its B
    // registers the column's (PTX ISA, "Matrix Fragments for
    // mma.m16n8k4/8/16 with .f64").
#pragma unroll
    for (int r = 0; r < TM / 2; ++r)
#pragma unroll
      for (int j = 0; j < TN / 2; ++j) {
        if constexpr (K == 8)
          asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 "
              "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
              "{%0, %1, %2, %3};"
              : "+d"(acc[2 * r][accColumn<Cfg>(j, 0)]),
                "+d"(acc[2 * r][accColumn<Cfg>(j, 1)]),
                "+d"(acc[2 * r + 1][accColumn<Cfg>(j, 0)]),
                "+d"(acc[2 * r + 1][accColumn<Cfg>(j, 1)])
              : "d"(fa[0][2 * r]), "d"(fa[0][2 * r + 1]),
                "d"(fa[1][2 * r]), "d"(fa[1][2 * r + 1]), "d"(fb[0][j]),
                "d"(fb[1][j]));
        else
          asm("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 "
              "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
              : "+d"(acc[2 * r][accColumn<Cfg>(j, 0)]),
                "+d"(acc[2 * r][accColumn<Cfg>(j, 1)]),
                "+d"(acc[2 * r + 1][accColumn<Cfg>(j, 0)]),
                "+d"(acc[2 * r + 1][accColumn<Cfg>(j, 1)])
              : "d"(fa[0][2 * r]), "d"(fa[0][2 * r + 1]), "d"(fb[0][j]));
      }
  } else {
    // One m8n8k4 product per 8 x 8 block and 4 k.
#pragma unroll
    for (int s = 0; s < K / 4; ++s)
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN / 2; ++j)
          asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
              "{%0, %1}, {%2}, {%3}, {%0, %1};"
              : "+d"(acc[i][accColumn<Cfg>(j, 0)]),
                "+d"(acc[i][accColumn<Cfg>(j, 1)])
              : "d"(fa[s][i]), "d"(fb[s][j]));
  }
}

/// One step of the configuration's multiply: k (FMA) or DMMA_K k from it.
template <class Cfg>
__device__ __forceinline__ void
multiplyStep(typename Cfg::T (&acc)[Cfg::TM][Cfg::TN],
             const typename Cfg::T (&ta)[Cfg::BK][Cfg::BM + Cfg::PAD],
             const typename Cfg::T (&tb)[Cfg::BK][Cfg::BN + Cfg::PAD], int ty,
             int tx, int k) {
  if constexpr (Cfg::DMMA_K > 0)
    dmmaStep<Cfg>(acc, ta, tb, ty, tx, k);
  else
    fmaStep<Cfg>(acc, ta, tb, ty, tx, k);
}

/// The configuration's multiply of a whole K tile, unrolled.
template <class Cfg, bool Fence = false>
__device__ __forceinline__ void
multiplyTile(typename Cfg::T (&acc)[Cfg::TM][Cfg::TN],
             const typename Cfg::T (&ta)[Cfg::BK][Cfg::BM + Cfg::PAD],
             const typename Cfg::T (&tb)[Cfg::BK][Cfg::BN + Cfg::PAD], int ty,
             int tx) {
  constexpr int STEP = Cfg::DMMA_K > 0 ? Cfg::DMMA_K : 1;
#pragma unroll
  for (int k = 0; k < Cfg::BK; k += STEP) {
    if (Fence && k == Cfg::BK / STEP / 2 * STEP)
      __syncwarp();
    multiplyStep<Cfg>(acc, ta, tb, ty, tx, k);
  }
}

/// The multiply of a tile's first kRest rows (the rest are zeros), a step
/// at a time in a loop kept rolled: it runs once per tile of C, while an
/// unrolled copy would cost nvcc as much time as the main loop's.
template <class Cfg>
__device__ __forceinline__ void
multiplyRest(typename Cfg::T (&acc)[Cfg::TM][Cfg::TN],
             const typename Cfg::T (&ta)[Cfg::BK][Cfg::BM + Cfg::PAD],
             const typename Cfg::T (&tb)[Cfg::BK][Cfg::BN + Cfg::PAD], int ty,
             int tx, int kRest) {
  constexpr int STEP = Cfg::DMMA_K > 0 ? Cfg::DMMA_K : 1;
#pragma unroll 1
  for (int k = 0; k < kRest; k += STEP)
    multiplyStep<Cfg>(acc, ta, tb, ty, tx, k);
}

} // namespace gemm_kernels

#endif // GEMM_KERNELS_MULTIPLY_CUH
