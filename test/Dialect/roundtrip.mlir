// RUN: gemm-opt %s | gemm-opt | FileCheck %s
// RUN: gemm-opt %s --mlir-print-op-generic | gemm-opt | FileCheck %s

// Round trip of gemm.matmul: element types, static and dynamic shapes,
// layouts given by strides, batches and an attached schedule.

// CHECK: module attributes {gemm.target = #gemm.target<name = "hopper-h100">}
module attributes {gemm.target = #gemm.target<name = "hopper-h100">} {

// CHECK-LABEL: func.func @f32_dynamic
// CHECK: gemm.matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
func.func @f32_dynamic(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                       %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                       %c: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                       %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta
      : memref<?x?xf32, strided<[?, 1], offset: ?>>,
        memref<?x?xf32, strided<[?, 1], offset: ?>>,
        memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}

// f32 operands summed in f64 (a float loop with a double accumulator).
// CHECK-LABEL: func.func @f32_summed_in_f64
// CHECK: gemm.matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f64
func.func @f32_summed_in_f64(%a: memref<?x?xf32>, %b: memref<?x?xf32>,
                             %c: memref<?x?xf32>, %alpha: f64, %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta
      : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f64
  return
}

// CHECK-LABEL: func.func @f64_static
// CHECK: gemm.matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<64x32xf64>, memref<32x16xf64>, memref<64x16xf64>, f64
func.func @f64_static(%a: memref<64x32xf64>, %b: memref<32x16xf64>,
                      %c: memref<64x16xf64>, %alpha: f64, %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta
      : memref<64x32xf64>, memref<32x16xf64>, memref<64x16xf64>, f64
  return
}

// Static shapes with leading dimensions larger than the rows (lda = 40).
// CHECK-LABEL: func.func @f32_static_ld
// CHECK: gemm.matmul %{{.*}} : memref<64x32xf32, strided<[40, 1]>>, memref<32x16xf32, strided<[24, 1], offset: 8>>, memref<64x16xf32, strided<[16, 1]>>, f32
func.func @f32_static_ld(%a: memref<64x32xf32, strided<[40, 1]>>,
                         %b: memref<32x16xf32, strided<[24, 1], offset: 8>>,
                         %c: memref<64x16xf32, strided<[16, 1]>>,
                         %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta
      : memref<64x32xf32, strided<[40, 1]>>,
        memref<32x16xf32, strided<[24, 1], offset: 8>>,
        memref<64x16xf32, strided<[16, 1]>>, f32
  return
}

// A mix of static and dynamic extents: M is static, K and N are not.
// CHECK-LABEL: func.func @f64_mixed
// CHECK: gemm.matmul %{{.*}} : memref<8x?xf64>, memref<?x?xf64>, memref<8x?xf64>, f64
func.func @f64_mixed(%a: memref<8x?xf64>, %b: memref<?x?xf64>,
                     %c: memref<8x?xf64>, %alpha: f64, %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta
      : memref<8x?xf64>, memref<?x?xf64>, memref<8x?xf64>, f64
  return
}

// Column-major operands (BLAS layout): unit stride down a column.
// CHECK-LABEL: func.func @f64_column_major
// CHECK: gemm.matmul %{{.*}} : memref<?x?xf64, strided<[1, ?], offset: ?>>, memref<?x?xf64, strided<[1, ?], offset: ?>>, memref<?x?xf64, strided<[1, ?], offset: ?>>, f64
func.func @f64_column_major(%a: memref<?x?xf64, strided<[1, ?], offset: ?>>,
                            %b: memref<?x?xf64, strided<[1, ?], offset: ?>>,
                            %c: memref<?x?xf64, strided<[1, ?], offset: ?>>,
                            %alpha: f64, %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta
      : memref<?x?xf64, strided<[1, ?], offset: ?>>,
        memref<?x?xf64, strided<[1, ?], offset: ?>>,
        memref<?x?xf64, strided<[1, ?], offset: ?>>, f64
  return
}

// C = A * B^T with row-major storage: B is a 16x32 row-major buffer viewed
// as 32x16 (NT).
// CHECK-LABEL: func.func @f32_transposed_b
// CHECK: gemm.matmul %{{.*}} : memref<64x32xf32>, memref<32x16xf32, strided<[1, 32]>>, memref<64x16xf32>, f32
func.func @f32_transposed_b(%a: memref<64x32xf32>,
                            %b: memref<32x16xf32, strided<[1, 32]>>,
                            %c: memref<64x16xf32>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta
      : memref<64x32xf32>, memref<32x16xf32, strided<[1, 32]>>,
        memref<64x16xf32>, f32
  return
}

// Batched: a leading batch dimension with its own stride.
// CHECK-LABEL: func.func @f32_batched
// CHECK: gemm.matmul %{{.*}} : memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, memref<?x?x?xf32, strided<[?, 1, ?], offset: ?>>, memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, f32
func.func @f32_batched(%a: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>,
                       %b: memref<?x?x?xf32, strided<[?, 1, ?], offset: ?>>,
                       %c: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>,
                       %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta
      : memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>,
        memref<?x?x?xf32, strided<[?, 1, ?], offset: ?>>,
        memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, f32
  return
}

// CHECK-LABEL: func.func @f64_batched_static
// CHECK: gemm.matmul %{{.*}} : memref<4x8x16xf64>, memref<4x16x32xf64>, memref<4x8x32xf64>, f64
func.func @f64_batched_static(%a: memref<4x8x16xf64>, %b: memref<4x16x32xf64>,
                              %c: memref<4x8x32xf64>, %alpha: f64,
                              %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta
      : memref<4x8x16xf64>, memref<4x16x32xf64>, memref<4x8x32xf64>, f64
  return
}

// alpha and beta as constants, as the Frontend emits for `C += A * B`.
// CHECK-LABEL: func.func @f32_scheduled
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: gemm.matmul %{{.*}}, %{{.*}}, %{{.*}}, %[[ONE]], %[[ONE]] {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>} : memref<1024x1024xf32>, memref<1024x1024xf32>, memref<1024x1024xf32>, f32
func.func @f32_scheduled(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>,
                         %c: memref<1024x1024xf32>) {
  %one = arith.constant 1.0 : f32
  gemm.matmul %a, %b, %c, %one, %one
      {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8],
                                 warps = 8, stages = 2, vector = 4,
                                 prefetch = smem, pad = 4>}
      : memref<1024x1024xf32>, memref<1024x1024xf32>, memref<1024x1024xf32>,
        f32
  return
}

// CHECK-LABEL: func.func @f64_scheduled_batched
// CHECK: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 1, vector = 2, prefetch = regs, pad = 0>} : memref<?x?x?xf64>, memref<?x?x?xf64>, memref<?x?x?xf64>, f64
func.func @f64_scheduled_batched(%a: memref<?x?x?xf64>, %b: memref<?x?x?xf64>,
                                 %c: memref<?x?x?xf64>, %alpha: f64,
                                 %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta
      {schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4],
                                 warps = 8, stages = 1, vector = 2,
                                 prefetch = regs, pad = 0>}
      : memref<?x?x?xf64>, memref<?x?x?xf64>, memref<?x?x?xf64>, f64
  return
}

}

// A transposed schedule and alternatives survive the round trip; the
// default `transpose = false` is not printed.
// CHECK-LABEL: func.func @transposed_with_alternatives
// CHECK: gemm.matmul {{.*}} {alternatives = [#gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>], schedule = #gemm.schedule<block = [128, 64, 8], thread = [8, 8], warps = 4, stages = 2, vector = 4, prefetch = smem, pad = 4, transpose = true>}
func.func @transposed_with_alternatives(%a: memref<?x?xf32>, %s: f32) {
  gemm.matmul %a, %a, %a, %s, %s {schedule = #gemm.schedule<block = [128, 64, 8], thread = [8, 8], warps = 4, stages = 2, vector = 4, prefetch = smem, pad = 4, transpose = true>, alternatives = [#gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4, transpose = false>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// An epilogue: a bias broadcast along M (its row stride is 0 at run time)
// and a clamp to [lo, hi], the upper bound keeping NaN.
// CHECK-LABEL: func.func @epilogue
// CHECK: gemm.matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} bias(%{{.*}} : memref<?x?xf32, strided<[?, 1], offset: ?>>) params(%{{.*}}, %{{.*}} : f32, f32) {activation = [#gemm.clamp<lower, nan = bound>, #gemm.clamp<upper, nan = keep>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
func.func @epilogue(%a: memref<?x?xf32>, %bias: memref<?x?xf32, strided<[?, 1], offset: ?>>, %s: f32, %lo: f32, %hi: f32) {
  gemm.matmul %a, %a, %a, %s, %s bias(%bias : memref<?x?xf32, strided<[?, 1], offset: ?>>) params(%lo, %hi : f32, f32) {activation = [#gemm.clamp<lower, nan = bound>, #gemm.clamp<upper, nan = keep>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// The functions: a GELU in its tanh form (two constants) under an upper
// clamp, its erf form (one), tanh and sigmoid (none).
// CHECK-LABEL: func.func @functions
// CHECK: params(%{{.*}}, %{{.*}}, %{{.*}} : f32, f32, f32) {activation = [#gemm.fn<gelu_tanh>, #gemm.clamp<upper, nan = bound>]}
// CHECK: params(%{{.*}} : f32) {activation = [#gemm.fn<gelu_erf>]}
// CHECK: gemm.matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {activation = [#gemm.fn<tanh>]}
// CHECK: gemm.matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {activation = [#gemm.fn<sigmoid>]}
func.func @functions(%a: memref<?x?xf32>, %s: f32, %k: f32, %c: f32, %hi: f32) {
  gemm.matmul %a, %a, %a, %s, %s params(%k, %c, %hi : f32, f32, f32) {activation = [#gemm.fn<gelu_tanh>, #gemm.clamp<upper, nan = bound>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  gemm.matmul %a, %a, %a, %s, %s params(%k : f32) {activation = [#gemm.fn<gelu_erf>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  gemm.matmul %a, %a, %a, %s, %s {activation = [#gemm.fn<tanh>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  gemm.matmul %a, %a, %a, %s, %s {activation = [#gemm.fn<sigmoid>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// Scalars read through pointers, whose values alpha and a bound hold.
// CHECK-LABEL: func.func @reads
// CHECK: params(%{{.*}} : f32) reads(%{{.*}}, %{{.*}} : memref<f32>, memref<f64>) {activation = [#gemm.clamp<lower, nan = bound>]}
func.func @reads(%a: memref<?x?xf32>, %s: f32, %pa: memref<f32>, %pd: memref<f64>) {
  gemm.matmul %a, %a, %a, %s, %s params(%s : f32) reads(%pa, %pd : memref<f32>, memref<f64>) {activation = [#gemm.clamp<lower, nan = bound>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// A batched ReLU without a bias.
// CHECK-LABEL: func.func @relu
// CHECK: gemm.matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} params(%{{.*}} : f64) {activation = [#gemm.clamp<lower, nan = bound>]} : memref<?x?x?xf64>
func.func @relu(%a: memref<?x?x?xf64>, %s: f64) {
  gemm.matmul %a, %a, %a, %s, %s params(%s : f64) {activation = [#gemm.clamp<lower, nan = bound>]} : memref<?x?x?xf64>, memref<?x?x?xf64>, memref<?x?x?xf64>, f64
  return
}
