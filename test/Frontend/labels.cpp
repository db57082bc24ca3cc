// Labels on the loops of a nest (Vitis/SDSoC HLS style, with HLS pragmas):
// a label that no goto, `&&label` or `asm goto` names changes nothing, on the
// outer loop, an inner loop or a statement of the body. A label that a goto
// names is a jump into, out of or within the nest, and the nest stays as
// written. The labels stay once in the output, in the loop the guard keeps.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: grep -c '^ *\(row\|col\|prod\|store\): ' %t.cu | grep -qx 4
// RUN: %nvcc -std=c++17 -I %gemm_runtime_include -c %t.cu -o %t.o
#define N 32
void mmult(const float A[N][N], const float B[N][N], float C[N][N]) {
  // CHECK: :[[@LINE+1]]:8: remark: GEMM recognised: f32, M x N x K = 32 x 32 x 32; {{.*}}accumulates in 'result'{{.*}}[-Rpass=gemm]
  row: for (int i = 0; i < N; i++) {
    col: for (int j = 0; j < N; j++) {
#pragma HLS PIPELINE
      float result = 0;
      prod: for (int k = 0; k < N; k++) {
        result += A[i][k] * B[k][j];
      }
      store: C[i][j] = result;
    }
  }
}

void intoTheNest(int n, const float *A, const float *B, float *C, int again) {
  int i = 0, j = 0, k;
  if (again)
    goto inner;
  // CHECK: :[[@LINE+1]]:3: remark: {{.*}}label 'inner' is the target of a jump from outside the nest, which enters it there [-Rpass-missed=gemm]
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
    inner:
      for (k = 0; k < n; k++)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

void outOfTheNest(int n, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: {{.*}}'goto done' jumps out of the nest [-Rpass-missed=gemm]
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      for (int k = 0; k < n; k++)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
      goto done; // one row only
    }
done:
  return;
}

void withinTheNest(int n, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: {{.*}}label 'again' is the target of a 'goto' within the nest [-Rpass-missed=gemm]
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      int tries = 0;
    again:
      for (int k = 0; k < n; k++)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
      if (++tries < 2)
        goto again;
    }
}

void addressTaken(int n, const float *A, const float *B, float *C, void **where) {
  *where = &&step;
  // CHECK: :[[@LINE+1]]:3: remark: {{.*}}label 'step' is the target of a jump from outside the nest, which enters it there [-Rpass-missed=gemm]
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
      step:
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}
