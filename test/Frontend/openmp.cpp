// OpenMP and loop pragmas on the nest's loops, parsed without and with
// -fopenmp (where they become directives wrapping the loops). Both runs give
// the same remarks and the same output: the guard goes above the pragma lines
// of the outermost loop, which stay with the original nest, and a directive on
// an inner loop stays inside it.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s -o %t.omp.cu -- -fopenmp 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.omp.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir -- -fopenmp 2>/dev/null | FileCheck %s --check-prefix=MLIR

// OUT: #line 1 "{{.*}}openmp.cpp"

void outer(int n, const double *A, const double *B, double *C) {
  // REMARK: :[[@LINE+6]]:3: remark: GEMM recognised: f64, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT:      {{^}}  if (!gemm_opt_nest_0(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 1)) {
  // OUT-NEXT: {{^}}#line [[@LINE+3]] "{{.*}}openmp.cpp"
  // OUT-NEXT: {{^}}  #pragma omp parallel for
  // OUT-NEXT: {{^}}  for (int i = 0; i < n; ++i)
  #pragma omp parallel for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
  // OUT-NEXT: {{^}}    for (int j = 0; j < n; ++j)
  // OUT-NEXT: {{^}}      for (int k = 0; k < n; ++k)
  // OUT-NEXT: {{^}}        C[i * n + j] += A[i * n + k] * B[k * n + j]; }
}

// A pragma in column 0 with clauses, and a simd reduction on the K loop.
void collapse(int n, const float *A, const float *B, float *C) {
  // REMARK: :[[@LINE+6]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT:      {{^}}if (!gemm_opt_nest_1(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 0)) {
  // OUT-NEXT: {{^}}#line [[@LINE+3]] "{{.*}}openmp.cpp"
  // OUT-NEXT: {{^}}#pragma omp parallel for collapse(2) schedule(static)
  // OUT-NEXT: {{^}}  for (int i = 0; i < n; ++i)
#pragma omp parallel for collapse(2) schedule(static)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
#pragma omp simd reduction(+ : s)
      for (int k = 0; k < n; ++k)
        s += A[i * n + k] * B[k * n + j];
      C[i * n + j] = s;
    }
  // OUT-NEXT: {{^}}    for (int j = 0; j < n; ++j) {
  // OUT-NEXT: {{^}}      float s = 0;
  // OUT-NEXT: {{^}}#pragma omp simd reduction(+ : s)
  // OUT-NEXT: {{^}}      for (int k = 0; k < n; ++k)
  // OUT-NEXT: {{^}}        s += A[i * n + k] * B[k * n + j];
  // OUT-NEXT: {{^}}      C[i * n + j] = s;
  // OUT-NEXT: {{^}}    } }
}

// Directives on inner loops: the nest still ends with the innermost
// statement, not with the pragma line.
void inner(int n, const double *A, const double *B, double *C) {
  // REMARK: :[[@LINE+4]]:3: remark: GEMM recognised: f64, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT:      {{^}}  if (!gemm_opt_nest_2(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 1)) {
  // OUT-NEXT: {{^}}#line [[@LINE+2]] "{{.*}}openmp.cpp"
  // OUT-NEXT: {{^}}  for (int i = 0; i < n; ++i)
  for (int i = 0; i < n; ++i)
    #pragma omp parallel for
    for (int k = 0; k < n; ++k)
      #pragma clang loop vectorize(enable)
      for (int j = 0; j < n; ++j)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
  // OUT-NEXT: {{^}}    #pragma omp parallel for
  // OUT-NEXT: {{^}}    for (int k = 0; k < n; ++k)
  // OUT-NEXT: {{^}}      #pragma clang loop vectorize(enable)
  // OUT-NEXT: {{^}}      for (int j = 0; j < n; ++j)
  // OUT-NEXT: {{^}}        C[i * n + j] += A[i * n + k] * B[k * n + j]; }
  // OUT-NEXT: {{^}}}
}

// Two pragma lines on the outermost loop, the second one not OpenMP.
void stacked(int n, const double *A, const double *B, double *C) {
  // REMARK: :[[@LINE+7]]:3: remark: GEMM recognised: f64, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // OUT:      {{^}}  if (!gemm_opt_nest_3(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 1)) {
  // OUT-NEXT: {{^}}#line [[@LINE+3]] "{{.*}}openmp.cpp"
  // OUT-NEXT: {{^}}  #pragma omp parallel for
  // OUT-NEXT: {{^}}  #pragma unroll 2
  #pragma omp parallel for
  #pragma unroll 2
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

// OUT-NOT: gemm_opt_nest_{{[4-9]}}

// MLIR: func.func @gemm_opt_nest_0(%arg0: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg2: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR: func.func @gemm_opt_nest_1(%arg0: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg2: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg3: f32, %arg4: f32)
// MLIR: func.func @gemm_opt_nest_2(%arg0: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg2: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR: func.func @gemm_opt_nest_3(%arg0: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg2: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR-NOT: func.func
