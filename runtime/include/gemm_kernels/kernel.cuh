//===- kernel.cuh - The two-level tiled GEMM kernel -------------*- C++ -*-===//
//
// The kernel of one configuration (config.cuh): BM x BN x BK tiles of A and B
// in shared memory (k-major, rows padded), a TM x TN register tile per thread,
// the K loop pipelined as PREFETCH says, predicated zero-filled edges and a
// BLAS epilogue. launch.cuh launches it.
//
// The thread-to-element map groups ROW_GROUP consecutive rows (COL_GROUP
// columns) and strides the groups by the thread count along that dimension,
// so that the register fragments are vector loads from shared memory and
// consecutive threads store consecutive columns of C. With groups of 1 it is
// the strided map of the MAGMA Fermi kernels ([Nath et al. 2010]).
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_KERNELS_KERNEL_CUH
#define GEMM_KERNELS_KERNEL_CUH

#include "gemm_kernels/epilogue.cuh"
#include "gemm_kernels/multiply.cuh"
#include "gemm_kernels/tiles.cuh"
#include "gemm_kernels/walk.cuh"

#include <type_traits>

namespace gemm_kernels {

/// Hides x and y from the optimiser, per tile of C. What the code after the
/// K loop derives from the thread's place must be computed anew there: else
/// it merges with the multiply's fragment offsets into values held across
/// the loop, and ptxas issues the loop's shared loads later
/// (docs/cost-model.md, "Measurements behind the code").
__device__ __forceinline__ void opaque(int &x, int &y) {
  asm volatile("mov.b32 %0, %0;\n\tmov.b32 %1, %1;" : "+r"(x), "+r"(y));
}

template <class Cfg> struct Gemm {
  static_assert(isKernelConfig<Cfg>());
  using T = typename Cfg::T;
  static constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK;
  static constexpr int PAD = Cfg::PAD, STAGES = Cfg::STAGES;
  using MA = TileMover<Cfg, typename Cfg::A>;
  using MB = TileMover<Cfg, typename Cfg::B>;
  using Acc = T[Cfg::TM][Cfg::TN];
  using BuffersA = T[STAGES][BK][BM + PAD];
  using BuffersB = T[STAGES][BK][BN + PAD];
  // The plan's bytes (lib/Target's KernelPlan) are the buffers carved here:
  // A's rounded up to 32, then B's.
  static_assert(Cfg::A_TILE_BYTES == (sizeof(BuffersA) + 31) / 32 * 32 &&
                    Cfg::SMEM_BYTES == Cfg::A_TILE_BYTES + sizeof(BuffersB),
                "the configuration's shared-memory bytes are not its "
                "buffers'");

  /// The thread's place: its warp and lane (dmma; warps tile the block row
  /// by row) or its row and column group of C (consecutive threads own
  /// consecutive column groups), and its first element in the block tile.
  struct Place {
    int ty, tx, rowIn, colIn;
  };
  /// Derived anew from the thread's index at each use rather than passed
  /// down: values held across the K loop would each keep a register.
  static __device__ __forceinline__ Place place() {
    const int t = threadIndex<Cfg>();
    if constexpr (Cfg::DMMA_K > 0) {
      constexpr int WM = 8 * Cfg::TM, WN = 4 * Cfg::TN;
      const int ty = t / 32, tx = t % 32;
      return {ty, tx, (ty / (BN / WN)) * WM + Cfg::A_GROUP * (tx / 4),
              (ty % (BN / WN)) * WN + 2 * Cfg::B_GROUP * (tx % 4)};
    } else {
      const int ty = t / (BN / Cfg::TN), tx = t % (BN / Cfg::TN);
      return {ty, tx, ty * Cfg::ROW_GROUP, tx * Cfg::COL_GROUP};
    }
  }

  /// The next K tile of A and B into registers.
  template <bool Vec>
  static __device__ __forceinline__ void
  loadTiles(typename MA::Regs &ra, typename MB::Regs &rb,
            typename MA::Cur &ca, typename MB::Cur &cb) {
    MA::template load<Vec>(ra, ca);
    MB::template load<Vec>(rb, cb);
  }

  /// The next K tile of A and B into shared buffers by cp.async.
  template <bool Vec>
  static __device__ __forceinline__ void
  copyTiles(typename MA::Tile &ta, typename MB::Tile &tb, typename MA::Cur &ca,
            typename MB::Cur &cb, const T *a, const T *b) {
    MA::template copy<Vec>(ta, ca, a);
    MB::template copy<Vec>(tb, cb, b);
  }

  /// The shared-memory buffers: dynamic shared memory, which may pass the
  /// 48 KB of a static declaration, both tiles aligned for the widest pack
  /// (4 x f64). Each use names the shared array itself, so that the compiler
  /// keeps the buffers' pointers 32-bit shared addresses.
  static __device__ __forceinline__ BuffersA &tilesA() {
    extern __shared__ __align__(32) unsigned char smem[];
    return *reinterpret_cast<BuffersA *>(smem);
  }
  static __device__ __forceinline__ BuffersB &tilesB() {
    extern __shared__ __align__(32) unsigned char smem[];
    return *reinterpret_cast<BuffersB *>(smem + Cfg::A_TILE_BYTES);
  }

  /// What one row tile's K loop works on.
  struct Step {
    Acc &acc;
    typename MA::Cur &ca;
    typename MB::Cur &cb;
    const T *a, *b;
    int kTiles, kRest;
  };

  /// Where the remainder's elements lie: the strides along x and K of A
  /// and B, the extents and the tile's origin along M and N.
  struct Rest {
    long long aX, aK, bX, bK, m, n, m0, n0;
  };

  /// The K rows short of a full tile, k0 on: one more step through buffer
  /// 0, whose moves check every element, so that the loop checks none.
  /// Every pipeline leaves buffer 0 unread and without copies in flight.
  static __device__ __forceinline__ void
  remainder(const Step &s, const Rest &r, long long k0) {
    MA::fillRest(tilesA()[0], s.a, r.aX, r.aK, r.m, r.m0, k0, s.kRest);
    MB::fillRest(tilesB()[0], s.b, r.bX, r.bK, r.n, r.n0, k0, s.kRest);
    __syncthreads();
    const Place at = place();
    int ty = at.ty, tx = at.tx;
    opaque(ty, tx);
    multiplyRest<Cfg>(s.acc, tilesA()[0], tilesB()[0], ty, tx, s.kRest);
    __syncthreads();
  }

  /// The pipelines that stage through registers (no prefetch, a second
  /// shared buffer, or a register prefetch), with block barriers.
  struct SyncPipe {
    template <bool Vec>
    __device__ __forceinline__ void loop(const Step &s) {
      typename MA::Regs ra;
      typename MB::Regs rb;
      if constexpr (Cfg::PREFETCH == Prefetch::None) {
        // Load, wait, multiply, wait.
        for (int t = 0; t < s.kTiles; ++t) {
          loadTiles<Vec>(ra, rb, s.ca, s.cb);
          MA::store(tilesA()[0], ra);
          MB::store(tilesB()[0], rb);
          __syncthreads();
          const Place at = place();
          multiplyTile<Cfg>(s.acc, tilesA()[0], tilesB()[0], at.ty, at.tx);
          __syncthreads();
        }
      } else {
        prefetchLoop<Vec>(s, ra, rb);
      }
    }

    /// The first tile into buffer 0; each step then loads the next tile's
    /// registers before its multiply and stores them after.
    template <bool Vec>
    __device__ __forceinline__ void prefetchLoop(const Step &s,
                                                 typename MA::Regs &ra,
                                                 typename MB::Regs &rb) {
      if (s.kTiles > 0) {
        loadTiles<Vec>(ra, rb, s.ca, s.cb);
        MA::store(tilesA()[0], ra);
        MB::store(tilesB()[0], rb);
      }
      __syncthreads();
      if constexpr (Cfg::PREFETCH == Prefetch::Smem) {
        // Two shared buffers, the next tile's filled while the current one
        // is multiplied. Pointers to them, swapped per step, spare the step
        // the index arithmetic of tileA[t % 2]
        // (docs/cost-model.md, "Measurements behind the code").
        T(*readA)[BK][BM + PAD] = &tilesA()[0], (*writeA)[BK][BM + PAD] = &tilesA()[1];
        T(*readB)[BK][BN + PAD] = &tilesB()[0], (*writeB)[BK][BN + PAD] = &tilesB()[1];
        for (int t = 0; t < s.kTiles; ++t) {
          const bool more = t + 1 < s.kTiles;
          if (more)
            loadTiles<Vec>(ra, rb, s.ca, s.cb);
          fencedMultiply(s.acc, *readA, *readB);
          if (more) {
            MA::store(*writeA, ra);
            MB::store(*writeB, rb);
          }
          // One barrier per step: the next step reads the buffer just
          // written and overwrites the one just read.
          __syncthreads();
          T(*readA0)[BK][BM + PAD] = readA, (*readB0)[BK][BN + PAD] = readB;
          readA = writeA, readB = writeB;
          writeA = readA0, writeB = readB0;
        }
      } else {
        // One shared buffer and a register prefetch.
        for (int t = 0; t < s.kTiles; ++t) {
          const bool more = t + 1 < s.kTiles;
          if (more)
            loadTiles<Vec>(ra, rb, s.ca, s.cb);
          fencedMultiply(s.acc, tilesA()[0], tilesB()[0]);
          __syncthreads(); // everyone is done reading the buffer
          if (more) {
            MA::store(tilesA()[0], ra);
            MB::store(tilesB()[0], rb);
          }
          __syncthreads(); // the next tile is in place
        }
      }
    }

    /// The multiply of a step whose next tile waits in registers. ptxas
    /// sinks a load towards its first use, here the store at the step's
    /// end, where its latency shows; a fence halfway through the multiply
    /// keeps the loads in the step's first half, and spread out rather than
    /// all at its top (docs/cost-model.md, "Measurements behind the code").
    __device__ __forceinline__ void
    fencedMultiply(Acc &acc, const typename MA::Tile &ta,
                   const typename MB::Tile &tb) {
      const Place at = place();
      multiplyTile<Cfg, true>(acc, ta, tb, at.ty, at.tx);
    }
  };

  /// STAGES shared buffers filled by cp.async. Tile u of the block goes to
  /// buffer u % STAGES, whose barriers complete once per tile: it waits for
  /// phase u / STAGES of the buffer's full barrier, and its copies for the
  /// empty barrier's phase of the tile before. Warps wait for data and free
  /// buffers only.
  struct AsyncPipe {
    unsigned long long *full, *empty;
    /// Tiles through the buffers so far, which sets their phases across
    /// row tiles.
    int used;

    template <bool Vec>
    __device__ __forceinline__ void loop(const Step &s) {
      const auto refill = [&](int next) {
        if (next < s.kTiles) {
          const int u = used + next, buf = u % STAGES;
          if (u >= STAGES)
            waitPhase(empty[buf], u / STAGES - 1);
          copyTiles<Vec>(tilesA()[buf], tilesB()[buf], s.ca, s.cb, s.a,
                         s.b);
          arriveOnCopies(full[buf]);
        }
      };
      // With three buffers or more a warp refills the buffer read in the
      // last step after its own multiply, by when the others are done
      // reading it, so warps run up to a step apart and meet at no block
      // barrier (docs/cost-model.md, "Measurements behind the code"). With
      // two it must refill before the multiply.
      constexpr bool early = STAGES == 2;
#pragma unroll
      for (int b = 0; b < STAGES - 1; ++b)
        refill(b);
      for (int t = 0; t < s.kTiles; ++t) {
        const int u = used + t, buf = u % STAGES;
        waitPhase(full[buf], u / STAGES);
        if (early)
          refill(t + STAGES - 1);
        const Place at = place();
        multiplyTile<Cfg>(s.acc, tilesA()[buf], tilesB()[buf], at.ty, at.tx);
        arrive(empty[buf]);
        if (!early)
          refill(t + STAGES - 1);
      }
      used += s.kTiles;
      // The remainder or the next row tile's copies refill buffers still
      // read here.
      __syncthreads();
    }
  };

  /// What walk() computes once per problem: K's full tiles and the rows
  /// short of one, alpha and beta, and the strides along x and K of A and
  /// B and along the rows and columns of C.
  struct Strides {
    int kTiles, kRest;
    T alpha, beta;
    long long aX, aK, bX, bK, cm, cn;
  };
  static __device__ __forceinline__ Strides
  stridesOf(const gemm_rt::Problem &p) {
    // A is [M][K] and B is [K][N]: x runs along M for A and along N for B.
    return {int(p.k / BK),
            int(p.k % BK),
            T(p.alpha),
            T(p.beta),
            Cfg::A::X_UNIT ? 1 : p.a.sr,
            Cfg::A::K_UNIT ? 1 : p.a.sc,
            Cfg::B::X_UNIT ? 1 : p.b.sc,
            Cfg::B::K_UNIT ? 1 : p.b.sr,
            Cfg::C_ROW_UNIT ? 1 : p.c.sr,
            Cfg::C_COL_UNIT ? 1 : p.c.sc};
  }

  /// The tile of C at (batch, m0, n0): its product through `pipe`, then,
  /// where meet(acc) says so, its store. walk() stores every tile; a
  /// stream-K piece first meets the tile's other piece (meet()). The
  /// product is p's, C and its epilogue `out`'s: a piece's p is a copy of
  /// the kernel's problem over its K range, whose epilogue a store would
  /// reference, and so keep in local memory.
  template <bool Vec, class Pipe, class Meet>
  static __device__ __forceinline__ void
  tile(const gemm_rt::Problem &p, const gemm_rt::Problem &out,
       const Strides &s, Pipe &pipe, long long batch, long long m0,
       long long n0, Meet meet) {
    const T *a = static_cast<const T *>(p.a.ptr) + batch * p.a.sb;
    const T *b = static_cast<const T *>(p.b.ptr) + batch * p.b.sb;
    T *c = static_cast<T *>(const_cast<void *>(out.c.ptr)) + batch * out.c.sb;
    Acc acc;
#pragma unroll
    for (int i = 0; i < Cfg::TM; ++i)
#pragma unroll
      for (int j = 0; j < Cfg::TN; ++j)
        acc[i][j] = T(0);
    typename MA::Cur ca = MA::template start<Vec>(a, s.aX, s.aK, p.m, m0);
    typename MB::Cur cb = MB::template start<Vec>(b, s.bX, s.bK, p.n, n0);
    // The vector loop's packs along x may run past the matrix's edge
    // into the row's padding (TileMover::start), which the last row along
    // K may not have: where they do, its tile is the remainder's.
    const bool past = Vec && (MA::pastEdge(p.m, m0) || MB::pastEdge(p.n, n0));
    const bool last = past && s.kRest == 0 && s.kTiles > 0;
    const Step step{acc, ca, cb, a, b, s.kTiles - last, last ? BK : s.kRest};
    pipe.template loop<Vec>(step);
    if (step.kRest > 0)
      remainder(step, Rest{s.aX, s.aK, s.bX, s.bK, p.m, p.n, m0, n0},
                (long long)step.kTiles * BK);
    if (!meet(acc))
      return;
    const Place at = place();
    int row = at.rowIn, col = at.colIn;
    opaque(row, col);
    storeC<Cfg, Vec>(acc, CStore<T>{c, s.cm, s.cn, p.m, p.n, m0 + row,
                                    n0 + col, s.alpha, s.beta, out.epilogue,
                                    batch});
  }

  /// Every tile of C this block owns, through `pipe`.
  template <bool Vec, class Pipe>
  static __device__ __forceinline__ void walk(const gemm_rt::Problem &p,
                                              Pipe &pipe) {
    const Strides s = stridesOf(p);
    forEachTile<BM, BN>(p, [&](long long batch, long long m0, long long n0) {
      tile<Vec>(p, p, s, pipe, batch, m0, n0, [](Acc &) { return true; });
    });
  }

  /// This block's piece of a stream-K launch: block b below sk.whole runs
  /// tile b whole, each later one sk.piece[b - sk.whole]. The table is a
  /// kernel parameter, so that the piece is a uniform value to ptxas, like
  /// launch<Cfg>'s extents: loaded from global memory, the K loop's bounds
  /// took registers of every thread, and ptxas allocated the FFMA loop's
  /// registers with three to four times as many FFMAs that read two of one
  /// bank (docs/cost-model.md, "Measurements behind the code").
  static __device__ __forceinline__ gemm_rt::StreamPiece
  pieceOf(const gemm_rt::StreamK &sk) {
    const int b = int(blockIdx.x);
    return b < sk.whole ? gemm_rt::StreamPiece{b, 0, 0, -1}
                        : sk.piece[b - sk.whole];
  }

  /// Where the tile of a piece starts.
  static __device__ __forceinline__ void origin(const gemm_rt::Problem &p,
                                                int tile, long long &m0,
                                                long long &n0) {
    const long long tilesN = (p.n + BN - 1) / BN;
    m0 = tile / tilesN * BM;
    n0 = tile % tilesN * BN;
  }

  /// Half `half` of the partial sums of pair `pair`: BM x BN elements, in
  /// the order of the threads' accumulators, so that a warp's stores and
  /// loads are coalesced.
  static __device__ __forceinline__ T *half(const gemm_rt::StreamK &sk,
                                            int pair, int half) {
    return static_cast<T *>(sk.partials) + (2LL * pair + half) * BM * BN +
           threadIdx.x;
  }

  /// Stream-K's meeting of a tile's two pieces (docs/codegen.md): this
  /// block's sums go to its half of the pair, through L2 (cg), where the
  /// other block's SM sees them; the block that arrives second loads both
  /// halves into acc, part 0's plus part 1's whichever block it is, resets
  /// the pair's counter for the next launch and returns true, to store the
  /// tile. No block waits for another.
  static __device__ __forceinline__ bool meet(const gemm_rt::StreamK &sk,
                                              Acc &acc) {
    {
      const gemm_rt::StreamPiece at = pieceOf(sk);
      T *const mine = half(sk, at.pair, at.first > 0);
#pragma unroll
      for (int i = 0; i < Cfg::TM; ++i)
#pragma unroll
        for (int j = 0; j < Cfg::TN; ++j)
          __stcg(mine + (i * Cfg::TN + j) * Cfg::THREADS, acc[i][j]);
    }
    __threadfence();
    __syncthreads();
    const int pair = pieceOf(sk).pair;
    unsigned second = 0;
    if (threadIdx.x == 0) {
      second = atomicAdd(sk.arrivals + pair, 1u);
      if (second)
        sk.arrivals[pair] = 0;
    }
    if (!__syncthreads_or(second != 0))
      return false;
    __threadfence();
    const T *const h0 = half(sk, pair, 0), *const h1 = half(sk, pair, 1);
#pragma unroll
    for (int i = 0; i < Cfg::TM; ++i)
#pragma unroll
      for (int j = 0; j < Cfg::TN; ++j)
        acc[i][j] = __ldcg(h0 + (i * Cfg::TN + j) * Cfg::THREADS) +
                    __ldcg(h1 + (i * Cfg::TN + j) * Cfg::THREADS);
    return true;
  }

  /// Stream-K on one product (pieceOf): the piece's tile over its K range
  /// alone, as if K started at the range's first element, and for a tile
  /// in two pieces their meeting before the store.
  template <class Pipe>
  static __device__ __forceinline__ void stream(const gemm_rt::Problem &p,
                                                const gemm_rt::StreamK &sk,
                                                Pipe &pipe) {
    const gemm_rt::StreamPiece at = pieceOf(sk);
    const Strides s = stridesOf(p);
    const long long k0 = at.pair < 0 ? 0 : at.first;
    gemm_rt::Problem q = p;
    q.k = at.pair < 0 ? p.k : at.last - at.first;
    q.a.ptr = static_cast<const T *>(p.a.ptr) + k0 * s.aK;
    q.b.ptr = static_cast<const T *>(p.b.ptr) + k0 * s.bK;
    long long m0, n0;
    origin(p, at.tile, m0, n0);
    tile<true>(q, p, stridesOf(q), pipe, 0, m0, n0, [&](Acc &acc) {
      return pieceOf(sk).pair < 0 || meet(sk, acc);
    });
  }

  /// Calls body(pipe) with the pipeline of `Cfg`.
  template <class Body>
  static __device__ __forceinline__ void withPipe(Body body) {
    if constexpr (Cfg::PREFETCH == Prefetch::Async) {
      __shared__ unsigned long long full[STAGES], empty[STAGES];
      if (threadIdx.x == 0)
        for (int s = 0; s < STAGES; ++s) {
          initBarrier(full[s], Cfg::THREADS);
          initBarrier(empty[s], Cfg::THREADS);
        }
      __syncthreads();
      AsyncPipe pipe{full, empty, 0};
      body(pipe);
    } else {
      SyncPipe pipe{};
      body(pipe);
    }
  }

  template <bool Vec>
  static __device__ __forceinline__ void run(const gemm_rt::Problem &p) {
    withPipe([&](auto &pipe) { walk<Vec>(p, pipe); });
  }

  static __device__ __forceinline__ void runStream(const gemm_rt::Problem &p,
                                                   const gemm_rt::StreamK &sk) {
    withPipe([&](auto &pipe) { stream(p, sk, pipe); });
  }
};

/// The configuration whose kernel `Cfg` launches: its `Kernel` where it
/// names one (a configuration that differs from it only in TRANSPOSED,
/// which the launch alone reads), else itself.
template <class Cfg, class = void> struct KernelOf {
  using type = Cfg;
};
template <class Cfg>
struct KernelOf<Cfg, std::void_t<typename Cfg::Kernel>> {
  using type = typename Cfg::Kernel;
};

/// The kernel of `Cfg`; Vec: every packed access is aligned.
template <class Cfg, bool Vec>
__global__ void __launch_bounds__(Cfg::THREADS, Cfg::OCCUPANCY)
    gemmKernel(const gemm_rt::Problem p) {
  Gemm<Cfg>::template run<Vec>(p);
}

/// The stream-K kernel of `Cfg` (Gemm::stream), for aligned packs.
template <class Cfg>
__global__ void __launch_bounds__(Cfg::THREADS, Cfg::OCCUPANCY)
    streamKernel(const gemm_rt::Problem p, const gemm_rt::StreamK sk) {
  Gemm<Cfg>::runStream(p, sk);
}

} // namespace gemm_kernels

#endif // GEMM_KERNELS_KERNEL_CUH
