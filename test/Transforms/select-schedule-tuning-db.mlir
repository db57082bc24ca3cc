// RUN: sed -e 's/@VERSION@/%gemm_opt_version/' -e 's/@TEMPLATES@/%gemm_opt_templates/' %S/Inputs/tuning.csv > %t.csv
// RUN: gemm-opt %s -gemm-select-schedule="tuning-db=%t.csv" -verify-diagnostics | FileCheck %s
// RUN: not gemm-opt %s -gemm-select-schedule="tuning-db=%S/Inputs/tuning-bad.csv" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not gemm-opt %s -gemm-select-schedule="tuning-db=%t.none" 2>&1 | FileCheck %s --check-prefix=MISSING

// A static problem takes the fastest checked row of Inputs/tuning.csv that
// this build's kernels and the module's target (hopper-h100) made: not the
// faster row whose result was wrong, nor the H200's, nor the row of another
// layout (B column-major), and not the model's 256x128x8 (@dynamic below).

// CHECK-LABEL: func.func @measured
// CHECK: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4, occupancy = 2>}
func.func @measured(%a: memref<512x512xf32>, %b: memref<512x512xf32>, %c: memref<512x512xf32>, %alpha: f32, %beta: f32) {
  // expected-remark-re@+2 {{gemm-select-schedule: measured on NVIDIA H100 80GB HBM3 ({{.*}}.csv:4): 35000 GFLOP/s, 1.050 of cuBLAS}}
  // expected-remark@+1 {{gemm-select-schedule: hopper-h100 f32: block 64x64x16}}
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<512x512xf32>, memref<512x512xf32>, memref<512x512xf32>, f32
  return
}

// A row timed as stream-K (splits 0) says so.

// CHECK-LABEL: func.func @measured_stream
// CHECK: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [256, 128, 8]
func.func @measured_stream(%a: memref<4096x4096xf32>, %b: memref<4096x4096xf32>, %c: memref<4096x4096xf32>, %alpha: f32, %beta: f32) {
  // expected-remark-re@+2 {{gemm-select-schedule: measured on NVIDIA H100 80GB HBM3 ({{.*}}.csv:10): 50940 GFLOP/s, 1.013 of cuBLAS as stream-K}}
  // expected-remark-re@+1 {{gemm-select-schedule: hopper-h100 f32: block 256x128x8{{.*}}}}
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<4096x4096xf32>, memref<4096x4096xf32>, memref<4096x4096xf32>, f32
  return
}

// Rows that other kernel templates or another gemm-opt version made are
// ignored, with a remark, and the model chooses.

// CHECK-LABEL: func.func @stale_templates
// CHECK: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [96, 96, 32], thread = [6, 6]
func.func @stale_templates(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>, %alpha: f32, %beta: f32) {
  // expected-remark@+2 {{.csv for this problem ignored: line 8 timed kernel templates deadbeefdeadbeef, these are}}
  // expected-remark@+1 {{gemm-select-schedule: hopper-h100 f32: block 96x96x32}}
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<256x256xf32>, memref<256x256xf32>, memref<256x256xf32>, f32
  return
}

// CHECK-LABEL: func.func @stale_version
// CHECK: gemm.matmul {{.*}} compute = dmma{{(, transpose = true)?}}>}
func.func @stale_version(%a: memref<384x384xf64>, %b: memref<384x384xf64>, %c: memref<384x384xf64>, %alpha: f64, %beta: f64) {
  // expected-remark@+2 {{for this problem ignored: line 9 was made by gemm-opt 0.0.1, this is}}
  // expected-remark@+1 {{gemm-select-schedule: hopper-h100 f64: block 64x64x32}}
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<384x384xf64>, memref<384x384xf64>, memref<384x384xf64>, f64
  return
}

// Rows time one size, so extents known only at run time take the model's
// choice (gemm-add-alternatives then adds kernels for smaller calls).

// CHECK-LABEL: func.func @dynamic
// CHECK: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [256, 128, 8]
func.func @dynamic(%a: memref<?x512xf32>, %b: memref<512x512xf32>, %c: memref<?x512xf32>, %alpha: f32, %beta: f32) {
  // expected-remark@+1 {{gemm-select-schedule: hopper-h100 f32: block 256x128x8}}
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x512xf32>, memref<512x512xf32>, memref<?x512xf32>, f32
  return
}

// BAD: error: gemm-select-schedule: {{.*}}tuning-bad.csv:3: expected 20 fields, found 17
// MISSING: error: gemm-select-schedule: cannot read the tuning database '{{.*}}.none':
