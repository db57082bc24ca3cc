// The K-loop pipeline of each prefetch kind, with its buffers and barriers.
// RUN: gemm-opt --emit=cuda %s --schedule="prefetch=smem" | FileCheck %s --check-prefix=SMEM
// RUN: gemm-opt --emit=cuda %s --schedule="prefetch=regs" | FileCheck %s --check-prefix=REGS
// RUN: gemm-opt --emit=cuda %s --schedule="prefetch=none" | FileCheck %s --check-prefix=NONE
// RUN: gemm-opt --emit=cuda %s --schedule="block=128,128,16 thread=8,8 vector=4 pad=4 prefetch=async stages=4 transpose=0" -o %t.async.cu
// RUN: FileCheck %s --check-prefix=ASYNC < %t.async.cu
// RUN: %nvcc -std=c++17 -arch=sm_90 -I %gemm_runtime_include -Xptxas -v -c %t.async.cu -o %t.async.o 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %nvcc -std=c++17 -arch=sm_80 -I %gemm_runtime_include -c %t.async.cu -o %t.async80.o
// RUN: %nvcc -std=c++17 -arch=sm_75 -I %gemm_runtime_include -c %t.async.cu -o %t.async75.o
// RUN: gemm-opt --emit=cuda %s --schedule="block=128,128,16 thread=8,8 vector=4 pad=4 prefetch=async stages=2 transpose=0" | FileCheck %s --check-prefix=ASYNC2

// cp.async (sm_80 and later; plain copies and block barriers before): each
// buffer has a full and an empty mbarrier, and the 66 KB of tiles opt in
// past 48 KB. Packs whole inside the matrix are one 16-byte copy; the rest
// go element by element, zero-filled outside it.
// ASYNC:      constexpr int STAGES = 4, PAD = 4;
// ASYNC:      sharedAddress(const void *p) {
// ASYNC:      cp.async.cg.shared.global [%0], [%1], 16, %2;
// ASYNC:      cp.async.wait_all;
// ASYNC:      mbarrier.init.shared.b64 [%0], %1;
// ASYNC:      mbarrier.arrive.shared.b64 _, [%0];
// ASYNC:      cp.async.mbarrier.arrive.noinc.shared.b64 [%0];
// ASYNC:      mbarrier.try_wait.parity.shared.b64 p, [%1], %2;
// ASYNC:      mbarrier.test_wait.parity.shared.b64 p, [%1], %2;
// ASYNC:      __syncthreads();
// ASYNC:      if (Vec && (Inside || c.room[i] == B_PACK) && (KFull || kk < kLeft)) {
// ASYNC-NEXT:   copyAsync<B_PACK>(&tile[kk][x], src, true);
// ASYNC:      const bool in = (Inside || v < c.room[i]) && (KFull || kk < kLeft);
// ASYNC-NEXT: copyAsync<1>(&tile[kk][x + v], in ? src + v : b, in);
// ASYNC:      void copyTiles(
// ASYNC-NEXT:   copyA<Vec, KFull, Inside>(ta, ca, a, kLeft);
// ASYNC-NEXT:   copyB<Vec, KFull, Inside>(tb, cb, b, kLeft);
// The barriers start once per block; `used` counts the tiles through the
// buffers across row tiles, which fixes each tile's buffer and phase.
// ASYNC:      __shared__ unsigned long long full[STAGES], empty[STAGES];
// ASYNC-NEXT: if (threadIdx.x == 0)
// ASYNC-NEXT:   for (int s = 0; s < STAGES; ++s) {
// ASYNC-NEXT:     initBarrier(full[s]);
// ASYNC-NEXT:     initBarrier(empty[s]);
// ASYNC-NEXT:   }
// ASYNC-NEXT: __syncthreads();
// ASYNC-NEXT: int used = 0;
// The loop moves full K tiles only, unchecked along K.
// ASYNC:      const int kTiles = int(p.k / BK), kRest = int(p.k % BK);
// Cursors start once per row tile; the K loop is instantiated for blocks
// inside M and N, without bounds on their packs, and for the others.
// ASYNC:      Cursor<A_LOADS> ca = startA(a, aX, aK, p.m, m0);
// ASYNC-NEXT: Cursor<B_LOADS> cb = startB(b, bX, bK, p.n, n0);
// ASYNC:      const auto kLoop = [&](auto inside) {
// ASYNC-NEXT:   constexpr bool Inside = decltype(inside)::value;
// A refill waits until every thread has read the buffer's last tile, then
// arrives on its full barrier when its copies land.
// ASYNC:      const auto refill = [&](int next) {
// ASYNC-NEXT:   if (next < kTiles) {
// ASYNC-NEXT:     const int u = used + next, buf = u % STAGES;
// ASYNC-NEXT:     if (u >= STAGES)
// ASYNC-NEXT:       waitPhase(empty[buf], u / STAGES - 1);
// ASYNC-NEXT:     copyTiles<Vec, true, Inside>(tileA[buf], tileB[buf], ca, cb, a, b, BK);
// ASYNC-NEXT:     arriveOnCopies(full[buf]);
// ASYNC-NEXT:   }
// ASYNC-NEXT: };
// ASYNC:      for (int s = 0; s < STAGES - 1; ++s)
// ASYNC-NEXT:   refill(s);
// With four buffers a warp refills after its multiply; no block barrier in
// the loop.
// ASYNC-NEXT: for (int t = 0; t < kTiles; ++t) {
// ASYNC-NEXT:   const int u = used + t, buf = u % STAGES;
// ASYNC-NEXT:   waitPhase(full[buf], u / STAGES);
// ASYNC-NEXT:   multiplyTile(acc, tileA[buf], tileB[buf], ty, tx);
// ASYNC-NEXT:   arrive(empty[buf]);
// ASYNC-NEXT:   refill(t + STAGES - 1);
// ASYNC-NEXT: }
// ASYNC-NEXT: used += kTiles;
// ASYNC:      __syncthreads();
// ASYNC-NEXT: };
// ASYNC-NEXT: if (m0 + BM <= p.m && n0 + BN <= p.n)
// ASYNC-NEXT:   kLoop(Flag<true>{});
// ASYNC-NEXT: else
// ASYNC-NEXT:   kLoop(Flag<false>{});
// The K remainder is one more step through buffer 0, with K bounds.
// ASYNC:      if (kRest > 0) {
// ASYNC-NEXT:   copyTiles<Vec, false, false>(tileA[0], tileB[0], ca, cb, a, b, kRest);
// ASYNC-NEXT:   waitCopies();
// ASYNC-NEXT:   __syncthreads();
// ASYNC-NEXT:   multiplyTile(acc, tileA[0], tileB[0], ty, tx);
// ASYNC-NEXT:   __syncthreads();
// ASYNC-NEXT: }
// ASYNC-NEXT: storeC<Vec>(
// ASYNC:      if (SMEM_BYTES > 48 * 1024) {
// ASYNC-NEXT:   const cudaError_t err = cudaFuncSetAttribute(
// PTXAS-COUNT-2: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// With two buffers the refill must come before the multiply: the buffer it
// fills is the one read in the step before.
// ASYNC2:      for (int t = 0; t < kTiles; ++t) {
// ASYNC2-NEXT:   const int u = used + t, buf = u % STAGES;
// ASYNC2-NEXT:   waitPhase(full[buf], u / STAGES);
// ASYNC2-NEXT:   refill(t + STAGES - 1);
// ASYNC2-NEXT:   multiplyTile(acc, tileA[buf], tileB[buf], ty, tx);
// ASYNC2-NEXT:   arrive(empty[buf]);
// ASYNC2-NEXT: }

// Two buffers ([Tan et al. 2011] section 4.2): the next tile is loaded before the
// math on the current one and stored into the other buffer after it, with
// one barrier per step.
// SMEM:      constexpr int STAGES = 2, PAD = 4;
// The multiply has a scheduling fence halfway through the K step, used by
// the register-staged pipelines: ptxas sinks the staged loads towards their
// stores at the step's end, and the fence holds them in its first half.
// SMEM:      template <bool Fence = false>
// SMEM-NEXT: __device__ __forceinline__ void multiplyTile(
// SMEM:        if (Fence && kk == BK / 2)
// SMEM-NEXT:     __syncwarp();
// Columns outer and rows in serpentine order: each FMA shares an operand
// with the one before it, so ptxas can take it from the reuse cache.
// SMEM:        for (int j = 0; j < TN; ++j)
// SMEM:          for (int s = 0; s < TM; ++s) {
// SMEM-NEXT:       const int i = j % 2 ? TM - 1 - s : s;
// SMEM:      if (kTiles > 0) {
// SMEM-NEXT:   loadTiles<Vec, true, Inside>(ra, rb, ca, cb, BK);
// SMEM-NEXT:   storeA(tileA[0], ra);
// SMEM-NEXT:   storeB(tileB[0], rb);
// SMEM-NEXT: }
// SMEM-NEXT: __syncthreads();
// The buffer read and the one written are pointers, swapped after each
// step's barrier.
// SMEM-NEXT: T (*readA)[BK][BM + PAD] = &tileA[0], (*writeA)[BK][BM + PAD] = &tileA[1];
// SMEM-NEXT: T (*readB)[BK][BN + PAD] = &tileB[0], (*writeB)[BK][BN + PAD] = &tileB[1];
// SMEM-NEXT: for (int t = 0; t < kTiles; ++t) {
// SMEM-NEXT:   const bool more = t + 1 < kTiles;
// SMEM-NEXT:   if (more) {
// SMEM-NEXT:     loadTiles<Vec, true, Inside>(ra, rb, ca, cb, BK);
// SMEM-NEXT:   }
// SMEM-NEXT:   // Its fence keeps the loads above from sinking to the stores.
// SMEM-NEXT:   multiplyTile<true>(acc, *readA, *readB, ty, tx);
// SMEM-NEXT:   if (more) {
// SMEM-NEXT:     storeA(*writeA, ra);
// SMEM-NEXT:     storeB(*writeB, rb);
// SMEM-NEXT:   }
// SMEM:        __syncthreads();
// SMEM-NEXT:   T (*readA0)[BK][BM + PAD] = readA, (*readB0)[BK][BN + PAD] = readB;
// SMEM-NEXT:   readA = writeA, readB = writeB;
// SMEM-NEXT:   writeA = readA0, writeB = readB0;
// SMEM-NEXT: }
// SMEM-NEXT: };
// SMEM:      if (kRest > 0) {
// SMEM-NEXT:   loadTiles<Vec, false, false>(ra, rb, ca, cb, kRest);
// SMEM-NEXT:   storeA(tileA[0], ra);
// SMEM-NEXT:   storeB(tileB[0], rb);
// SMEM-NEXT:   __syncthreads();
// SMEM-NEXT:   multiplyTile(acc, tileA[0], tileB[0], ty, tx);
// SMEM-NEXT:   __syncthreads();
// SMEM-NEXT: }
// SMEM-NEXT: storeC<Vec>(

// One buffer and a register prefetch ([Kurzak et al. 2011] Algorithm 1): two
// barriers per step, around the store of the prefetched tile.
// REGS:      constexpr int STAGES = 1, PAD = 4;
// REGS:      for (int t = 0; t < kTiles; ++t) {
// REGS-NEXT:   const bool more = t + 1 < kTiles;
// REGS-NEXT:   if (more) {
// REGS-NEXT:     loadTiles<Vec, true, Inside>(ra, rb, ca, cb, BK);
// REGS:        multiplyTile<true>(acc, tileA[0], tileB[0], ty, tx);
// REGS-NEXT:   __syncthreads();
// REGS-NEXT:   if (more) {
// REGS-NEXT:     storeA(tileA[0], ra);
// REGS-NEXT:     storeB(tileB[0], rb);
// REGS-NEXT:   }
// REGS-NEXT:   __syncthreads();
// REGS-NEXT: }

// NONE:      constexpr int STAGES = 1, PAD = {{[0-9]+}};
// NONE:      for (int t = 0; t < kTiles; ++t) {
// NONE-NEXT:   loadTiles<Vec, true, Inside>(ra, rb, ca, cb, BK);
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
