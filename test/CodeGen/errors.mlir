// Schedules CodeGen cannot print get an error at the op, and no output.
// RUN: not gemm-opt --emit=cuda %s --schedule="prefetch=smem stages=3" -o %t.cu 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: not gemm-opt --emit=cuda %s --schedule="block=256,256,16 thread=16,16 prefetch=smem vector=4 pad=4" -o %t.cu 2>&1 | FileCheck %s --check-prefix=SMEM
// RUN: not ls %t.cu

// STAGES: errors.mlir:[[@LINE+3]]:3: error: schedules with more than 2 stages need the cp.async pipeline, which CodeGen does not print yet
// SMEM:   errors.mlir:[[@LINE+2]]:3: error: the schedule's tiles need 66560 bytes of shared memory; at most 49152 fit a block without opt-in
func.func @f(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}
