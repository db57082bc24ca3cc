// An op with alternatives gets one kernel configuration per schedule, and
// its launcher hands them all to gemm_rt::run with each
// kernel's tile, blocks per SM, the model's GFLOP/s on a full GPU of the
// module's target, the shares of DRAM bandwidth that its rows of A and B
// stream at (row-major A: BK floats of 128-byte lines; B: BN of them, whole
// lines) and its schedule; run() picks one per call (runtime/src/launch/choose.cu).
// The plan names the gemm-opt version and kernel templates, for tuning
// records (docs/tuning.md). A kernel has a stream-K form only where a
// measurement chose it, here @tuned's for two_k1 (gemm-specialize), and
// then in every launcher that runs it.
// RUN: gemm-opt --emit=cuda %s -o - | FileCheck %s

// CHECK:      /// 128x128x8 block tile, 8x8 register tile per thread (256 threads),
// CHECK:      struct two_k0 {
// CHECK:      /// 64x64x16 block tile, 4x4 register tile per thread (256 threads),
// CHECK:      struct two_k1 {
// CHECK:      /// 128x64x8 block tile, 8x8 register tile per thread (128 threads),
// CHECK:      /// Transposed: it computes C^T = B^T A^T, so BM runs along N.
// CHECK:      struct flipped_k0 {
// CHECK:        static constexpr bool C_ROW_UNIT = true;
// CHECK-NEXT:   static constexpr bool C_COL_UNIT = false;
// CHECK-NEXT:   static constexpr bool C_BY_COLUMNS = true;
// CHECK:        static constexpr bool FUSED = false;
// CHECK-NEXT:   static constexpr bool SCALAR_TWIN = true;
// CHECK-NEXT:   struct A {
// CHECK-NEXT:     static constexpr int X = 128;
// CHECK-NEXT:     static constexpr bool X_UNIT = true;
// CHECK-NEXT:     static constexpr bool K_UNIT = false;
// CHECK-NEXT:     static constexpr int PACK = 4;
// CHECK-NEXT:     static constexpr bool ALONG_K = false;
// CHECK-NEXT:     static constexpr bool WHOLE_STORE = true;
// CHECK:        static constexpr bool TRANSPOSED = true;
// CHECK:      static bool two(
// CHECK:        // GFLOP/s the cost model predicts on a full hopper-h200 and the shares
// CHECK:        static const gemm_rt::Variant variants[] = {
// CHECK-NEXT:       {gemm_kernels::launch<two_k0>, 128, 128, 1, {{[0-9]+\.[0-9]}}, 0.250, 1.000,
// CHECK-NEXT:        "block=128,128,8 thread=8,8 vector=4 prefetch=smem stages=2 pad=4 compute=fma transpose=0",
// CHECK-NEXT:        gemm_kernels::runs<two_k0>, nullptr, nullptr, 8},
// CHECK-NEXT:       {gemm_kernels::launch<two_k1>, 64, 64, 2, {{[0-9]+\.[0-9]}}, 0.500, 1.000,
// CHECK-NEXT:        "block=64,64,16 thread=4,4 vector=4 prefetch=smem stages=2 pad=4 compute=fma transpose=0 occupancy=2",
// CHECK-NEXT:        gemm_kernels::runs<two_k1>, gemm_kernels::launchStreamed<two_k1>,
// CHECK-NEXT:        gemm_kernels::streams<two_k1>, 16},
// CHECK-NEXT:   };
// CHECK-NEXT:   return gemm_rt::run(problem, gemm_rt::Plan{variants, 2, 4800.0, "{{[0-9.]+}}", "{{[0-9a-f]+}}"});
module attributes {gemm.target = #gemm.target<name = "hopper-h200">} {
func.func @two(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
               %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, alternatives = [#gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4, occupancy = 2>]} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}

// gemm.measured (a tuning database's problems) becomes the plan's table of
// measured choices.
// CHECK-LABEL: static bool tuned(
// CHECK:        // Problems a tuning database timed on hopper-h200: batch, M, N, K,
// CHECK:        static const gemm_rt::Measured measured[] = {
// CHECK-NEXT:       {1, 4096, 4096, 4096, 1, 2},
// CHECK-NEXT:       {1, 1000, 1000, 1000, 0, 1},
// CHECK-NEXT:       {1, 2048, 2048, 2048, 1, 0},
// CHECK-NEXT:   };
// CHECK-NEXT:   return gemm_rt::run(problem, gemm_rt::Plan{variants, 2, 4800.0, "{{[0-9.]+}}", "{{[0-9a-f]+}}", measured, 3});
func.func @tuned(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                 %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, alternatives = [#gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4, occupancy = 2>], gemm.measured = [#gemm.measured<batch = 1, m = 4096, n = 4096, k = 4096, kernel = 1, splits = 2>, #gemm.measured<batch = 1, m = 1000, n = 1000, k = 1000, kernel = 0, splits = 1>, #gemm.measured<batch = 1, m = 2048, n = 2048, k = 2048, kernel = 1, splits = 0>]} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}

// A transposed schedule (C^T = B^T A^T): the kernel's A is B^T and its C is
// C^T, so with row-major operands it moves B's rows as packs along its M
// and stores C a column at a time (flipped_k0 above), and launch() transposes
// the problem; the runtime sees the tile along C's rows and columns
// (64 x 128), and the shares of A's and B's rows (BK and BM long).
// CHECK-LABEL: static bool flipped(
// CHECK:        {gemm_kernels::launch<flipped_k0>, 64, 128, 2, {{[0-9]+\.[0-9]}}, 0.250, 1.000,
func.func @flipped(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                   %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 64, 8], thread = [8, 8], warps = 4, stages = 2, vector = 4, prefetch = smem, pad = 4, occupancy = 2, transpose = true>} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}
}
