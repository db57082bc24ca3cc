// One row-major SGEMM and one row-major DGEMM without schedules.
func.func @sgemm(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                 %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}
func.func @dgemm(%a: memref<?x?xf64, strided<[?, 1], offset: ?>>, %b: memref<?x?xf64, strided<[?, 1], offset: ?>>,
                 %c: memref<?x?xf64, strided<[?, 1], offset: ?>>, %alpha: f64, %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>, f64
  return
}
