// Struct members as buffers (`s.a[...]`, `p->c[...]`, a member array) and as
// bounds and leading dimensions (`m.rows`, `s.ld`): member expressions of
// unchanged objects are loop-invariant and are passed as written.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

struct Matrix {
  int rows, cols, ld;
  double *a;
};

// OUT: #line 1 "{{.*}}struct-members.cpp"

void byValueRefPointer(Matrix s, const Matrix &t, Matrix *p) {
  // REMARK: :[[@LINE+4]]:3: remark: GEMM recognised: f64, M x N x K = s.rows x p->cols x s.cols; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT:      {{^}}  if (!gemm_opt_nest_0(s.a, s.rows, s.cols, s.ld, 1, t.a, s.cols, p->cols, t.ld, 1, p->a, s.rows, p->cols, p->ld, 1, 1, 1)) {
  // OUT-NEXT: {{^}}#line [[@LINE+2]] "{{.*}}struct-members.cpp"
  // OUT-NEXT: {{^}}  for (int i = 0; i < s.rows; ++i)
  for (int i = 0; i < s.rows; ++i)
    for (int j = 0; j < p->cols; ++j)
      for (int k = 0; k < s.cols; ++k)
        p->a[i * p->ld + j] += s.a[i * s.ld + k] * t.a[k * t.ld + j];
}

struct Tile {
  float c[16][24];
};
struct Problem {
  int m, n, k;
  const float *a, *b;
  long lda, ldb;
};

// A member array as C, with the sizes in another struct behind a pointer.
void memberArray(const Problem *pr, Tile &out) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = pr->m x pr->n x pr->k; A row-major, B column-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(pr->a, pr->m, pr->k, pr->lda, 1, pr->b, pr->k, pr->n, 1, pr->ldb, &out.c[0][0], pr->m, pr->n, 24, 1, 1, 1)) {
  for (int i = 0; i < pr->m; ++i)
    for (int j = 0; j < pr->n; ++j)
      for (int k = 0; k < pr->k; ++k)
        out.c[i][j] += pr->a[i * pr->lda + k] * pr->b[j * pr->ldb + k];
}

// OUT-NOT: gemm_opt_nest_{{[2-9]}}

// MLIR: func.func @gemm_opt_nest_0(%arg0: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg2: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg3: f64, %arg4: f64)
// MLIR: func.func @gemm_opt_nest_1(%arg0: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf32, strided<[1, ?], offset: ?>>, %arg2: memref<?x?xf32, strided<[24, 1], offset: ?>>, %arg3: f32, %arg4: f32)
// MLIR-NOT: func.func
