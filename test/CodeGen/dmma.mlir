// compute = dmma: each warp owns a WM x WN tile of 8 x 8 FP64 tensor-core
// products; a lane holds one row and two adjacent columns of each, and its
// elements of neighbouring blocks are laid side by side to load as packs. On sm_90
// row blocks pair into m16n8kK products, K 8 where it divides BK, else 4
// (m16n8k16 only adds registers); an odd TM keeps m8n8k4 (PTX ISA 7.8). The occupancy of the
// schedule becomes the launch bounds' blocks per SM.
// RUN: gemm-opt --emit=cuda %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc -std=c++17 -arch=sm_90 -I %gemm_runtime_include -Xptxas -v -c %t.cu -o %t.o 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %nvcc -std=c++17 -arch=sm_80 -I %gemm_runtime_include -c %t.cu -o %t80.o
// RUN: gemm-opt --emit=cuda %s --schedule="block=64,64,16 thread=4,4 occupancy=2" | FileCheck %s --check-prefix=K8
// RUN: gemm-opt --emit=cuda %s --schedule="block=96,96,12 thread=6,4" | FileCheck %s --check-prefix=K4
// RUN: gemm-opt --emit=cuda %s --schedule="block=72,144,8 thread=9,4" | FileCheck %s --check-prefix=ODD

// CHECK:      // FP64 tensor-core mma.sync m16n8k8 (m8n8k4 before sm_90), 2-element vector accesses
// CHECK:      constexpr int ROW_GROUP = 2, ROW_STEP = 16;
// CHECK-NEXT: constexpr int COL_GROUP = 2, COL_STEP = 8;
// CHECK:      constexpr int C_PACK = 2;
// CHECK:      // Each warp computes a WM x WN tile of 8 x 8 products, DMMA_K k at a
// CHECK-NEXT: // time.
// CHECK-NEXT: constexpr int WM = 8 * TM, WN = 4 * TN, DMMA_K = 8;
// A lane's rows of a pair of 8-row blocks sit side by side (one 16-byte
// load); its columns pair only for k4 products (one B register each).
// CHECK-NEXT: // Blocks of 8 rows (columns) whose fragments a lane loads as one pack.
// CHECK-NEXT: constexpr int A_GROUP = 2, B_GROUP = 1;
// CHECK:      __device__ constexpr int accColumn(int j, int c) {
// CHECK-NEXT:   return (j / B_GROUP) * 2 * B_GROUP + c * B_GROUP + j % B_GROUP;
// CHECK:      const int wm0 = (ty / (BN / WN)) * WM, wn0 = (ty % (BN / WN)) * WN;
// CHECK:      for (int k0 = 0; k0 < BK; k0 += DMMA_K) {
// CHECK:        const int k = k0 + 4 * s + tx % 4;
// CHECK:        const Pack<A_GROUP> x = *reinterpret_cast<const Pack<A_GROUP> *>(
// CHECK-NEXT:       &ta[k][wm0 + g * 8 * A_GROUP + A_GROUP * (tx / 4)]);
// CHECK:          fa[s][g * A_GROUP + h] = x.v[h];
// CHECK:        const Pack<B_GROUP> x = *reinterpret_cast<const Pack<B_GROUP> *>(
// CHECK-NEXT:       &tb[k][wn0 + g * 8 * B_GROUP + B_GROUP * (tx / 4)]);
// CHECK:          fb[s][g * B_GROUP + h] = x.v[h];
// CHECK:      #if __CUDA_ARCH__ >= 900
// CHECK:        asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 "
// CHECK-NEXT:       "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
// CHECK-NEXT:       : "+d"(acc[2 * r][accColumn(j, 0)]), "+d"(acc[2 * r][accColumn(j, 1)]),
// CHECK-NEXT:         "+d"(acc[2 * r + 1][accColumn(j, 0)]), "+d"(acc[2 * r + 1][accColumn(j, 1)])
// CHECK-NEXT:       : "d"(fa[0][2 * r + 0]), "d"(fa[0][2 * r + 1]), "d"(fa[1][2 * r + 0]), "d"(fa[1][2 * r + 1]),
// CHECK-NEXT:         "d"(fb[0][j]), "d"(fb[1][j]));
// CHECK-NEXT: #else
// CHECK:          asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
// CHECK-NEXT:         "{%0, %1}, {%2}, {%3}, {%0, %1};"
// CHECK-NEXT:         : "+d"(acc[i][accColumn(j, 0)]), "+d"(acc[i][accColumn(j, 1)])
// CHECK-NEXT:         : "d"(fa[s][i]), "d"(fb[s][j]));
// CHECK-NEXT: #endif
// CHECK:      constexpr int OCCUPANCY = 1;
// CHECK:      __global__ void __launch_bounds__(THREADS, OCCUPANCY) kernel(
// CHECK:      const int ty = threadIdx.x / 32, tx = threadIdx.x % 32;
// CHECK-NEXT: const int rowIn = (ty / (BN / WN)) * WM + A_GROUP * (tx / 4);
// CHECK-NEXT: const int colIn = (ty % (BN / WN)) * WN + 2 * B_GROUP * (tx % 4);
// CHECK:      storeC<Vec>(acc, c, cm, cn, p.m, p.n, m0 + rowIn, n0 + colIn, alpha, beta);

// PTXAS-COUNT-2: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// K8:       constexpr int WM = 8 * TM, WN = 4 * TN, DMMA_K = 8;
// K8:       asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 "
// K8:       constexpr int OCCUPANCY = 2;

// K4:       constexpr int ROW_GROUP = 2, ROW_STEP = 16;
// K4-NEXT:  constexpr int COL_GROUP = 4, COL_STEP = 16;
// K4:       constexpr int WM = 8 * TM, WN = 4 * TN, DMMA_K = 4;
// K4:       constexpr int A_GROUP = 2, B_GROUP = 2;
// K4:       asm("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 "
// K4-NEXT:      "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"

// ODD:      // FP64 tensor-core mma.sync m8n8k4, 2-element vector accesses
// ODD:      constexpr int ROW_GROUP = 1, ROW_STEP = 8;
// ODD:      constexpr int WM = 8 * TM, WN = 4 * TN, DMMA_K = 4;
// ODD:      constexpr int A_GROUP = 1, B_GROUP = 2;
// ODD-NOT:  __CUDA_ARCH__
// ODD-NOT:  asm("mma.sync.aligned.m16n8k
func.func @dmma(%a: memref<?x?xf64, strided<[?, 1], offset: ?>>, %b: memref<?x?xf64, strided<[?, 1], offset: ?>>,
                %c: memref<?x?xf64, strided<[?, 1], offset: ?>>, %alpha: f64, %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 2, prefetch = smem, pad = 4, compute = dmma>}
      : memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>, f64
  return
}
