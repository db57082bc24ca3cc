// Induction variables and accumulators declared before the nest keep their
// last values in the original loop but not in the rewrite, so the nest is
// rewritten only when nothing reads them afterwards. A later loop that starts
// by assigning the variable (C89 style: `int i, j, k;` shared by two nests)
// does not read the old value.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT

#include <cstdio>

double A[64][64], B[64][64], C[64][64], D[64][64], E[64][64];

// OUT: #line 1 "{{.*}}live-induction-variable.cpp"

void twoNests() {
  int i, j, k;
  // REMARK: :[[@LINE+4]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 64 x 64; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT:      {{^}}  if (!gemm_opt_nest_0(&A[0][0], 64, 64, 64, 1, &B[0][0], 64, 64, 64, 1, &C[0][0], 64, 64, 64, 1, 1, 1)) {
  // OUT-NEXT: {{^}}#line [[@LINE+2]] "{{.*}}live-induction-variable.cpp"
  // OUT-NEXT: {{^}}  for (i = 0; i < 64; i++)
  for (i = 0; i < 64; i++)
    for (j = 0; j < 64; j++)
      for (k = 0; k < 64; k++)
        C[i][j] += A[i][k] * B[k][j];
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 64 x 64; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(&C[0][0], 64, 64, 64, 1, &D[0][0], 64, 64, 64, 1, &E[0][0], 64, 64, 64, 1, 1, 1)) {
  for (i = 0; i < 64; i++)
    for (j = 0; j < 64; j++)
      for (k = 0; k < 64; k++)
        E[i][j] += C[i][k] * D[k][j];
  // A 2-deep loop that redefines i and j first.
  for (i = 0; i < 64; i++)
    for (j = 0; j < 64; j++)
      std::printf("%f\n", E[i][j]);
}

// OUT-NOT: gemm_opt_nest_{{[2-9]}}

int usedAfter() {
  int i, j, k;
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'i' is declared outside the nest, assigned in it and used elsewhere; the rewrite would not update it [-Rpass-missed=gemm]
  for (i = 0; i < 64; i++)
    for (j = 0; j < 64; j++)
      for (k = 0; k < 64; k++)
        C[i][j] += A[i][k] * B[k][j];
  return i;
}

void readByNextLoopHeader() {
  int i, j, k;
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'k' is declared outside the nest, assigned in it and used elsewhere; the rewrite would not update it [-Rpass-missed=gemm]
  for (i = 0; i < 64; i++)
    for (j = 0; j < 64; j++)
      for (k = 0; k < 64; k++)
        C[i][j] += A[i][k] * B[k][j];
  for (k = k - 1; k >= 0; k--)
    std::printf("%f\n", C[k][k]);
}

// Read before the nest, but in the next iteration of an enclosing loop.
void readBeforeInLoop(int steps) {
  int i = 0, j, k;
  for (int t = 0; t < steps; ++t) {
    std::printf("%d\n", i);
    // REMARK: :[[@LINE+1]]:5: remark: loop nest not rewritten: 'i' is declared outside the nest, assigned in it and used elsewhere; the rewrite would not update it [-Rpass-missed=gemm]
    for (i = 0; i < 64; i++)
      for (j = 0; j < 64; j++)
        for (k = 0; k < 64; k++)
          C[i][j] += A[i][k] * B[k][j];
  }
}
