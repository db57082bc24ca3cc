//===- tiles.cuh - Input tiles into shared memory ---------------*- C++ -*-===//
//
// How a kernel's threads move the A and B tiles from global to shared memory:
// the packs along each operand's unit stride, the cursors that step them
// through K, register loads and stores or cp.async copies, zero-filled edges.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_KERNELS_TILES_CUH
#define GEMM_KERNELS_TILES_CUH

#include "gemm_kernels/async.cuh"

namespace gemm_kernels {

/// Where a thread's packs of a tile start in global memory at the current K
/// tile, and how many of each pack's elements lie inside the matrix along x
/// (0 for a pack past the tile). Set once per row tile, so that the K loop
/// only steps pointers: addresses and x bounds recomputed per tile would
/// cost more instructions than the loads themselves. Where a tile's packs of
/// a thread lie `stride` apart, only src[0] is used, so that the other
/// pointers take no registers.
template <class T, int LOADS> struct Cursor {
  const T *src[LOADS];
  int room[LOADS];
  long long step;   ///< BK rows of K.
  long long stride; ///< From one pack of the thread to the next.
};

/// The moves of one input tile `M` (a TileMove) of configuration `Cfg`.
template <class Cfg, class M> struct TileMover {
  using T = typename Cfg::T;
  static constexpr int BK = Cfg::BK, PAD = Cfg::PAD, THREADS = Cfg::THREADS;
  static constexpr int PACK = M::PACK, LOADS = M::LOADS;
  using Regs = Pack<T, PACK>[LOADS];
  using Tile = T[BK][M::X + PAD];
  using Cur = Cursor<T, LOADS>;

  /// Where the thread's pack i sits in the tile: row kk (along K), column
  /// x. A line is the packs along the packed dimension at one index of the
  /// other; in a regular tile pack i is THREADS / LINE lines past pack 0, so
  /// the offsets between a thread's packs are constants.
  static __device__ __forceinline__ void coords(int i, int &kk, int &x) {
    constexpr int LINE = (M::ALONG_K ? BK : M::X) / PACK;
    int fast, slow;
    if constexpr (M::REGULAR) {
      fast = (threadIdx.x % LINE) * PACK;
      slow = threadIdx.x / LINE + i * (THREADS / LINE);
    } else {
      const int e = threadIdx.x + i * THREADS;
      fast = (e % LINE) * PACK;
      slow = e / LINE;
    }
    kk = M::ALONG_K ? fast : slow;
    x = M::ALONG_K ? slow : fast;
  }

  /// This thread's cursor over the tiles at x0 of the xs x ks matrix at
  /// `base`. A pack along K needs only its x inside; one along x needs all
  /// of them.
  static __device__ __forceinline__ Cur start(const T *base, long long xStride,
                                              long long kStride, long long xs,
                                              long long x0) {
    Cur c;
#pragma unroll
    for (int i = 0; i < LOADS; ++i) {
      const int e = threadIdx.x + i * THREADS;
      int kk, x;
      coords(i, kk, x);
      const long long gx = x0 + x;
      const long long room = e < M::PACKS ? xs - gx : 0;
      c.src[i] = base + gx * (M::X_UNIT ? 1 : xStride) +
                 kk * (M::K_UNIT ? 1 : kStride);
      c.room[i] = int(room < PACK ? (room > 0 ? room : 0) : PACK);
    }
    c.step = BK * kStride;
    if constexpr (M::REGULAR)
      c.stride = LOADS > 1 ? c.src[LOADS > 1 ? 1 : 0] - c.src[0] : 0;
    return c;
  }

  /// The cursor's test that pack i lies inside the matrix along x (`room`),
  /// unless the block's whole tile does (Inside); an irregular tile's packs
  /// past its end stay outside.
  template <bool Inside>
  static __device__ __forceinline__ bool insideOr(int i, bool room) {
    if constexpr (M::REGULAR)
      return Inside || room;
    else
      return (Inside && threadIdx.x + i * THREADS < M::PACKS) || room;
  }

  /// Whether pack i lies whole inside the matrix along x.
  template <bool Inside>
  static __device__ __forceinline__ bool packIn(const Cur &c, int i) {
    return insideOr<Inside>(i, M::ALONG_K ? 0 < c.room[i] : c.room[i] == PACK);
  }

  /// Whether element v of pack i lies inside the matrix: along x from the
  /// cursor's room, along K only in a partial tile.
  template <bool KFull, bool Inside>
  static __device__ __forceinline__ bool elementIn(const Cur &c, int i, int v,
                                                   int kk, int kLeft) {
    return insideOr<Inside>(i, M::ALONG_K ? 0 < c.room[i] : v < c.room[i]) &&
           (KFull || (M::ALONG_K ? kk + v : kk) < kLeft);
  }

  /// Pack i's source, stepping the cursor to the next K tile.
  static __device__ __forceinline__ const T *step(Cur &c, int i) {
    if constexpr (M::REGULAR) {
      const T *src = c.src[0] + i * c.stride;
      if (i == LOADS - 1)
        c.src[0] += c.step;
      return src;
    } else {
      const T *src = c.src[i];
      c.src[i] += c.step;
      return src;
    }
  }

  /// Whether pack i lies past the tile's last, which only an irregular tile
  /// has.
  static __device__ __forceinline__ bool pastTile(int i) {
    return !M::REGULAR && threadIdx.x + i * THREADS >= M::PACKS;
  }

  /// Loads this thread's packs of the tile under the cursor into registers,
  /// kLeft rows before K's end, and steps the cursor; elements outside the
  /// matrix read as zero. KFull: the whole tile lies inside K; Inside:
  /// inside M and N.
  template <bool Vec, bool KFull, bool Inside>
  static __device__ __forceinline__ void load(Regs &r, Cur &c, int kLeft) {
#pragma unroll
    for (int i = 0; i < LOADS; ++i) {
      int kk, x;
      coords(i, kk, x);
      const T *src = step(c, i);
      // An if-else rather than `continue`: where the vector branch is
      // always taken, nvcc warns of an unreachable loop after a `continue`.
      if (PACK > 1 && Vec && packIn<Inside>(c, i) &&
          (KFull || (M::ALONG_K ? kk + PACK - 1 : kk) < kLeft)) {
        r[i] = *reinterpret_cast<const Pack<T, PACK> *>(src);
      } else {
#pragma unroll
        for (int v = 0; v < PACK; ++v)
          r[i].v[v] =
              elementIn<KFull, Inside>(c, i, v, kk, kLeft) ? src[v] : T(0);
      }
    }
  }

  /// Stores the registers of load into a shared-memory tile.
  static __device__ __forceinline__ void store(Tile &tile, const Regs &r) {
#pragma unroll
    for (int i = 0; i < LOADS; ++i) {
      int kk, x;
      coords(i, kk, x);
      if (pastTile(i))
        continue;
      if constexpr (M::WHOLE_STORE) {
        *reinterpret_cast<Pack<T, PACK> *>(&tile[kk][x]) = r[i];
      } else {
#pragma unroll
        for (int v = 0; v < PACK; ++v)
          tile[M::ALONG_K ? kk + v : kk][M::ALONG_K ? x : x + v] = r[i].v[v];
      }
    }
  }

  /// The cp.async twin of load and store: this thread's packs of the tile go
  /// straight from global to shared memory. A pack that is contiguous on
  /// both sides and wholly inside the matrix is one copy; the others go
  /// element by element, those outside the matrix as zero fills from
  /// `base`, a valid address.
  template <bool Vec, bool KFull, bool Inside>
  static __device__ __forceinline__ void copy(Tile &tile, Cur &c,
                                              const T *base, int kLeft) {
#pragma unroll
    for (int i = 0; i < LOADS; ++i) {
      int kk, x;
      coords(i, kk, x);
      const T *src = step(c, i);
      if (pastTile(i))
        continue;
      if (M::WHOLE_STORE && Vec && packIn<Inside>(c, i) &&
          (KFull || kk < kLeft)) {
        copyAsync<PACK>(&tile[kk][x], src, true);
      } else {
#pragma unroll
        for (int v = 0; v < PACK; ++v) {
          const bool in = elementIn<KFull, Inside>(c, i, v, kk, kLeft);
          copyAsync<1>(&tile[M::ALONG_K ? kk + v : kk][M::ALONG_K ? x : x + v],
                       in ? src + v : base, in);
        }
      }
    }
  }
};

} // namespace gemm_kernels

#endif // GEMM_KERNELS_TILES_CUH
