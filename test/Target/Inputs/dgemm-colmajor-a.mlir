// A DGEMM whose A is column-major and B row-major: both input tiles are
// contiguous along M and N, so CodeGen stores them to shared memory without
// transposing, as the papers' kernels do.
func.func @dgemm(%a: memref<?x?xf64, strided<[1, ?], offset: ?>>, %b: memref<?x?xf64, strided<[?, 1], offset: ?>>,
                 %c: memref<?x?xf64, strided<[?, 1], offset: ?>>, %alpha: f64, %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf64, strided<[1, ?], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>, f64
  return
}
