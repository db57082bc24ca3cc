// Schedules CodeGen cannot print get an error at the op, and no output.
// RUN: rm -f %t.cu
// RUN: not gemm-opt --emit=cuda %s --schedule="prefetch=smem stages=3" -o %t.cu 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: not ls %t.cu

// STAGES: errors.mlir:[[@LINE+2]]:3: error: invalid schedule: prefetch = smem needs 2 stages, got 3
func.func @f(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}
