// A thread's tile loads step through K with a cursor. Where every thread
// has the same number of packs and the threads cover whole lines of packs,
// a thread's packs lie a fixed address step apart: the cursor then keeps
// one pointer (the others would each hold two registers through the K
// loop). Elsewhere it keeps a pointer per pack.
// RUN: gemm-opt --emit=cuda %s --schedule="block=72,64,24 thread=6,8 vector=4 prefetch=smem pad=4 transpose=0" | FileCheck %s

// A: 72 x 24 / 4 = 432 packs for 96 threads, some get 5 and some 4.
// CHECK:      constexpr int A_PACKS = BM * BK / A_PACK;
// CHECK:      void aCoords(int i, int &kk, int &x) {
// CHECK-NEXT:   constexpr int LINE = BK / A_PACK;
// CHECK-NEXT:   const int e = threadIdx.x + i * THREADS;
// CHECK-NEXT:   kk = (e % LINE) * A_PACK;
// CHECK-NEXT:   x = e / LINE;
// CHECK:      Cursor<A_LOADS> startA(
// CHECK-NOT:  c.stride
// CHECK:      return c;
// CHECK:      void loadA(
// CHECK:        const T *src = c.src[i];
// CHECK-NEXT:   c.src[i] += c.step;
// Inside M and N a pack needs no room, unless it lies past the tile.
// CHECK-NEXT:   if (Vec && ((Inside && threadIdx.x + i * THREADS < A_PACKS) || 0 < c.room[i]) &&
// B: 64 x 24 / 4 = 384 packs, 4 per thread, 16 to a K row, so pack i + 1
// of a thread is 96 / 16 = 6 K rows below pack i: its offsets are constants.
// CHECK:      void bCoords(int i, int &kk, int &x) {
// CHECK-NEXT:   constexpr int LINE = BN / B_PACK;
// CHECK-NEXT:   kk = threadIdx.x / LINE + i * (THREADS / LINE);
// CHECK-NEXT:   x = (threadIdx.x % LINE) * B_PACK;
// CHECK:      Cursor<B_LOADS> startB(
// CHECK:        c.stride = B_LOADS > 1 ? c.src[B_LOADS > 1 ? 1 : 0] - c.src[0] : 0;
// CHECK:      void loadB(
// CHECK:        const T *src = c.src[0] + i * c.stride;
// CHECK-NEXT:   if (i == B_LOADS - 1)
// CHECK-NEXT:     c.src[0] += c.step;
// CHECK-NEXT:   if (Vec && (Inside || c.room[i] == B_PACK) &&
func.func @cursor(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                  %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}
