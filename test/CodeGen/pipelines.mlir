// The K-loop pipeline of each prefetch kind, with its buffers and barriers.
// RUN: gemm-opt --emit=cuda %s --schedule="prefetch=smem" | FileCheck %s --check-prefix=SMEM
// RUN: gemm-opt --emit=cuda %s --schedule="prefetch=regs" | FileCheck %s --check-prefix=REGS
// RUN: gemm-opt --emit=cuda %s --schedule="prefetch=none" | FileCheck %s --check-prefix=NONE

// Two buffers (seeds/001 section 4.2): the next tile is loaded before the
// math on the current one and stored into the other buffer after it, with
// one barrier per step.
// SMEM:      constexpr int STAGES = 2, PAD = 4;
// SMEM:      loadA<Vec>(ra, a, aX, aK, p.m, p.k, m0, 0);
// SMEM-NEXT: loadB<Vec>(rb, b, bX, bK, p.n, p.k, n0, 0);
// SMEM-NEXT: storeA(tileA[0], ra);
// SMEM-NEXT: storeB(tileB[0], rb);
// SMEM-NEXT: __syncthreads();
// SMEM-NEXT: for (int t = 0; t < kTiles; ++t) {
// SMEM-NEXT:   const int cur = t % 2;
// SMEM-NEXT:   const bool more = t + 1 < kTiles;
// SMEM-NEXT:   if (more) {
// SMEM-NEXT:     loadA<Vec>(ra, a, aX, aK, p.m, p.k, m0, (t + 1) * BK);
// SMEM-NEXT:     loadB<Vec>(rb, b, bX, bK, p.n, p.k, n0, (t + 1) * BK);
// SMEM-NEXT:   }
// SMEM-NEXT:   multiplyTile(acc, tileA[cur], tileB[cur], ty, tx);
// SMEM-NEXT:   if (more) {
// SMEM-NEXT:     storeA(tileA[cur ^ 1], ra);
// SMEM-NEXT:     storeB(tileB[cur ^ 1], rb);
// SMEM-NEXT:   }
// SMEM:        __syncthreads();
// SMEM-NEXT: }
// SMEM-NEXT: storeC<Vec>(

// One buffer and a register prefetch (seeds/003 Algorithm 1): two barriers
// per step, around the store of the prefetched tile.
// REGS:      constexpr int STAGES = 1, PAD = 4;
// REGS:      for (int t = 0; t < kTiles; ++t) {
// REGS-NEXT:   const bool more = t + 1 < kTiles;
// REGS-NEXT:   if (more) {
// REGS-NEXT:     loadA<Vec>(ra, a, aX, aK, p.m, p.k, m0, (t + 1) * BK);
// REGS:        multiplyTile(acc, tileA[0], tileB[0], ty, tx);
// REGS-NEXT:   __syncthreads();
// REGS-NEXT:   if (more) {
// REGS-NEXT:     storeA(tileA[0], ra);
// REGS-NEXT:     storeB(tileB[0], rb);
// REGS-NEXT:   }
// REGS-NEXT:   __syncthreads();
// REGS-NEXT: }

// NONE:      constexpr int STAGES = 1, PAD = {{[0-9]+}};
// NONE:      for (int t = 0; t < kTiles; ++t) {
// NONE-NEXT:   loadA<Vec>(ra, a, aX, aK, p.m, p.k, m0, t * BK);
// NONE-NEXT:   loadB<Vec>(rb, b, bX, bK, p.n, p.k, n0, t * BK);
// NONE-NEXT:   storeA(tileA[0], ra);
// NONE-NEXT:   storeB(tileB[0], rb);
// NONE-NEXT:   __syncthreads();
// NONE-NEXT:   multiplyTile(acc, tileA[0], tileB[0], ty, tx);
// NONE-NEXT:   __syncthreads();
// NONE-NEXT: }
func.func @nn(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
              %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}
