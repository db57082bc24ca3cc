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

/// The moves of one input tile `M` (tile_move.def) of configuration `Cfg`.
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
      fast = (threadIndex<Cfg>() % LINE) * PACK;
      slow = threadIndex<Cfg>() / LINE + i * (THREADS / LINE);
    } else {
      const int e = threadIndex<Cfg>() + i * THREADS;
      fast = (e % LINE) * PACK;
      slow = e / LINE;
    }
    kk = M::ALONG_K ? fast : slow;
    x = M::ALONG_K ? slow : fast;
  }

  /// Element (k, x) of a tile, where its layout puts it.
  static __device__ __forceinline__ T &at(Tile &tile, int k, int x) {
    return element<M>(tile, k, x);
  }

  /// Element v of the pack at (kk, x).
  static __device__ __forceinline__ T &packElement(Tile &tile, int kk, int x,
                                                   int v) {
    return M::ALONG_K ? at(tile, kk + v, x) : at(tile, kk, x + v);
  }

  /// Whether the thread's packs share one pointer `stride` apart. A regular
  /// tile's packs along K lie a fixed number of rows apart, so that where
  /// three or more of them exist no one stride keeps those that start past
  /// the matrix's edge inside it: such packs keep a pointer each, like an
  /// irregular tile's.
  static constexpr bool STRIDED = M::REGULAR && !(M::ALONG_K && LOADS > 2);

  /// This thread's cursor over the tiles at x0 of the xs x ks matrix at
  /// `base`. A pack along K needs only its x inside; one along x needs all
  /// of them. For the vector K loop (Vec), which moves every pack whole and
  /// unchecked, a pack that starts past the matrix's edge reads the last
  /// pack inside it instead, whose values reach only rows (columns) of the
  /// tile that are never stored. A pack along x may also run past the edge
  /// into the row's padding, which packsFit() requires.
  template <bool Vec>
  static __device__ __forceinline__ Cur start(const T *base, long long xStride,
                                              long long kStride, long long xs,
                                              long long x0) {
    Cur c;
    const long long lastX = M::ALONG_K ? xs - 1 : (xs - 1) / PACK * PACK;
    long long offset[LOADS];
    int live = 0;
#pragma unroll
    for (int i = 0; i < LOADS; ++i) {
      const int e = threadIndex<Cfg>() + i * THREADS;
      int kk, x;
      coords(i, kk, x);
      const long long gx = x0 + x;
      const long long room = e < M::PACKS ? xs - gx : 0;
      // A pack past the tile's last (irregular tiles) may lie past its K
      // rows too: it reads the tile's first row.
      const bool moved = Vec && room <= 0;
      offset[i] = (moved ? lastX : gx) * (M::X_UNIT ? 1 : xStride) +
                  (moved && e >= M::PACKS ? 0 : kk) * (M::K_UNIT ? 1 : kStride);
      c.room[i] = int(room < PACK ? (room > 0 ? room : 0) : PACK);
      live += room > 0;
    }
    c.step = BK * kStride;
    // A regular tile's packs along x share their x, so that one moved
    // moves all; of its packs along K, where only the first starts inside
    // the matrix, the others read it.
    constexpr bool SHARED = Vec && STRIDED && M::ALONG_K;
    if constexpr (STRIDED)
      c.stride = LOADS == 1 || (SHARED && live < LOADS)
                     ? 0
                     : offset[LOADS > 1 ? 1 : 0] - offset[0];
#pragma unroll
    for (int i = 0; i < LOADS; ++i)
      c.src[i] = base + offset[i];
    // ptxas would rather compute that stride anew in every K step than hold
    // it (256x128x8/8x16 f32, rows of A along K: 1187 against 1122
    // instructions a step); it cannot see through an empty asm.
    if constexpr (SHARED)
      asm volatile("" : "+l"(c.stride));
    return c;
  }

  /// Whether element v of pack i lies inside the matrix along x.
  static __device__ __forceinline__ bool elementIn(const Cur &c, int i, int v) {
    return M::ALONG_K ? 0 < c.room[i] : v < c.room[i];
  }

  /// Whether a live pack of the tile at x0 runs past the matrix's edge,
  /// xs: the packs run along x and xs is not a multiple of them.
  static __device__ __forceinline__ bool pastEdge(long long xs, long long x0) {
    return !M::ALONG_K && PACK > 1 && x0 + M::X > xs && xs % PACK != 0;
  }

  /// Pack i's source, stepping the cursor to the next K tile.
  static __device__ __forceinline__ const T *step(Cur &c, int i) {
    if constexpr (STRIDED) {
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
    return !M::REGULAR && threadIndex<Cfg>() + i * THREADS >= M::PACKS;
  }

  /// Loads this thread's packs of the next K tile into registers and steps
  /// the cursor: with Vec each pack whole and unchecked, else element by
  /// element, zero outside the matrix.
  template <bool Vec>
  static __device__ __forceinline__ void load(Regs &r, Cur &c) {
#pragma unroll
    for (int i = 0; i < LOADS; ++i) {
      const T *src = step(c, i);
      if constexpr (Vec) {
        r[i] = *reinterpret_cast<const Pack<T, PACK> *>(src);
      } else {
#pragma unroll
        for (int v = 0; v < PACK; ++v)
          r[i].v[v] = elementIn(c, i, v) ? src[v] : T(0);
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
        *reinterpret_cast<Pack<T, PACK> *>(&packElement(tile, kk, x, 0)) =
            r[i];
      } else {
#pragma unroll
        for (int v = 0; v < PACK; ++v)
          packElement(tile, kk, x, v) = r[i].v[v];
      }
    }
  }

  /// The cp.async twin of load and store: this thread's packs of the next
  /// K tile go straight from global to shared memory, as load moves them.
  /// A pack that is contiguous on both sides is one copy, the others go
  /// element by element.
  template <bool Vec>
  static __device__ __forceinline__ void copy(Tile &tile, Cur &c,
                                              const T *base) {
#pragma unroll
    for (int i = 0; i < LOADS; ++i) {
      int kk, x;
      coords(i, kk, x);
      const T *src = step(c, i);
      if (pastTile(i))
        continue;
      const auto dst = [&](int v) { return &packElement(tile, kk, x, v); };
      if constexpr (Vec && M::WHOLE_STORE) {
        copyAsync<PACK>(dst(0), src, true);
      } else {
        // What is not copied (`in` false) is zero filled from `base`, a
        // valid address.
#pragma unroll
        for (int v = 0; v < PACK; ++v) {
          const bool in = Vec || elementIn(c, i, v);
          copyAsync<1>(dst(v), in ? src + v : base, in);
        }
      }
    }
  }

  /// The K tile at k0 with only kLeft rows inside K, element by element
  /// (zeros outside the matrix) in a rolled loop: it runs once per tile of
  /// C, and unrolled moves with bounds would cost nvcc as much as the K
  /// loop's. Consecutive threads read along the unit stride.
  static __device__ __forceinline__ void
  fillRest(Tile &tile, const T *base, long long xStride, long long kStride,
           long long xs, long long x0, long long k0, int kLeft) {
#pragma unroll 1
    for (int e = threadIndex<Cfg>(); e < BK * M::X; e += THREADS) {
      const int kk = M::K_UNIT ? e % BK : e / M::X;
      const int x = M::K_UNIT ? e / BK : e % M::X;
      const bool in = kk < kLeft && x0 + x < xs;
      at(tile, kk, x) =
          in ? base[(x0 + x) * xStride + (k0 + kk) * kStride] : T(0);
    }
  }
};

} // namespace gemm_kernels

#endif // GEMM_KERNELS_TILES_CUH
