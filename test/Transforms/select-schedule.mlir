// RUN: gemm-opt %s -gemm-select-schedule -split-input-file | FileCheck %s --check-prefix=DEFAULT
// RUN: gemm-opt %s -gemm-select-schedule="block=64,32,16 thread=4,2 prefetch=regs vector=2 pad=1" -split-input-file | FileCheck %s --check-prefix=OVERRIDE
// RUN: gemm-opt %s -gemm-select-schedule="prefetch=async stages=3" -split-input-file | FileCheck %s --check-prefix=STAGES

// Without options each element type gets the cost model's best schedule for
// the default target, hopper-h100 (test/Target checks the model itself):
// 8 x 16 register tiles with 128-bit accesses for f32, FP64 tensor-core
// tiles for f64. The model's residency rides along as
// `occupancy` (omitted when it is 1), so that the launch bounds hold ptxas
// to it. Options restrict the search (stages picks the cp.async pipeline's
// depth); when no candidate has them (the tiles below miss the guidelines)
// they override the best schedule (on Hopper no FFMA candidate uses
// cp.async, so the f32 op below takes the best schedule with three cp.async
// buffers, and no alternatives). Warps follow from the tiles. With C's row-major A and B the model may take the transposed
// product (`transpose = true`: C^T = B^T A^T, whose tiles move the other
// way). With
// C's extents dynamic, the op also carries `alternatives`: the candidates that
// rank first for smaller problems (a 1024^2 square, 64 rows or columns,
// batches of small squares), each kernel once, at most four, all under the
// same options. Resident warps fill the four schedulers evenly (8 warps, or
// 2 blocks of 4), since the busiest scheduler sets the pace.

// DEFAULT-LABEL: func.func @f32
// DEFAULT: gemm.matmul {{.*}} {alternatives = [#gemm.schedule<block = [96, 96, 32], thread = [6, 6], warps = 8, {{[^>]*}}prefetch = smem{{[^>]*}}>, #gemm.schedule<block = [128, 64, 24], thread = [8, 8], warps = 4, {{[^>]*}}prefetch = regs{{[^>]*}}occupancy = 2>, #gemm.schedule<block = [256, 64, 16], {{[^>]*}}, transpose = true>, #gemm.schedule<block = [96, 96, 32], thread = [6, 6], warps = 8, {{[^>]*}}prefetch = regs{{[^>]*}}>], schedule = #gemm.schedule<block = [256, 128, 8], thread = [8, 16], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4, transpose = true>}
// OVERRIDE-LABEL: func.func @f32
// OVERRIDE: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [64, 32, 16], thread = [4, 2], warps = 8, stages = 1, vector = 2, prefetch = regs, pad = 1, occupancy = 2, transpose = true>}
// STAGES-LABEL: func.func @f32
// STAGES: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [256, 128, 8], thread = [8, 16], warps = 8, stages = 3, vector = 4, prefetch = async, pad = 4, transpose = true>}
func.func @f32(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
               %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}

// -----

// On Hopper the FP64 tensor cores double the peak, so the model's best f64
// schedule multiplies with mma.sync (compute = dmma), fed by a four-buffer
// cp.async pipeline whose warps drift apart (prefetch = async). 8x8 and
// 4x16 register tiles tie on every bound; 8x8 reads A in pairs of blocks,
// so fewer of its instructions are loads (the FMA share breaks the tie).
// The alternatives for 64-row or 64-column problems keep its 64 x 32 warp
// tile (wider ones are not searched on Hopper) in 256x64 blocks. Where C
// has 64 columns, A streams from DRAM and its row-major tile rows must be
// whole 128-byte lines: two k8 slices a step, which the model rates lower
// than one (deepDriftShare) but above 64-byte rows at half the bandwidth.
// Where C has 64 rows, B's rows run along N and one slice a step keeps
// the rate.
// DEFAULT-LABEL: func.func @f64
// DEFAULT: gemm.matmul {{.*}} {alternatives = [#gemm.schedule<block = [128, 64, 8], thread = [4, 8], {{[^>]*}}, transpose = true>, #gemm.schedule<block = [256, 64, 16], thread = [8, 8], {{[^>]*}}, compute = dmma>, #gemm.schedule<block = [256, 64, 8], thread = [8, 8], {{[^>]*}}, transpose = true>, #gemm.schedule<block = [64, 64, 16], thread = [4, 8], warps = 4, stages = 4, vector = 2, prefetch = async, pad = 4, compute = dmma, occupancy = 2>], schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 4, vector = 2, prefetch = async, pad = 4, compute = dmma>}
func.func @f64(%a: memref<?x?x?xf64>, %b: memref<?x?x?xf64>, %c: memref<?x?x?xf64>, %alpha: f64, %beta: f64) {
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
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [32, 32, 8], thread = [2, 2], warps = 8, stages = 1, vector = 2, prefetch = none, pad = 0>} : memref<32x32xf64>, memref<32x32xf64>, memref<32x32xf64>, f64
  return
}
