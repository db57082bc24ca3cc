// Never silent: every nest of two loops or more around an accumulated
// product gets exactly one remark, whatever hides the product (locals that
// hold the elements, accessor calls, std::array and std::span (both
// rewritten, as std::vector is), casts) and
// wherever the nest sits (a template); matrix-vector products are named.
//
// RUN: gemm-opt %s --reference-kernel -o %t.cu -- -std=c++20 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: %nvcc -std=c++20 -I %gemm_runtime_include -c %t.cu -o %t.o
#include <array>
#include <span>
#include <vector>
struct Mat { float *d; int ld; float &operator()(int i, int j) { return d[i * ld + j]; } float operator()(int i, int j) const { return d[i * ld + j]; } };
void locals(int m, int n, int k, const float *A, int lda, const float *B, int ldb, float *C, int ldc) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A column-major, B column-major, C column-major; accumulates in 'c', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      float c = 0;
      for (int l = 0; l < k; ++l) {
        float a = A[i + l * lda];
        float b = B[l + j * ldb];
        c += a * b;
      }
      C[i + j * ldc] = c;
    }
}
void accessor(int m, int n, int k, const Mat &A, const Mat &B, Mat &C) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        C(i, j) += A(i, l) * B(l, j);
}
void arrays(std::array<float, 64> &C, const std::array<float, 64> &A, const std::array<float, 64> &B) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = 8 x 8 x 8; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      for (int l = 0; l < 8; ++l)
        C[i * 8 + j] += A[i * 8 + l] * B[l * 8 + j];
}
void spans(std::span<float> C, std::span<const float> A, std::span<const float> B, int n) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < n; ++l)
        C[i * n + j] += A[i * n + l] * B[l * n + j];
}
void casts(int n, const float *A, const float *B, double *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: mixed element types (float, float -> double): A, B and C must all be float or all double [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < n; ++l)
        C[i * n + j] += static_cast<double>(A[i * n + l]) * static_cast<double>(B[l * n + j]);
}
template <class T> void tmpl(int n, const T *A, const T *B, T *C) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; and in the template's other 1 instantiation(s), one launcher overload each (gemm-opt instantiated it for double, which the file does not; instantiations of other types run the nest as written); rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < n; ++l)
        C[i * n + j] += A[i * n + l] * B[l * n + j];
}
template void tmpl<float>(int, const float *, const float *, float *);
void gemv(int m, int n, const float *A, const float *x, float *y) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: matrix-vector product (M x K = m x n): it reads each matrix element once, so a GPU call would spend longer copying host data than the loop spends computing; left to the CPU [-Rpass-missed=gemm]
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      y[i] += A[i * n + j] * x[j];
}
void gemvAcc(int m, int n, const float *A, const float *x, float *y) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: matrix-vector product (M x K = m x n): it reads each matrix element once, so a GPU call would spend longer copying host data than the loop spends computing; left to the CPU [-Rpass-missed=gemm]
  for (int i = 0; i < m; ++i) {
    float s = 0;
    for (int j = 0; j < n; ++j)
      s += A[i * n + j] * x[j];
    y[i] = s;
  }
}
void gemvT(int m, int n, const float *A, const float *x, float *y) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: matrix-vector product (M x K = n x m): it reads each matrix element once, so a GPU call would spend longer copying host data than the loop spends computing; left to the CPU [-Rpass-missed=gemm]
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      y[j] += A[i * n + j] * x[i];
}
// The sum of products in a helper that the nest calls (a dot product, flame
// and kann style): the nest computes a product too; the helper's visible
// body is read in place of the call.
static float dot(int k, const float *x, const float *y, int incy) {
  float s = 0;
  for (int l = 0; l < k; ++l)
    s += x[l] * y[l * incy];
  return s;
}
void helperDot(int m, int n, int k, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_5 [-Rpass=gemm]
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      C[i * n + j] = dot(k, A + i * k, B + j, n);
}
// A blocked kernel in one branch, too shallow to be a nest of its own (two
// loops inside the opened row loop), beside the edge rows' nest in the
// other (MACE micro's gemm): the edge nest gets its remark, and the row
// loop one of its own for the block.
void blockedWithEdges(int M, int N, int K, const float *A, const float *B,
                      float *C) {
  int M2 = M / 2 * 2;
  // CHECK-DAG: :[[@LINE+1]]:3: remark: loop nest not rewritten: conditional control flow in the nest body [-Rpass-missed=gemm]
  for (int r = 0; r < M; r += 2) {
    if (r < M2) {
      for (int c = 0; c < N; ++c) {
        float s0 = 0, s1 = 0;
        for (int d = 0; d < K; ++d) {
          s0 += A[r * K + d] * B[d * N + c];
          s1 += A[(r + 1) * K + d] * B[d * N + c];
        }
        C[r * N + c] = s0;
        C[(r + 1) * N + c] = s1;
      }
    } else {
      // CHECK-DAG: :[[@LINE+1]]:7: remark: GEMM recognised: f32, M x N x K = (M - M2) x N x K; {{.*}} [-Rpass=gemm]
      for (int ro = M2; ro < M; ++ro)
        for (int c = 0; c < N; ++c) {
          float sum = 0;
          for (int d = 0; d < K; ++d)
            sum += A[ro * K + d] * B[d * N + c];
          C[ro * N + c] = sum;
        }
    }
  }
}
