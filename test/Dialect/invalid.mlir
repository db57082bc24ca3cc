// RUN: gemm-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// gemm.matmul: operand types
//===----------------------------------------------------------------------===//

func.func @rank_mismatch(%a: memref<?x?xf32>, %b: memref<?x?xf32>,
                         %c: memref<?x?x?xf32>, %s: f32) {
  // expected-error @+1 {{'gemm.matmul' op operands must all be rank 2 (or rank 3 with a leading batch dimension), got A rank 2, B rank 2, C rank 3}}
  gemm.matmul %a, %b, %c, %s, %s : memref<?x?xf32>, memref<?x?xf32>, memref<?x?x?xf32>, f32
  return
}

// -----

func.func @rank_mismatch_batched_a(%a: memref<?x?x?xf64>, %b: memref<?x?xf64>,
                                   %c: memref<?x?xf64>, %s: f64) {
  // expected-error @+1 {{operands must all be rank 2 (or rank 3 with a leading batch dimension), got A rank 3, B rank 2, C rank 2}}
  gemm.matmul %a, %b, %c, %s, %s : memref<?x?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, f64
  return
}

// -----

// Ranks outside 2 and 3 are rejected by the operand constraint.
func.func @rank_4(%a: memref<?x?x?x?xf32>, %s: f32) {
  // expected-error @+1 {{'gemm.matmul' op operand #0 must be rank-2 or rank-3 memref with a strided layout, but got 'memref<?x?x?x?xf32>'}}
  gemm.matmul %a, %a, %a, %s, %s : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>, memref<?x?x?x?xf32>, f32
  return
}

// -----

func.func @rank_1(%a: memref<?xf32>, %b: memref<?x?xf32>, %s: f32) {
  // expected-error @+1 {{'gemm.matmul' op operand #2 must be rank-2 or rank-3 memref with a strided layout, but got 'memref<?xf32>'}}
  gemm.matmul %b, %b, %a, %s, %s : memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>, f32
  return
}

// -----

// A layout that no strides describe.
func.func @not_strided(%a: memref<8x8xf32>,
                       %b: memref<8x8xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>>,
                       %s: f32) {
  // expected-error @+1 {{'gemm.matmul' op operand #1 must be rank-2 or rank-3 memref with a strided layout, but got 'memref<8x8xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>>'}}
  gemm.matmul %a, %b, %a, %s, %s : memref<8x8xf32>, memref<8x8xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>>, memref<8x8xf32>, f32
  return
}

// -----

func.func @not_a_memref(%a: tensor<8x8xf32>, %b: memref<8x8xf32>, %s: f32) {
  // expected-error @+1 {{'gemm.matmul' op operand #0 must be rank-2 or rank-3 memref with a strided layout, but got 'tensor<8x8xf32>'}}
  "gemm.matmul"(%a, %b, %b, %s, %s) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0>}> : (tensor<8x8xf32>, memref<8x8xf32>, memref<8x8xf32>, f32, f32) -> ()
  return
}

// -----

// The custom form parses each operand type as a memref and rejects others.
func.func @not_a_memref_custom(%a: tensor<8x8xf32>, %b: memref<8x8xf32>,
                               %s: f32) {
  // expected-error @+1 {{custom op 'gemm.matmul' invalid kind of type specified}}
  gemm.matmul %a, %b, %b, %s, %s : tensor<8x8xf32>, memref<8x8xf32>, memref<8x8xf32>, f32
  return
}

// -----

//===----------------------------------------------------------------------===//
// gemm.matmul: element types and scalars
//===----------------------------------------------------------------------===//

func.func @element_type_mismatch(%a: memref<?x?xf32>, %b: memref<?x?xf64>,
                                 %s: f32) {
  // expected-error @+1 {{'gemm.matmul' op operands must have the same element type, got A 'f32', B 'f64', C 'f32'}}
  gemm.matmul %a, %b, %a, %s, %s : memref<?x?xf32>, memref<?x?xf64>, memref<?x?xf32>, f32
  return
}

// -----

func.func @element_type_f16(%a: memref<?x?xf16>, %s: f16) {
  // expected-error @+1 {{'gemm.matmul' op element type must be f32 or f64, got 'f16'}}
  gemm.matmul %a, %a, %a, %s, %s : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>, f16
  return
}

// -----

func.func @element_type_i32(%a: memref<?x?xi32>, %s: f32) {
  // expected-error @+1 {{'gemm.matmul' op element type must be f32 or f64, got 'i32'}}
  gemm.matmul %a, %a, %a, %s, %s : memref<?x?xi32>, memref<?x?xi32>, memref<?x?xi32>, f32
  return
}

// -----

// f32 operands may be summed in f64 (widened); f64 ones never in f32.
func.func @alpha_type(%a: memref<?x?xf64>, %s: f32) {
  // expected-error @+1 {{'gemm.matmul' op alpha and beta must have the element type, or f64 for f32 operands, got 'f32' for 'f64'}}
  gemm.matmul %a, %a, %a, %s, %s : memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, f32
  return
}

// -----

func.func @alpha_not_float(%a: memref<?x?xf32>, %s: i32) {
  // expected-error @+1 {{'gemm.matmul' op operand #3 must be floating-point, but got 'i32'}}
  "gemm.matmul"(%a, %a, %a, %s, %s) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0>}> : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, i32, i32) -> ()
  return
}

// -----

// The custom form writes one scalar type; the generic form can disagree.
func.func @alpha_beta_mismatch(%a: memref<?x?xf32>, %alpha: f32, %beta: f64) {
  // expected-error @+1 {{'gemm.matmul' op failed to verify that all of {alpha, beta} have same type}}
  "gemm.matmul"(%a, %a, %a, %alpha, %beta) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0>}> : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32, f64) -> ()
  return
}

// -----

//===----------------------------------------------------------------------===//
// gemm.matmul: shapes
//===----------------------------------------------------------------------===//

func.func @k_mismatch(%a: memref<4x8xf32>, %b: memref<7x6xf32>,
                      %c: memref<4x6xf32>, %s: f32) {
  // expected-error @+1 {{'gemm.matmul' op A's column count (K = 8) must equal B's row count (K = 7)}}
  gemm.matmul %a, %b, %c, %s, %s : memref<4x8xf32>, memref<7x6xf32>, memref<4x6xf32>, f32
  return
}

// -----

func.func @m_mismatch(%a: memref<5x?xf64>, %b: memref<?x6xf64>,
                      %c: memref<4x6xf64>, %s: f64) {
  // expected-error @+1 {{'gemm.matmul' op C's row count (M = 4) must equal A's row count (M = 5)}}
  gemm.matmul %a, %b, %c, %s, %s : memref<5x?xf64>, memref<?x6xf64>, memref<4x6xf64>, f64
  return
}

// -----

func.func @n_mismatch(%a: memref<?x?xf32>, %b: memref<?x6xf32>,
                      %c: memref<?x5xf32>, %s: f32) {
  // expected-error @+1 {{'gemm.matmul' op C's column count (N = 5) must equal B's column count (N = 6)}}
  gemm.matmul %a, %b, %c, %s, %s : memref<?x?xf32>, memref<?x6xf32>, memref<?x5xf32>, f32
  return
}

// -----

// The batch dimension does not shift the matrix dimensions' names.
func.func @batched_k_mismatch(%a: memref<2x4x8xf32>, %b: memref<2x9x6xf32>,
                              %c: memref<2x4x6xf32>, %s: f32) {
  // expected-error @+1 {{'gemm.matmul' op A's column count (K = 8) must equal B's row count (K = 9)}}
  gemm.matmul %a, %b, %c, %s, %s : memref<2x4x8xf32>, memref<2x9x6xf32>, memref<2x4x6xf32>, f32
  return
}

// -----

func.func @batch_a_b(%a: memref<2x4x8xf32>, %b: memref<3x8x6xf32>,
                     %c: memref<?x4x6xf32>, %s: f32) {
  // expected-error @+1 {{'gemm.matmul' op A's batch extent (batch = 2) must equal B's batch extent (batch = 3)}}
  gemm.matmul %a, %b, %c, %s, %s : memref<2x4x8xf32>, memref<3x8x6xf32>, memref<?x4x6xf32>, f32
  return
}

// -----

func.func @batch_c_a(%a: memref<2x?x?xf64>, %b: memref<?x?x?xf64>,
                     %c: memref<5x?x?xf64>, %s: f64) {
  // expected-error @+1 {{'gemm.matmul' op C's batch extent (batch = 5) must equal A's batch extent (batch = 2)}}
  gemm.matmul %a, %b, %c, %s, %s : memref<2x?x?xf64>, memref<?x?x?xf64>, memref<5x?x?xf64>, f64
  return
}

// -----

// With A's batch dynamic, B and C are still compared with each other.
func.func @batch_c_b(%a: memref<?x?x?xf32>, %b: memref<3x?x?xf32>,
                     %c: memref<4x?x?xf32>, %s: f32) {
  // expected-error @+1 {{'gemm.matmul' op C's batch extent (batch = 4) must equal B's batch extent (batch = 3)}}
  gemm.matmul %a, %b, %c, %s, %s : memref<?x?x?xf32>, memref<3x?x?xf32>, memref<4x?x?xf32>, f32
  return
}

// -----

//===----------------------------------------------------------------------===//
// Attributes on the IR
//===----------------------------------------------------------------------===//

func.func @schedule_wrong_kind(%a: memref<?x?xf32>, %s: f32) {
  // expected-error @+1 {{'gemm.matmul' op attribute 'schedule' failed to satisfy constraint}}
  gemm.matmul %a, %a, %a, %s, %s {schedule = 1 : i64} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

// expected-error @+1 {{'gemm.target' must be a #gemm.target attribute, got "hopper-h100"}}
module attributes {gemm.target = "hopper-h100"} {
}

// -----

//===----------------------------------------------------------------------===//
// #gemm.schedule
//===----------------------------------------------------------------------===//

// expected-error @+1 {{block must have 3 entries [BM, BN, BK], got 2}}
func.func private @block_size() attributes {s = #gemm.schedule<block = [128, 128], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>}

// -----

// expected-error @+1 {{block entries must be positive, got [128, 0, 8]}}
func.func private @block_positive() attributes {s = #gemm.schedule<block = [128, 0, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>}

// -----

// expected-error @+1 {{thread must have 2 entries [TM, TN], got 3}}
func.func private @thread_size() attributes {s = #gemm.schedule<block = [128, 128, 8], thread = [8, 8, 1], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>}

// -----

// expected-error @+1 {{thread entries must be positive, got [-8, 8]}}
func.func private @thread_positive() attributes {s = #gemm.schedule<block = [128, 128, 8], thread = [-8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>}

// -----

// expected-error @+1 {{BM (128) must be a multiple of TM (6)}}
func.func private @bm_tm() attributes {s = #gemm.schedule<block = [128, 128, 8], thread = [6, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>}

// -----

// expected-error @+1 {{BN (96) must be a multiple of TN (5)}}
func.func private @bn_tn() attributes {s = #gemm.schedule<block = [96, 96, 16], thread = [6, 5], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>}

// -----

// expected-error @+1 {{warps must be at least 1, got 0}}
func.func private @warps() attributes {s = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 0, stages = 2, vector = 4, prefetch = smem, pad = 4>}

// -----

// expected-error @+1 {{warps (4) must equal the block's (BM / TM) * (BN / TN) = 256 threads divided by 32}}
func.func private @warps_threads() attributes {s = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 4, stages = 2, vector = 4, prefetch = smem, pad = 4>}

// -----

// expected-error @+1 {{prefetch = smem needs 2 stages, got 1}}
func.func private @smem_stages() attributes {s = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 1, vector = 4, prefetch = smem, pad = 4>}

// -----

// expected-error @+1 {{prefetch = regs needs 1 stage, got 2}}
func.func private @regs_stages() attributes {s = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = regs, pad = 4>}

// -----

// expected-error @+1 {{prefetch = smem needs 2 stages, got 3}}
func.func private @smem_three() attributes {s = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 3, vector = 4, prefetch = smem, pad = 4>}

// -----

// expected-error @+1 {{prefetch = async needs 2 stages or more, got 1}}
func.func private @async_stages() attributes {s = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 1, vector = 4, prefetch = async, pad = 4>}

// -----

// expected-error @+1 {{compute = dmma needs BM a multiple of 8 * TM, BN of 4 * TN, an even TN and BK a multiple of 4}}
func.func private @dmma_tile() attributes {s = #gemm.schedule<block = [64, 96, 16], thread = [4, 3], warps = 16, stages = 2, vector = 2, prefetch = smem, pad = 2, compute = dmma>}

// -----

func.func @dmma_f32(%a: memref<?x?xf32>, %s: f32) {
  // expected-error @+1 {{'gemm.matmul' op compute = dmma multiplies f64 only, got 'f32'}}
  gemm.matmul %a, %a, %a, %s, %s {schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 2, prefetch = smem, pad = 2, compute = dmma>} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

// An alternative kernel is held to the same rules as the schedule.
func.func @dmma_f32_alternative(%a: memref<?x?xf32>, %s: f32) {
  // expected-error @+1 {{'gemm.matmul' op compute = dmma multiplies f64 only, got 'f32'}}
  gemm.matmul %a, %a, %a, %s, %s {schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 2, prefetch = smem, pad = 2>, alternatives = [#gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 2, prefetch = smem, pad = 2, compute = dmma>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @alternatives_alone(%a: memref<?x?xf32>, %s: f32) {
  // expected-error @+1 {{'gemm.matmul' op alternatives need a schedule}}
  gemm.matmul %a, %a, %a, %s, %s {alternatives = [#gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 2, prefetch = smem, pad = 2>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @alternatives_not_schedules(%a: memref<?x?xf32>, %s: f32) {
  // expected-error @+1 {{attribute 'alternatives' failed to satisfy constraint: array of #gemm.schedule}}
  gemm.matmul %a, %a, %a, %s, %s {schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 2, prefetch = smem, pad = 2>, alternatives = [1]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

// expected-error @+1 {{stages must be at least 1, got 0}}
func.func private @stages() attributes {s = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 0, vector = 4, prefetch = smem, pad = 4>}

// -----

// expected-error @+1 {{vector must be 1, 2 or 4, got 3}}
func.func private @vector() attributes {s = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 3, prefetch = smem, pad = 4>}

// -----

// expected-error @+1 {{vector must be 1, 2 or 4, got 8}}
func.func private @vector_8() attributes {s = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 8, prefetch = smem, pad = 4>}

// -----

// expected-error @+1 {{pad must be non-negative, got -1}}
func.func private @pad() attributes {s = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = -1>}

// -----

// expected-error @+1 {{occupancy must be at least 1, got 0}}
func.func private @occupancy() attributes {s = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4, occupancy = 0>}

// -----

// A schedule attached to an op is checked the same way.
func.func @op_schedule(%a: memref<?x?xf32>, %s: f32) {
  // expected-error @+1 {{BM (128) must be a multiple of TM (3)}}
  gemm.matmul %a, %a, %a, %s, %s {schedule = #gemm.schedule<block = [128, 128, 8], thread = [3, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

// Syntax errors come from the generated parser.

// expected-error @+2 {{expected ::mlir::gemm::Prefetch to be one of: none, smem, regs}}
// expected-error @+1 {{failed to parse Gemm_ScheduleAttr parameter 'prefetch'}}
func.func private @prefetch_kind() attributes {s = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = global, pad = 4>}

// -----

// Tile lists are written in brackets.
// expected-error @+2 {{expected '['}}
// expected-error @+1 {{failed to parse Gemm_ScheduleAttr parameter 'block' which is to be a `::llvm::ArrayRef<int64_t>`}}
func.func private @unbracketed() attributes {s = #gemm.schedule<block = 128, thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>}

// -----

// The kernels plan the schedule and the alternatives, one each, in order:
// here one kernel for two schedules.
func.func @kernels_count(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  // expected-error @+1 {{kernels must plan the schedule and the alternatives, one each and in that order}}
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [64, 64, 8], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, alternatives = [#gemm.schedule<block = [32, 32, 8], thread = [4, 4], warps = 2, stages = 2, vector = 4, prefetch = smem, pad = 4>], kernels = [#gemm.kernel<schedule = <block = [64, 64, 8], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, threads = 256, a = <x = 64, x_unit = false, k_unit = false, pack = 1, along_k = false, whole_store = false, packs = 512, loads = 2, regular = true, swizzled = false, k_inner = false>, b = <x = 64, x_unit = false, k_unit = false, pack = 1, along_k = false, whole_store = false, packs = 512, loads = 2, regular = true, swizzled = false, k_inner = false>, row_group = 1, row_step = 16, col_group = 1, col_step = 16, dmma_depth = 0, dmma_wide = false, dmma_group_a = 1, dmma_group_b = 1, c_row_unit = false, c_col_unit = false, c_by_columns = false, c_pack = 1, a_tile_bytes = 4608, shared_bytes = 9216, scalar_twin = true>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

// The rates rate the kernels, one each: here two rates for one kernel.
func.func @rates_count(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  // expected-error @+1 {{rates must rate the kernels, one each}}
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [64, 64, 8], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, kernels = [#gemm.kernel<schedule = <block = [64, 64, 8], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, threads = 256, a = <x = 64, x_unit = false, k_unit = false, pack = 1, along_k = false, whole_store = false, packs = 512, loads = 2, regular = true, swizzled = false, k_inner = false>, b = <x = 64, x_unit = false, k_unit = false, pack = 1, along_k = false, whole_store = false, packs = 512, loads = 2, regular = true, swizzled = false, k_inner = false>, row_group = 1, row_step = 16, col_group = 1, col_step = 16, dmma_depth = 0, dmma_wide = false, dmma_group_a = 1, dmma_group_b = 1, c_row_unit = false, c_col_unit = false, c_by_columns = false, c_pack = 1, a_tile_bytes = 4608, shared_bytes = 9216, scalar_twin = true>], rates = [#gemm.rates<gflops = 1.0e+03 : f64, share_a = 5.0e-01 : f64, share_b = 1.0 : f64>, #gemm.rates<gflops = 1.0e+03 : f64, share_a = 5.0e-01 : f64, share_b = 1.0 : f64>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}
