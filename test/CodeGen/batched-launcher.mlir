// A batched op with a hand-written schedule: its configuration and a
// launcher that fills the runtime's problem from the batched memrefs.
// RUN: gemm-opt --emit=cuda %s | FileCheck %s

// A pad of 1 breaks the 2-element alignment of the shared rows: fragments,
// B's shared stores and C go element by element, and B's 768 packs leave
// the 256 threads no whole lines (irregular). A hand-written schedule
// without occupancy asks for one block per SM.
// CHECK:      /// 96x96x16 block tile, 6x6 register tile per thread (256 threads),
// CHECK-NEXT: /// scalar FMA,
// CHECK-NEXT: /// one shared-memory buffer and a register prefetch of the next K tile,
// CHECK-NEXT: /// 2-element vector accesses, shared rows padded by 1.
// CHECK:        static constexpr int STAGES = 1;
// CHECK-NEXT:   static constexpr int PAD = 1;
// CHECK-NEXT:   static constexpr int OCCUPANCY = 1;
// CHECK-NEXT:   static constexpr gemm_kernels::Prefetch PREFETCH = gemm_kernels::Prefetch::Regs;
// CHECK-NEXT:   static constexpr int ROW_GROUP = 1;
// CHECK-NEXT:   static constexpr int ROW_STEP = 16;
// CHECK-NEXT:   static constexpr int COL_GROUP = 1;
// CHECK-NEXT:   static constexpr int COL_STEP = 16;
// CHECK:        static constexpr int C_PACK = 1;
// CHECK-NEXT:   static constexpr int A_TILE_BYTES = 6208;
// CHECK-NEXT:   static constexpr int SMEM_BYTES = 12416;
// CHECK:      struct A {
// CHECK-NEXT:     static constexpr int X = 96;
// CHECK-NEXT:     static constexpr bool X_UNIT = false;
// CHECK-NEXT:     static constexpr bool K_UNIT = true;
// CHECK-NEXT:     static constexpr int PACK = 2;
// CHECK-NEXT:     static constexpr bool ALONG_K = true;
// CHECK-NEXT:     static constexpr bool WHOLE_STORE = false;
// CHECK-NEXT:     static constexpr int PACKS = 768;
// CHECK-NEXT:     static constexpr int LOADS = 3;
// CHECK-NEXT:     static constexpr bool REGULAR = true;
// CHECK-NEXT:     static constexpr bool SWIZZLED = false;
// CHECK-NEXT:     static constexpr bool K_INNER = false;
// CHECK-NEXT:   };
// CHECK-NEXT:   struct B {
// CHECK-NEXT:     static constexpr int X = 96;
// CHECK-NEXT:     static constexpr bool X_UNIT = true;
// CHECK-NEXT:     static constexpr bool K_UNIT = false;
// CHECK-NEXT:     static constexpr int PACK = 2;
// CHECK-NEXT:     static constexpr bool ALONG_K = false;
// CHECK-NEXT:     static constexpr bool WHOLE_STORE = false;
// CHECK-NEXT:     static constexpr int PACKS = 768;
// CHECK-NEXT:     static constexpr int LOADS = 3;
// CHECK-NEXT:     static constexpr bool REGULAR = false;
// CHECK-NEXT:     static constexpr bool SWIZZLED = false;
// CHECK-NEXT:     static constexpr bool K_INNER = false;
// CHECK-NEXT:   };

// Only C's sizes and K are read; the rest are unnamed.
// CHECK:      static bool batched(const float *a, long long /*a_size0*/, long long /*a_size1*/, long long a_size2,
// CHECK:      /*batch=*/c_size0, /*m=*/c_size1, /*n=*/c_size2, /*k=*/a_size2,
// CHECK-NEXT: {a, a_stride0, a_stride1, a_stride2}, {b, b_stride0, b_stride1, b_stride2}, {c, c_stride0, c_stride1, c_stride2},
// CHECK:      {gemm_kernels::launch<batched_k0>, 96, 96, 1,
func.func @batched(%a: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, %b: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>,
                   %c: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [96, 96, 16], thread = [6, 6], warps = 8, stages = 1, vector = 2, prefetch = regs, pad = 1>}
      : memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, f32
  return
}
