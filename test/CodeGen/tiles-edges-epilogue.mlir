// Tile declarations with padding, the thread map, zero-filled edges, the
// batch loop and the BLAS epilogue, for a hand-written schedule.
// RUN: gemm-opt --emit=cuda %s | FileCheck %s

// CHECK:      // Kernel: 96x96x16 block tile, 6x6 register tile per thread (256 threads),
// CHECK-NEXT: // scalar FMA, 2-element vector accesses, one shared-memory buffer and a register prefetch of the next K tile,
// CHECK-NEXT: // shared rows padded by 1 elements.
// CHECK:      constexpr int BM = 96, BN = 96, BK = 16;
// CHECK:      constexpr int TM = 6, TN = 6;
// CHECK:      constexpr int STAGES = 1, PAD = 1;
// A pad of 1 breaks 2-element alignment of the shared rows: fragments and
// B's shared stores go element by element.
// CHECK:      constexpr int ROW_GROUP = 1, ROW_STEP = 16;
// CHECK-NEXT: constexpr int COL_GROUP = 1, COL_STEP = 16;
// CHECK:      constexpr int C_PACK = 1;
// Out-of-range elements are zero-filled: the cursor's room says how many of
// a pack's elements lie inside the matrix along x (none for a pack past the
// tile), and only a partial K tile checks K.
// CHECK:      const long long room = e < A_PACKS ? xs - gx : 0;
// CHECK:      c.room[i] = int(room < A_PACK ? (room > 0 ? room : 0) : A_PACK);
// CHECK:      r[i].v[v] = (Inside || 0 < c.room[i]) && (KFull || kk + v < kLeft) ? src[v] : T(0);
// CHECK:      tile[kk][x + v] = r[i].v[v];
// Edge columns and rows are skipped; beta == 0 never reads C.
// CHECK:      colIn[j] = col < n;
// CHECK:      const long long row = rowBase + (i / ROW_GROUP) * ROW_STEP + i % ROW_GROUP;
// CHECK-NEXT: if (row >= m)
// CHECK-NEXT:   continue;
// CHECK:      if (!colIn[j + w])
// CHECK-NEXT:   continue;
// CHECK-NEXT: T *dst = rowPtr + colOffset[j + w];
// CHECK-NEXT: *dst = beta == T(0) ? alpha * acc[i][j + w]
// CHECK-NEXT:                     : alpha * acc[i][j + w] + beta * *dst;
// A hand-written schedule without occupancy asks for one block per SM.
// CHECK:      constexpr int OCCUPANCY = 1;
// CHECK:      __global__ void __launch_bounds__(THREADS, OCCUPANCY) kernel(const gemm_rt::Problem p) {
// CHECK-NEXT: // Dynamic shared memory, which may pass the 48 KB of a static
// CHECK-NEXT: // declaration; both tiles aligned for the widest pack (4 x f64).
// CHECK-NEXT: extern __shared__ __align__(32) unsigned char smem[];
// CHECK-NEXT: auto &tileA = *reinterpret_cast<T (*)[STAGES][BK][BM + PAD]>(smem);
// CHECK-NEXT: auto &tileB =
// CHECK-NEXT:     *reinterpret_cast<T (*)[STAGES][BK][BN + PAD]>(smem + A_TILE_BYTES);
// CHECK-NEXT: // Consecutive threads own consecutive column groups of C.
// CHECK-NEXT: const int ty = threadIdx.x / (BN / TN), tx = threadIdx.x % (BN / TN);
// CHECK-NEXT: const int rowIn = ty * ROW_GROUP, colIn = tx * COL_GROUP;
// The batch runs on the grid's z dimension and row tiles on y; both loop
// past the grid's limits.
// CHECK:      for (long long batch = blockIdx.z; batch < p.batch; batch += gridDim.z)
// CHECK-NEXT: for (long long m0 = (long long)blockIdx.y * BM; m0 < p.m;
// CHECK-NEXT:      m0 += (long long)gridDim.y * BM) {
// CHECK-NEXT:   const T *a = static_cast<const T *>(p.a.ptr) + batch * p.a.sb;
// CHECK:      unsigned(gridM < 65535 ? gridM : 65535),
// CHECK-NEXT: unsigned(p.batch < 65535 ? p.batch : 65535));
// Only C's sizes and K are read; the rest are unnamed.
// CHECK:      static bool batched(const float *a, long long /*a_size0*/, long long /*a_size1*/, long long a_size2,
// CHECK:      /*batch=*/c_size0, /*m=*/c_size1, /*n=*/c_size2, /*k=*/a_size2,
// CHECK-NEXT: {a, a_stride0, a_stride1, a_stride2}, {b, b_stride0, b_stride1, b_stride2}, {c, c_stride0, c_stride1, c_stride2},
func.func @batched(%a: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, %b: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>,
                   %c: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [96, 96, 16], thread = [6, 6], warps = 8, stages = 1, vector = 2, prefetch = regs, pad = 1>}
      : memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, f32
  return
}
