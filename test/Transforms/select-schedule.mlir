// RUN: gemm-opt %s -gemm-select-schedule -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=DEFAULT --implicit-check-not=alternatives --implicit-check-not=gemm.target
// RUN: gemm-opt %s -gemm-select-schedule="block=64,32,16 thread=4,2 prefetch=regs vector=2 pad=1" -split-input-file | FileCheck %s --check-prefix=OVERRIDE
// RUN: gemm-opt %s -gemm-select-schedule="prefetch=async stages=3" -split-input-file | FileCheck %s --check-prefix=STAGES

// Without options each element type gets the cost model's best schedule for
// the module's target, here the default, hopper-h100 (test/Target checks
// the model itself; gemm-attach-target puts a target on the module, which
// this pass leaves as it is): 8 x 16 register tiles with 128-bit accesses
// for f32, FP64 tensor-core tiles for f64. The model's residency rides
// along as `occupancy` (omitted when it is 1), so that the launch bounds
// hold ptxas to it. Options restrict the search (stages picks the cp.async
// pipeline's depth), and the candidates that only tuning may choose (on
// Hopper FFMA kernels with cp.async) are the search's when the options
// leave no others, as for the f32 op below; when no candidate has them
// (the tiles below miss the guidelines) they override the best schedule.
// Warps follow from the tiles. With C's row-major A and
// B the model may take the transposed product (`transpose = true`: C^T =
// B^T A^T, whose tiles move the other way). Dynamic extents get no
// alternatives here: gemm-add-alternatives adds them
// (add-alternatives.mlir). Each choice gets a remark with its prediction.

// DEFAULT-LABEL: func.func @f32
// DEFAULT: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [256, 128, 8], thread = [8, 16], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4, transpose = true>}
// OVERRIDE-LABEL: func.func @f32
// OVERRIDE: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [64, 32, 16], thread = [4, 2], warps = 8, stages = 1, vector = 2, prefetch = regs, pad = 1, occupancy = 2, transpose = true>}
// STAGES-LABEL: func.func @f32
// STAGES: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [128, 128, 32], thread = [4, 16], warps = 8, stages = 3, vector = 4, prefetch = async, pad = 4>}
func.func @f32(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
               %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  // expected-remark@+1 {{gemm-select-schedule: hopper-h100 f32: block 256x128x8, thread 8x16 (256 threads), vector 4, prefetch smem, compute fma, transposed (C^T = B^T A^T): predicted}}
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}

// -----

// On Hopper the FP64 tensor cores double the peak, so the model's best f64
// schedule multiplies with mma.sync (compute = dmma), fed by a four-buffer
// cp.async pipeline whose warps drift apart (prefetch = async). 8x8 and
// 4x16 register tiles tie on every bound; 8x8 reads A in pairs of blocks,
// so fewer of its instructions are loads (the FMA share breaks the tie).
// DEFAULT-LABEL: func.func @f64
// DEFAULT: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 4, vector = 2, prefetch = async, pad = 4, compute = dmma>}
func.func @f64(%a: memref<?x?x?xf64>, %b: memref<?x?x?xf64>, %c: memref<?x?x?xf64>, %alpha: f64, %beta: f64) {
  // expected-remark@+1 {{gemm-select-schedule: hopper-h100 f64: block 128x128x8, thread 8x8 (256 threads), vector 2, prefetch async4, compute dmma: predicted 66908 GFLOP/s, 100.0% of the 66908 GFLOP/s peak, bound: peak}}
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?x?xf64>, memref<?x?x?xf64>, memref<?x?x?xf64>, f64
  return
}

// -----

// A schedule already on the op stays, except where an option overrides it.
// DEFAULT-LABEL: func.func @kept
// DEFAULT: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [32, 32, 8], thread = [2, 2], warps = 8, stages = 1, vector = 2, prefetch = none, pad = 0>}
// STAGES-LABEL: func.func @kept
// STAGES: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [32, 32, 8], thread = [2, 2], warps = 8, stages = 3, vector = 2, prefetch = async, pad = 0>}
// OVERRIDE-LABEL: func.func @kept
// OVERRIDE: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [64, 32, 16], thread = [4, 2], warps = 8, stages = 1, vector = 2, prefetch = regs, pad = 1>}
func.func @kept(%a: memref<32x32xf64>, %b: memref<32x32xf64>, %c: memref<32x32xf64>, %alpha: f64, %beta: f64) {
  // expected-remark@+1 {{gemm-select-schedule: hopper-h100 f64: block 32x32x8, thread 2x2 (256 threads)}}
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [32, 32, 8], thread = [2, 2], warps = 8, stages = 1, vector = 2, prefetch = none, pad = 0>} : memref<32x32xf64>, memref<32x32xf64>, memref<32x32xf64>, f64
  return
}
