// The target comes from the pass option, else from the module's
// #gemm.target, else it is hopper-h100; the module carries the one used,
// and the passes after it tune for that one.
// RUN: gemm-opt %s -gemm-attach-target -split-input-file | FileCheck %s --check-prefix=MODULE
// RUN: gemm-opt %s -gemm-attach-target=target=hopper-h200 -split-input-file | FileCheck %s --check-prefix=OPTION
// RUN: gemm-opt %s -gemm-attach-target=target=fermi-c2050 -gemm-select-schedule -split-input-file 2>&1 | FileCheck %s --check-prefix=SELECT
// RUN: not gemm-opt %s -gemm-attach-target=target=volta-v100 -split-input-file 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// MODULE: module attributes {gemm.target = #gemm.target<name = "gt200-gtx280">}
// OPTION: module attributes {gemm.target = #gemm.target<name = "hopper-h200">}
// SELECT: remark: gemm-select-schedule: fermi-c2050 f32:
// The error is at the module, the first line of its split.
// UNKNOWN: attach-target.mlir:1 offset :[[@LINE+1]]:1: error: gemm-attach-target: unknown target 'volta-v100'; known targets: gt200-gtx280 fermi-c2050 fermi-gtx580 ampere-a100 hopper-h100 hopper-h200
module attributes {gemm.target = #gemm.target<name = "gt200-gtx280">} {
  func.func @sgemm(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
    gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
    return
  }
}

// -----

// A module without a target gets the default.
// MODULE: module attributes {gemm.target = #gemm.target<name = "hopper-h100">}
// OPTION: module attributes {gemm.target = #gemm.target<name = "hopper-h200">}
// SELECT: remark: gemm-select-schedule: fermi-c2050 f64:
// UNKNOWN: error: gemm-attach-target: unknown target 'volta-v100'
func.func @dgemm(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>, %alpha: f64, %beta: f64) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, f64
  return
}
