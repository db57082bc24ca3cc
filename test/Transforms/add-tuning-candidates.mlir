// RUN: gemm-opt %s -gemm-select-schedule -gemm-add-tuning-candidates="problems=4096x4096x4096,rcr:2048x2048x2048,ccr:512x512x512,1000x1000x1000,8x64x64x64 top=3" -split-input-file 2>/dev/null | FileCheck %s
// RUN: gemm-opt %s -gemm-select-schedule -gemm-add-tuning-candidates="problems=4096x4096x4096,rcr:2048x2048x2048,ccr:512x512x512,1000x1000x1000,8x64x64x64 top=3" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: gemm-opt %s -gemm-select-schedule -gemm-add-tuning-candidates="problems=4096x4096x4096 top=0" -split-input-file 2>/dev/null | FileCheck %s --check-prefix=OWN
// RUN: gemm-opt %s -gemm-select-schedule -gemm-add-tuning-candidates="problems=4096x4096x4096 top=5 block=128,128,8 thread=8,8" -split-input-file 2>/dev/null | FileCheck %s --check-prefix=FIXED
// RUN: gemm-opt %s -gemm-select-schedule -gemm-add-alternatives=alternatives=1 -gemm-add-tuning-candidates="problems=4096x4096x4096 top=0" -split-input-file 2>/dev/null | FileCheck %s --check-prefix=LAUNCHER
// RUN: not gemm-opt %s -gemm-select-schedule -gemm-add-tuning-candidates="problems=4096x4096" -split-input-file 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not gemm-opt %s -gemm-select-schedule -gemm-add-tuning-candidates="problems=rxr:64x64x64" -split-input-file 2>&1 | FileCheck %s --check-prefix=BAD-LAYOUT
// RUN: not gemm-opt %s -gemm-add-tuning-candidates -split-input-file 2>&1 | FileCheck %s --check-prefix=UNSCHEDULED

// BAD: error: gemm-add-tuning-candidates: problem '4096x4096' must be [LAYOUT:][BATCHx]MxNxK with positive extents, LAYOUT as tuning databases write it (rrr, rcr, ...)
// BAD-LAYOUT: error: gemm-add-tuning-candidates: problem 'rxr:64x64x64'
// UNSCHEDULED: error: gemm-add-tuning-candidates needs a schedule: run gemm-select-schedule first

// An op of dynamic extents with B column-major (layout rcr) is timed on the
// problems that fit it: those without a layout class or a batch, and
// rcr:2048^3; not ccr:512^3 (another layout) or 8x64^3 (a batch). Each
// problem times the op's own schedule (kernel 0) and the model's first 3
// for it; the kernels are listed once.

// CHECK-LABEL: func.func @dynamic_rcr
// CHECK: gemm.matmul
// CHECK-SAME: alternatives = [
// CHECK-SAME: gemm.tune = [#gemm.tune_case<batch = 1, m = 4096, n = 4096, k = 4096, kernel = 0>, #gemm.tune_case<batch = 1, m = 4096, n = 4096, k = 4096, kernel = {{[1-9]}}>, #gemm.tune_case<batch = 1, m = 4096, n = 4096, k = 4096, kernel = {{[1-9]}}>, {{(#gemm.tune_case<batch = 1, m = 4096, n = 4096, k = 4096, kernel = [1-9]>, )?}}#gemm.tune_case<batch = 1, m = 2048, n = 2048, k = 2048, kernel = 0>,
// CHECK-SAME: #gemm.tune_case<batch = 1, m = 1000, n = 1000, k = 1000, kernel = 0>,
// CHECK-NOT: 512
// CHECK-NOT: batch = 8
// REMARK: remark: gemm-add-tuning-candidates: {{[0-9]+}} kernel(s) to time on 3 problem(s)
// OWN: gemm.tune = [#gemm.tune_case<batch = 1, m = 4096, n = 4096, k = 4096, kernel = 0>]
// OWN-NOT: alternatives
// The kernels that the launcher has besides its schedule
// (gemm-add-alternatives') are timed on every problem too.
// LAUNCHER-LABEL: func.func @dynamic_rcr
// LAUNCHER: alternatives = [#gemm.schedule<{{[^>]*}}>], gemm.tune = [#gemm.tune_case<batch = 1, m = 4096, n = 4096, k = 4096, kernel = 0>, #gemm.tune_case<batch = 1, m = 4096, n = 4096, k = 4096, kernel = 1>]
// With schedule options every candidate keeps what they fix.
// FIXED-LABEL: func.func @dynamic_rcr
// FIXED: alternatives = [#gemm.schedule<block = [128, 128, 8], thread = [8, 8]
// FIXED-NOT: block = [{{(64|256|96)}},
// FIXED-SAME: gemm.tune = [#gemm.tune_case<batch = 1, m = 4096, n = 4096, k = 4096, kernel = 0>,
func.func @dynamic_rcr(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[1, ?], offset: ?>>,
                       %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[1, ?], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}

// -----

// An op of static extents is timed on its own problem only; its schedule
// is the model's first for it. Besides the model's first 3, the problem
// times the best schedule that breaks each measured rule of the search
// (Candidates.cpp), which the model never chooses: here an FMA kernel fed
// by cp.async and a dmma kernel whose warp tile is wider than 64 x 32.

// CHECK-LABEL: func.func @static
// CHECK: alternatives = [
// CHECK-SAME: #gemm.schedule<{{[^>]*}}thread = [{{([0-9]+, (9|[1-9][0-9]))|((9|[1-9][0-9]), [0-9]+)}}]{{[^>]*}}compute = dmma
// CHECK-SAME: #gemm.schedule<{{[^>]*}}prefetch = async, pad = {{[0-9]+}}{{(, transpose = true)?}}>
// CHECK-SAME: gemm.tune = [#gemm.tune_case<batch = 1, m = 64, n = 96, k = 128, kernel = 0>, #gemm.tune_case<batch = 1, m = 64, n = 96, k = 128, kernel = 1>, #gemm.tune_case<batch = 1, m = 64, n = 96, k = 128, kernel = 2>, #gemm.tune_case<batch = 1, m = 64, n = 96, k = 128, kernel = 3>, #gemm.tune_case<batch = 1, m = 64, n = 96, k = 128, kernel = 4>]
// REMARK: remark: gemm-add-tuning-candidates: 5 kernel(s) to time on 1 problem(s)
func.func @static(%a: memref<64x128xf64>, %b: memref<128x96xf64>, %c: memref<64x96xf64>, %alpha: f64, %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<64x128xf64>, memref<128x96xf64>, memref<64x96xf64>, f64
  return
}

// -----

// A batched op takes the problems with a batch; its static K of 64 admits
// 8x64x64x64 only.

// CHECK-LABEL: func.func @batched
// CHECK: gemm.tune = [#gemm.tune_case<batch = 8, m = 64, n = 64, k = 64, kernel = 0>,
// CHECK-NOT: 4096
// REMARK: remark: gemm-add-tuning-candidates: {{[0-9]+}} kernel(s) to time on 1 problem(s)
func.func @batched(%a: memref<?x?x64xf32>, %b: memref<?x64x?xf32>, %c: memref<?x?x?xf32>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?x64xf32>, memref<?x64x?xf32>, memref<?x?x?xf32>, f32
  return
}

// -----

// No listed problem fits a K of 100: a remark, and nothing to time.

// CHECK-LABEL: func.func @unfit
// CHECK-NOT: gemm.tune
// REMARK: remark: gemm-add-tuning-candidates: no problem to tune on: give --tune-problems that fit its extents
func.func @unfit(%a: memref<?x100xf32>, %b: memref<100x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x100xf32>, memref<100x?xf32>, memref<?x?xf32>, f32
  return
}
