// A value that the source spells as other than a literal (a macro, an
// enumerator, a constexpr variable, sizeof, an array bound) is asserted at
// the start of the guard's block, as the source spells it, so that a build
// with other values stops instead of running kernels specialised on these.
// Literals need no assertion.
//
// RUN: gemm-opt %s -o %t.cu --reference-kernel 2>/dev/null
// RUN: grep -v "^ *//" %t.cu | FileCheck %s
// RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t.cu -o %t.o

#define ROWS 24
enum { Inner = 16 };
constexpr int cols = 20;

float A[ROWS][Inner], B[Inner][cols], C[ROWS][cols];

void spelled() {
  // CHECK-LABEL: if (!gemm_opt_nest_0(
  // CHECK-NEXT: #line [[@LINE+4]]
  // CHECK-NEXT: static_assert((ROWS) == 24, "gemm-opt lifted this nest with ROWS == 24; run gemm-opt again");
  // CHECK-SAME: static_assert((cols) == 20, {{.*}} static_assert((Inner) == 16, {{.*}} static_assert((sizeof(A[0]) / sizeof(A[0][0])) == 16, {{.*}} static_assert((sizeof(B[0]) / sizeof(B[0][0])) == 20, {{.*}} static_assert((sizeof(C[0]) / sizeof(C[0][0])) == 20, {{.*}}
  // CHECK-NEXT: #line [[@LINE+1]]
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < cols; ++j)
      for (int k = 0; k < Inner; ++k)
        C[i][j] += A[i][k] * B[k][j];
}

void flat(const double *a, const double *b, double *c) {
  // CHECK-LABEL: if (!gemm_opt_nest_1(
  // CHECK-NEXT: #line [[@LINE+3]]
  // CHECK-NEXT: static_assert((sizeof(double) * 2) == 16, "{{[^"]*}}");{{$}}
  // CHECK-NEXT: #line [[@LINE+1]]
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < sizeof(double) * 2; ++k)
        c[i * 8 + j] += a[i * 16 + k] * b[k * 8 + j];
}
