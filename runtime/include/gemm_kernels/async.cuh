//===- async.cuh - cp.async copies and mbarriers ----------------*- C++ -*-===//
//
// The primitives of the cp.async pipeline (PTX ISA, "cp.async", "mbarrier";
// sm_80 and later). Before sm_80 they degrade to plain copies and block
// barriers, so that a schedule stays portable.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_KERNELS_ASYNC_CUH
#define GEMM_KERNELS_ASYNC_CUH

#include "gemm_kernels/config.cuh"

namespace gemm_kernels {

/// The shared-memory address of p, as PTX takes it.
__device__ __forceinline__ unsigned sharedAddress(const void *p) {
  return unsigned(__cvta_generic_to_shared(p));
}

/// Copies N elements from global to shared memory without registers; `in`
/// false writes zeros (a source size of 0 reads nothing).
template <int N, class T>
__device__ __forceinline__ void copyAsync(T *dst, const T *src, bool in) {
  constexpr int BYTES = N * sizeof(T);
#if __CUDA_ARCH__ >= 800
  const unsigned s = sharedAddress(dst);
  // 16-byte copies bypass L1 (.cg): the tile is read once per block.
  if constexpr (BYTES == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
                 :: "r"(s), "l"(src), "r"(in ? 16 : 0));
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n"
                 :: "r"(s), "l"(src), "n"(BYTES), "r"(in ? BYTES : 0));
#else
  *reinterpret_cast<Pack<T, N> *>(dst) =
      in ? *reinterpret_cast<const Pack<T, N> *>(src) : Pack<T, N>{};
#endif
}

/// Waits until every copy this thread issued has landed.
__device__ __forceinline__ void waitCopies() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

// The pipeline's barriers, one phase per tile through a buffer, each
// completed by all `threads` threads of the block: a buffer's `full` one by
// the copies that fill it, its `empty` one by the reads of it. Before sm_80
// the copies are plain stores and a wait is a __syncthreads, which every
// thread reaches in the same order.

__device__ __forceinline__ void initBarrier(unsigned long long &bar,
                                            int threads) {
#if __CUDA_ARCH__ >= 800
  asm volatile("mbarrier.init.shared.b64 [%0], %1;\n"
               :: "r"(sharedAddress(&bar)), "r"(threads) : "memory");
#endif
}

/// This thread is done reading the buffer of `bar`.
__device__ __forceinline__ void arrive(unsigned long long &bar) {
#if __CUDA_ARCH__ >= 800
  asm volatile("mbarrier.arrive.shared.b64 _, [%0];\n"
               :: "r"(sharedAddress(&bar)) : "memory");
#endif
}

/// Arrives on `bar` once this thread's copies so far have landed.
__device__ __forceinline__ void arriveOnCopies(unsigned long long &bar) {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];\n"
               :: "r"(sharedAddress(&bar)) : "memory");
#endif
}

/// Waits until phase `phase` of `bar` has completed (sm_90's try_wait
/// suspends the thread for a while rather than spin).
__device__ __forceinline__ void waitPhase(unsigned long long &bar, int phase) {
#if __CUDA_ARCH__ >= 800
  unsigned done;
  do {
    asm volatile("{ .reg .pred p;\n"
#if __CUDA_ARCH__ >= 900
                 "mbarrier.try_wait.parity.shared.b64 p, [%1], %2;\n"
#else
                 "mbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n"
#endif
                 "selp.u32 %0, 1, 0, p; }\n"
                 : "=r"(done) : "r"(sharedAddress(&bar)), "r"(phase & 1)
                 : "memory");
  } while (!done);
#else
  __syncthreads();
#endif
}

} // namespace gemm_kernels

#endif // GEMM_KERNELS_ASYNC_CUH
