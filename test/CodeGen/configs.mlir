// CodeGen prints each planned kernel as a configuration of the templates in
// runtime/include/gemm_kernels: gemm-specialize's facts as named constants
// (test/Transforms/specialize.mlir checks the facts), each configuration
// once per file, and a launcher whose variants run them.
// RUN: gemm-opt --emit=cuda %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc -std=c++17 -arch=sm_90 -I %gemm_runtime_include -Xptxas -v -c %t.cu -o %t.o 2>&1 | FileCheck %s --check-prefix=PTXAS

// A packed configuration that is some launcher's first compiles a vector
// kernel and its scalar twin: row_major_f32_k0 and col_major_f64_k0.
// generic_k0 has no packs, and with_alternative_k1 is no launcher's first:
// one kernel each. col_major_f32_k0 launches row_major_f32_k0's kernels.
// No measurement chose a stream-K form, so none is compiled (nullptr).
// PTXAS-COUNT-6: Compiling entry function
// PTXAS-NOT:     Compiling entry function
// PTXAS:         0 bytes stack frame

// CHECK:      #include "gemm_kernels/launch.cuh"
// CHECK:      namespace {
// CHECK-NEXT: /// 128x128x8 block tile, 8x8 register tile per thread (256 threads),
// CHECK-NEXT: /// scalar FMA,
// CHECK-NEXT: /// two shared-memory buffers (the next K tile loads while the current
// CHECK-NEXT: /// one is multiplied),
// CHECK-NEXT: /// 4-element vector accesses, shared rows padded by 4.
// CHECK-NEXT: struct row_major_f32_k0 {
// CHECK-NEXT:   using T = float;
// CHECK-NEXT:   static constexpr int BM = 128;
// CHECK-NEXT:   static constexpr int BN = 128;
// CHECK-NEXT:   static constexpr int BK = 8;
// CHECK-NEXT:   static constexpr int TM = 8;
// CHECK-NEXT:   static constexpr int TN = 8;
// CHECK-NEXT:   static constexpr int THREADS = 256;
// CHECK-NEXT:   static constexpr int STAGES = 2;
// CHECK-NEXT:   static constexpr int PAD = 4;
// CHECK-NEXT:   static constexpr int OCCUPANCY = 1;
// CHECK-NEXT:   static constexpr gemm_kernels::Prefetch PREFETCH = gemm_kernels::Prefetch::Smem;
// CHECK-NEXT:   static constexpr int ROW_GROUP = 4;
// CHECK-NEXT:   static constexpr int ROW_STEP = 64;
// CHECK-NEXT:   static constexpr int COL_GROUP = 4;
// CHECK-NEXT:   static constexpr int COL_STEP = 64;
// CHECK-NEXT:   static constexpr int DMMA_K = 0;
// CHECK-NEXT:   static constexpr bool C_ROW_UNIT = false;
// CHECK-NEXT:   static constexpr bool C_COL_UNIT = true;
// CHECK-NEXT:   static constexpr bool C_BY_COLUMNS = false;
// CHECK-NEXT:   static constexpr int C_PACK = 4;
// CHECK-NEXT:   static constexpr int A_TILE_BYTES = 8448;
// CHECK-NEXT:   static constexpr int SMEM_BYTES = 16896;
// CHECK-NEXT:   static constexpr bool FUSED = false;
// CHECK-NEXT:   static constexpr bool SCALAR_TWIN = true;
// CHECK-NEXT:   struct A {
// CHECK-NEXT:     static constexpr int X = 128;
// CHECK-NEXT:     static constexpr bool X_UNIT = false;
// CHECK-NEXT:     static constexpr bool K_UNIT = true;
// CHECK-NEXT:     static constexpr int PACK = 4;
// CHECK-NEXT:     static constexpr bool ALONG_K = true;
// CHECK-NEXT:     static constexpr bool WHOLE_STORE = false;
// CHECK-NEXT:     static constexpr int PACKS = 256;
// CHECK-NEXT:     static constexpr int LOADS = 1;
// CHECK-NEXT:     static constexpr bool REGULAR = true;
// CHECK-NEXT:     static constexpr bool SWIZZLED = false;
// CHECK-NEXT:     static constexpr bool K_INNER = false;
// CHECK-NEXT:   };
// CHECK-NEXT:   struct B {
// CHECK-NEXT:     static constexpr int X = 128;
// CHECK-NEXT:     static constexpr bool X_UNIT = true;
// CHECK-NEXT:     static constexpr bool K_UNIT = false;
// CHECK-NEXT:     static constexpr int PACK = 4;
// CHECK-NEXT:     static constexpr bool ALONG_K = false;
// CHECK-NEXT:     static constexpr bool WHOLE_STORE = true;
// CHECK-NEXT:     static constexpr int PACKS = 256;
// CHECK-NEXT:     static constexpr int LOADS = 1;
// CHECK-NEXT:     static constexpr bool REGULAR = true;
// CHECK-NEXT:     static constexpr bool SWIZZLED = false;
// CHECK-NEXT:     static constexpr bool K_INNER = false;
// CHECK-NEXT:   };
// CHECK-NEXT:   static constexpr bool TRANSPOSED = false;
// CHECK-NEXT: };

// CHECK:      struct col_major_f64_k0 {
// CHECK-NEXT:   using T = double;
// CHECK:   static constexpr bool C_ROW_UNIT = true;
// CHECK-NEXT:   static constexpr bool C_COL_UNIT = false;
// CHECK-NEXT:   static constexpr bool C_BY_COLUMNS = true;
// CHECK-NEXT:   static constexpr int C_PACK = 2;
// CHECK:        SCALAR_TWIN = true;
// CHECK-NEXT:   struct A {
// CHECK-NEXT:     static constexpr int X = 64;
// CHECK-NEXT:     static constexpr bool X_UNIT = true;
// CHECK-NEXT:     static constexpr bool K_UNIT = false;
// CHECK-NEXT:     static constexpr int PACK = 2;
// CHECK-NEXT:     static constexpr bool ALONG_K = false;
// CHECK-NEXT:     static constexpr bool WHOLE_STORE = true;
// CHECK-NEXT:     static constexpr int PACKS = 512;
// CHECK-NEXT:     static constexpr int LOADS = 2;
// CHECK-NEXT:     static constexpr bool REGULAR = true;
// CHECK-NEXT:     static constexpr bool SWIZZLED = false;
// CHECK-NEXT:     static constexpr bool K_INNER = false;
// CHECK-NEXT:   };
// CHECK-NEXT:   struct B {
// CHECK-NEXT:     static constexpr int X = 64;
// CHECK-NEXT:     static constexpr bool X_UNIT = false;
// CHECK-NEXT:     static constexpr bool K_UNIT = true;
// CHECK-NEXT:     static constexpr int PACK = 2;
// CHECK-NEXT:     static constexpr bool ALONG_K = true;
// CHECK-NEXT:     static constexpr bool WHOLE_STORE = false;
// CHECK-NEXT:     static constexpr int PACKS = 512;
// CHECK-NEXT:     static constexpr int LOADS = 2;
// CHECK-NEXT:     static constexpr bool REGULAR = true;
// CHECK-NEXT:     static constexpr bool SWIZZLED = false;
// CHECK-NEXT:     static constexpr bool K_INNER = false;
// CHECK-NEXT:   };

// The same kernel on the same layout is printed once, whether a launcher's
// first kernel or an alternative.
// CHECK:      struct generic_k0 {
// CHECK:        SCALAR_TWIN = false;
// CHECK-NOT:  struct same_as_row_major_k0
// CHECK:      struct with_alternative_k1 {
// CHECK:        SCALAR_TWIN = false;
// A configuration that differs from an earlier one only in TRANSPOSED (all
// three operands column-major, computed as C^T: row_major_f32_k0's layout)
// launches that one's kernel, which is compiled once.
// CHECK:      /// Transposed: it computes C^T = B^T A^T, so BM runs along N.
// CHECK-NEXT: struct col_major_f32_k0 : row_major_f32_k0 {
// CHECK-NEXT:   using Kernel = row_major_f32_k0;
// CHECK-NEXT:   static constexpr bool TRANSPOSED = true;
// CHECK-NEXT: };
// CHECK-NOT:  struct
// CHECK:      } // namespace

// CHECK-LABEL: static bool row_major_f32(
// CHECK:        {gemm_kernels::launch<row_major_f32_k0>, 128, 128, 1, {{[0-9]+\.[0-9]}}, 0.250, 1.000,
// CHECK-NEXT:        "block=128,128,8 thread=8,8 vector=4 prefetch=smem stages=2 pad=4 compute=fma transpose=0",
// CHECK-NEXT:        gemm_kernels::runs<row_major_f32_k0>, nullptr, nullptr, {{[0-9]+}}},
// CHECK-NEXT:   };
// CHECK-NEXT:   return gemm_rt::run(problem, gemm_rt::Plan{variants, 1, 3350.0, "{{[0-9.]+}}", "{{[0-9a-f]+}}"});
func.func @row_major_f32(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                         %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  // Pinned, so that the checks do not follow the cost model's choice.
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}

// CHECK-LABEL: static bool col_major_f64(
// CHECK:        {gemm_kernels::launch<col_major_f64_k0>, 64, 64, 1,
func.func @col_major_f64(%a: memref<?x?xf64, strided<[1, ?], offset: ?>>, %b: memref<?x?xf64, strided<[1, ?], offset: ?>>,
                         %c: memref<?x?xf64, strided<[1, ?], offset: ?>>, %alpha: f64, %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 2, prefetch = smem, pad = 2>} : memref<?x?xf64, strided<[1, ?], offset: ?>>, memref<?x?xf64, strided<[1, ?], offset: ?>>, memref<?x?xf64, strided<[1, ?], offset: ?>>, f64
  return
}

// CHECK-LABEL: static bool generic(
// CHECK:        {gemm_kernels::launch<generic_k0>,
func.func @generic(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %b: memref<?x?xf32, strided<[?, ?], offset: ?>>,
                   %c: memref<?x?xf32, strided<[?, ?], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>} : memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, f32
  return
}

// CHECK-LABEL: static bool same_as_row_major(
// CHECK:        {gemm_kernels::launch<row_major_f32_k0>, 128, 128, 1,
func.func @same_as_row_major(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                             %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}

// Its first kernel is row_major_f32_k0; its alternative, with_alternative_k1,
// has no twin, and runs<> tells run() so.
// CHECK-LABEL: static bool with_alternative(
// CHECK:        {gemm_kernels::launch<row_major_f32_k0>, 128, 128, 1,
// CHECK:         gemm_kernels::runs<row_major_f32_k0>, nullptr, nullptr, {{[0-9]+}}},
// CHECK-NEXT:   {gemm_kernels::launch<with_alternative_k1>, 64, 64, 2,
// CHECK:         gemm_kernels::runs<with_alternative_k1>, nullptr, nullptr, {{[0-9]+}}},
func.func @with_alternative(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                            %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, alternatives = [#gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4, occupancy = 2>]} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}

// CHECK-LABEL: static bool col_major_f32(
// CHECK:        {gemm_kernels::launch<col_major_f32_k0>, 128, 128, 1,
// CHECK:         gemm_kernels::runs<col_major_f32_k0>, nullptr, nullptr, {{[0-9]+}}},
func.func @col_major_f32(%a: memref<?x?xf32, strided<[1, ?], offset: ?>>, %b: memref<?x?xf32, strided<[1, ?], offset: ?>>,
                         %c: memref<?x?xf32, strided<[1, ?], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4, transpose = true>} : memref<?x?xf32, strided<[1, ?], offset: ?>>, memref<?x?xf32, strided<[1, ?], offset: ?>>, memref<?x?xf32, strided<[1, ?], offset: ?>>, f32
  return
}
