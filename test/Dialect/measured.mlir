// RUN: gemm-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// gemm.measured (a tuning database's problems, docs/tuning.md) on a
// gemm.matmul: a #gemm.measured per problem, its kernel one of the op's
// schedule and alternatives, splits 0 its stream-K form.

// CHECK: gemm.measured = [#gemm.measured<batch = 1, m = 4096, n = 4096, k = 4096, kernel = 1, splits = 2>, #gemm.measured<batch = 1, m = 1000, n = 1000, k = 1000, kernel = 0, splits = 1>, #gemm.measured<batch = 1, m = 3000, n = 3000, k = 3000, kernel = 0, splits = 0>]
func.func @measured(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, alternatives = [#gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>], gemm.measured = [#gemm.measured<batch = 1, m = 4096, n = 4096, k = 4096, kernel = 1, splits = 2>, #gemm.measured<batch = 1, m = 1000, n = 1000, k = 1000, kernel = 0, splits = 1>, #gemm.measured<batch = 1, m = 3000, n = 3000, k = 3000, kernel = 0, splits = 0>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @no_such_kernel(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  // expected-error@+1 {{'gemm.measured' entry 0 needs one of the 1 kernel(s) of the op}}
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, gemm.measured = [#gemm.measured<batch = 1, m = 64, n = 64, k = 64, kernel = 1, splits = 1>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @negative_splits(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  // expected-error@+1 {{splits must be 0 (stream-K) or more, got -1}}
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, gemm.measured = [#gemm.measured<batch = 1, m = 64, n = 64, k = 64, kernel = 0, splits = 1>, #gemm.measured<batch = 1, m = 64, n = 64, k = 64, kernel = 0, splits = -1>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @untyped(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  // expected-error@+1 {{'gemm.measured' must be an array of #gemm.measured on a gemm.matmul}}
  gemm.matmul %a, %b, %c, %alpha, %beta {gemm.measured = array<i64: 1, 64, 64>} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

// expected-error@+1 {{'gemm.measured' must be an array of #gemm.measured on a gemm.matmul}}
func.func @not_a_matmul() attributes {gemm.measured = [#gemm.measured<batch = 1, m = 64, n = 64, k = 64, kernel = 0, splits = 1>]} {
  return
}

// -----

// gemm.tune (a tuning program's problems): a #gemm.tune_case per problem
// and kernel.

// CHECK: gemm.tune = [#gemm.tune_case<batch = 1, m = 4096, n = 4096, k = 4096, kernel = 0>, #gemm.tune_case<batch = 1, m = 4096, n = 4096, k = 4096, kernel = 1>]
func.func @tune(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, alternatives = [#gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>], gemm.tune = [#gemm.tune_case<batch = 1, m = 4096, n = 4096, k = 4096, kernel = 0>, #gemm.tune_case<batch = 1, m = 4096, n = 4096, k = 4096, kernel = 1>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @tune_no_such_kernel(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  // expected-error@+1 {{'gemm.tune' entry 1 needs one of the 1 kernel(s) of the op}}
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, gemm.tune = [#gemm.tune_case<batch = 1, m = 64, n = 64, k = 64, kernel = 0>, #gemm.tune_case<batch = 1, m = 64, n = 64, k = 64, kernel = 1>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @tune_ragged(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  // expected-error@+1 {{'gemm.tune' must be an array of #gemm.tune_case on a gemm.matmul}}
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, gemm.tune = array<i64: 1, 64, 64, 64, 0, 1>} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @empty_extent(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  // expected-error@+1 {{batch, m, n and k must be positive, got [1, 0, 64, 64]}}
  gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>, gemm.tune = [#gemm.tune_case<batch = 1, m = 0, n = 64, k = 64, kernel = 0>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}
