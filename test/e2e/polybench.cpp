// PolyBench-style kernels: global 2-D arrays, a fused beta-scaling loop
// (gemm), and a chain of two products with a fused zero-init (2mm).
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The lifted problems, computed on the CPU (GEMM_OPT_DEVICE=cpu), must agree too.
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
// CHECK-COUNT-3: [-Rpass=gemm]
#include "e2e_util.h"

#define NI 67
#define NJ 45
#define NK 33
#define NL 29

static double A[NI][NK], B[NK][NJ], C[NI][NJ], D[NJ][NL], E[NI][NL];

static void kernel_gemm(int ni, int nj, int nk, double alpha, double beta) {
  int i, j, k;
  for (i = 0; i < ni; i++) {
    for (j = 0; j < nj; j++)
      C[i][j] *= beta;
    for (k = 0; k < nk; k++)
      for (j = 0; j < nj; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
}

int main() {
  fillRandom(&A[0][0], NI * NK, 1);
  fillRandom(&B[0][0], NK * NJ, 2);
  fillRandom(&C[0][0], NI * NJ, 3);
  fillRandom(&D[0][0], NJ * NL, 4);
  double alpha = 1.5, beta = -0.75;
  double scale = 1.5 * frobenius(&A[0][0], NI * NK) * frobenius(&B[0][0], NK * NJ) +
                 0.75 * frobenius(&C[0][0], NI * NJ);
  kernel_gemm(NI, NJ, NK, alpha, beta);
  printMatrix("gemm", NK, scale, &C[0][0], NI, NJ, NJ, 1);

  // 2mm's second product, E = C * D, with the init fused as a statement.
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NL; j++) {
      E[i][j] = 0.0;
      for (int k = 0; k < NJ; ++k)
        E[i][j] += C[i][k] * D[k][j];
    }
  printMatrix("2mm", NJ, frobenius(&C[0][0], NI * NJ) * frobenius(&D[0][0], NJ * NL),
              &E[0][0], NI, NL, NL, 1);

  // The same product in k-i-j order into a transposed view of E.
  static double Et[NL][NI];
  for (int i = 0; i < NL; i++)
    for (int j = 0; j < NI; j++)
      Et[i][j] = 0.0;
  for (int k = 0; k < NJ; k++)
    for (int i = 0; i < NI; i++)
      for (int j = 0; j < NL; j++)
        Et[j][i] += C[i][k] * D[k][j];
  printMatrix("2mm-transposed", NJ, frobenius(&C[0][0], NI * NJ) * frobenius(&D[0][0], NJ * NL),
              &Et[0][0], NL, NI, NI, 1);
  return 0;
}
