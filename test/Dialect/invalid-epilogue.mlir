// RUN: gemm-opt %s -split-input-file -verify-diagnostics
//
// The verifier of gemm.matmul's epilogue: the bias is a view of C's shape
// and element type, and the activation's steps take its params in order
// (a clamp its bound, a GELU its constants), each of the element type; at
// most two clamps and one function. At most four scalars read through
// pointers, each a rank-0 memref.

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
  // expected-error @+1 {{the activation's steps take 0 params but 1 are given}}
  gemm.matmul %a, %a, %a, %s, %s params(%s : f32) : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @clamps_without_bounds(%a: memref<?x?xf32>, %s: f32) {
  // expected-error @+1 {{the activation's steps take 1 params but 0 are given}}
  gemm.matmul %a, %a, %a, %s, %s {activation = [#gemm.clamp<upper, nan = bound>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @three_clamps(%a: memref<?x?xf32>, %s: f32) {
  // expected-error @+1 {{at most 2 clamps are supported, got 3}}
  gemm.matmul %a, %a, %a, %s, %s params(%s, %s, %s : f32, f32, f32) {activation = [#gemm.clamp<lower, nan = bound>, #gemm.clamp<upper, nan = bound>, #gemm.clamp<lower, nan = keep>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @bound_type(%a: memref<?x?xf32>, %s: f32, %d: f64) {
  // expected-error @+1 {{activation params must have alpha's type 'f32', got 'f64'}}
  gemm.matmul %a, %a, %a, %s, %s params(%d : f64) {activation = [#gemm.clamp<lower, nan = bound>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @gelu_params(%a: memref<?x?xf32>, %s: f32) {
  // expected-error @+1 {{the activation's steps take 3 params but 2 are given}}
  gemm.matmul %a, %a, %a, %s, %s params(%s, %s : f32, f32) {activation = [#gemm.fn<gelu_tanh>, #gemm.clamp<lower, nan = bound>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @tanh_params(%a: memref<?x?xf32>, %s: f32) {
  // expected-error @+1 {{the activation's steps take 0 params but 1 are given}}
  gemm.matmul %a, %a, %a, %s, %s params(%s : f32) {activation = [#gemm.fn<tanh>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @two_functions(%a: memref<?x?xf32>, %s: f32) {
  // expected-error @+1 {{at most 1 function is supported, got 2}}
  gemm.matmul %a, %a, %a, %s, %s {activation = [#gemm.fn<tanh>, #gemm.fn<sigmoid>]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @erf_param_type(%a: memref<?x?xf64>, %s: f64, %f: f32) {
  // expected-error @+1 {{activation params must have alpha's type 'f64', got 'f32'}}
  gemm.matmul %a, %a, %a, %s, %s params(%f : f32) {activation = [#gemm.fn<gelu_erf>]} : memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, f64
  return
}

// -----

func.func @five_reads(%a: memref<?x?xf32>, %s: f32, %p: memref<f32>) {
  // expected-error @+1 {{at most 4 scalar reads are checked, got 5}}
  gemm.matmul %a, %a, %a, %s, %s reads(%p, %p, %p, %p, %p : memref<f32>, memref<f32>, memref<f32>, memref<f32>, memref<f32>) : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @read_rank(%a: memref<?x?xf32>, %s: f32, %p: memref<1xf32>) {
  // expected-error @+1 {{operand #5 must be variadic of 0D memref of 32-bit float or 64-bit float values}}
  gemm.matmul %a, %a, %a, %s, %s reads(%p : memref<1xf32>) : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

func.func @not_a_step(%a: memref<?x?xf32>, %s: f32) {
  // expected-error @+1 {{'gemm.matmul' op attribute 'activation' failed to satisfy constraint: array of #gemm.clamp and #gemm.fn}}
  gemm.matmul %a, %a, %a, %s, %s {activation = [1 : i32]} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
  return
}

// -----

// expected-error @+2 {{expected ::mlir::gemm::Function to be one of: tanh, sigmoid, gelu_tanh, gelu_erf}}
// expected-error @+1 {{failed to parse Gemm_FnAttr parameter 'function'}}
func.func private @fn_name() attributes {f = #gemm.fn<relu>}

// -----

// expected-error @+2 {{expected ::mlir::gemm::ClampSide to be one of: lower, upper}}
// expected-error @+1 {{failed to parse Gemm_ClampAttr parameter 'side'}}
func.func private @clamp_side() attributes {c = #gemm.clamp<left, nan = bound>}
