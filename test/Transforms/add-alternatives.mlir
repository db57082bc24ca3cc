// RUN: gemm-opt %s -gemm-add-alternatives -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=ALONE
// RUN: gemm-opt %s -gemm-select-schedule -gemm-add-alternatives -split-input-file 2>/dev/null | FileCheck %s --check-prefix=CHAIN
// RUN: gemm-opt %s -gemm-select-schedule -gemm-add-alternatives=alternatives=1 -split-input-file 2>/dev/null | FileCheck %s --check-prefix=ONE
// RUN: gemm-opt %s -gemm-select-schedule -gemm-add-alternatives=alternatives=0 -split-input-file 2>/dev/null | FileCheck %s --check-prefix=NONE --implicit-check-not=alternatives
// RUN: gemm-opt %s -gemm-select-schedule=prefetch=regs -gemm-add-alternatives=prefetch=regs -split-input-file 2>/dev/null | FileCheck %s --check-prefix=REGS
// RUN: gemm-opt %s -gemm-select-schedule -gemm-add-alternatives=prefetch=regs -split-input-file 2>/dev/null | FileCheck %s --check-prefix=OTHER --implicit-check-not=alternatives
// RUN: not gemm-opt %s -gemm-add-alternatives=prefetch=global 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not gemm-opt %s -gemm-attach-target=target=fermi-c2050 -gemm-add-alternatives=compute=dmma -split-input-file 2>&1 | FileCheck %s --check-prefix=DMMA

// KIND: error: gemm-add-alternatives: prefetch must be none, smem, regs or async, got 'global'
// The model's choice under options that the target cannot build is an
// error, as in gemm-select-schedule.
// DMMA: error: gemm-add-alternatives: fermi-c2050 has no dmma for f32

// Where C's extents are dynamic, an op whose schedule is the model's choice
// (here gemm-select-schedule's for the default target, hopper-h100,
// written into the input) also gets `alternatives`: the candidates that
// rank first for smaller problems (a 1024^2 square, 64 rows or columns,
// batches of small squares, a 256^2 square), each kernel once (the 256^2
// square's is the 1024^2 one's here), at most `alternatives` of them (4 by
// default), none the op's own. The remark names each kernel's problem (0:
// a large extent). Each kernel keeps the
// model's residency as its launch bounds' occupancy.
// ALONE-LABEL: func.func @f32
// ALONE: gemm.matmul {{.*}} {alternatives = [#gemm.schedule<block = [96, 96, 32], thread = [6, 6], warps = 8, stages = 2, vector = 2, prefetch = smem, pad = 2>, #gemm.schedule<block = [128, 64, 24], thread = [8, 8], warps = 4, stages = 2, vector = 4, prefetch = smem, pad = 4, occupancy = 2>, #gemm.schedule<block = [256, 64, 16], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4, transpose = true>], schedule = #gemm.schedule<block = [256, 128, 8], thread = [8, 16], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4, transpose = true>}
// CHAIN-LABEL: func.func @f32
// CHAIN: gemm.matmul {{.*}} {alternatives = [#gemm.schedule<block = [96, 96, 32], thread = [6, 6], warps = 8, stages = 2, vector = 2, prefetch = smem, pad = 2>, #gemm.schedule<block = [128, 64, 24], thread = [8, 8], warps = 4, stages = 2, vector = 4, prefetch = smem, pad = 4, occupancy = 2>, #gemm.schedule<block = [256, 64, 16], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4, transpose = true>], schedule = #gemm.schedule<block = [256, 128, 8], thread = [8, 16], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4, transpose = true>}
// ONE-LABEL: func.func @f32
// ONE: gemm.matmul {{.*}} {alternatives = [#gemm.schedule<block = [96, 96, 32], thread = [6, 6], warps = 8, stages = 2, vector = 2, prefetch = smem, pad = 2>], schedule =
// NONE-LABEL: func.func @f32
// NONE: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [256, 128, 8]
// The options that chose the schedule choose its alternatives.
// REGS-LABEL: func.func @f32
// REGS: gemm.matmul {{.*}} {alternatives = [#gemm.schedule<{{[^>]*}}prefetch = regs{{[^>]*}}>{{(, #gemm.schedule<[^>]*prefetch = regs[^>]*>)*}}], schedule = #gemm.schedule<{{[^>]*}}prefetch = regs
// Under other options the schedule is not the model's, and keeps its
// kernel alone.
// OTHER-LABEL: func.func @f32
// OTHER: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [256, 128, 8]
func.func @f32(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
               %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  // expected-remark@+1 {{gemm-add-alternatives: for smaller problems: block=96,96,32 thread=6,6 vector=2 prefetch=smem stages=2 pad=2 compute=fma transpose=0 for 1024x1024; block=128,64,24 thread=8,8 vector=4 prefetch=smem stages=2 pad=4 compute=fma transpose=0 for 0x64; block=256,64,16 thread=8,8 vector=4 prefetch=smem stages=2 pad=4 compute=fma transpose=1 for 64x0}}
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [256, 128, 8], thread = [8, 16], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4, transpose = true>} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}

// -----

// A batched f64 op of dynamic extents and batch count, from
// gemm-select-schedule: its FP64 tensor-core schedule's alternatives for
// 64-row or 64-column problems keep its 64 x 32 warp tile (wider ones are
// not searched on Hopper) in 256x64 blocks. Where C has 64 columns, A
// streams from DRAM and its row-major tile rows must be whole 128-byte
// lines: two k8 slices a step, which the model rates lower than one
// (deepDriftShare) but above 64-byte rows at half the bandwidth; the
// transposed kernel (C^T = B^T A^T) stores them x-major. Where C has 64
// rows, B's rows run along N and one slice a step keeps the rate.
// Batches of 64^2 squares take 64x64 tiles, two blocks a SM.
// CHAIN-LABEL: func.func @f64
// CHAIN: gemm.matmul {{.*}} {alternatives = [#gemm.schedule<block = [128, 64, 8], thread = [4, 8], {{[^>]*}}, transpose = true>, #gemm.schedule<block = [64, 256, 16], thread = [8, 8], {{[^>]*}}, compute = dmma, transpose = true>, #gemm.schedule<block = [256, 64, 8], thread = [8, 8], {{[^>]*}}, transpose = true>, #gemm.schedule<block = [64, 64, 16], thread = [4, 8], warps = 4, stages = 4, vector = 2, prefetch = async, pad = 2, compute = dmma, occupancy = 2, transpose = true>], schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 4, vector = 2, prefetch = async, pad = 4, compute = dmma>}
func.func @f64(%a: memref<?x?x?xf64>, %b: memref<?x?x?xf64>, %c: memref<?x?x?xf64>, %alpha: f64, %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?x?xf64>, memref<?x?x?xf64>, memref<?x?x?xf64>, f64
  return
}

// -----

// A schedule that is not the model's was given: it is the op's one kernel.
// ALONE-LABEL: func.func @given
// ALONE: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 1, vector = 2, prefetch = none, pad = 0>} :
// CHAIN-LABEL: func.func @given
// CHAIN: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 1, vector = 2, prefetch = none, pad = 0>} :
func.func @given(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 1, vector = 2, prefetch = none, pad = 0>} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

// Static extents leave no smaller problem: one kernel.
// CHAIN-LABEL: func.func @sized
// CHAIN: gemm.matmul {{.*}} {schedule = #gemm.schedule<{{[^>]*}}>} : memref<512x512xf32>
func.func @sized(%a: memref<512x512xf32>, %b: memref<512x512xf32>, %c: memref<512x512xf32>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<512x512xf32>, memref<512x512xf32>, memref<512x512xf32>, f32
  return
}
