// A DGEMM whose C has 64 columns streams A from DRAM once; row-major A's
// tile rows are BK doubles long, and a row shorter than the L2's 128-byte
// line gets that share of the bandwidth (docs/cost-model.md, "Streamed
// operands"). On the H200 (4.8 TB/s, 16 flops per byte of A) BK 8 rows
// stream at half of 76.8 TFLOP/s: 38.4, 57.3% of the tensor peak, below
// every other bound; BK 16 rows stream whole and rank first, although
// their drifting two-slice steps keep 0.78 of the issue bound.
// RUN: gemm-opt --emit=schedules --candidates=1 --target=hopper-h200 %s | FileCheck %s
// RUN: gemm-opt %s --explain --target=hopper-h200 --schedule="block=256,64,8 thread=8,8 vector=2 prefetch=async stages=4 pad=4 transpose=0" | FileCheck %s --check-prefix=BK8
// RUN: gemm-opt %s --explain --target=hopper-h200 --schedule="block=256,64,16 thread=8,8 vector=2 prefetch=async stages=4 pad=4 transpose=0" | FileCheck %s --check-prefix=BK16

// CHECK:      # @skinny (f64) on hopper-h200
// CHECK-NEXT: block={{[0-9]+}},{{[0-9]+}},16 {{.*}} compute=dmma

// BK8:  256x64x8   8x8 {{.*}} 57.3% {{.*}} memory  block=256,64,8
// BK16: 256x64x16  8x8 {{.*}} 114.6%  78.0%   78.0% {{.*}} issue   block=256,64,16

// With 4096 columns the same rows bound nothing: A serves 64 times as
// many columns.
// RUN: sed 's/x64xf64/x4096xf64/g' %s > %t.wide.mlir
// RUN: gemm-opt %t.wide.mlir --explain --target=hopper-h200 --schedule="block=256,64,8 thread=8,8 vector=2 prefetch=async stages=4 pad=4 transpose=0" | FileCheck %s --check-prefix=WIDE
// WIDE: 256x64x8   8x8 {{.*}} 131.1% {{.*}} block=256,64,8

func.func @skinny(%a: memref<32768x8192xf64>, %b: memref<8192x64xf64>, %c: memref<32768x64xf64>, %alpha: f64, %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<32768x8192xf64>, memref<8192x64xf64>, memref<32768x64xf64>, f64
  return
}
