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
