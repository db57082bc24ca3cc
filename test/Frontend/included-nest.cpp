// A nest whose text is in a user file that the main file #includes, itself
// or through another header, is rewritten in a copy of that file, which the
// output holds in place of the #include line (in a copy of the header that
// includes it), between #line directives: a header's own function, and a
// body stamped out per element type (one copy per #include, each read with
// the macros of its site). A copy names the files that its original found
// with quotes in its own directory by the path its original was found by. The files
// themselves are never written. Where a copy would read differently, the
// nest is left as written and the remark says how to get it rewritten.
//
// RUN: rm -rf %t && mkdir -p %t && cp -r %S/Inputs %t/ && cp %s %t/main.cpp
// RUN: cd %t && gemm-opt main.cpp --reference-kernel -o out.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: diff -r %S/Inputs %t/Inputs
// RUN: FileCheck --check-prefix=OUT %s < %t/out.cu
//
// CHECK: matmul-header.h:5:3: remark: GEMM recognised: f32, {{.*}}; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
// CHECK: matmul-header.h:12:3: remark: GEMM recognised: f32, {{.*}} (gemm-opt instantiated it for float and double, which the file does not; instantiations of other types run the nest as written); rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
// CHECK: inner.h:3:3: remark: GEMM recognised: f32, {{.*}}; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
// CHECK: once.h:4:3: remark: GEMM recognised: f64, {{.*}}; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
// CHECK: once-again.h:4:3: remark: loop nest not rewritten: its text is in 'Inputs/included/once-again.h', which has '#pragma once' and is included again; in a copy in the main file the pragma would not keep the file from being read twice (to rewrite it, {{.*}}) [-Rpass-missed=gemm]
// CHECK: quoted.h:4:3: remark: GEMM recognised: f32, {{.*}}; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
// CHECK: next.h:4:3: remark: loop nest not rewritten: its text is in 'Inputs/included/next.h', which has an '#include_next'; a copy in the main file would search other directories (to rewrite it, {{.*}}) [-Rpass-missed=gemm]
// CHECK: macro-inner.h:3:3: remark: loop nest not rewritten: its text is in 'Inputs/included/macro-inner.h', included by way of 'Inputs/included/macro-outer.h', which includes 'helper.h' with quotes from its own directory, by a name that a macro spells, which a copy in the main file cannot rename (to rewrite it, {{.*}}) [-Rpass-missed=gemm]
// CHECK: nest-body.h:3:3: remark: GEMM recognised: f32, {{.*}}; rewritten to call gemm_opt_nest_5 [-Rpass=gemm]
// CHECK: nest-body.h:3:3: remark: GEMM recognised: f64, {{.*}}; rewritten to call gemm_opt_nest_6 [-Rpass=gemm]
//
// OUT: {{^}}#line 1 "main.cpp"
// OUT: {{^}}// gemm-opt: #include "Inputs/matmul-header.h", its text with its nests rewritten
// OUT-NEXT: {{^}}#line 1 "Inputs/matmul-header.h"
// OUT: {{^}}  if (!gemm_opt_nest_0(a, n, n, n, 1, b, n, n, n, 1, c, n, n, n, 1, 1, 1)) {
// OUT-NEXT: {{^}}#line 5 "Inputs/matmul-header.h"
// OUT: {{^}}template <class T> void headerTemplate
// OUT: {{^}}#line [[#INCLUDE:]] "main.cpp"
// OUT-NEXT: {{^}}// gemm-opt: #include "Inputs/included/outer.h", its text with its nests rewritten
// OUT-NEXT: {{^}}#line 1 "Inputs/included/outer.h"
// OUT-NEXT: {{^}}// A header that includes another (inner.h) with a nest.
// OUT-NEXT: {{^}}// gemm-opt: #include "inner.h", its text with its nests rewritten
// OUT-NEXT: {{^}}#line 1 "Inputs/included/inner.h"
// OUT: {{^}}  if (!gemm_opt_nest_2(a, n, n, n, 1, b, n, n, n, 1, c, n, n, n, 1, 1, 1)) {
// OUT: {{^}}#line 3 "Inputs/included/outer.h"
// OUT-NEXT: {{^}}#line [[#INCLUDE+1]] "main.cpp"
// OUT-NEXT: {{^}}// gemm-opt: #include "Inputs/included/once.h", its text with its nests rewritten
// OUT-NEXT: {{^}}#line 1 "Inputs/included/once.h"
// OUT-NEXT: {{^}}            {{$}}
// OUT: {{^}}#line [[#INCLUDE+2]] "main.cpp"
// OUT-NEXT: {{^}}#include "Inputs/included/once-again.h"
// OUT-NEXT: {{^}}#include "Inputs/included/again.h"
// OUT-NEXT: {{^}}// gemm-opt: #include "Inputs/included/other/quoted.h", its text with its nests rewritten
// OUT-NEXT: {{^}}#line 1 "Inputs/included/other/quoted.h"
// OUT-NEXT: {{^}}// Found from its own directory, not the main file's, by its quoted include.
// OUT-NEXT: {{^}}#include "Inputs/included/other/helper.h"
// OUT: {{^}}#line [[#INCLUDE+5]] "main.cpp"
// OUT-NEXT: {{^}}#include "Inputs/included/next.h"
// OUT-NEXT: {{^}}#include "Inputs/included/macro-outer.h"
// OUT: {{^}}void sgemm(
// OUT-NEXT: {{^}}// gemm-opt: #include "Inputs/nest-body.h", its text with its nests rewritten
// OUT: {{^}}  if (!gemm_opt_nest_5(a, m, k, k, 1, b, k, n, n, 1, c, m, n, n, 1, 1, 1)) {
// OUT: {{^}}void dgemm(
// OUT: {{^}}  if (!gemm_opt_nest_6(a, m, k, k, 1, b, k, n, n, 1, c, m, n, n, 1, 1, 1)) {

#include "Inputs/matmul-header.h"
#include "Inputs/included/outer.h"
#include "Inputs/included/once.h"
#include "Inputs/included/once-again.h"
#include "Inputs/included/again.h"
#include "Inputs/included/other/quoted.h"
#include "Inputs/included/next.h"
#include "Inputs/included/macro-outer.h"

void sgemm(int m, int n, int k, const float *a, const float *b, float *c) {
#include "Inputs/nest-body.h"
}

void dgemm(int m, int n, int k, const double *a, const double *b,
           double *c) {
#include "Inputs/nest-body.h"
}
