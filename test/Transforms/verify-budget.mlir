// RUN: gemm-opt %s -gemm-verify-budget -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not gemm-opt %s -gemm-verify-budget -split-input-file 2>/dev/null
// The driver runs the pass last, on a C or C++ nest's schedule too:
// RUN: not gemm-opt %S/../Driver/Inputs/one-nest.cpp --emit=cuda --target=fermi-c2050 --schedule="block=128,128,32 thread=4,4 prefetch=smem" 2>&1 | FileCheck %s --check-prefix=DRIVER
// DRIVER: one-nest.cpp:5:3: error: gemm-verify-budget: schedule block=128,128,32 thread=4,4 {{.*}} needs 66560 bytes of shared memory per block; fermi-c2050 has 49152

// Every kernel of an op must fit one block of the module's target, by the
// cost model's footprint: its shared memory, its registers per thread and
// its threads. The pass changes nothing; what is over is an error at the
// op that names the kernel, the target and both numbers.

// Two shared-memory buffers of 128x16 tiles of A and B in f64 are 64 KB:
// more than a Fermi block has (48 KB), well within a Hopper one. The
// thread tiles are small enough for Fermi's 63 registers.
module attributes {gemm.target = #gemm.target<name = "fermi-c2050">} {
  func.func @fermi_smem(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>, %alpha: f64, %beta: f64) {
    // expected-error@+1 {{gemm-verify-budget: schedule block=128,128,16 thread=4,4 vector=2 prefetch=smem stages=2 pad=0 compute=fma transpose=0 needs 65536 bytes of shared memory per block; fermi-c2050 has 49152}}
    gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 16], thread = [4, 4], warps = 32, stages = 2, vector = 2, prefetch = smem, pad = 0>} : memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, f64
    return
  }
}

// -----

// CHECK-LABEL: func.func @hopper_smem
// CHECK: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [128, 128, 16], thread = [4, 4], warps = 32, stages = 2, vector = 2, prefetch = smem, pad = 0>}
module attributes {gemm.target = #gemm.target<name = "hopper-h100">} {
  func.func @hopper_smem(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>, %alpha: f64, %beta: f64) {
    gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 16], thread = [4, 4], warps = 32, stages = 2, vector = 2, prefetch = smem, pad = 0>} : memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, f64
    return
  }
}

// -----

// MAGMA's Fermi DGEMM tile fits 63 registers when it loads the next tiles
// after the multiply, not when it holds them in registers across it.
module attributes {gemm.target = #gemm.target<name = "fermi-c2050">} {
  func.func @fermi_registers(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>, %alpha: f64, %beta: f64) {
    gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 1, vector = 2, prefetch = none, pad = 0>} : memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, f64
    // expected-error@+1 {{gemm-verify-budget: schedule block=64,64,16 thread=4,4 vector=2 prefetch=regs stages=1 pad=0 compute=fma transpose=0 needs 67 registers per thread; fermi-c2050 has 63}}
    gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 1, vector = 2, prefetch = regs, pad = 0>} : memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, f64
    return
  }
}

// -----

// A 16x16 register tile of f32 needs more than a Hopper thread's 255
// registers for its accumulators alone.
module attributes {gemm.target = #gemm.target<name = "hopper-h100">} {
  func.func @registers(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
    // expected-error@+1 {{gemm-verify-budget: schedule block=128,128,8 thread=16,16 vector=4 prefetch=regs stages=1 pad=4 compute=fma transpose=0 needs 389 registers per thread; hopper-h100 has 255}}
    gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [16, 16], warps = 2, stages = 1, vector = 4, prefetch = regs, pad = 4>} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
    return
  }
}

// -----

// Alternatives are kernels too; each is checked and named by its place.
// Without a #gemm.target the module's target is the default, hopper-h100.
func.func @alternative(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  // expected-error@+2 {{gemm-verify-budget: alternative 2 block=256,256,32 thread=16,16 vector=4 prefetch=async stages=4 pad=4 compute=fma transpose=0 needs 478 registers per thread; hopper-h100 has 255}}
  // expected-error@+1 {{gemm-verify-budget: alternative 2 block=256,256,32 thread=16,16 vector=4 prefetch=async stages=4 pad=4 compute=fma transpose=0 needs 266240 bytes of shared memory per block; hopper-h100 has 232448}}
  gemm.matmul %a, %b, %c, %alpha, %beta {alternatives = [#gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 1, vector = 2, prefetch = none, pad = 0>, #gemm.schedule<block = [256, 256, 32], thread = [16, 16], warps = 8, stages = 4, vector = 4, prefetch = async, pad = 4>], schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 8], warps = 4, stages = 1, vector = 2, prefetch = none, pad = 0>} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}
