// RUN: gemm-opt %s -split-input-file | gemm-opt -split-input-file | FileCheck %s

// Round trip of #gemm.target and #gemm.schedule on their own.

// CHECK: module attributes {gemm.target = #gemm.target<name = "fermi-c2050">}
module attributes {gemm.target = #gemm.target<name = "fermi-c2050">} {
}

// -----

// Only gemm.target is checked; other gemm.* names are left to their users.
// CHECK: module attributes {gemm.other = 1 : i64, gemm.target = #gemm.target<name = "hopper-h200">}
module attributes {gemm.target = #gemm.target<name = "hopper-h200">, gemm.other = 1} {
}

// -----

// Every prefetch kind, the edge values of each check, and the fields given in
// another order (struct(params) accepts any order and prints the declared one).
// CHECK-LABEL: func.func @schedules()
// CHECK-SAME: a = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8, stages = 2, vector = 4, prefetch = smem, pad = 4>
// CHECK-SAME: b = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 1, vector = 2, prefetch = regs, pad = 0>
// CHECK-SAME: c = #gemm.schedule<block = [32, 1, 1], thread = [1, 1], warps = 1, stages = 1, vector = 1, prefetch = none, pad = 0>
// CHECK-SAME: d = #gemm.schedule<block = [96, 96, 16], thread = [6, 6], warps = 8, stages = 4, vector = 4, prefetch = async, pad = 1>
// CHECK-SAME: e = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2, vector = 2, prefetch = smem, pad = 2, compute = dmma>
// CHECK-SAME: f = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 1, vector = 2, prefetch = regs, pad = 0, occupancy = 3>
// CHECK-SAME: g = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 1, vector = 2, prefetch = regs, pad = 0>
func.func @schedules() attributes {
  a = #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8,
                     stages = 2, vector = 4, prefetch = smem, pad = 4>,
  b = #gemm.schedule<pad = 0, prefetch = regs, vector = 2, stages = 1,
                     warps = 8, thread = [4, 4], block = [64, 64, 16]>,
  c = #gemm.schedule<block = [32, 1, 1], thread = [1, 1], warps = 1,
                     stages = 1, vector = 1, prefetch = none, pad = 0>,
  d = #gemm.schedule<block=[96,96,16],thread=[6,6],warps=8,stages=4,vector=4,prefetch=async,pad=1>,
  e = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 2,
                     vector = 2, prefetch = smem, pad = 2, compute = dmma>,
  f = #gemm.schedule<occupancy = 3, block = [64, 64, 16], thread = [4, 4], warps = 8,
                     stages = 1, vector = 2, prefetch = regs, pad = 0>,
  g = #gemm.schedule<block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 1,
                     vector = 2, prefetch = regs, pad = 0, occupancy = 1>
} {
  return
}
