//===- config.cuh - What a configuration of the GEMM kernel says -*- C++ -*-===//
//
// gemm-opt prints one configuration per kernel variant: a struct whose
// constants are the facts of lib/Target's KernelPlan, computed once there and
// counted by the cost model. The kernel templates of this directory read
// them and derive nothing the plan holds. A configuration `Cfg` has:
//
//   using T;                    float or double
//   the kernel's constants      kernel_config.def (BM, BN, BK, TM, TN, ...)
//   A, B                        the input tiles' moves (tile_move.def)
//   TRANSPOSED                  the kernel computes C^T = B^T A^T (the
//                               launch reads it, not the kernel)
//   Kernel (optional)           a configuration that differs only in
//                               TRANSPOSED, whose kernel this one launches
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_KERNELS_CONFIG_CUH
#define GEMM_KERNELS_CONFIG_CUH

#include <type_traits>

namespace gemm_kernels {

/// threadIdx.x. An FMA kernel reads it through an asm that the optimiser
/// cannot rematerialise, so that it holds the one index across the K loop
/// and derives the fragment offsets from it (docs/codegen.md, "Thread
/// index").
template <class Cfg> __device__ __forceinline__ int threadIndex() {
  if constexpr (Cfg::DMMA_K > 0) {
    return threadIdx.x;
  } else {
    int t;
    asm("mov.u32 %0, %%tid.x;" : "=r"(t));
    __builtin_assume(t >= 0 && t < 1024);
    return t;
  }
}

/// Where the next K tile waits while the current one is multiplied.
enum class Prefetch {
  None,  ///< Nowhere: load, wait, multiply, wait.
  Smem,  ///< In a second shared-memory buffer.
  Regs,  ///< In registers, stored after the multiply.
  Async, ///< In STAGES - 1 further buffers, filled by cp.async.
};

/// Whether M is a tile move: it has every member of tile_move.def, of its
/// type (gemm-opt prints them; a hand-written configuration must too).
template <class M> constexpr bool isTileMove() {
#define GEMM_TILE_MOVE_FIELD(type, name, meaning)                              \
  static_assert(std::is_same_v<decltype(M::name), const type>,                 \
                "a tile move's " #name " is a " #type ": " meaning);
#include "gemm_kernels/tile_move.def"
#undef GEMM_TILE_MOVE_FIELD
  return true;
}

/// Whether Cfg is a kernel configuration: it has every member of
/// kernel_config.def, of its type (its DMMA fields where DMMA_K > 0), and
/// tile moves A and B.
template <class Cfg> constexpr bool isKernelConfig() {
#define GEMM_KERNEL_FIELD(type, name, meaning)                                 \
  static_assert(std::is_same_v<decltype(Cfg::name), const type>,               \
                "a configuration's " #name " is a " #type ": " meaning);
#define GEMM_DMMA_FIELD(type, name, meaning)                                   \
  if constexpr (Cfg::DMMA_K > 0)                                               \
    static_assert(std::is_same_v<decltype(Cfg::name), const type>,             \
                  "a dmma configuration's " #name " is a " #type ": " meaning);
#include "gemm_kernels/kernel_config.def"
#undef GEMM_DMMA_FIELD
#undef GEMM_KERNEL_FIELD
  return isTileMove<typename Cfg::A>() && isTileMove<typename Cfg::B>();
}

/// Where column x of row k of a tile of move M lies in shared memory: x,
/// or where M is swizzled x ^ 8 in rows 8-15 of every 32, x ^ 4 in rows
/// 16-23 and x ^ 12 in rows 24-31 (lib/Target's KernelPlan says when).
/// Packs of up to 4 columns stay whole and aligned.
template <class M> __device__ __forceinline__ int column(int k, int x) {
  if constexpr (M::SWIZZLED)
    return x ^ ((k & 8) | (k & 16) >> 2);
  else
    return x;
}

/// Element (k, x) of a tile of move M, in its buffer of BK rows of X + PAD:
/// at row k, column column<M>(k, x); or, where M is K_INNER, at x * BK + k
/// (the buffer read as X rows of BK doubles, BK a multiple of 16), where
/// odd rows swap the 64-byte halves of every 128 bytes, so that the two
/// rows a quarter warp reads at one k (dmmaStep) take all 32 banks.
template <class M, class T, int BK, int ROW>
__device__ __forceinline__ T &element(T (&tile)[BK][ROW], int k, int x) {
  if constexpr (M::K_INNER) {
    static_assert(sizeof(T) == 8 && BK % 16 == 0,
                  "x-major tiles are dmma tiles of whole 128-byte rows");
    return (&tile[0][0])[x * BK + (k ^ (x & 1) << 3)];
  } else {
    return tile[k][column<M>(k, x)];
  }
}

/// N elements moved as one access (128 bits for 4 x f32 or 2 x f64).
template <class T, int N> struct alignas(N * sizeof(T)) Pack {
  T v[N];
};

} // namespace gemm_kernels

#endif // GEMM_KERNELS_CONFIG_CUH
