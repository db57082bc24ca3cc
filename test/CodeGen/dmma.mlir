// compute = dmma: each warp owns an 8TM x 4TN tile of 8 x 8 FP64 tensor-core
// products (runtime/include/gemm_kernels/multiply.cuh). On sm_90 row blocks
// pair into m16n8kK products, K 8 where it divides BK, else 4; an odd TM
// keeps m8n8k4 (PTX ISA 7.8). An operand contiguous along k lands in an
// x-major tile for m16n8k8 where BK is a multiple of 16, in whole packs
// (a tile move's WHOLE_STORE along k), and its lanes read one block per pack
// (A_GROUP, B_GROUP 1); elsewhere tiles are k-major, where A's row blocks
// pair. Each shape compiles for sm_90 without local memory, and for sm_80,
// which has m8n8k4 only. The occupancy of the schedule becomes the launch
// bounds' blocks per SM.
// RUN: gemm-opt --emit=cuda %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc -std=c++17 -arch=sm_90 -I %gemm_runtime_include -Xptxas -v -c %t.cu -o %t.o 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %nvcc -std=c++17 -arch=sm_80 -I %gemm_runtime_include -c %t.cu -o %t80.o
// RUN: gemm-opt --emit=cuda %s --schedule="block=64,64,16 thread=4,4 occupancy=2" | FileCheck %s --check-prefix=K8
// RUN: gemm-opt --emit=cuda %s --schedule="block=96,96,12 thread=6,4" -o %t.k4.cu
// RUN: FileCheck %s --check-prefix=K4 < %t.k4.cu
// RUN: %nvcc -std=c++17 -arch=sm_90 -I %gemm_runtime_include -Xptxas -v -c %t.k4.cu -o %t.k4.o 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: gemm-opt --emit=cuda %s --schedule="block=72,144,8 thread=9,4" -o %t.odd.cu
// RUN: FileCheck %s --check-prefix=ODD < %t.odd.cu
// RUN: %nvcc -std=c++17 -arch=sm_90 -I %gemm_runtime_include -c %t.odd.cu -o %t.odd.o

// CHECK:      /// FP64 tensor-core mma.sync m16n8k8 (m8n8k4 before sm_90),
// CHECK:      static constexpr int STAGES = 2;
// CHECK-NEXT:      static constexpr int PAD = 4;
// CHECK-NEXT:      static constexpr int OCCUPANCY = 1;
// CHECK:      static constexpr int ROW_GROUP = 2;
// CHECK-NEXT:      static constexpr int ROW_STEP = 16;
// CHECK-NEXT:      static constexpr int COL_GROUP = 2;
// CHECK-NEXT:      static constexpr int COL_STEP = 8;
// CHECK-NEXT: static constexpr int DMMA_K = 8;
// CHECK-NEXT: static constexpr bool DMMA_WIDE = true;
// CHECK-NEXT: static constexpr int A_GROUP = 2;
// CHECK-NEXT: static constexpr int B_GROUP = 1;
// CHECK:      static constexpr int C_PACK = 2;
// CHECK:      struct A {
// CHECK-NEXT:     static constexpr int X = 128;
// CHECK-NEXT:     static constexpr bool X_UNIT = false;
// CHECK-NEXT:     static constexpr bool K_UNIT = true;
// CHECK-NEXT:     static constexpr int PACK = 2;
// CHECK-NEXT:     static constexpr bool ALONG_K = true;
// CHECK-NEXT:     static constexpr bool WHOLE_STORE = false;
// CHECK-NEXT:     static constexpr int PACKS = 512;
// CHECK-NEXT:     static constexpr int LOADS = 2;
// CHECK-NEXT:     static constexpr bool REGULAR = true;
// CHECK-NEXT:     static constexpr bool SWIZZLED = false;
// CHECK-NEXT:     static constexpr bool K_INNER = false;
// CHECK-NEXT:   };


// Column-major A and B, BK 16: A k-major, its row blocks paired; B x-major.
// CHECK:      static constexpr int BM = 64;
// CHECK-NEXT:      static constexpr int BN = 64;
// CHECK-NEXT:      static constexpr int BK = 16;
// CHECK-NEXT:      static constexpr int TM = 4;
// CHECK-NEXT:      static constexpr int TN = 4;
// CHECK-NEXT:      static constexpr int THREADS = 256;
// CHECK:      static constexpr int ROW_GROUP = 2;
// CHECK-NEXT:      static constexpr int ROW_STEP = 16;
// CHECK-NEXT:      static constexpr int COL_GROUP = 2;
// CHECK-NEXT:      static constexpr int COL_STEP = 8;
// CHECK-NEXT: static constexpr int DMMA_K = 8;
// CHECK-NEXT: static constexpr bool DMMA_WIDE = true;
// CHECK-NEXT: static constexpr int A_GROUP = 2;
// CHECK-NEXT: static constexpr int B_GROUP = 1;
// CHECK:      struct A {
// CHECK-NEXT:     static constexpr int X = 64;
// CHECK-NEXT:     static constexpr bool X_UNIT = true;
// CHECK-NEXT:     static constexpr bool K_UNIT = false;
// CHECK-NEXT:     static constexpr int PACK = 2;
// CHECK-NEXT:     static constexpr bool ALONG_K = false;
// CHECK-NEXT:     static constexpr bool WHOLE_STORE = true;
// CHECK-NEXT:     static constexpr int PACKS = 512;
// CHECK-NEXT:     static constexpr int LOADS = 2;
// CHECK-NEXT:     static constexpr bool REGULAR = true;
// CHECK-NEXT:     static constexpr bool SWIZZLED = false;
// CHECK-NEXT:     static constexpr bool K_INNER = false;
// CHECK-NEXT:   };
// CHECK-NEXT:   struct B {
// CHECK-NEXT:     static constexpr int X = 64;
// CHECK-NEXT:     static constexpr bool X_UNIT = false;
// CHECK-NEXT:     static constexpr bool K_UNIT = true;
// CHECK-NEXT:     static constexpr int PACK = 2;
// CHECK-NEXT:     static constexpr bool ALONG_K = true;
// CHECK-NEXT:     static constexpr bool WHOLE_STORE = true;
// CHECK-NEXT:     static constexpr int PACKS = 512;
// CHECK-NEXT:     static constexpr int LOADS = 2;
// CHECK-NEXT:     static constexpr bool REGULAR = true;
// CHECK-NEXT:     static constexpr bool SWIZZLED = false;
// CHECK-NEXT:     static constexpr bool K_INNER = true;
// CHECK-NEXT:   };

// A packed and a scalar kernel each.
// PTXAS-COUNT-4: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// K8:       static constexpr int STAGES = 2;
// K8-NEXT:       static constexpr int PAD = {{[0-9]+}};
// K8-NEXT:       static constexpr int OCCUPANCY = 2;
// K8:       static constexpr int ROW_GROUP = 1;
// K8-NEXT:       static constexpr int ROW_STEP = 8;
// K8-NEXT:       static constexpr int COL_GROUP = 2;
// K8-NEXT:       static constexpr int COL_STEP = 8;
// K8-NEXT:  static constexpr int DMMA_K = 8;
// K8-NEXT:  static constexpr bool DMMA_WIDE = true;
// K8-NEXT:  static constexpr int A_GROUP = 1;
// K8-NEXT:  static constexpr int B_GROUP = 1;
// K8:      struct A {
// K8-NEXT:     static constexpr int X = 64;
// K8-NEXT:     static constexpr bool X_UNIT = false;
// K8-NEXT:     static constexpr bool K_UNIT = true;
// K8-NEXT:     static constexpr int PACK = 2;
// K8-NEXT:     static constexpr bool ALONG_K = true;
// K8-NEXT:     static constexpr bool WHOLE_STORE = true;
// K8-NEXT:     static constexpr int PACKS = 512;
// K8-NEXT:     static constexpr int LOADS = 2;
// K8-NEXT:     static constexpr bool REGULAR = true;
// K8-NEXT:     static constexpr bool SWIZZLED = false;
// K8-NEXT:     static constexpr bool K_INNER = true;
// K8-NEXT:   };

// K4:       static constexpr int ROW_GROUP = 2;
// K4-NEXT:       static constexpr int ROW_STEP = 16;
// K4-NEXT:       static constexpr int COL_GROUP = 4;
// K4-NEXT:       static constexpr int COL_STEP = 16;
// K4-NEXT:  static constexpr int DMMA_K = 4;
// K4-NEXT:  static constexpr bool DMMA_WIDE = true;
// K4-NEXT:  static constexpr int A_GROUP = 2;
// K4-NEXT:  static constexpr int B_GROUP = 2;

// ODD:      /// FP64 tensor-core mma.sync m8n8k4,
// ODD:      static constexpr int ROW_GROUP = 1;
// ODD-NEXT:      static constexpr int ROW_STEP = 8;
// ODD-NEXT:      static constexpr int COL_GROUP = 4;
// ODD-NEXT:      static constexpr int COL_STEP = 16;
// ODD-NEXT: static constexpr int DMMA_K = 4;
// ODD-NEXT: static constexpr bool DMMA_WIDE = false;
// ODD-NEXT: static constexpr int A_GROUP = 1;
// ODD-NEXT: static constexpr int B_GROUP = 2;

func.func @dmma(%a: memref<?x?xf64, strided<[?, 1], offset: ?>>, %b: memref<?x?xf64, strided<[?, 1], offset: ?>>,
                %c: memref<?x?xf64, strided<[?, 1], offset: ?>>, %alpha: f64, %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 2, prefetch = smem, pad = 4, compute = dmma>}
      : memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>, f64
  return
}

func.func @dmma_tt(%a: memref<?x?xf64, strided<[1, ?], offset: ?>>, %b: memref<?x?xf64, strided<[1, ?], offset: ?>>,
                   %c: memref<?x?xf64, strided<[?, 1], offset: ?>>, %alpha: f64, %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 2, prefetch = smem, pad = 4, compute = dmma>}
      : memref<?x?xf64, strided<[1, ?], offset: ?>>, memref<?x?xf64, strided<[1, ?], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>, f64
  return
}
