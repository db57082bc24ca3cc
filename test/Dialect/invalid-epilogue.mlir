// RUN: gemm-opt %s -split-input-file -verify-diagnostics
//
// The verifier of gemm.matmul's epilogue: the bias is a view of C's shape
// and element type, and every clamp of the activation has one bound of the
// element type.

func.func @bias_rank(%a: memref<?x?xf32>, %bias: memref<?x?x?xf32>, %s: f32) {
  // expected-error @+1 {{'gemm.matmul' op the bias must have C's rank and element type, got 'memref<?x?x?xf32>' for C 'memref<?x?xf32>'}}
  gemm.matmul %a, %a, %a, %s, %s bias(%bias : memref<?x?x?xf32>) : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @bias_type(%a: memref<?x?xf32>, %bias: memref<?x?xf64>, %s: f32) {
  // expected-error @+1 {{the bias must have C's rank and element type, got 'memref<?x?xf64>'}}
  gemm.matmul %a, %a, %a, %s, %s bias(%bias : memref<?x?xf64>) : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @bias_extent(%a: memref<4x8xf32>, %b: memref<8x6xf32>, %c: memref<4x6xf32>, %bias: memref<4x5xf32, strided<[?, 1]>>, %s: f32) {
  // expected-error @+1 {{the bias's extent (N = 5) must equal C's (N = 6)}}
  gemm.matmul %a, %b, %c, %s, %s bias(%bias : memref<4x5xf32, strided<[?, 1]>>) : memref<4x8xf32>, memref<8x6xf32>, memref<4x6xf32>, f32
  return
}

// -----

func.func @bounds_without_clamps(%a: memref<?x?xf32>, %s: f32) {
  // expected-error @+1 {{the activation has 0 clamps but 1 bounds are given}}
  gemm.matmul %a, %a, %a, %s, %s clamp(%s : f32) : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @clamps_without_bounds(%a: memref<?x?xf32>, %s: f32) {
  // expected-error @+1 {{the activation has 1 clamps but 0 bounds are given}}
  gemm.matmul %a, %a, %a, %s, %s {activation = [#gemm.clamp<upper, nan = bound>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @three_clamps(%a: memref<?x?xf32>, %s: f32) {
  // expected-error @+1 {{at most 2 clamps are supported, got 3}}
  gemm.matmul %a, %a, %a, %s, %s clamp(%s, %s, %s : f32, f32, f32) {activation = [#gemm.clamp<lower, nan = bound>, #gemm.clamp<upper, nan = bound>, #gemm.clamp<lower, nan = keep>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @bound_type(%a: memref<?x?xf32>, %s: f32, %d: f64) {
  // expected-error @+1 {{clamp bounds must have the element type 'f32', got 'f64'}}
  gemm.matmul %a, %a, %a, %s, %s clamp(%d : f64) {activation = [#gemm.clamp<lower, nan = bound>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

// expected-error @+2 {{expected ::mlir::gemm::ClampSide to be one of: lower, upper}}
// expected-error @+1 {{failed to parse Gemm_ClampAttr parameter 'side'}}
func.func private @clamp_side() attributes {c = #gemm.clamp<left, nan = bound>}
