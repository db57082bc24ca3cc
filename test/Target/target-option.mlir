// The target comes from the pass option, else from the module's
// #gemm.target, else it is hopper-h100; the module carries the one used.
// RUN: gemm-opt %s -gemm-select-schedule 2>&1 | FileCheck %s --check-prefix=MODULE
// RUN: gemm-opt %s -gemm-select-schedule=target=hopper-h200 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not gemm-opt %s -gemm-select-schedule=target=volta-v100 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// MODULE: remark: gemm-select-schedule: gt200-gtx280 f32:
// MODULE: module attributes {gemm.target = #gemm.target<name = "gt200-gtx280">}
// OPTION: remark: gemm-select-schedule: hopper-h200 f32:
// OPTION: module attributes {gemm.target = #gemm.target<name = "hopper-h200">}
// UNKNOWN: error: gemm-select-schedule: unknown target 'volta-v100'; known targets: gt200-gtx280 fermi-c2050 fermi-gtx580 ampere-a100 hopper-h100 hopper-h200
module attributes {gemm.target = #gemm.target<name = "gt200-gtx280">} {
  func.func @sgemm(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %alpha: f32, %beta: f32) {
    gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32
    return
  }
}
