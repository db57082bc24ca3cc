/* A stride or size copied into a local before the nest and spelled by
 * either name in it (sfepy's fmf_mulABT_nn: `int wr = R->nCol;`, the
 * zero-init through wr, the sum through R->nCol). Where nothing between the
 * copy and the nest writes memory, calls or changes the local or what the
 * value reads, and the nest does not change them either, the local reads as
 * its value: both names are one index, and sizes print as the value.
 * Otherwise the names stay apart: the nest is no GEMM as a whole, and its
 * product goes through a temporary, as before.
 *
 * RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t.cu -o %t.o
 */
typedef struct { int nLev, nRow, nCol; double *val; } FMField;
typedef struct { int rows, cols; float *data; } Mat;
void resize(Mat *m);

void mulABT(FMField *R, FMField *A, FMField *B) {
  int i, j, k, il, wr = R->nCol, wa = A->nCol, wb = B->nCol;
  double *pr, *pa, *pb;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = R->nRow x R->nCol x A->nCol, batch R->nLev; A row-major, B column-major, C row-major; fused zero-init of C, alpha = 1, beta = 0; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  for (il = 0; il < R->nLev; il++) {
    pr = R->val + R->nCol * R->nRow * il;
    pa = A->val + A->nCol * A->nRow * il;
    pb = B->val + B->nCol * B->nRow * il;
    for (i = 0; i < R->nRow; i++)
      for (j = 0; j < R->nCol; j++) {
        pr[wr * i + j] = 0.0;
        for (k = 0; k < A->nCol; k++)
          pr[R->nCol * i + j] += pa[wa * i + k] * pb[wb * j + k];
      }
  }
}

/* Assigned after its declaration; A's stride through a copy, B's not. */
void assigned(Mat *C, const Mat *A, const Mat *B) {
  int ld, la;
  ld = C->cols;
  la = A->cols;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = C->rows x C->cols x A->cols; A row-major, B row-major, C row-major; fused zero-init of C, alpha = 1, beta = 0; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  for (int i = 0; i < C->rows; i++)
    for (int j = 0; j < ld; j++) {
      C->data[i * ld + j] = 0;
      for (int k = 0; k < la; k++)
        C->data[i * C->cols + j] += A->data[i * la + k] * B->data[k * B->cols + j];
    }
}

/* A copy of a parameter, reassigned before the nest: the last value holds. */
void parameter(int m, int n, int p, const float *A, const float *B, float *C) {
  int ldc = p;
  ldc = n;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x p; {{.*}}fused zero-init of C{{.*}}[-Rpass=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      C[i * ldc + j] = 0;
      for (int k = 0; k < p; k++)
        C[i * n + j] += A[i * p + k] * B[k * n + j];
    }
}

/* Near misses: the value may change between the copy and the nest. */
void calledBetween(Mat *C, const Mat *A, const Mat *B) {
  int ld = C->cols;
  resize(C);
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: {{.*}}into a temporary, {{.*}}since as a whole the nest is no GEMM: 'C->data{{\[}}i * ld + j]' is written besides the accumulation into C {{.*}}[-Rpass=gemm]
  for (int i = 0; i < C->rows; i++)
    for (int j = 0; j < C->cols; j++) {
      C->data[i * ld + j] = 0;
      for (int k = 0; k < A->cols; k++)
        C->data[i * C->cols + j] += A->data[i * A->cols + k] * B->data[k * B->cols + j];
    }
}

void storedBetween(Mat *C, const Mat *A, const Mat *B, int *dims) {
  int ld = C->cols;
  dims[1] = 4;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: {{.*}}into a temporary, {{.*}}since as a whole the nest is no GEMM: 'C->data{{\[}}i * ld + j]' is written besides the accumulation into C {{.*}}[-Rpass=gemm]
  for (int i = 0; i < C->rows; i++)
    for (int j = 0; j < C->cols; j++) {
      C->data[i * ld + j] = 0;
      for (int k = 0; k < A->cols; k++)
        C->data[i * C->cols + j] += A->data[i * A->cols + k] * B->data[k * B->cols + j];
    }
}

void bumpedBetween(int m, int n, int p, const float *A, const float *B, float *C) {
  int ldc = n;
  ldc++;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: {{.*}}into a temporary, {{.*}}since as a whole the nest is no GEMM: 'C{{\[}}i * ldc + j]' is written besides the accumulation into C {{.*}}[-Rpass=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      C[i * ldc + j] = 0;
      for (int k = 0; k < p; k++)
        C[i * n + j] += A[i * p + k] * B[k * n + j];
    }
}

void sourceChanged(int m, int n, int p, const float *A, const float *B, float *C) {
  int ldc = n;
  n = ldc - 1;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: {{.*}}into a temporary, {{.*}}since as a whole the nest is no GEMM: 'C{{\[}}i * ldc + j]' is written besides the accumulation into C {{.*}}[-Rpass=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      C[i * ldc + j] = 0;
      for (int k = 0; k < p; k++)
        C[i * n + j] += A[i * p + k] * B[k * n + j];
    }
}

void changedInTheNest(int m, int n, int p, const float *A, const float *B, float *C) {
  int ldc = n;
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'C[i * (n + i) + j]' is written besides the accumulation into C {{.*}}[-Rpass-missed=gemm]
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < n; j++) {
      C[i * ldc + j] = 0;
      for (int k = 0; k < p; k++)
        C[i * n + j] += A[i * p + k] * B[k * n + j];
    }
    ldc++;
  }
}

void loopAround(int reps, Mat *C, const Mat *A, const Mat *B) {
  int ld = C->cols;
  for (int r = 0; r < reps; r++) {
    // CHECK: :[[@LINE+1]]:5: remark: GEMM recognised: {{.*}}into a temporary, {{.*}}since as a whole the nest is no GEMM: 'C->data{{\[}}i * ld + j]' is written besides the accumulation into C {{.*}}[-Rpass=gemm]
    for (int i = 0; i < C->rows; i++)
      for (int j = 0; j < C->cols; j++) {
        C->data[i * ld + j] = 0;
        for (int k = 0; k < A->cols; k++)
          C->data[i * C->cols + j] += A->data[i * A->cols + k] * B->data[k * B->cols + j];
      }
    resize(C);
  }
}
