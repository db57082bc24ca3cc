// RUN: gemm-opt %s | gemm-opt | FileCheck %s
// RUN: gemm-opt %s --mlir-print-op-generic | gemm-opt | FileCheck %s

// Round trip of gemm.matmul's `rows`: A a table of row pointers, B a vector
// of vectors read along its columns, C strided.

// CHECK-LABEL: func.func @tables
// CHECK: gemm.matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {rows = [#gemm.rows<pointers>, #gemm.rows<vectors>, #gemm.rows<none>]} : memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[1, ?], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>, f64
func.func @tables(%a: memref<?x?xf64, strided<[?, 1], offset: ?>>,
                  %b: memref<?x?xf64, strided<[1, ?], offset: ?>>,
                  %c: memref<?x?xf64, strided<[?, 1], offset: ?>>,
                  %s: f64) {
  gemm.matmul %a, %b, %c, %s, %s
      {rows = [#gemm.rows<pointers>, #gemm.rows<vectors>, #gemm.rows<none>]}
      : memref<?x?xf64, strided<[?, 1], offset: ?>>,
        memref<?x?xf64, strided<[1, ?], offset: ?>>,
        memref<?x?xf64, strided<[?, 1], offset: ?>>, f64
  return
}

// With an epilogue and a scalar read through a pointer: C a table of rows,
// a bias, a GELU's params and the read.

// CHECK-LABEL: func.func @tables_epilogue
// CHECK: gemm.matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} bias(%{{.*}} : memref<?x?xf32, strided<[?, 1], offset: ?>>) params(%{{.*}}, %{{.*}} : f32, f32) reads(%{{.*}} : memref<f32>) {activation = [#gemm.fn<gelu_tanh>], rows = [#gemm.rows<none>, #gemm.rows<none>, #gemm.rows<pointers>]}
func.func @tables_epilogue(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                           %b: memref<?x?xf32, strided<[1, ?], offset: ?>>,
                           %c: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                           %s: f32,
                           %bias: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                           %k: f32, %c3: f32, %alpha: memref<f32>) {
  gemm.matmul %a, %b, %c, %s, %s
      bias(%bias : memref<?x?xf32, strided<[?, 1], offset: ?>>)
      params(%k, %c3 : f32, f32) reads(%alpha : memref<f32>)
      {activation = [#gemm.fn<gelu_tanh>],
       rows = [#gemm.rows<none>, #gemm.rows<none>, #gemm.rows<pointers>]}
      : memref<?x?xf32, strided<[?, 1], offset: ?>>,
        memref<?x?xf32, strided<[1, ?], offset: ?>>,
        memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}
