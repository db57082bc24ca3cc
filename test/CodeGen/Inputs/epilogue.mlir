func.func @bias_clamp(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                      %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32,
                      %bias: memref<?x?xf32, strided<[?, ?], offset: ?>>, %lo: f32, %hi: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta bias(%bias : memref<?x?xf32, strided<[?, ?], offset: ?>>) clamp(%lo, %hi : f32, f32) {activation = [#gemm.clamp<lower, nan = bound>, #gemm.clamp<upper, nan = keep>]} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}
func.func @relu_col(%a: memref<?x?xf64, strided<[1, ?], offset: ?>>, %b: memref<?x?xf64, strided<[1, ?], offset: ?>>,
                    %c: memref<?x?xf64, strided<[1, ?], offset: ?>>, %alpha: f64, %beta: f64, %zero: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta clamp(%zero : f64) {activation = [#gemm.clamp<lower, nan = bound>]} : memref<?x?xf64, strided<[1, ?], offset: ?>>, memref<?x?xf64, strided<[1, ?], offset: ?>>, memref<?x?xf64, strided<[1, ?], offset: ?>>, f64
  return
}
