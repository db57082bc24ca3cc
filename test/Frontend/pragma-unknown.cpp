// A `#pragma gemm_opt` that gemm-opt does not know, or an `off` that reaches
// no nest, is a warning at its location, never dropped in silence: the nests
// it was meant for are rewritten as usual, and the remarks say so.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:

void misspelled(int n, const float *A, const float *B, float *C) {
  // CHECK-DAG: :[[@LINE+1]]:18: warning: unknown '#pragma gemm_opt' directive 'of'; expected 'off', 'on' or 'precision(...)'; the pragma is ignored
#pragma gemm_opt of
  // CHECK-DAG: :[[@LINE+1]]:3: remark: GEMM recognised: {{.*}} rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

void empty(int n, const float *A, const float *B, float *C) {
  // CHECK-DAG: :[[@LINE+1]]:9: warning: unknown '#pragma gemm_opt' directive; expected 'off', 'on' or 'precision(...)'; the pragma is ignored
#pragma gemm_opt
  // CHECK-DAG: :[[@LINE+1]]:3: remark: GEMM recognised: {{.*}} rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

// Code between the pragma and the nest: the pragma reaches no nest.
void separated(int n, const float *A, const float *B, float *C) {
  // CHECK-DAG: :[[@LINE+1]]:1: warning: '#pragma gemm_opt off' has no effect: no loop nest that gemm-opt considers follows it (only comments, blank lines and other pragmas may stand between)
#pragma gemm_opt off
  C[0] = 0;
  // CHECK-DAG: :[[@LINE+1]]:3: remark: GEMM recognised: {{.*}} rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

// Extra words after `off`: it still applies, with a warning.
void extra(int n, const float *A, const float *B, float *C) {
  // CHECK-DAG: :[[@LINE+2]]:22: warning: extra tokens after '#pragma gemm_opt off' are ignored
  // CHECK-DAG: :[[@LINE+2]]:3: remark: loop nest not rewritten: '#pragma gemm_opt off' asks to leave it as written
#pragma gemm_opt off please
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}
