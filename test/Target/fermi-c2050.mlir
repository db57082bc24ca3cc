// On the Tesla C2050 the cost model picks the Fermi kernels of the papers:
// MAGMA's 64x64x16 DGEMM tile and 96x96x16 SGEMM tile, both with 16 x 16
// threads and 4 x 4 / 6 x 6 register blocks ([Nath et al. 2010] section 3,
// [Kurzak et al. 2011] Table 2), and predicts them inside the bands measured on
// Fermi: 55-75% of 515 GFLOP/s for DGEMM (MAGMA 58%, Tan et al. 70%; the model:
// Tan's 75% instruction-mix limit with 128-bit loads, less the moments when
// both resident blocks wait on their unprefetched global loads) and 60-75% of
// 1030 GFLOP/s for SGEMM (MAGMA 63%; the model: 512 threads per SM of the 704
// that eq. 1 of [Lai & Seznec 2012] asks for).
// RUN: gemm-opt %s -gemm-attach-target=target=fermi-c2050 -gemm-select-schedule 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: gemm-opt %s -gemm-attach-target=target=fermi-c2050 -gemm-select-schedule 2>/dev/null | FileCheck %s

// CHECK: module attributes {gemm.target = #gemm.target<name = "fermi-c2050">}

// REMARK: fermi-c2050.mlir:[[@LINE+4]]:3: remark: gemm-select-schedule: fermi-c2050 f64: block 64x64x16, thread 4x4 (256 threads), vector 2, prefetch none, compute fma: predicted {{[0-9]+}} GFLOP/s, {{(5[5-9]|6[0-9]|7[0-4])\.[0-9]}}% of the 515 GFLOP/s peak, bound: latency
// CHECK-LABEL: func.func @dgemm
// CHECK: schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8,
func.func @dgemm(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>, %alpha: f64, %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, f64
  return
}

// REMARK: fermi-c2050.mlir:[[@LINE+4]]:3: remark: gemm-select-schedule: fermi-c2050 f32: block 96x96x16, thread 6x6 (256 threads), vector 2, prefetch regs, compute fma: predicted {{[0-9]+}} GFLOP/s, {{(6[0-9]|7[0-4])\.[0-9]}}% of the 1030 GFLOP/s peak, bound: latency
// CHECK-LABEL: func.func @sgemm
// CHECK: schedule = #gemm.schedule<block = [96, 96, 16], thread = [6, 6], warps = 8,
func.func @sgemm(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}
