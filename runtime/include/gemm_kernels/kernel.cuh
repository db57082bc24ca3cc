//===- kernel.cuh - The two-level tiled GEMM kernel -------------*- C++ -*-===//
//
// The kernel of one configuration (config.cuh): BM x BN x BK tiles of A and B
// in shared memory (k-major, rows padded), a TM x TN register tile per thread,
// the K loop pipelined as PREFETCH says, predicated zero-filled edges and a
// BLAS epilogue. gemm_kernels::launch<Cfg> is what a generated launcher's
// Variant holds.
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

#include <atomic>
#include <type_traits>

namespace gemm_kernels {

/// Hides x and y from the optimiser, per tile of C. What the code after the
/// K loop derives from the thread's place must be computed anew there: else
/// it merges with the multiply's fragment offsets into values held across
/// the loop, and ptxas issues the loop's shared loads later (256x128x8/8x16
/// f32, H100: 47.8-48.6 against 49.7-50.7 TFLOP/s).
__device__ __forceinline__ void opaque(int &x, int &y) {
  asm volatile("mov.b32 %0, %0;\n\tmov.b32 %1, %1;" : "+r"(x), "+r"(y));
}

template <class Cfg> struct Gemm {
  using T = typename Cfg::T;
  static constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK;
  static constexpr int PAD = Cfg::PAD, STAGES = Cfg::STAGES;
  using MA = TileMover<Cfg, typename Cfg::A>;
  using MB = TileMover<Cfg, typename Cfg::B>;
  using Acc = T[Cfg::TM][Cfg::TN];
  using BuffersA = T[STAGES][BK][BM + PAD];
  using BuffersB = T[STAGES][BK][BN + PAD];

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
        // the index arithmetic of tileA[t % 2] (256x128x8/8x16 f32, H200:
        // 49.3 against 48.6 TFLOP/s).
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
    /// end, where its latency shows (224x64x28 FFMA with bounds-free loads:
    /// 33.2 -> 28.9 TFLOP/s); a fence halfway through the multiply keeps the
    /// loads in the step's first half (33.5), and spread out rather than all
    /// at its top (256x128x8: 48.0 against 44.5 with the fence at the top).
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
      // barrier (DGEMM 128x128x8/8x8, 4 buffers, H200: 58.1 TFLOP/s against
      // 45.3 with a __syncthreads per step). With two it must refill before
      // the multiply.
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

  /// Every tile of C this block owns, through `pipe`.
  template <bool Vec, class Pipe>
  static __device__ __forceinline__ void walk(const gemm_rt::Problem &p,
                                              Pipe &pipe) {
    // Full K tiles, and the rows short of one.
    const int kTiles = int(p.k / BK), kRest = int(p.k % BK);
    const T alpha = T(p.alpha), beta = T(p.beta);
    // A is [M][K] and B is [K][N]: x runs along M for A and along N for B.
    const long long aX = Cfg::A::X_UNIT ? 1 : p.a.sr;
    const long long aK = Cfg::A::K_UNIT ? 1 : p.a.sc;
    const long long bX = Cfg::B::X_UNIT ? 1 : p.b.sc;
    const long long bK = Cfg::B::K_UNIT ? 1 : p.b.sr;
    const long long cm = Cfg::C_ROW_UNIT ? 1 : p.c.sr;
    const long long cn = Cfg::C_COL_UNIT ? 1 : p.c.sc;
    forEachTile<BM, BN>(p, [&](long long batch, long long m0, long long n0) {
      const T *a = static_cast<const T *>(p.a.ptr) + batch * p.a.sb;
      const T *b = static_cast<const T *>(p.b.ptr) + batch * p.b.sb;
      T *c = static_cast<T *>(const_cast<void *>(p.c.ptr)) + batch * p.c.sb;
      Acc acc;
#pragma unroll
      for (int i = 0; i < Cfg::TM; ++i)
#pragma unroll
        for (int j = 0; j < Cfg::TN; ++j)
          acc[i][j] = T(0);
      typename MA::Cur ca = MA::template start<Vec>(a, aX, aK, p.m, m0);
      typename MB::Cur cb = MB::template start<Vec>(b, bX, bK, p.n, n0);
      // The vector loop's packs along x may run past the matrix's edge
      // into the row's padding (TileMover::start), which the last row along
      // K may not have: where they do, its tile is the remainder's.
      const bool past = Vec && (MA::pastEdge(p.m, m0) || MB::pastEdge(p.n, n0));
      const bool last = past && kRest == 0 && kTiles > 0;
      const Step step{acc, ca, cb, a, b, kTiles - last, last ? BK : kRest};
      pipe.template loop<Vec>(step);
      if (step.kRest > 0)
        remainder(step, Rest{aX, aK, bX, bK, p.m, p.n, m0, n0},
                  (long long)step.kTiles * BK);
      const Place at = place();
      int row = at.rowIn, col = at.colIn;
      opaque(row, col);
      storeC<Cfg, Vec>(acc, CStore<T>{c, cm, cn, p.m, p.n, m0 + row,
                                      n0 + col, alpha, beta, p.epilogue,
                                      batch});
    });
  }

  template <bool Vec>
  static __device__ __forceinline__ void run(const gemm_rt::Problem &p) {
    if constexpr (Cfg::PREFETCH == Prefetch::Async) {
      __shared__ unsigned long long full[STAGES], empty[STAGES];
      if (threadIdx.x == 0)
        for (int s = 0; s < STAGES; ++s) {
          initBarrier(full[s], Cfg::THREADS);
          initBarrier(empty[s], Cfg::THREADS);
        }
      __syncthreads();
      AsyncPipe pipe{full, empty, 0};
      walk<Vec>(p, pipe);
    } else {
      SyncPipe pipe{};
      walk<Vec>(p, pipe);
    }
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

/// True if every pack of n elements of x starts at a multiple of its size.
/// The packs run along x's unit stride, so every other stride (the batch's
/// too) must step whole packs; where both strides are 1 (rows that overlap)
/// one of them does not.
template <class T>
inline bool packAligned(const gemm_rt::Operand &x, int n) {
  const bool rows = x.sr % n == 0, cols = x.sc % n == 0;
  return reinterpret_cast<unsigned long long>(x.ptr) % (n * sizeof(T)) == 0 &&
         x.sb % n == 0 && ((rows && (cols || x.sc == 1)) || (cols && x.sr == 1));
}

/// True if the rows of x, `ld` apart and xs long along the packs of `M`,
/// leave room for a pack that starts inside a row and runs past its end
/// (TileMover::start), or no pack does.
template <class M> inline bool packsStayInRows(long long ld, long long xs) {
  return M::ALONG_K || M::PACK == 1 || xs % M::PACK == 0 ||
         ld >= (xs + M::PACK - 1) / M::PACK * M::PACK;
}

/// True if every packed access of `Cfg` is aligned for p (given, not yet
/// transposed) and stays inside the rows of its operand, or there are no
/// packs.
template <class Cfg> bool packsFit(const gemm_rt::Problem &given) {
  const gemm_rt::Problem p =
      Cfg::TRANSPOSED ? gemm_rt::transposed(given) : given;
  using T = typename Cfg::T;
  using A = typename Cfg::A;
  using B = typename Cfg::B;
  return (A::PACK == 1 || (packAligned<T>(p.a, A::PACK) &&
                           packsStayInRows<A>(p.a.sc, p.m))) &&
         (B::PACK == 1 || (packAligned<T>(p.b, B::PACK) &&
                           packsStayInRows<B>(p.b.sr, p.n))) &&
         (Cfg::C_PACK == 1 || packAligned<T>(p.c, Cfg::C_PACK));
}

/// True if p's strides are 1 wherever `Cfg` takes them as 1 at compile time
/// (or the extent is 1, so that the stride is never taken). A generated
/// launcher passes those strides as literal 1s, but a staged dense copy of an
/// operand whose two strides are both 1 may keep the other one.
template <class Cfg> bool unitStridesHold(const gemm_rt::Problem &given) {
  const gemm_rt::Problem p =
      Cfg::TRANSPOSED ? gemm_rt::transposed(given) : given;
  const auto unit = [](int64_t stride, int64_t extent) {
    return stride == 1 || extent <= 1;
  };
  return (!Cfg::A::X_UNIT || unit(p.a.sr, p.m)) &&
         (!Cfg::A::K_UNIT || unit(p.a.sc, p.k)) &&
         (!Cfg::B::X_UNIT || unit(p.b.sc, p.n)) &&
         (!Cfg::B::K_UNIT || unit(p.b.sr, p.k)) &&
         (!Cfg::C_ROW_UNIT || unit(p.c.sr, p.m)) &&
         (!Cfg::C_COL_UNIT || unit(p.c.sc, p.n));
}

/// Whether `Cfg` runs p: its unit strides hold, and its packs fit or it has
/// a scalar twin. A Variant's `runs`.
template <class Cfg> bool runs(const gemm_rt::Problem &p) {
  return unitStridesHold<Cfg>(p) && (Cfg::SCALAR_TWIN || packsFit<Cfg>(p));
}

/// The devices on which kernel<Kernel, Vec> has opted in to more than
/// 48 KB of dynamic shared memory, a bit per ordinal below 64: the opt-in
/// costs about half a microsecond, which a small problem's call would
/// otherwise pay every time.
template <class Kernel, bool Vec>
std::atomic<unsigned long long> optedInOn{0};

/// Launches `kernel` on p with `bytes` of dynamic shared memory, opting it
/// in first where that passes 48 KB and `optedIn` has no bit for the
/// current device. cudaDeviceReset drops the opt-ins: a launch that fails
/// after one was skipped, with no error pending before it, opts in and
/// launches again.
inline cudaError_t launchKernel(void (*kernel)(gemm_rt::Problem), dim3 grid,
                                int threads, int bytes, cudaStream_t stream,
                                const gemm_rt::Problem &p,
                                std::atomic<unsigned long long> &optedIn) {
  const bool large = bytes > 48 * 1024;
  unsigned long long bit = 0;
  if (large) {
    int device = 0;
    if (const cudaError_t err = cudaGetDevice(&device); err != cudaSuccess)
      return err;
    bit = device < 64 ? 1ull << device : 0;
  }
  const bool skip = bit && (optedIn.load() & bit) &&
                    cudaPeekAtLastError() == cudaSuccess;
  if (large && !skip) {
    if (const cudaError_t err = cudaFuncSetAttribute(
            kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
        err != cudaSuccess)
      return err;
    optedIn |= bit;
  }
  kernel<<<grid, threads, bytes, stream>>>(p);
  const cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess || !skip)
    return err;
  optedIn &= ~bit;
  return launchKernel(kernel, grid, threads, bytes, stream, p, optedIn);
}

/// launchKernel with kernel<Kernel, Vec> and its opt-ins.
template <class Kernel, bool Vec>
cudaError_t launchGemm(const gemm_rt::Problem &p, dim3 grid,
                       cudaStream_t stream) {
  return launchKernel(gemmKernel<Kernel, Vec>, grid, Kernel::THREADS,
                      Kernel::SMEM_BYTES, stream, p, optedInOn<Kernel, Vec>);
}

/// Launches `Cfg`'s vector kernel when every packed access is aligned (or
/// there are no packs), its scalar twin otherwise; a transposed
/// configuration computes C^T = B^T A^T. A problem that runs<Cfg>()
/// rejects launches nothing: cudaErrorInvalidValue where a unit stride does
/// not hold, cudaErrorMisalignedAddress where the packs do not fit and there
/// is no twin.
template <class Cfg>
cudaError_t launch(const gemm_rt::Problem &given, cudaStream_t stream) {
  const gemm_rt::Problem p =
      Cfg::TRANSPOSED ? gemm_rt::transposed(given) : given;
  if (!unitStridesHold<Cfg>(given))
    return cudaErrorInvalidValue;
  dim3 grid;
  if (const cudaError_t err = tileGrid(p, Cfg::BM, Cfg::BN, grid);
      err != cudaSuccess)
    return err;
  using Kernel = typename KernelOf<Cfg>::type;
  if (packsFit<Cfg>(given))
    return launchGemm<Kernel, true>(p, grid, stream);
  if constexpr (Cfg::SCALAR_TWIN)
    return launchGemm<Kernel, false>(p, grid, stream);
  else
    return cudaErrorMisalignedAddress;
}

} // namespace gemm_kernels

#endif // GEMM_KERNELS_KERNEL_CUH
