// A nest in a function template is recognised in each of the file's
// instantiations; their launchers overload one name, so the one guard in the
// template calls the right one for each type. A template with an
// instantiation that is not a float or double GEMM, one never instantiated,
// and a nest in a class template are left as written, each with a remark.
//
// RUN: gemm-opt %s --reference-kernel -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: %nvcc -std=c++17 -I %gemm_runtime_include -c %t.cu -o %t.o
//
// OUT:      static bool gemm_opt_nest_0(const float *a
// OUT:      static bool gemm_opt_nest_0(const double *a
// OUT-NOT:  static bool gemm_opt_nest_
// OUT:      if (!gemm_opt_nest_0(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 1)) {
// OUT-NOT:  gemm_opt_nest_

template <typename T>
void gemm(int n, const T *A, const T *B, T *C) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; and in the template's other 1 instantiation(s), one launcher overload each; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

template <typename T>
void anyType(int n, const T *A, const T *B, T *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: in its instantiation 'anyType<int>': element type 'int' of 'A[i * n + k]' is not float or double [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

template <typename T>
void unused(int n, const T *A, const T *B, T *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: it is in a function template that this file never instantiates [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

template <int N> struct Fixed {
  double a[N][N], b[N][N], c[N][N];
  void multiply() {
    // REMARK: :[[@LINE+1]]:5: remark: loop nest not rewritten: it is in a class template; only function templates are rewritten per instantiation [-Rpass-missed=gemm]
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j)
        for (int k = 0; k < N; ++k)
          c[i][j] += a[i][k] * b[k][j];
  }
};

template void gemm<float>(int, const float *, const float *, float *);
template void gemm<double>(int, const double *, const double *, double *);
template void anyType<float>(int, const float *, const float *, float *);
template void anyType<int>(int, const int *, const int *, int *);
template struct Fixed<8>;
