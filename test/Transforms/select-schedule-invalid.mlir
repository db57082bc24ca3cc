// RUN: not gemm-opt %s -gemm-select-schedule="prefetch=global" 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not gemm-opt %s -gemm-select-schedule="block=64,64" 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not gemm-opt %s -gemm-select-schedule="block=128,128,8 thread=3,8" 2>&1 | FileCheck %s --check-prefix=TILE

// KIND: error: gemm-select-schedule: prefetch must be none, smem, regs or async, got 'global'
// BLOCK: error: gemm-select-schedule: block needs 3 entries and thread 2 positive ones
// TILE: error: invalid schedule: BM (128) must be a multiple of TM (3)
func.func @f(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}
