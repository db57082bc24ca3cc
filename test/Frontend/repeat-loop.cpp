// A loop around a GEMM that indexes none of its operands (a repeat or time
// loop) is no GEMM dimension. The finder peels it and tries the nests inside:
// each gets the remark at its own `for`, the outer loop gets none, and the
// guard goes inside the outer loop.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

#include <cstdio>

// OUT: #line 1 "{{.*}}repeat-loop.cpp"

void repeat(int reps, int n, const float *A, const float *B, float *C) {
  // OUT:      {{^}}  for (int r = 0; r < reps; ++r)
  // OUT-NEXT: {{^}}    if (!gemm_opt_nest_0(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 1)) {
  // OUT-NEXT: {{^}}#line [[@LINE+4]] "{{.*}}repeat-loop.cpp"
  // OUT-NEXT: {{^}}    for (int i = 0; i < n; ++i)
  for (int r = 0; r < reps; ++r)
    // REMARK: :[[@LINE+1]]:5: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
          C[i * n + j] += A[i * n + k] * B[k * n + j];
}

// The outer loop's own statements (a call) do not stop the nests inside, and
// the time step may shift an operand.
void timeSteps(int steps, int n, const float *A, const float *B, float *C,
               float *D) {
  for (int t = 0; t < steps; ++t) {
    std::printf("step %d\n", t);
    // REMARK: :[[@LINE+2]]:5: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
    // OUT: {{^}}    if (!gemm_opt_nest_1(A, n, n, n, 1, B + t, n, n, n, 1, C, n, n, n, 1, 1, 1)) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
          C[i * n + j] += A[i * n + k] * B[k * n + j + t];
    // REMARK: :[[@LINE+2]]:5: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
    // OUT: {{^}}    if (!gemm_opt_nest_2(A, n, n, n, 1, C, n, n, n, 1, D, n, n, n, 1, 1, 1)) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
          D[i * n + j] += A[i * n + k] * C[k * n + j];
  }
}

// A statement inside an inner loop (an array declared there, Rodinia's LU
// blocks) keeps the outer nest from being one product, not the nests
// beside it: each of those is a candidate of its own (inner 3-deep nests
// only). The product in the loops over r and q is in no such nest, so the
// outer loop gets a remark of its own for it.
void besideObstacle(int steps, int n, const float *A, const float *B,
                    float *C, float *w) {
  // REMARK-DAG: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'tmp' is written besides the accumulation into C (only a zero-init, a scaling of C, a bias element or a step of the sum may be fused) [-Rpass-missed=gemm]
  for (int t = 0; t < steps; ++t) {
    for (int r = 0; r < n; ++r) {
      float tmp[16];
      for (int q = 0; q < 16; ++q)
        tmp[q] = w[q];
      for (int q = 0; q < 16; ++q)
        w[r] += tmp[q] * A[q];
    }
    // REMARK-DAG: :[[@LINE+2]]:5: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
    // OUT: {{^}}    if (!gemm_opt_nest_3(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 1)) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
          C[i * n + j] += A[i * n + k] * B[k * n + j];
  }
}

// Later nests are no GEMM as a whole; some products go through a
// temporary (Temporary.cpp).
// OUT-NOT: if (!gemm_opt_nest_{{[4-9]}}

// Only the outermost loop is peeled: a repeat loop in the middle of the nest
// is reported at the outermost `for`.
void middle(int reps, int n, const float *A, const float *B, float *C) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of n x n elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: loop 'r' is not a dimension of a matrix product: its index map is not a contraction; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < n; ++i)
    for (int r = 0; r < reps; ++r)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
          C[i * n + j] += A[i * n + k] * B[k * n + j];
}

// MLIR-COUNT-4: func.func @gemm_opt_nest_{{[0-3]}}(%arg0: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg2: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg3: f32, %arg4: f32)
// The product of the middle repeat loop goes through a temporary.
// MLIR: func.func @gemm_opt_nest_4(
// MLIR-NOT: func.func
