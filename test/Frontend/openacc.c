// A file with OpenACC directives, parsed with and without -fopenacc (clang
// drops `#pragma acc` without it; gemm-opt reads the directives from the
// text, so both parses give the same remarks and the same output). A build
// without OpenACC ignores the directives, its data regions are no-ops and
// the launcher is right; a build with OpenACC keeps device copies of the
// arrays, whose copy-out would overwrite a launcher's result. So every
// rewrite in such a translation unit is compiled only where `_OPENACC` is
// not defined (every OpenACC compiler defines it), and the `#else` branch
// holds the nest as written, with the directives above it still on its
// loop. A function marked `acc routine` is device code that compute regions
// call per iteration: its nests are left as written.
//
// RUN: rm -rf %t && mkdir -p %t/Inputs && cp %S/Inputs/acc-host.h %t/Inputs/ && cp %s %t/main.c
// RUN: cd %t && gemm-opt main.c -o out.c --kernels=k.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: cd %t && gemm-opt main.c -o acc.c --kernels=k.cu -- -fopenacc 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t/out.c | FileCheck %s --check-prefix=OUT
// RUN: diff %t/out.c %t/acc.c

// CHECK: acc-host.h:4:3: remark: GEMM recognised: f32, {{.*}}; builds with OpenACC (_OPENACC) compile the nest as written, with its directives (the first OpenACC directive is at line [[#ACC:@LINE+15]] of {{.*}}main.c); rewritten to call gemm_opt_{{.*}}nest_0 [-Rpass=gemm]
// OUT: {{^}}#line 1 "Inputs/acc-host.h"
// OUT: {{^}}#ifndef _OPENACC
// OUT-NEXT: {{^}}#line 4 "Inputs/acc-host.h"
// OUT-NEXT: {{^}}  if (!gemm_opt_{{.*}}nest_0({{.*}})) {
// OUT: {{^}}#else
// OUT-NEXT: {{^}}#line 4 "Inputs/acc-host.h"
// OUT-NEXT: {{^}}  for (int i = 0; i < n; ++i)
#include "Inputs/acc-host.h"

/* PolyBench-ACC's style: a data region, a parallel region, loop directives
 * on the nest's outer loops. */
void gemm_acc(int ni, int nj, int nk, double alpha, double beta,
              double C[ni][nj], double A[ni][nk], double B[nk][nj]) {
  int i, j, k;
#pragma acc data copyin(A, B) copy(C)
  {
#pragma acc parallel
    {
      /* C := alpha*A*B + beta*C */
      // OUT: {{^}}void gemm_acc(
      // OUT: {{^}}      /* C := alpha*A*B + beta*C */
      // OUT-NEXT: {{^}}#ifndef _OPENACC
      // OUT-NEXT: {{^}}#line [[#LOOP1:@LINE+14]] "main.c"
      // OUT-NEXT: {{^}}      if (!gemm_opt_{{.*}}nest_1({{.*}})) {
      // OUT-NEXT: {{^}}#line [[#LOOP1]] "main.c"
      // OUT-NEXT: {{^}}      #pragma acc loop
      // OUT-NEXT: {{^}}      for (i = 0; i < ni; i++)
      // OUT:      {{^}}            C[i][j] += alpha * A[i][k] * B[k][j];
      // OUT-NEXT: {{^}}        } }
      // OUT-NEXT: {{^}}#else
      // OUT-NEXT: {{^}}#line [[#LOOP1]] "main.c"
      // OUT-NEXT: {{^}}      #pragma acc loop
      // OUT-NEXT: {{^}}      for (i = 0; i < ni; i++)
      // OUT:      {{^}}        }
      // OUT-NEXT: {{^}}#endif
      // OUT-NEXT: {{^}}#line [[@LINE+9]] "main.c"
      #pragma acc loop
      // CHECK: main.c:[[@LINE+1]]:7: remark: GEMM recognised: f64, {{.*}} beta = beta; builds with OpenACC (_OPENACC) compile the nest as written, with its directives (the first OpenACC directive is at line [[#ACC]]); rewritten to call gemm_opt_{{.*}}nest_1 [-Rpass=gemm]
      for (i = 0; i < ni; i++)
        #pragma acc loop
        for (j = 0; j < nj; j++) {
          C[i][j] *= beta;
          for (k = 0; k < nk; ++k)
            C[i][j] += alpha * A[i][k] * B[k][j];
        }
    }
  }
}

/* A region whose loop nest is not all of it (PolyBench-ACC's syrk: the
 * scaling loop first), a combined `parallel loop`, and `kernels` on a loop:
 * each directive stays on its loop in the OpenACC branch. */
void regions(int n, float alpha, float beta, float C[n][n], float A[n][n],
             float B[n][n]) {
  int i, j, k;
#pragma acc data copyin(A, B) copy(C)
  {
#pragma acc parallel
    {
#pragma acc loop
      for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
          C[i][j] *= beta;
#pragma acc loop
      // CHECK: main.c:[[@LINE+1]]:7: remark: GEMM recognised: f32, {{.*}} alpha = alpha, beta = 1; builds with OpenACC {{.*}}; rewritten to call gemm_opt_{{.*}}nest_2 [-Rpass=gemm]
      for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
#pragma acc loop seq
          for (k = 0; k < n; k++)
            C[i][j] += alpha * A[i][k] * A[j][k];
    }
    // OUT: {{^}}            C[i][j] += alpha * A[i][k] * A[j][k];
    // OUT: {{^}}#endif
    // OUT: {{^}}#ifndef _OPENACC
    // OUT-NEXT: {{^}}#line [[#LOOP3:@LINE+10]] "main.c"
    // OUT-NEXT: {{^}}if (!gemm_opt_{{.*}}nest_3({{.*}})) {
    // OUT-NEXT: {{^}}#line [[#LOOP3]] "main.c"
    // OUT-NEXT: {{^}}#pragma acc parallel loop collapse(2) present(A, B, C)
    // OUT:      {{^}}#else
    // OUT-NEXT: {{^}}#line [[#LOOP3]] "main.c"
    // OUT-NEXT: {{^}}#pragma acc parallel loop collapse(2) present(A, B, C)
    // OUT-NEXT: {{^}}    for (i = 0; i < n; i++)
    // OUT:      {{^}}#endif
    // OUT-NEXT: {{^}}#line [[@LINE+6]] "main.c"
#pragma acc parallel loop collapse(2) present(A, B, C)
    // CHECK: main.c:[[@LINE+1]]:5: remark: GEMM recognised: f32, {{.*}}; rewritten to call gemm_opt_{{.*}}nest_3 [-Rpass=gemm]
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        for (k = 0; k < n; k++)
          C[i][j] += A[i][k] * B[k][j];
    // OUT: {{^}}#ifndef _OPENACC
    // OUT-NEXT: {{^}}#line [[#LOOP4:@LINE+9]] "main.c"
    // OUT-NEXT: {{^}}if (!gemm_opt_{{.*}}nest_4({{.*}})) {
    // OUT-NEXT: {{^}}#line [[#LOOP4]] "main.c"
    // OUT-NEXT: {{^}}#pragma acc kernels
    // OUT:      {{^}}#else
    // OUT-NEXT: {{^}}#line [[#LOOP4]] "main.c"
    // OUT-NEXT: {{^}}#pragma acc kernels
    // OUT-NEXT: {{^}}    for (i = 0; i < n; i++)
    // OUT:      {{^}}#endif
#pragma acc kernels
    // CHECK: main.c:[[@LINE+1]]:5: remark: GEMM recognised: f32, {{.*}}; rewritten to call gemm_opt_{{.*}}nest_4 [-Rpass=gemm]
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        for (k = 0; k < n; k++)
          C[i][j] += A[i][k] * B[k][j];
    hostProduct(n, &A[0][0], &B[0][0], &C[0][0]);
  }
}

/* Device code: compute regions call it for iterations of their loops. */
#pragma acc routine seq
static void tile(int n, const double *A, const double *B, double *C) {
  // CHECK: main.c:[[@LINE+1]]:3: remark: loop nest not rewritten: its function is marked '#pragma acc routine' (line [[@LINE-2]]): it is device code, which OpenACC compute regions call for iterations of their loops, so a launcher would launch the whole product once per iteration [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

static void named(int n, const float *A, const float *B, float *C);
#pragma acc routine(named) vector
static void named(int n, const float *A, const float *B, float *C) {
  // CHECK: main.c:[[@LINE+1]]:3: remark: loop nest not rewritten: its function is marked '#pragma acc routine' (line [[@LINE-2]])
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

void tiles(int count, int n, const double *A, const double *B, double *C,
           const float *X, const float *Y, float *Z) {
#pragma acc parallel loop copyin(A[0:count*n*n], B[0:n*n]) copy(C[0:count*n*n])
  for (int t = 0; t < count; ++t)
    tile(n, A + t * n * n, B, C + t * n * n);
  named(n, X, Y, Z);
}
