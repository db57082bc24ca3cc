// gemm-specialize plans each schedule for the op's layout: packs follow the
// unit strides, a thread's packs lie a fixed step apart only where every
// thread has as many and they cover whole lines, fragments group where the
// padded rows keep packs aligned, C is stored by columns where only its rows
// are contiguous, and a transposed schedule's kernel sees B^T, A^T and C^T.
// RUN: gemm-opt %s -gemm-specialize -split-input-file | FileCheck %s
// RUN: gemm-opt %s -gemm-specialize=stream-k=1 -split-input-file | FileCheck %s --check-prefix=ALL

// Row-major f32: A's packs run along K (element-wise stores), B's along N
// (stored whole, the padded rows stay 16-byte aligned); 256 threads and 256
// packs per tile: one each, regular. A tiles: 2 * 8 * (128 + 4) floats.
// CHECK-LABEL: func.func @row_major_f32
// CHECK:      kernels = [#gemm.kernel<schedule = <block = [128, 128, 8]{{.*}}>, threads = 256,
// CHECK-SAME: a = <x = 128, x_unit = false, k_unit = true, pack = 4, along_k = true, whole_store = false, packs = 256, loads = 1, regular = true, swizzled = false, k_inner = false>,
// CHECK-SAME: b = <x = 128, x_unit = true, k_unit = false, pack = 4, along_k = false, whole_store = true, packs = 256, loads = 1, regular = true, swizzled = false, k_inner = false>,
// CHECK-SAME: row_group = 4, row_step = 64, col_group = 4, col_step = 64, dmma_depth = 0,
// CHECK-SAME: c_row_unit = false, c_col_unit = true, c_by_columns = false, c_pack = 4, a_tile_bytes = 8448, shared_bytes = 16896, scalar_twin = true>]
// Each kernel's rates, for the runtime: a positive GFLOP/s and DRAM shares.
// CHECK-SAME: rates = [#gemm.rates<gflops = {{[1-9][0-9.e+]*}} : f64, share_a = {{[0-9.e+-]+}} : f64, share_b = {{[0-9.e+-]+}} : f64>]
func.func @row_major_f32(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                         %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}

// -----

// With 16 k a tile, a warp stores A's packs along K into 8 rows, 4 k apart:
// rows of 132 floats put k and k + 8 on one bank, so A's columns are
// swizzled by row (KernelPlan.h). Rows of 136 floats (pad 8) are not 4 mod
// 32 words, and B, stored whole, never is.
// CHECK-LABEL: func.func @swizzled_f32
// CHECK:      a = <x = 128, x_unit = false, k_unit = true, pack = 4, along_k = true, whole_store = false, packs = 512, loads = 2, regular = true, swizzled = true, k_inner = false>,
// CHECK-SAME: b = <{{[^>]*}} whole_store = true, {{[^>]*}} swizzled = false, k_inner = false>,
// CHECK-SAME: a = <x = 128, {{[^>]*}} swizzled = false, k_inner = false>,
func.func @swizzled_f32(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                        %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 16], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>,
      alternatives = [#gemm.schedule<block = [128, 128, 16], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 8>]} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}

// -----

// Column-major f64: A along M, B along K, and C by columns in double2 packs.
// CHECK-LABEL: func.func @col_major_f64
// CHECK:      a = <x = 64, x_unit = true, k_unit = false, pack = 2, along_k = false, whole_store = true, packs = 512, loads = 2, regular = true, swizzled = false, k_inner = false>,
// CHECK-SAME: b = <x = 64, x_unit = false, k_unit = true, pack = 2, along_k = true, whole_store = false, packs = 512, loads = 2, regular = true, swizzled = false, k_inner = false>,
// CHECK-SAME: c_row_unit = true, c_col_unit = false, c_by_columns = true, c_pack = 2,
func.func @col_major_f64(%a: memref<?x?xf64, strided<[1, ?], offset: ?>>, %b: memref<?x?xf64, strided<[1, ?], offset: ?>>,
                         %c: memref<?x?xf64, strided<[1, ?], offset: ?>>, %alpha: f64, %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 2, prefetch = smem, pad = 2>} : memref<?x?xf64, strided<[1, ?], offset: ?>>, memref<?x?xf64, strided<[1, ?], offset: ?>>, memref<?x?xf64, strided<[1, ?], offset: ?>>, f64
  return
}

// -----

// No unit stride known: single elements, and C one at a time.
// CHECK-LABEL: func.func @generic
// CHECK:      a = <x = 64, x_unit = false, k_unit = false, pack = 1, along_k = false, whole_store = false,
// CHECK-SAME: b = <x = 64, x_unit = false, k_unit = false, pack = 1, along_k = false, whole_store = false,
// CHECK-SAME: c_row_unit = false, c_col_unit = false, c_by_columns = false, c_pack = 1,
func.func @generic(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %b: memref<?x?xf32, strided<[?, ?], offset: ?>>,
                   %c: memref<?x?xf32, strided<[?, ?], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>} : memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, f32
  return
}

// -----

// 96 threads. A: 72 x 24 / 4 = 432 packs, so some threads get 5 and some 4:
// irregular, a pointer per pack. B: 64 x 24 / 4 = 384 packs, 4 each, 16 to a
// K row, so a thread's packs lie 96 / 16 = 6 K rows apart: regular. TM = 6
// reads single rows, 12 threads apart.
// CHECK-LABEL: func.func @cursor
// CHECK:      threads = 96,
// CHECK-SAME: a = <x = 72, x_unit = false, k_unit = true, pack = 4, along_k = true, whole_store = false, packs = 432, loads = 5, regular = false, swizzled = false, k_inner = false>,
// CHECK-SAME: b = <x = 64, x_unit = true, k_unit = false, pack = 4, along_k = false, whole_store = true, packs = 384, loads = 4, regular = true, swizzled = false, k_inner = false>,
// CHECK-SAME: row_group = 1, row_step = 12, col_group = 4, col_step = 32,
func.func @cursor(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                  %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [72, 64, 24], thread = [6, 8], warps = 3, stages = 2, vector = 4, prefetch = smem, pad = 4>} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}

// -----

// FP64 tensor cores. An even TM pairs 8-row blocks into m16n8k8 where 8
// divides BK (k4 where it does not), and a lane reads two row blocks as one
// pack; B's blocks pair only for k4. An odd TM keeps m8n8k4.
// CHECK-LABEL: func.func @dmma
// CHECK:      row_group = 2, row_step = 16, col_group = 2, col_step = 8, dmma_depth = 8, dmma_wide = true, dmma_group_a = 2, dmma_group_b = 1,
// CHECK:      row_group = 2, row_step = 16, col_group = 4, col_step = 16, dmma_depth = 4, dmma_wide = true, dmma_group_a = 2, dmma_group_b = 2,
// CHECK:      row_group = 1, row_step = 8, col_group = 4, col_step = 16, dmma_depth = 4, dmma_wide = false, dmma_group_a = 1, dmma_group_b = 2,
func.func @dmma(%a: memref<?x?xf64, strided<[?, 1], offset: ?>>, %b: memref<?x?xf64, strided<[?, 1], offset: ?>>,
                %c: memref<?x?xf64, strided<[?, 1], offset: ?>>, %alpha: f64, %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 2, prefetch = smem, pad = 4, compute = dmma>} : memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>, f64
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [96, 96, 12], thread = [6, 4], warps = 12, stages = 2, vector = 2, prefetch = smem, pad = 2, compute = dmma>} : memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>, f64
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [72, 144, 8], thread = [9, 4], warps = 9, stages = 2, vector = 2, prefetch = smem, pad = 2, compute = dmma>} : memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>, f64
  return
}

// -----

// A transposed kernel computes C^T = B^T A^T: its A tile is B^T (N unit), its
// B tile A^T (K unit), and C^T has contiguous rows, so it stores by columns.
// Every schedule gets a kernel, in order: the schedule, then the
// alternatives.
// CHECK-LABEL: func.func @transposed
// CHECK:      kernels = [#gemm.kernel<schedule = <block = [64, 64, 8]{{.*}}transpose = true>,
// CHECK-SAME: a = <x = 64, x_unit = true, k_unit = false, pack = 4, along_k = false,
// CHECK-SAME: b = <x = 64, x_unit = false, k_unit = true, pack = 4, along_k = true,
// CHECK-SAME: c_row_unit = true, c_col_unit = false, c_by_columns = true, c_pack = 4,
// CHECK-SAME: #gemm.kernel<schedule = <block = [32, 32, 8]{{.*}}>, threads = 64,
// CHECK-SAME: c_row_unit = false, c_col_unit = true, c_by_columns = false,
func.func @transposed(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                      %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [64, 64, 8], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4, transpose = true>, alternatives = [#gemm.schedule<block = [32, 32, 8], thread = [4, 4], warps = 2, stages = 2, vector = 4, prefetch = smem, pad = 4>]} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}

// -----

// A packed kernel has a scalar twin where it is some op's first kernel, in
// every op that runs it, so that it stays one configuration: 64x64x16 is
// @second's first and @first's alternative; 32x32x8 is only an alternative,
// and the packless kernel needs no twin.
// CHECK-LABEL: func.func @twins
// CHECK:      kernels = [#gemm.kernel<schedule = <block = [128, 128, 8]{{[^#]*}}scalar_twin = true>,
// CHECK-SAME: #gemm.kernel<schedule = <block = [64, 64, 16]{{[^#]*}}scalar_twin = true>,
// CHECK-SAME: #gemm.kernel<schedule = <block = [32, 32, 8]{{[^#]*}}scalar_twin = false>]
// CHECK:      kernels = [#gemm.kernel<schedule = <block = [64, 64, 16]{{[^#]*}}scalar_twin = true>]
// CHECK:      kernels = [#gemm.kernel<schedule = <block = [64, 64, 16]{{[^#]*}}scalar_twin = false>]
func.func @twins(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                 %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %g: memref<?x?xf32, strided<[?, ?], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, alternatives = [#gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, #gemm.schedule<block = [32, 32, 8], thread = [2, 2], warps = 8, stages = 2, vector = 2, prefetch = smem, pad = 2>]} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  gemm.matmul %g, %g, %g, %alpha, %beta {schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>} : memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, f32
  return
}

// -----

// A kernel compiles its stream-K form only where a measurement can choose
// it, in every op that runs it: the first op's measured table chose
// stream-K (splits 0) for its alternative 64x64x16, the second op's first
// kernel; 128x128x8 was measured split, and has none. A tuning program
// times every kernel of its ops (gemm.tune) as stream-K. With stream-k,
// every kernel has one.
// CHECK-LABEL: func.func @streams
// CHECK:      kernels = [#gemm.kernel<schedule = <block = [128, 128, 8]{{[^#]*}}scalar_twin = true>,
// CHECK-SAME: #gemm.kernel<schedule = <block = [64, 64, 16]{{[^#]*}}scalar_twin = true, stream_k = true>]
// CHECK:      kernels = [#gemm.kernel<schedule = <block = [64, 64, 16]{{[^#]*}}scalar_twin = true, stream_k = true>]
// CHECK:      kernels = [#gemm.kernel<schedule = <block = [32, 32, 8]{{[^#]*}}scalar_twin = true, stream_k = true>]
// ALL-LABEL:  func.func @streams
// ALL:        kernels = [#gemm.kernel<schedule = <block = [128, 128, 8]{{[^#]*}}stream_k = true>,
// ALL-SAME:   #gemm.kernel<schedule = <block = [64, 64, 16]{{[^#]*}}stream_k = true>]
func.func @streams(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                   %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, alternatives = [#gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>], gemm.measured = [#gemm.measured<batch = 1, m = 1024, n = 1024, k = 1024, kernel = 0, splits = 2>, #gemm.measured<batch = 1, m = 4096, n = 4096, k = 4096, kernel = 1, splits = 0>]} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [32, 32, 8], thread = [2, 2], warps = 8, stages = 2, vector = 2, prefetch = smem, pad = 2>, gemm.tune = [#gemm.tune_case<batch = 1, m = 256, n = 256, k = 256, kernel = 0>]} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}
