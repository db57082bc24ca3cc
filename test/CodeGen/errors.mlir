// Schedules CodeGen cannot print get an error at the op, and no output;
// gemm-verify-budget refuses those that do not fit the target first.
// RUN: rm -f %t.cu
// RUN: not gemm-opt --emit=cuda %s --schedule="prefetch=smem stages=3" -o %t.cu 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: not gemm-opt --emit=cuda %s --schedule="block=256,256,32 thread=16,16 prefetch=async stages=4 vector=4 pad=4" -o %t.cu 2>&1 | FileCheck %s --check-prefix=SMEM
// RUN: not ls %t.cu

// STAGES: errors.mlir:[[@LINE+3]]:3: error: invalid schedule: prefetch = smem needs 2 stages, got 3
// SMEM:   errors.mlir:[[@LINE+2]]:3: error: gemm-verify-budget: schedule block=256,256,32 thread=16,16 {{.*}} needs 266240 bytes of shared memory per block; hopper-h100 has 232448
func.func @f(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}
