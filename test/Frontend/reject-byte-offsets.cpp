// Near misses of byte offsets: each is left as written, and the remark
// names the term that is not proven to be a whole number of elements, or
// the run-time element size that the launcher could not test first.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT-NOT: gemm_opt_nest

#include <cstddef>
#include <cstdint>

typedef unsigned long PTR;

// A shift by 2 moves a double pointer by half elements.
void halfShift(int n, const double *A, const double *B, double *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the byte offset '(const char *)B + ((size_t)(k * n) << 2)' is not provably a whole number of 'double' elements (8 bytes): its term '(size_t)(k * n) << 2' is a multiple of 4, not provably a multiple of 8 [-Rpass-missed=gemm]
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int k = 0; k < n; k++)
        s += A[i * n + k] *
             ((const double *)((const char *)B + ((size_t)(k * n) << 2)))[j];
      C[i * n + j] = s;
    }
}

// One byte past whole elements.
void misaligned(int n, const float *A, const float *B, float *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the byte offset '(uintptr_t)A + (i * n + k) * sizeof(float) + 1' is not provably a whole number of 'float' elements (4 bytes): its term '1' is not provably a multiple of 4 [-Rpass-missed=gemm]
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int k = 0; k < n; k++)
        s += *(const float *)((uintptr_t)A + (i * n + k) * sizeof(float) + 1) *
             B[k * n + j];
      C[i * n + j] = s;
    }
}

// The element size is read per row inside the nest: the launcher cannot
// test it before the loops.
void sizePerRow(int n, const float *A, const float *B, float *C,
                const size_t *sizes) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the byte offset '(const unsigned char *)A + (size_t)(i * n + k) * es' is not provably a whole number of 'float' elements (4 bytes): its term '(size_t)(i * n + k) * es' is not provably a multiple of 4, and its factor 'es', which the launcher would test to be 4, depends on 'es', declared inside the nest as 'sizes[i]' [-Rpass-missed=gemm]
  for (int i = 0; i < n; i++) {
    size_t es = sizes[i];
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int k = 0; k < n; k++)
        s += *(const float *)((const unsigned char *)A +
                              (size_t)(i * n + k) * es) *
             B[k * n + j];
      C[i * n + j] = s;
    }
  }
}

// A pointer bumped by a row width that a local holds, assigned again
// after its declaration.
void reassigned(unsigned n, const double *A, const double *B, double *C) {
  PTR rowBytes = n << 3;
  rowBytes += 4;
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'A' is moved by bytes: the byte offset '((PTR)A) + rowBytes' is not provably a whole number of 'double' elements (8 bytes): its term 'rowBytes' is not provably a multiple of 8 [-Rpass-missed=gemm]
  for (unsigned i = 0; i < n; i++) {
    for (unsigned j = 0; j < n; j++) {
      double s = 0;
      for (unsigned k = 0; k < n; k++)
        s += A[k] * B[k * n + j];
      C[i * n + j] = s;
    }
    A = (const double *)(((PTR)A) + rowBytes);
  }
}

// An int buffer read as floats through bytes.
void punned(int n, const int *A, const float *B, float *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the byte offset '(const char *)A + (i * n + k) * 4' reads the 'const int' buffer 'A' as 'float' elements [-Rpass-missed=gemm]
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int k = 0; k < n; k++)
        s += *(const float *)((const char *)A + (i * n + k) * 4) * B[k * n + j];
      C[i * n + j] = s;
    }
}
