// The K-loop pipeline of each prefetch kind is the configuration's PREFETCH
// and STAGES (runtime/include/gemm_kernels/launch.cuh holds the loops).
// cp.async and mbarriers are sm_80's; before it they degrade to plain copies
// and block barriers, so an async kernel still compiles for sm_75, and its
// 66 KB of tiles opt in past 48 KB.
// RUN: gemm-opt --emit=cuda %s --schedule="prefetch=smem" | FileCheck %s --check-prefix=SMEM
// RUN: gemm-opt --emit=cuda %s --schedule="prefetch=regs" | FileCheck %s --check-prefix=REGS
// RUN: gemm-opt --emit=cuda %s --schedule="prefetch=none" | FileCheck %s --check-prefix=NONE
// RUN: gemm-opt --emit=cuda %s --schedule="block=128,128,16 thread=8,8 vector=4 pad=4 prefetch=async stages=4 transpose=0" -o %t.async.cu
// RUN: FileCheck %s --check-prefix=ASYNC < %t.async.cu
// RUN: %nvcc -std=c++17 -arch=sm_90 -I %gemm_runtime_include -Xptxas -v -c %t.async.cu -o %t.async.o 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %nvcc -std=c++17 -arch=sm_80 -I %gemm_runtime_include -c %t.async.cu -o %t.async80.o
// RUN: %nvcc -std=c++17 -arch=sm_75 -I %gemm_runtime_include -c %t.async.cu -o %t.async75.o
// RUN: gemm-opt --emit=cuda %s --schedule="block=128,128,16 thread=8,8 vector=4 pad=4 prefetch=async stages=2 transpose=0" | FileCheck %s --check-prefix=ASYNC2

// SMEM:   static constexpr int STAGES = 2;
// SMEM:   static constexpr gemm_kernels::Prefetch PREFETCH = gemm_kernels::Prefetch::Smem;
// REGS:   static constexpr int STAGES = 1;
// REGS:   static constexpr gemm_kernels::Prefetch PREFETCH = gemm_kernels::Prefetch::Regs;
// NONE:   static constexpr int STAGES = 1;
// NONE:   static constexpr gemm_kernels::Prefetch PREFETCH = gemm_kernels::Prefetch::None;

// ASYNC:  /// 4 shared-memory buffers filled by cp.async (up to 3 K tiles ahead),
// ASYNC:  static constexpr int STAGES = 4;
// ASYNC-NEXT:  static constexpr int PAD = 4;
// ASYNC:  static constexpr gemm_kernels::Prefetch PREFETCH = gemm_kernels::Prefetch::Async;
// ASYNC:  SMEM_BYTES = 67584;
// ASYNC2: static constexpr int STAGES = 2;
// ASYNC2-NEXT: static constexpr int PAD = 4;
// ASYNC2: static constexpr gemm_kernels::Prefetch PREFETCH = gemm_kernels::Prefetch::Async;

// A packed and a scalar kernel, neither in local memory.
// PTXAS-COUNT-2: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

func.func @nn(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
              %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}
