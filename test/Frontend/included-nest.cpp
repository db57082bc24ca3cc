// A nest whose text is in an included file (a C library's way to stamp out
// sgemm and dgemm from one body) is left as written, with a remark per
// inclusion: only the main file is edited, so the output is the input. So
// is a nest of a function that a header defines, instantiated or not.
//
// RUN: gemm-opt %s --reference-kernel -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: sed -n '/^#line 1 /,$p' %t.cu | tail -n +2 | diff - %s
//
// CHECK: matmul-header.h:5:3: remark: loop nest not rewritten: its text is in '{{.*}}matmul-header.h', an included file; gemm-opt rewrites only the main file [-Rpass-missed=gemm]
// CHECK: matmul-header.h:12:3: remark: loop nest not rewritten: its text is in '{{.*}}matmul-header.h', an included file; gemm-opt rewrites only the main file [-Rpass-missed=gemm]
// CHECK: nest-body.h:3:3: remark: loop nest not rewritten: its text is in '{{.*}}nest-body.h', an included file; gemm-opt rewrites only the main file [-Rpass-missed=gemm]
// CHECK: nest-body.h:3:3: remark: loop nest not rewritten: its text is in '{{.*}}nest-body.h', an included file; gemm-opt rewrites only the main file [-Rpass-missed=gemm]

#include "Inputs/matmul-header.h"

void sgemm(int m, int n, int k, const float *a, const float *b, float *c) {
#include "Inputs/nest-body.h"
}

void dgemm(int m, int n, int k, const double *a, const double *b,
           double *c) {
#include "Inputs/nest-body.h"
}
