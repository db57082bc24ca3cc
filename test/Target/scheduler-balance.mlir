// Warps take Hopper's four schedulers in turn, and the scheduler that holds
// the most warps sets the pace (docs/cost-model.md, "The bounds"). One block
// of 192 threads (6 warps) per SM issues at 6/8 of its instruction-mix
// bound: 0.75 x 67.4% = 50.6% for this NT tile, which measured 32.1 TFLOP/s
// at 4096^3 against 46.7 for the 8-warp 256x128x8 tile that the model picks
// (H200, utils/calibrate/correlate --layout nt).
// RUN: gemm-opt %s -gemm-select-schedule="block=192,96,16 thread=8,12 vector=4 prefetch=smem pad=4" 2>&1 >/dev/null | FileCheck %s --check-prefix=SIX
// RUN: gemm-opt %s -gemm-select-schedule 2>/dev/null | FileCheck %s --check-prefix=PICK

// SIX: remark: gemm-select-schedule: hopper-h100 f32: block 192x96x16, thread 8x12 (192 threads), {{.*}} (memory {{[0-9.]+}}%, issue 50.6%,
// PICK: schedule = #gemm.schedule<block = [256, 128, 8], thread = [8, 16], warps = 8,
func.func @nt(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[1, ?], offset: ?>>, %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[1, ?], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}
