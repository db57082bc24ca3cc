/* OpenACC kernels in PolyBench-ACC's style: data regions, a `kernels`
 * region, parallel regions with loop directives, a combined `parallel loop`,
 * `kernels` on a loop, and a routine that compute regions call per
 * iteration (left as written).
 * Each rewrite is compiled only without OpenACC (`#ifndef _OPENACC`): built
 * with gcc as is, the directives are ignored and the launchers compute the
 * products; built with gcc -fopenacc (its host fallback here), the nests
 * are compiled as written, with their directives, and no launcher is
 * called. Both must print what the original prints, built the same way.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %host_cc -std=c99 -O1 -I %S/Inputs %s -lm -o %t/orig && %t/orig > %t/expected
 * RUN: %host_cc -std=c99 -O1 -fopenacc -I %S/Inputs %s -lm -o %t/orig-acc && %t/orig-acc > %t/expected-acc
 * RUN: gemm-opt %s -o %t/host.c --kernels=%t/kernels.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=remark:
 * RUN: %host_cc -std=c99 -Wall -Wno-unknown-pragmas -Werror -O1 -I %S/Inputs -c %t/host.c -o %t/host.o
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t/kernels.cu -o %t/kernels.o
 * RUN: %nvcc -arch=sm_%cuda_arch %t/host.o %t/kernels.o %gemm_runtime_lib -o %t/split
 * RUN: %t/split > %t/actual && %python %S/compare.py %t/expected %t/actual
 * RUN: env GEMM_OPT_DEVICE=cpu %t/split > %t/lifted && %python %S/compare.py %t/expected %t/lifted
 * The OpenACC build of the output refers to no launcher, and gcc outlines
 * the same compute regions from it as from the original.
 * RUN: %host_cc -std=c99 -Wall -Werror -O1 -fopenacc -I %S/Inputs -c %t/host.c -o %t/host-acc.o
 * RUN: nm %t/host-acc.o | not grep gemm_opt
 * RUN: nm %t/orig-acc | grep -o '[a-z_0-9]*\._omp_fn\.[0-9]*' | sort > %t/regions
 * RUN: nm %t/host-acc.o | grep -o '[a-z_0-9]*\._omp_fn\.[0-9]*' | sort | diff %t/regions -
 * RUN: %host_cc -fopenacc %t/host-acc.o -lm -o %t/acc && %t/acc > %t/actual-acc
 * RUN: %python %S/compare.py %t/expected-acc %t/actual-acc
 */
#include "e2e_util_c.h"

#define NI 37
#define NJ 29
#define NK 23
#define NL 31
#define T 6

/* C := alpha*A*B + beta*C, in a `kernels` region of its own. */
static void kernel_gemm(double alpha, double beta, double C[NI][NJ],
                        double A[NI][NK], double B[NK][NJ]) {
  int i, j, k;
#pragma acc data copyin(A[0:NI][0:NK], B[0:NK][0:NJ]) copy(C[0:NI][0:NJ])
#pragma acc kernels
  {
    // CHECK: openacc.c:[[@LINE+1]]:5: remark: GEMM recognised: f64, M x N x K = 37 x 29 x 23; {{.*}}alpha = alpha, beta = beta; builds with OpenACC (_OPENACC) compile the nest as written, with its directives (the first OpenACC directive is at line [[@LINE-3]]); rewritten to call
    for (i = 0; i < NI; i++)
      for (j = 0; j < NJ; j++) {
        C[i][j] *= beta;
        for (k = 0; k < NK; ++k)
          C[i][j] += alpha * A[i][k] * B[k][j];
      }
  }
}

/* D := alpha*A*B*C + beta*D, through tmp, which stays on the device. */
static void kernel_2mm(double alpha, double beta, double tmp[NI][NJ],
                       double A[NI][NK], double B[NK][NJ], double C[NJ][NL],
                       double D[NI][NL]) {
  int i, j, k;
#pragma acc data copyin(A[0:NI][0:NK], B[0:NK][0:NJ], C[0:NJ][0:NL]) \
    create(tmp[0:NI][0:NJ]) copy(D[0:NI][0:NL])
  {
#pragma acc parallel present(tmp, A, B)
    {
#pragma acc loop gang
      // CHECK: openacc.c:[[@LINE+1]]:7: remark: GEMM recognised: f64, M x N x K = 37 x 29 x 23; {{.*}}alpha = alpha, beta = 0; builds with OpenACC
      for (i = 0; i < NI; i++) {
#pragma acc loop worker
        for (j = 0; j < NJ; j++) {
          tmp[i][j] = 0;
#pragma acc loop seq
          for (k = 0; k < NK; ++k)
            tmp[i][j] += alpha * A[i][k] * B[k][j];
        }
      }
    }
#pragma acc parallel present(tmp, C, D)
    {
#pragma acc loop gang
      // CHECK: openacc.c:[[@LINE+1]]:7: remark: GEMM recognised: f64, M x N x K = 37 x 31 x 29; {{.*}}alpha = 1, beta = beta; builds with OpenACC
      for (i = 0; i < NI; i++) {
#pragma acc loop worker
        for (j = 0; j < NL; j++) {
          D[i][j] *= beta;
#pragma acc loop seq
          for (k = 0; k < NJ; ++k)
            D[i][j] += tmp[i][k] * C[k][j];
        }
      }
    }
  }
}

/* C := alpha*A*A' + beta*C over the whole square; the scaling loop shares
 * the region with the product. */
static void kernel_syrk(float alpha, float beta, float C[NI][NI],
                        float A[NI][NK]) {
  int i, j, k;
#pragma acc data copyin(A[0:NI][0:NK]) copy(C[0:NI][0:NI])
  {
#pragma acc parallel
    {
#pragma acc loop
      for (i = 0; i < NI; i++)
#pragma acc loop
        for (j = 0; j < NI; j++)
          C[i][j] *= beta;
#pragma acc loop
      // CHECK: openacc.c:[[@LINE+1]]:7: remark: GEMM recognised: f32, M x N x K = 37 x 37 x 23; {{.*}}alpha = alpha, beta = 1; builds with OpenACC
      for (i = 0; i < NI; i++)
        for (j = 0; j < NI; j++)
#pragma acc loop
          for (k = 0; k < NK; k++)
            C[i][j] += alpha * A[i][k] * A[j][k];
    }
  }
}

/* Directives on the nest's own loop: combined, and `kernels`. */
static void kernel_combined(float E[NI][NL], float F[NI][NL], float A[NI][NK],
                            float B[NK][NL]) {
  int i, j, k;
#pragma acc data copyin(A[0:NI][0:NK], B[0:NK][0:NL]) \
    copy(E[0:NI][0:NL], F[0:NI][0:NL])
  {
#pragma acc parallel loop collapse(2) present(E, A, B)
    // CHECK: openacc.c:[[@LINE+1]]:5: remark: GEMM recognised: f32, M x N x K = 37 x 31 x 23; {{.*}}alpha = 1, beta = 1; builds with OpenACC
    for (i = 0; i < NI; i++)
      for (j = 0; j < NL; j++)
        for (k = 0; k < NK; k++)
          E[i][j] += A[i][k] * B[k][j];
#pragma acc kernels present(F, A, B)
    // CHECK: openacc.c:[[@LINE+1]]:5: remark: GEMM recognised: f32, M x N x K = 37 x 31 x 23; {{.*}}alpha = 2, beta = 0; builds with OpenACC
    for (i = 0; i < NI; i++)
      for (j = 0; j < NL; j++) {
        float s = 0;
        for (k = 0; k < NK; k++)
          s += A[i][k] * B[k][j];
        F[i][j] = 2 * s;
      }
  }
}

/* A small product per tile, called from a compute region. */
#pragma acc routine seq
static void tile_product(const double *a, const double *b, double *c) {
  // CHECK: openacc.c:[[@LINE+1]]:3: remark: loop nest not rewritten: its function is marked '#pragma acc routine' (line [[@LINE-2]])
  for (int i = 0; i < T; ++i)
    for (int j = 0; j < T; ++j)
      for (int k = 0; k < T; ++k)
        c[i * T + j] += a[i * T + k] * b[k * T + j];
}

static void kernel_tiles(int count, const double *a, const double *b,
                         double *c) {
#pragma acc parallel loop copyin(a[0:count*T*T], b[0:T*T]) copy(c[0:count*T*T])
  for (int t = 0; t < count; ++t)
    tile_product(a + t * T * T, b, c + t * T * T);
}

#define RESET(p, count)                                                        \
  for (i = 0; i < (count) + 2 * GUARD; ++i)                                    \
    p[i] = -7;

int main(void) {
  long i;
  double *A = malloc(sizeof(double) * NI * NK), *B = malloc(sizeof(double) * NK * NJ);
  double *Cm = malloc(sizeof(double) * NJ * NL), *tmp = malloc(sizeof(double) * NI * NJ);
  double *C = malloc(sizeof(double) * (NI * NJ + 2 * GUARD));
  double *D = malloc(sizeof(double) * (NI * NL + 2 * GUARD));
  float *Af = malloc(sizeof(float) * NI * NK), *Bf = malloc(sizeof(float) * NK * NL);
  float *S = malloc(sizeof(float) * (NI * NI + 2 * GUARD));
  float *E = malloc(sizeof(float) * (NI * NL + 2 * GUARD));
  float *F = malloc(sizeof(float) * (NI * NL + 2 * GUARD));
  double *ta = malloc(sizeof(double) * 4 * T * T), *tb = malloc(sizeof(double) * T * T);
  double *tc = malloc(sizeof(double) * (4 * T * T + 2 * GUARD));
  fill_d(A, NI * NK, 1);
  fill_d(B, NK * NJ, 2);
  fill_d(Cm, NJ * NL, 3);
  fill_f(Af, NI * NK, 4);
  fill_f(Bf, NK * NL, 5);
  fill_d(ta, 4 * T * T, 6);
  fill_d(tb, T * T, 7);

  RESET(C, NI * NJ)
  fill_d(C + GUARD, NI * NJ, 8);
  double c0 = norm_d(C + GUARD, NI * NJ);
  kernel_gemm(1.5, 0.5, (double(*)[NJ])(C + GUARD), (double(*)[NK])A,
              (double(*)[NJ])B);
  show_d("gemm", NK, 1.5 * norm_d(A, NI * NK) * norm_d(B, NK * NJ) + 0.5 * c0,
         C, NI * NJ);

  RESET(D, NI * NL)
  fill_d(D + GUARD, NI * NL, 9);
  double d0 = norm_d(D + GUARD, NI * NL);
  kernel_2mm(1.5, 0.5, (double(*)[NJ])tmp, (double(*)[NK])A, (double(*)[NJ])B,
             (double(*)[NL])Cm, (double(*)[NL])(D + GUARD));
  show_d("2mm", NK * NJ,
         1.5 * norm_d(A, NI * NK) * norm_d(B, NK * NJ) * norm_d(Cm, NJ * NL) +
             0.5 * d0,
         D, NI * NL);

  RESET(S, NI * NI)
  fill_f(S + GUARD, NI * NI, 10);
  double s0 = norm_f(S + GUARD, NI * NI);
  kernel_syrk(1.5f, 0.5f, (float(*)[NI])(S + GUARD), (float(*)[NK])Af);
  show_f("syrk", NK, 1.5 * norm_f(Af, NI * NK) * norm_f(Af, NI * NK) + 0.5 * s0,
         S, NI * NI);

  RESET(E, NI * NL)
  RESET(F, NI * NL)
  fill_f(E + GUARD, NI * NL, 11);
  double e0 = norm_f(E + GUARD, NI * NL);
  kernel_combined((float(*)[NL])(E + GUARD), (float(*)[NL])(F + GUARD),
                  (float(*)[NK])Af, (float(*)[NL])Bf);
  show_f("combined", NK, norm_f(Af, NI * NK) * norm_f(Bf, NK * NL) + e0, E,
         NI * NL);
  show_f("kernels", NK, 2 * norm_f(Af, NI * NK) * norm_f(Bf, NK * NL), F,
         NI * NL);

  RESET(tc, 4 * T * T)
  fill_d(tc + GUARD, 4 * T * T, 12);
  double t0 = norm_d(tc + GUARD, 4 * T * T);
  kernel_tiles(4, ta, tb, tc + GUARD);
  show_d("tiles", T, norm_d(ta, 4 * T * T) * norm_d(tb, T * T) + t0, tc,
         4 * T * T);
  return 0;
}
