// `#pragma gemm_opt off` on the lines just above a nest (among its other
// pragmas) leaves it as written, with a remark that says so; the nests
// around it are rewritten as usual.
//
// RUN: gemm-opt %s -o %t.cu --reference-kernel 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT

void kept(int n, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+2]]:3: remark: loop nest not rewritten: '#pragma gemm_opt off' asks to leave it as written [-Rpass-missed=gemm]
#pragma gemm_opt off
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

void keptWithOpenMP(int n, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+3]]:3: remark: loop nest not rewritten: '#pragma gemm_opt off'
#pragma	gemm_opt	off
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

void rewritten(int n, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+2]]:3: remark: GEMM recognised: {{.*}} rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
#pragma gemm_opt on
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

// OUT-NOT: if (!gemm_opt_nest_{{[1-9]}}(
// OUT: void rewritten(
// OUT-NEXT: if (!gemm_opt_nest_0(
// OUT-NOT: gemm_opt_nest_

// The pragma applies to the next nest across comments and blank lines.
void keptAcrossComments(int n, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+5]]:3: remark: loop nest not rewritten: '#pragma gemm_opt off' asks to leave it as written [-Rpass-missed=gemm]
#pragma gemm_opt off

  // the reference product, kept on the CPU
  /* for comparison */
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}
