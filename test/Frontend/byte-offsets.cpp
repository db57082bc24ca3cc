// Element pointers formed through byte offsets: a byte view of a pointer
// (char, unsigned char, std::byte) or the pointer as an integer (uintptr_t,
// a typedef of unsigned long), moved by a whole number of elements and cast
// back, is the pointer plus that many elements. A run-time element size
// that the nest does not write (a matrix class's `itemsize`) versions the
// nest: the launcher runs only where it is sizeof(float).
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT

#include <cstddef>
#include <cstdint>

typedef unsigned long PTR;

/// A matrix kept as bytes, whose lines are found by their item size, as
/// some inference libraries keep them.
struct Tensor {
  unsigned char *bytes;
  int cols, rows;
  size_t itemsize;
  float *line(int y) const {
    return (float *)(bytes + (size_t)cols * y * itemsize);
  }
};

void rows(const Tensor &a, const Tensor &b, Tensor &c, int K) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = c.rows x c.cols x K; {{.*}}byte offsets in units of 'a.itemsize', taken as sizeof(float); {{.*}}the launcher runs only where a.itemsize == sizeof(float) and b.itemsize == sizeof(float) and c.itemsize == sizeof(float) {{.*}}rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: if (!((a.itemsize == sizeof(float)) && (b.itemsize == sizeof(float)) && (c.itemsize == sizeof(float)) && gemm_opt_nest_0((float *)a.bytes, c.rows, K, a.cols, 1, (float *)b.bytes, K, c.cols, b.cols, 1, (float *)c.bytes, c.rows, c.cols, c.cols, 1, 1, 0))) {
  for (int i = 0; i < c.rows; i++)
    for (int j = 0; j < c.cols; j++) {
      float s = 0;
      for (int k = 0; k < K; k++)
        s += a.line(i)[k] * b.line(k)[j];
      c.line(i)[j] = s;
    }
}

// Bytes as a multiple of sizeof(T), through std::byte and char views.
void sized(int n, const double *A, const double *B, double *C) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_1(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 0)) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int k = 0; k < n; k++)
        s += *(const double *)((const std::byte *)A + (i * n + k) * sizeof(double)) *
             ((const double *)((const char *)B + sizeof(double) * k * n))[j];
      *(double *)&((char *)C)[(size_t)(i * n + j) << 3] = s;
    }
}

// The Strassen leaf's style: pointers bumped through an integer by a row
// width in bytes, a local defined once as `ld << 3` (a stride of ld).
void bumped(unsigned n, unsigned lda, const double *A, const double *B,
            double *C) {
  PTR rowBytesA = lda << 3;
  PTR rowBytesC = (PTR)n * sizeof(double);
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_2(A, n, n, lda, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 0)) {
  for (unsigned i = 0; i < n; i++) {
    for (unsigned j = 0; j < n; j++) {
      const double *b = B + j;
      double s = 0;
      for (unsigned k = 0; k < n; k++) {
        s += A[k] * *b;
        b = (const double *)((PTR)b + (n << 3));
      }
      C[j] = s;
    }
    A = (const double *)(((PTR)A) + rowBytesA);
    C = (double *)((uintptr_t)C + rowBytesC);
  }
}
