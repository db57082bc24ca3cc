// compute = dmma: each warp owns a WM x WN tile of 8 x 8 FP64 tensor-core
// products; a lane holds one row and two adjacent columns of each.
// RUN: gemm-opt --emit=cuda %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc -std=c++17 -arch=sm_90 -I %gemm_runtime_include -Xptxas -v -c %t.cu -o %t.o 2>&1 | FileCheck %s --check-prefix=PTXAS

// CHECK:      // FP64 tensor-core mma.sync m8n8k4, 2-element vector accesses
// CHECK:      constexpr int ROW_GROUP = 1, ROW_STEP = 8;
// CHECK-NEXT: constexpr int COL_GROUP = 2, COL_STEP = 8;
// CHECK:      constexpr int C_PACK = 2;
// CHECK-NEXT: // Each warp computes a WM x WN tile of 8 x 8 products.
// CHECK-NEXT: constexpr int WM = 8 * TM, WN = 4 * TN;
// CHECK:      const int wm0 = (ty / (BN / WN)) * WM, wn0 = (ty % (BN / WN)) * WN;
// CHECK:      for (int k4 = 0; k4 < BK; k4 += 4) {
// CHECK:        fa[i] = ta[k4 + tx % 4][wm0 + i * 8 + tx / 4];
// CHECK:        fb[j] = tb[k4 + tx % 4][wn0 + j * 8 + tx / 4];
// CHECK:        asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
// CHECK-NEXT:       "{%0, %1}, {%2}, {%3}, {%0, %1};"
// CHECK-NEXT:       : "+d"(acc[i][2 * j]), "+d"(acc[i][2 * j + 1])
// CHECK-NEXT:       : "d"(fa[i]), "d"(fb[j]));
// CHECK:      const int ty = threadIdx.x / 32, tx = threadIdx.x % 32;
// CHECK-NEXT: const int rowIn = (ty / (BN / WN)) * WM + tx / 4;
// CHECK-NEXT: const int colIn = (ty % (BN / WN)) * WN + (tx % 4) * 2;
// CHECK:      storeC<Vec>(acc, c, cm, cn, p.m, p.n, m0 + rowIn, n0 + colIn, alpha, beta);

// PTXAS-COUNT-2: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
func.func @dmma(%a: memref<?x?xf64, strided<[?, 1], offset: ?>>, %b: memref<?x?xf64, strided<[?, 1], offset: ?>>,
                %c: memref<?x?xf64, strided<[?, 1], offset: ?>>, %alpha: f64, %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 2, prefetch = smem, pad = 4, compute = dmma>}
      : memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>, f64
  return
}
