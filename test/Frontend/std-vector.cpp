// std::vector buffers, through operator[] and through data(): the pointer
// passed is v.data(), the strides come from the flat index. A vector of
// vectors is rejected in reject-rows.cpp.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

#include <vector>

// OUT: #line 1 "{{.*}}std-vector.cpp"

void subscript(int m, int n, int k, const std::vector<float> &A,
               const std::vector<float> &B, std::vector<float> &C) {
  // REMARK: :[[@LINE+4]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT:      {{^}}  if (!gemm_opt_nest_0(A.data(), m, k, k, 1, B.data(), k, n, n, 1, C.data(), m, n, n, 1, 1, 1)) {
  // OUT-NEXT: {{^}}#line [[@LINE+2]] "{{.*}}std-vector.cpp"
  // OUT-NEXT: {{^}}  for (int i = 0; i < m; ++i)
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        C[i * n + j] += A[i * k + l] * B[l * n + j];
}

// data() on some operands, operator[] on others, bounds from size().
void data(int n, std::vector<double> &A, std::vector<double> &B,
          std::vector<double> &C) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = n x n x n; A row-major, B column-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(A.data(), n, n, n, 1, B.data(), n, n, 1, n, C.data(), n, n, n, 1, 1, 1)) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < n; ++l)
        C.data()[i * n + j] += A.data()[i * n + l] * B[j * n + l];

  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = (A.size() / 8) x 8 x 8; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_2(A.data(), (A.size() / 8), 8, 8, 1, B.data(), 8, 8, 8, 1, C.data(), (A.size() / 8), 8, 8, 1, 1, 1)) {
  for (std::size_t i = 0; i < A.size() / 8; ++i)
    for (int j = 0; j < 8; ++j)
      for (int l = 0; l < 8; ++l)
        C[i * 8 + j] += A[i * 8 + l] * B[l * 8 + j];
}

// OUT-NOT: gemm_opt_nest_{{[3-9]}}

// MLIR: func.func @gemm_opt_nest_0(%arg0: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg2: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg3: f32, %arg4: f32)
// MLIR: func.func @gemm_opt_nest_1(%arg0: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf64, strided<[1, ?], offset: ?>>, %arg2: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR: func.func @gemm_opt_nest_2(%arg0: memref<?x8xf64, strided<[8, 1], offset: ?>>, %arg1: memref<8x8xf64, strided<[8, 1], offset: ?>>, %arg2: memref<?x8xf64, strided<[8, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR-NOT: func.func
