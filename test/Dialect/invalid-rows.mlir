// RUN: gemm-opt %s -split-input-file -verify-diagnostics
//
// The verifier of gemm.matmul's `rows`: one #gemm.rows per operand, and a
// table's gathered copy unbatched and contiguous along one dimension.

func.func @count(%a: memref<?x?xf32, strided<[?, 1]>>, %s: f32) {
  // expected-error @+1 {{'gemm.matmul' op rows must give one #gemm.rows for each of A, B and C, got 2}}
  gemm.matmul %a, %a, %a, %s, %s {rows = [#gemm.rows<pointers>, #gemm.rows<none>]} : memref<?x?xf32, strided<[?, 1]>>, memref<?x?xf32, strided<[?, 1]>>, memref<?x?xf32, strided<[?, 1]>>, f32
  return
}

// -----

func.func @batched(%a: memref<?x?x?xf32>, %s: f32) {
  // expected-error @+1 {{a table of rows (C) needs an unbatched problem}}
  gemm.matmul %a, %a, %a, %s, %s {rows = [#gemm.rows<none>, #gemm.rows<none>, #gemm.rows<vectors>]} : memref<?x?x?xf32>, memref<?x?x?xf32>, memref<?x?x?xf32>, f32
  return
}

// -----

func.func @no_unit_stride(%a: memref<?x?xf32, strided<[?, 1]>>, %b: memref<?x?xf32, strided<[?, ?]>>, %s: f32) {
  // expected-error @+1 {{the gathered copy of B's rows must have exactly one static unit stride, got 'memref<?x?xf32, strided<[?, ?]>>'}}
  gemm.matmul %a, %b, %a, %s, %s {rows = [#gemm.rows<none>, #gemm.rows<pointers>, #gemm.rows<none>]} : memref<?x?xf32, strided<[?, 1]>>, memref<?x?xf32, strided<[?, ?]>>, memref<?x?xf32, strided<[?, 1]>>, f32
  return
}
