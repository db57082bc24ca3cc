// Ops of one problem class share one search (lib/Target/SearchCache.h): the
// schedules that fit are enumerated once for all layouts, predicted once per
// class and ranked once per problem, and gemm-add-alternatives ranks the
// searches that gemm-select-schedule made. Sharing changes no choice: each
// op gets in one module what it gets alone (with -split-input-file each
// function is a module of its own), and ops with the same problem get the
// same schedule and alternatives.
//
// RUN: gemm-opt %s -gemm-attach-target=target=hopper-h200 -gemm-select-schedule -gemm-add-alternatives 2>/dev/null | grep gemm.matmul > %t.together
// RUN: gemm-opt %s -gemm-attach-target=target=hopper-h200 -gemm-select-schedule -gemm-add-alternatives -split-input-file 2>/dev/null | grep gemm.matmul > %t.alone
// RUN: diff %t.alone %t.together
// RUN: FileCheck %s --input-file=%t.together
// RUN: gemm-opt %s -gemm-attach-target=target=hopper-h200 -gemm-select-schedule 2>&1 >/dev/null | FileCheck %s --check-prefix=RATE
//
// Options that fix every parameter are the schedule, and no search runs:
// @sized's own choice, given as options to the whole pipeline, comes out
// as the model made it (its residency included), on every op and with no
// alternatives.
// RUN: gemm-opt --emit=schedules --candidates=1 --target=hopper-h200 %s > %t.list
// RUN: sh -c 'gemm-opt %s -gemm-attach-target=target=hopper-h200 -gemm-select-schedule="$(grep -A1 @sized %t.list | tail -n1)" -gemm-add-alternatives="$(grep -A1 @sized %t.list | tail -n1)"' 2>/dev/null | grep gemm.matmul > %t.fixed
// RUN: sed -n 3p %t.together | grep -o '{.*}' > %t.sized
// RUN: grep -o '{.*}' %t.fixed | sort -u | diff %t.sized -

// @sized and @other_layout share the schedules that fit but not their
// predictions: they choose the same tiles, rated differently (B's tiles
// lie along k in one and along n in the other).
// CHECK: gemm.matmul {{.*}} {[[DYNAMIC:alternatives = .*]]} : memref<?x?xf32
// CHECK-NEXT: gemm.matmul {{.*}} {[[DYNAMIC]]} : memref<?x?xf32
// CHECK-NEXT: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [96, 96, 32], {{.*}}prefetch = smem
// CHECK-NEXT: gemm.matmul {{.*}} {schedule = #gemm.schedule<block = [96, 96, 32], {{.*}}prefetch = smem
// RATE: select-schedule-classes.mlir:[[@LINE+23]]:3: remark: gemm-select-schedule: hopper-h200 f32: block 96x96x32, {{.*}}: predicted 7048 GFLOP/s
// RATE: select-schedule-classes.mlir:[[@LINE+31]]:3: remark: gemm-select-schedule: hopper-h200 f32: block 96x96x32, {{.*}}: predicted 7066 GFLOP/s

func.func @dynamic_a(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[1, ?], offset: ?>>,
                     %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[1, ?], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}

// -----

// The same problem as @dynamic_a.
func.func @dynamic_b(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32, strided<[1, ?], offset: ?>>,
                     %c: memref<?x?xf32, strided<[?, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[1, ?], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
  return
}

// -----

// The same class as the ops above, with static extents.
func.func @sized(%a: memref<512x512xf32, strided<[512, 1], offset: ?>>, %b: memref<512x512xf32, strided<[1, 512], offset: ?>>,
                 %c: memref<512x512xf32, strided<[512, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<512x512xf32, strided<[512, 1], offset: ?>>, memref<512x512xf32, strided<[1, 512], offset: ?>>, memref<512x512xf32, strided<[512, 1], offset: ?>>, f32
  return
}

// -----

// Another layout: another class, the same schedules that fit.
func.func @other_layout(%a: memref<512x512xf32, strided<[512, 1], offset: ?>>, %b: memref<512x512xf32, strided<[512, 1], offset: ?>>,
                        %c: memref<512x512xf32, strided<[512, 1], offset: ?>>, %alpha: f32, %beta: f32) {
  gemm.matmul %a, %b, %c, %alpha, %beta : memref<512x512xf32, strided<[512, 1], offset: ?>>, memref<512x512xf32, strided<[512, 1], offset: ?>>, memref<512x512xf32, strided<[512, 1], offset: ?>>, f32
  return
}
