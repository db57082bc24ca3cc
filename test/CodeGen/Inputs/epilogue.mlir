func.func @bias_clamp(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                      %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32,
                      %bias: memref<?x?xf32, strided<[?, ?], offset: ?>>, %lo: f32, %hi: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta bias(%bias : memref<?x?xf32, strided<[?, ?], offset: ?>>) params(%lo, %hi : f32, f32) {activation = [#gemm.clamp<lower, nan = bound>, #gemm.clamp<upper, nan = keep>]} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}
func.func @relu_col(%a: memref<?x?xf64, strided<[1, ?], offset: ?>>, %b: memref<?x?xf64, strided<[1, ?], offset: ?>>,
                    %c: memref<?x?xf64, strided<[1, ?], offset: ?>>, %alpha: f64, %beta: f64, %zero: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta params(%zero : f64) {activation = [#gemm.clamp<lower, nan = bound>]} : memref<?x?xf64, strided<[1, ?], offset: ?>>, memref<?x?xf64, strided<[1, ?], offset: ?>>, memref<?x?xf64, strided<[1, ?], offset: ?>>, f64
  return
}
func.func @gelu_clamp(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                      %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32,
                      %k: f32, %c3: f32, %hi: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta params(%k, %c3, %hi : f32, f32, f32) {activation = [#gemm.fn<gelu_tanh>, #gemm.clamp<upper, nan = bound>]} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}
func.func @sigmoid(%a: memref<?x?xf64, strided<[?, 1], offset: ?>>, %b: memref<?x?xf64, strided<[?, 1], offset: ?>>,
                   %c: memref<?x?xf64, strided<[?, 1], offset: ?>>, %alpha: f64, %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta {activation = [#gemm.fn<sigmoid>]} : memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>, f64
  return
}
