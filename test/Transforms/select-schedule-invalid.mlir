// RUN: not gemm-opt %s -gemm-select-schedule="prefetch=global" 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not gemm-opt %s -gemm-select-schedule="compute=tensor" 2>&1 | FileCheck %s --check-prefix=COMPUTE
// RUN: not gemm-opt %s -gemm-select-schedule="block=64,64" 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not gemm-opt %s -gemm-select-schedule="block=128,128,8 thread=3,8" 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: not gemm-opt %s -gemm-select-schedule="thread=8,0" 2>&1 | FileCheck %s --check-prefix=THREAD
// RUN: not gemm-opt %s -gemm-attach-target=target=fermi-c2050 -gemm-select-schedule="compute=dmma" 2>&1 | FileCheck %s --check-prefix=DMMA
// RUN: sed 's/^module {/module attributes {gemm.target = #gemm.target<name = "volta-v100">} {/' %s > %t.mlir
// RUN: not gemm-opt %t.mlir -gemm-select-schedule 2>&1 | FileCheck %s --check-prefix=TARGET

// KIND: error: gemm-select-schedule: prefetch must be none, smem, regs or async, got 'global'
// COMPUTE: error: gemm-select-schedule: compute must be fma or dmma, got 'tensor'
// BLOCK: error: gemm-select-schedule: block needs 3 positive entries (BM,BN,BK)
// THREAD: error: gemm-select-schedule: thread needs 2 positive entries (TM,TN)
// TILE: select-schedule-invalid.mlir:[[@LINE+6]]:5: error: invalid schedule: BM (128) must be a multiple of TM (3)
// DMMA: select-schedule-invalid.mlir:[[@LINE+5]]:5: error: gemm-select-schedule: fermi-c2050 has no dmma for f32
// A module whose target no pass attached is checked too.
// TARGET: error: gemm-select-schedule: unknown target 'volta-v100'; known targets:
module {
  func.func @f(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
    gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
    return
  }
}
