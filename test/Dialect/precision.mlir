// RUN: gemm-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// gemm.precision on an f32 gemm.matmul whose user asked for tensor cores:
// "tf32" or "3xtf32"; not on f64 products, nor other words.

// CHECK: gemm.matmul {{.*}} {gemm.precision = "3xtf32"}
func.func @f32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {gemm.precision = "3xtf32"} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @f64(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>, %alpha: f64, %beta: f64) {
  // expected-error@+1 {{'gemm.precision' applies to f32 gemm.matmul ops only}}
  gemm.matmul %a, %b, %c, %alpha, %beta {gemm.precision = "tf32"} : memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, f64
  return
}

// -----

func.func @fp16(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  // expected-error@+1 {{'gemm.precision' must be "tf32" or "3xtf32", got "fp16"}}
  gemm.matmul %a, %b, %c, %alpha, %beta {gemm.precision = "fp16"} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}
