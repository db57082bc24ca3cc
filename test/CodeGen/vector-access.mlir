// 128-bit packs follow the unit strides of the operand types; a run-time
// alignment check picks the packed or the scalar variant.
// RUN: gemm-opt --emit=cuda %s -o - | FileCheck %s

// Row-major f32: A packs run along K, B packs along N and are stored whole
// into shared memory; C is stored in packs too.
// CHECK-LABEL: namespace row_major_f32_impl {
// CHECK:       constexpr int ROW_GROUP = 4, ROW_STEP = 64;
// CHECK-NEXT:  constexpr int COL_GROUP = 4, COL_STEP = 64;
// CHECK:       constexpr int C_PACK = 4;
// CHECK:       template <int N> struct alignas(N * sizeof(T)) Pack { T v[N]; };
// CHECK:       // The A tile moves 4-element packs along K
// CHECK:       constexpr int A_PACK = 4;
// A thread's packs lie a fixed step apart (256 threads cover whole lines
// of packs), so the cursor keeps one pointer and the step between them.
// CHECK:       c.src[i] = a + gx * xStride + kk;
// CHECK:       c.stride = A_LOADS > 1 ? c.src[A_LOADS > 1 ? 1 : 0] - c.src[0] : 0;
// CHECK:       const T *src = c.src[0] + i * c.stride;
// CHECK-NEXT:  if (i == A_LOADS - 1)
// CHECK-NEXT:    c.src[0] += c.step;
// CHECK-NEXT:  if (Vec && (Inside || 0 < c.room[i]) && (KFull || kk + A_PACK - 1 < kLeft)) {
// CHECK-NEXT:    r[i] = *reinterpret_cast<const Pack<A_PACK> *>(src);
// CHECK:       tile[kk + v][x] = r[i].v[v];
// CHECK:       // The B tile moves 4-element packs along N
// CHECK:       if (Vec && (Inside || c.room[i] == B_PACK) && (KFull || kk < kLeft)) {
// CHECK:       *reinterpret_cast<Pack<B_PACK> *>(&tile[kk][x]) = r[i];
// CHECK:       fa[g] = *reinterpret_cast<const Pack<ROW_GROUP> *>(
// CHECK:       if (Vec && colIn[j + C_PACK - 1]) {
// CHECK-NEXT:    Pack<C_PACK> *dst = reinterpret_cast<Pack<C_PACK> *>(rowPtr + colOffset[j]);
// CHECK:       const bool aligned = packAligned(p.a, A_PACK) && packAligned(p.b, B_PACK) && packAligned(p.c, C_PACK);
// CHECK-NEXT:  const auto start = aligned ? kernel<true> : kernel<false>;
// CHECK-NEXT:  // Past 48 KB a kernel must opt in to its dynamic shared memory.
// CHECK-NEXT:  if (SMEM_BYTES > 48 * 1024) {
// CHECK-NEXT:    const cudaError_t err = cudaFuncSetAttribute(
// CHECK-NEXT:        start, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES);
// CHECK-NEXT:    if (err != cudaSuccess)
// CHECK-NEXT:      return err;
// CHECK-NEXT:  }
// CHECK-NEXT:  start<<<grid, THREADS, SMEM_BYTES, stream>>>(p);
// CHECK-NEXT:  return cudaGetLastError();
// CHECK:       {row_major_f32_impl::launch, 128, 128, 1, {{[0-9]+\.[0-9]}}, 0.250, 1.000},
// CHECK-NEXT:  };
// CHECK-NEXT:  return gemm_rt::run(problem, gemm_rt::Plan{variants, 1, 3350.0});
func.func @row_major_f32(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                         %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  // Pinned, so that the checks do not follow the cost model's choice.
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}

// Column-major f64 (double2 packs): A along M, B along K, C along its
// contiguous rows, a column at a time.
// CHECK-LABEL: namespace col_major_f64_impl {
// CHECK:       using T = double;
// CHECK:       constexpr int ROW_GROUP = 2, ROW_STEP = 32;
// CHECK-NEXT:  constexpr int COL_GROUP = 2, COL_STEP = 32;
// CHECK:       constexpr int C_PACK = 2;
// CHECK:       // The A tile moves 2-element packs along M
// CHECK:       c.src[i] = a + gx + kk * kStride;
// CHECK:       // The B tile moves 2-element packs along K
// CHECK:       c.src[i] = b + gx * xStride + kk;
// CHECK:       // C's rows are contiguous: a column needs one pointer, and its rows
// CHECK:       T *colPtr = c + col * cn + rowBase;
// CHECK:       Pack<C_PACK> *dst = reinterpret_cast<Pack<C_PACK> *>(colPtr + offset);
// CHECK:       out.v[w] = alpha * acc[i + w][j];
// CHECK:       const long long cm = 1, cn = p.c.sc;
// CHECK:       const bool aligned = packAligned(p.a, A_PACK) && packAligned(p.b, B_PACK) && packAligned(p.c, C_PACK);
func.func @col_major_f64(%a: memref<?x?xf64, strided<[1, ?], offset: ?>>, %b: memref<?x?xf64, strided<[1, ?], offset: ?>>,
                         %c: memref<?x?xf64, strided<[1, ?], offset: ?>>, %alpha: f64, %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 2, prefetch = smem, pad = 2>} : memref<?x?xf64, strided<[1, ?], offset: ?>>, memref<?x?xf64, strided<[1, ?], offset: ?>>, memref<?x?xf64, strided<[1, ?], offset: ?>>, f64
  return
}

// No unit stride known: element-wise loads through the run-time strides,
// and no alignment check.
// CHECK-LABEL: namespace generic_impl {
// CHECK:       // The A tile moves one element at a time
// CHECK:       constexpr int A_PACK = 1;
// CHECK:       c.src[i] = a + gx * xStride + kk * kStride;
// CHECK-NOT:   reinterpret_cast<const Pack<A_PACK> *>
// CHECK:       const bool aligned = true;
func.func @generic(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %b: memref<?x?xf32, strided<[?, ?], offset: ?>>,
                   %c: memref<?x?xf32, strided<[?, ?], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, f32
  return
}
