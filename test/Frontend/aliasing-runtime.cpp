// Operands that may alias but are not provably the same buffer are rewritten:
// the launcher gets the original pointers and the runtime compares the byte
// spans of C, A and B before launching, running the original loop when they
// overlap. Only the same buffer named as C and as an input is rejected at
// compile time (reject-aliasing.cpp).
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT

// OUT: #line 1 "{{.*}}aliasing-runtime.cpp"

// No const, no __restrict: a caller may pass C == A.
void mayAlias(int n, double *A, double *B, double *C) {
  // REMARK: :[[@LINE+4]]:3: remark: GEMM recognised: f64, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT:      {{^}}  if (!gemm_opt_nest_0(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 1)) {
  // OUT-NEXT: {{^}}#line [[@LINE+2]] "{{.*}}aliasing-runtime.cpp"
  // OUT-NEXT: {{^}}  for (int i = 0; i < n; ++i)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

// Pointers into one allocation, disjoint or not depending on `off`.
void sameAllocation(int n, long off, float *buf) {
  float *A = buf, *C = buf + off;
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B column-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(A, n, n, n, 1, A, n, n, 1, n, C, n, n, n, 1, 1, 1)) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * A[j * n + k];
}

// OUT-NOT: gemm_opt_nest_{{[2-9]}}
