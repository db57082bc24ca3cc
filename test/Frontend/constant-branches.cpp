// A branch whose condition is a constant in the code read (a template's
// bool parameter, a constexpr flag, sizeof) needs no version: its arm is
// what runs. Instantiations that differ in such parameters get a launcher
// each, which the one guard picks at compile time. A `?:` on beta == 0
// whose arms differ by beta * C is BLAS's beta (C unread where it is 0);
// other choices on beta are not.
//
// RUN: gemm-opt %s --reference-kernel -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: %nvcc -std=c++17 -I %gemm_runtime_include -c %t.cu -o %t.o
//
// OUT:      template <long long...> struct gemm_opt_instance {};
// OUT:      static bool gemm_opt_nest_0(const float *a,
// OUT:      float alpha, float beta, gemm_opt_instance<0, 1>) {
// OUT:      static bool gemm_opt_nest_0(const float *a,
// OUT:      float alpha, float beta, gemm_opt_instance<1, 0>) {
// OUT:      static bool gemm_opt_nest_0(const double *a,
// OUT:      double alpha, double beta, gemm_opt_instance<1, 0>) {
// OUT:      if (!([&]() -> bool { if constexpr ((long long)(transA) == 0LL && (long long)(transB) == 1LL) return gemm_opt_nest_0(A, m, k, 1, lda, B, k, n, ldb, 1, {{.*}}); else if constexpr ((long long)(transA) == 1LL && (long long)(transB) == 0LL) return gemm_opt_nest_0(A, m, k, lda, 1, B, k, n, 1, ldb, {{.*}}); else return false; }())) {

template <typename T, bool transA, bool transB>
void flags(long m, long n, long k, const T *A, long lda, const T *B, long ldb,
           T *C, long ldc, T alpha, T beta) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, {{.*}} A column-major, B row-major, C column-major; accumulates in 'c', alpha = alpha, beta = beta; the choice on 'beta' folds into beta (beta == 0 never reads C); and in the template's other 2 instantiation(s), one launcher overload each; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  for (long i = 0; i < m; i++)
    for (long j = 0; j < n; j++) {
      T c = beta == static_cast<T>(0) ? static_cast<T>(0) : beta * C[i + j * ldc];
      for (long p = 0; p < k; p++) {
        T b = transB ? B[j + p * ldb] : B[p + j * ldb];
        T a = transA ? A[p + i * lda] : A[i + p * lda];
        c += alpha * a * b;
      }
      C[i + j * ldc] = c;
    }
}
template void flags<float, false, true>(long, long, long, const float *, long,
                                        const float *, long, float *, long,
                                        float, float);
template void flags<float, true, false>(long, long, long, const float *, long,
                                        const float *, long, float *, long,
                                        float, float);
template void flags<double, true, false>(long, long, long, const double *,
                                         long, const double *, long, double *,
                                         long, double, double);

constexpr bool rowMajor = true;

void constexprFlag(int n, const float *A, const float *B, float *C) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        if (rowMajor && sizeof(float) == 4)
          C[i * n + j] += A[i * n + k] * B[k * n + j];
        else
          C[j * n + i] += A[k * n + i] * B[j * n + k];
      }
}

// Near misses: the zero arm is not what the other arm lacks beta * C for.
void startsAtOne(int n, const float *A, const float *B, float *C, float beta) {
  // REMARK: :[[@LINE+1]]:3: remark: versioned on 'beta == 0'; where it holds, left as written: accumulator 's' starts at none of zero, a bias element, beta * C or a step of the sum; where it does not, GEMM recognised: {{.*}} beta = beta, rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float s = beta == 0 ? 1 : beta * C[i * n + j];
      for (int k = 0; k < n; ++k)
        s += A[i * n + k] * B[k * n + j];
      C[i * n + j] = s;
    }
}

void otherMatrix(int n, const float *A, const float *B, const float *D,
                 float *C, float beta) {
  // REMARK: :[[@LINE+1]]:3: remark: versioned on 'beta == 0'; where it holds, GEMM recognised: {{.*}} beta = 0, rewritten to call gemm_opt_nest_3; where it does not, left as written: accumulator 's' starts at 'beta == 0 ? 0 : beta * D[i * n + j]', none of zero, a bias element, beta * C or a step of the sum (of the element it is stored to) [-Rpass=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float s = beta == 0 ? 0 : beta * D[i * n + j];
      for (int k = 0; k < n; ++k)
        s += A[i * n + k] * B[k * n + j];
      C[i * n + j] = s;
    }
}

// A member of a class template defined out of its class, whose template
// head names the parameters its own way: the guard names them as it does.
template <class T, int N> struct Layout {
  T *a, *b, *c;
  void multiply(int n);
};
template <class U, int K> void Layout<U, K>::multiply(int n) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, {{.*}}; and in the template's other 1 instantiation(s), one launcher overload each; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        c[i * n + j] += a[i * n + k] * (K == 1 ? b[k * n + j] : b[j * n + k]);
}
template struct Layout<float, 1>;
template struct Layout<float, 2>;
// OUT: if (!([&]() -> bool { if constexpr ((long long)(K) == 1LL) return gemm_opt_nest_4({{.*}}, gemm_opt_instance<(long long)(K)>()); else if constexpr ((long long)(K) == 2LL)
