// RUN: gemm-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// gemm.measured (a tuning database's problems, docs/tuning.md) on a
// gemm.matmul: (batch, m, n, k, kernel, splits) per problem, the kernel one
// of the op's schedule and alternatives, splits 0 its stream-K form.

// CHECK: gemm.measured = array<i64: 1, 4096, 4096, 4096, 1, 2, 1, 1000, 1000, 1000, 0, 1, 1, 3000, 3000, 3000, 0, 0>
func.func @measured(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, alternatives = [#gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>], gemm.measured = array<i64: 1, 4096, 4096, 4096, 1, 2, 1, 1000, 1000, 1000, 0, 1, 1, 3000, 3000, 3000, 0, 0>} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @no_such_kernel(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  // expected-error@+1 {{'gemm.measured' entry 0 needs positive extents, splits of 0 (stream-K) or more and one of the 1 kernel(s) of the op}}
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, gemm.measured = array<i64: 1, 64, 64, 64, 1, 1>} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @negative_splits(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  // expected-error@+1 {{'gemm.measured' entry 1 needs positive extents, splits of 0 (stream-K) or more}}
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, gemm.measured = array<i64: 1, 64, 64, 64, 0, 1, 1, 64, 64, 64, 0, -1>} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @ragged(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  // expected-error@+1 {{'gemm.measured' must be an array<i64> of (batch, m, n, k, kernel, splits) entries on a gemm.matmul}}
  gemm.matmul %a, %b, %c, %alpha, %beta {gemm.measured = array<i64: 1, 64, 64>} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

// expected-error@+1 {{'gemm.measured' must be an array<i64> of (batch, m, n, k, kernel, splits) entries on a gemm.matmul}}
func.func @not_a_matmul() attributes {gemm.measured = array<i64: 1, 64, 64, 64, 0, 1>} {
  return
}

// -----

// gemm.tune (a tuning program's problems): (batch, m, n, k, kernel).

// CHECK: gemm.tune = array<i64: 1, 4096, 4096, 4096, 0, 1, 4096, 4096, 4096, 1>
func.func @tune(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, alternatives = [#gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>], gemm.tune = array<i64: 1, 4096, 4096, 4096, 0, 1, 4096, 4096, 4096, 1>} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @tune_no_such_kernel(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  // expected-error@+1 {{'gemm.tune' entry 1 needs positive extents and one of the 1 kernel(s) of the op}}
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, gemm.tune = array<i64: 1, 64, 64, 64, 0, 1, 64, 64, 64, 1>} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @tune_ragged(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  // expected-error@+1 {{'gemm.tune' must be an array<i64> of (batch, m, n, k, kernel) entries on a gemm.matmul}}
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, gemm.tune = array<i64: 1, 64, 64, 64, 0, 1>} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}
