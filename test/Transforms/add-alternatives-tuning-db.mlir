// RUN: sed -e 's/@VERSION@/%gemm_opt_version/' -e 's/@TEMPLATES@/%gemm_opt_templates/' %S/Inputs/tuning-dynamic.csv > %t.csv
// RUN: gemm-opt %s -gemm-select-schedule -gemm-add-alternatives="tuning-db=%t.csv" 2>/dev/null | FileCheck %s
// RUN: gemm-opt %s -gemm-select-schedule -gemm-add-alternatives="tuning-db=%t.csv" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// An op of dynamic extents gets, besides the model's alternatives, the
// fastest kernel of each problem that Inputs/tuning-dynamic.csv timed on
// the target for its layout (row-major A, B and C) and its static K of
// 4096: 128x128x8 for 4096^3 and the op's own schedule (kernel 0) for
// 2048 x 2048, and 128x128x8 as stream-K (splits 0) for 3000 x 3000. The
// rows of K 1000 and 512, and of B column-major, time
// problems the op cannot be called with. gemm.measured lists the problems
// as (batch, m, n, k, kernel, splits).

// CHECK-LABEL: func.func @dynamic
// CHECK: gemm.matmul
// CHECK-SAME: alternatives = [{{.*}}#gemm.schedule<block = [128, 128, 8], thread = [8, 8]
// CHECK-SAME: gemm.measured = [#gemm.measured<batch = 1, m = 4096, n = 4096, k = 4096, kernel = [[K128:[0-9]+]], splits = 1>, #gemm.measured<batch = 1, m = 2048, n = 2048, k = 4096, kernel = 0, splits = 1>, #gemm.measured<batch = 1, m = 3000, n = 3000, k = 4096, kernel = [[K128]], splits = 0>]
// REMARK: remark: gemm-add-alternatives: measured kernels for 3 problem(s) from {{.*}}.csv, 1 of them added
func.func @dynamic(%a: memref<?x4096xf32, strided<[?, 1], offset: ?>>, %b: memref<4096x?xf32, strided<[?, 1], offset: ?>>,
                   %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x4096xf32, strided<[?, 1], offset: ?>>, memref<4096x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}
