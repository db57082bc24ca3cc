// Index arithmetic as real code writes it: through macros (an index macro
// and an accessor macro that ends the nest), with parentheses, casts,
// commuted products, constant offsets and scaled leading dimensions. The
// strides come out the same as for the plain `i*ld + j`.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

#define IDX(i, j, ld) ((i) * (ld) + (j))
#define AT(p, i, j, ld) p[(i) * (ld) + (j)]
#define MAC C[i * ldc + j] += A[i * lda + l] * B[l * ldb + j]

// OUT: #line 1 "{{.*}}index-arithmetic.cpp"

void macros(int m, int n, int k, const double *A, long lda, const double *B,
            long ldb, double *C, long ldc) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_0(A, m, k, lda, 1, B, k, n, ldb, 1, C, m, n, ldc, 1, 1, 1)) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        C[IDX(i, j, ldc)] += A[IDX(i, l, lda)] * B[IDX(l, j, ldb)];

  // The nest's last token comes from a macro: the guard closes after the
  // invocation and its `;`.
  // REMARK: :[[@LINE+6]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A row-major, B column-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT:      {{^}}  if (!gemm_opt_nest_1(A, m, k, lda, 1, B, k, n, 1, ldb, C, m, n, ldc, 1, 1, 1)) {
  // OUT-NEXT: {{^}}#line [[@LINE+4]] "{{.*}}index-arithmetic.cpp"
  // OUT-NEXT: {{^}}  for (int i = 0; i < m; ++i)
  // OUT-NEXT: {{^}}    for (int j = 0; j < n; ++j)
  // OUT-NEXT: {{^}}      for (int l = 0; l < k; ++l)
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        AT(C, i, j, ldc) += AT(A, i, l, lda) * AT(B, j, l, ldb);
  // OUT-NEXT: {{^}}        AT(C, i, j, ldc) += AT(A, i, l, lda) * AT(B, j, l, ldb); }

  // The whole statement is one macro.
  // REMARK: :[[@LINE+3]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_2(A, m, k, lda, 1, B, k, n, ldb, 1, C, m, n, ldc, 1, 1, 1)) {
  // OUT: {{^}}        MAC; }
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        MAC;
}

void casts(int m, int n, int k, const double *A, long lda, const double *B,
           long ldb, double *C, long ldc) {
  // Casts and parentheses; B's index is l + (l*ldb - l) + j = l*ldb + j.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_3(A, m, k, lda, 1, B, k, n, ldb, 1, C, m, n, ldc, 1, 1, 1)) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        C[(long)i * ldc + j] += A[static_cast<long>(i) * lda + (long)l] * B[(l) + (((long)l) * ldb - l) + (j)];

  // Commuted, offset by constants (the views start at A[1][0], B[0][2] and
  // C[1][2]) and with doubled leading dimensions.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_4(A + lda, m, k, lda, 1, B + 2, k, n, ldb, 1, C + (2 + ldc), m, n, ldc, 1, 1, 1)) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        C[j + 2 + ldc * (i + 1)] += A[lda * (1 + i) + l] * B[ldb * l + (j + 2)];

  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_5 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_5(A, m, k, 2 * lda, 1, B, k, n, 2 * ldb, 1, C, m, n, 2 * ldc, 1, 1, 1)) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        C[i * ldc * 2 + j] += A[2 * i * lda + l] * B[(l * ldb) * 2 + j];
}

// OUT-NOT: gemm_opt_nest_{{[6-9]}}

// MLIR: func.func @gemm_opt_nest_0(%arg0: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg2: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR: func.func @gemm_opt_nest_1(%arg0: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf64, strided<[1, ?], offset: ?>>, %arg2: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR: func.func @gemm_opt_nest_2(%arg0: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg2: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR: func.func @gemm_opt_nest_3(%arg0: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg2: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR: func.func @gemm_opt_nest_4(%arg0: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg2: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR: func.func @gemm_opt_nest_5(%arg0: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg2: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR-NOT: func.func
