// A nest in a function template, or in a member function of a class
// template (defined in the class or out of it), is recognised in each of the
// file's instantiations; their launchers overload one name, so the one guard
// in the template calls the right one for each type. A function template of
// one type parameter is rewritten for float and double, gemm-opt
// instantiating the one the file lacks (or both, where the file has none);
// its instantiations of other types (int, here or in other files) call an
// overload that takes anything and runs the nest as written. Left as
// written, each with a remark: a template whose element type is not its
// parameter, one instantiated for int only, a member template never
// instantiated. A class template over a size (a non-type parameter) is
// lifted per instantiation, the guard picking the launcher of its size at
// compile time.
//
// RUN: gemm-opt %s --reference-kernel -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: %nvcc -std=c++17 -I %gemm_runtime_include -c %t.cu -o %t.o
// A host file compiled apart declares the launchers and defines the
// overload that takes anything.
// RUN: gemm-opt %s --reference-kernel -o %t.host.cpp --kernels=%t.kernels.cu 2>/dev/null
// RUN: FileCheck %s --check-prefix=DECL < %t.host.cpp
// RUN: %host_cxx -std=c++17 -fsyntax-only %t.host.cpp
// DECL: {{^}}int gemm_opt_{{.*}}kernels_{{[0-9a-f]+}}_nest_2(const double *a
// DECL: {{^}}inline int gemm_opt_{{.*}}kernels_{{[0-9a-f]+}}_nest_1(...) { return 0; }
// DECL: {{^}}inline int gemm_opt_{{.*}}kernels_{{[0-9a-f]+}}_nest_2(...) { return 0; }
//
// OUT:      static bool gemm_opt_nest_0(const float *a
// OUT:      static bool gemm_opt_nest_0(const double *a
// OUT:      static bool gemm_opt_nest_1(const float *a
// OUT:      static bool gemm_opt_nest_1(const double *a
// OUT:      static bool gemm_opt_nest_2(const float *a
// OUT:      static bool gemm_opt_nest_2(const double *a
// OUT:      static bool gemm_opt_nest_3(const float *a
// OUT:      static bool gemm_opt_nest_3(const double *a
// OUT:      static bool gemm_opt_nest_4(const float *a
// OUT:      static bool gemm_opt_nest_4(const double *a
// OUT:      static bool gemm_opt_nest_5(const double *a
// OUT:      static bool gemm_opt_nest_6(const double *a
// OUT:      gemm_opt_instance<4>) {
// OUT:      static bool gemm_opt_nest_6(const double *a
// OUT:      gemm_opt_instance<8>) {
// OUT-NOT:  static bool gemm_opt_nest_{{[0-9]+}}(const
// OUT:      static bool gemm_opt_nest_1(...) { return false; }
// OUT:      static bool gemm_opt_nest_2(...) { return false; }
// OUT-NOT:  static bool gemm_opt_nest_
// OUT:      if (!gemm_opt_nest_0(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 1)) {

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
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; and in the template's other 1 instantiation(s), one launcher overload each (gemm-opt instantiated it for double, which the file does not; instantiations of other types run the nest as written); rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

template <typename T>
void unused(int n, const T *A, const T *B, T *C) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; and in the template's other 1 instantiation(s), one launcher overload each (gemm-opt instantiated it for float and double, which the file does not; instantiations of other types run the nest as written); rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

// The accumulator's type is the parameter, the operands' are not: an
// instantiation for int would call the float launcher. Left as written.
template <typename Acc>
void accumulator(int n, const float *A, const float *B, float *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: its float and double instantiations do not lift to f32 and f64 GEMMs, so a launcher could take the calls of an instantiation for another type [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      Acc s = 0;
      for (int k = 0; k < n; ++k)
        s += A[i * n + k] * B[k * n + j];
      C[i * n + j] = s;
    }
}

// Instantiated for int only: nothing to lift, nothing made.
template <typename T>
void intOnly(int n, const T *A, const T *B, T *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: no instantiation of its template in this file is a float or double GEMM [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

// A layer of a templated framework, its bias a std::vector member.
#include <vector>
template <class T> struct Layer {
  int in, out;
  std::vector<T> w, b;
  void forward(const T *x, T *y, int n) const {
    // REMARK: :[[@LINE+2]]:5: remark: GEMM recognised: f32, M x N x K = n x this->out x this->in; {{.*}} epilogue: + 'this->b[o]', max with '0'; and in the template's other 1 instantiation(s), one launcher overload each; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
    // OUT: if (!gemm_opt_nest_3(x, n, this->in, this->in, 1, this->w.data(), {{.*}}, this->b.data(), n, this->out, 0, 1, 0)) {
    for (int s = 0; s < n; s++)
      for (int o = 0; o < out; o++) {
        T acc = b[o];
        for (int i = 0; i < in; i++)
          acc += x[s * in + i] * w[o * in + i];
        y[s * out + o] = acc > 0 ? acc : 0;
      }
  }
  void backward(const T *dy, T *dx, int n) const;
};

// Out of the class.
template <class T> void Layer<T>::backward(const T *dy, T *dx, int n) const {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, {{.*}}; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_4(dy, {{.*}})) {
  for (int s = 0; s < n; s++)
    for (int i = 0; i < in; i++)
      for (int o = 0; o < out; o++)
        dx[s * in + i] += dy[s * out + o] * w[o * in + i];
}

// Counts<int> is no float or double GEMM.
template <class T> struct Counts {
  T a[4][4], b[4][4], c[4][4];
  void multiply() {
    // REMARK: :[[@LINE+1]]:5: remark: loop nest not rewritten: in its instantiation 'Counts<int>::multiply': element type 'int' of 'this->a[i][k]' is not float or double [-Rpass-missed=gemm]
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        for (int k = 0; k < 4; ++k)
          c[i][j] += a[i][k] * b[k][j];
  }
};

// A member template of a class template (TheAlgorithms' Matrix<T>::
// naive_multiplication<Number>): its copy in each specialization of the
// class, instantiated there.
template <class T> struct Mat {
  int n;
  T *d;
  template <class U> void times(const Mat<U> &o, Mat<T> &r) const {
    // REMARK: :[[@LINE+1]]:5: remark: GEMM recognised: f64, M x N x K = this->n x this->n x this->n; {{.*}}; rewritten to call gemm_opt_nest_5 [-Rpass=gemm]
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j)
          r.d[i * n + j] += d[i * n + k] * o.d[k * n + j];
  }
  template <class U> void unusedTimes(const Mat<U> &o, Mat<T> &r) const {
    // REMARK: :[[@LINE+1]]:5: remark: loop nest not rewritten: it is in a template that this file never instantiates
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j)
          r.d[i * n + j] += d[i * n + k] * o.d[k * n + j];
  }
};
void useMat(const Mat<double> &a, Mat<double> &r) { a.times(a, r); }

template <int N> struct Fixed {
  double a[N][N], b[N][N], c[N][N];
  void multiply() {
    // REMARK: :[[@LINE+2]]:5: remark: GEMM recognised: f64, M x N x K = 4 x 4 x 4; {{.*}}; and in the template's other 1 instantiation(s), one launcher overload each; rewritten to call gemm_opt_nest_6 [-Rpass=gemm]
    // OUT: if (!([&]() -> bool { if constexpr ((long long)(N) == 4LL) return gemm_opt_nest_6({{.*}}, 4, 4, 4, 1, {{.*}}gemm_opt_instance<(long long)(N)>()); else if constexpr ((long long)(N) == 8LL) return gemm_opt_nest_6({{.*}}, 8, 8, 8, 1, {{.*}}; else return false; }())) {
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
template void accumulator<int>(int, const float *, const float *, float *);
template void accumulator<float>(int, const float *, const float *, float *);
template void intOnly<int>(int, const int *, const int *, int *);
template struct Fixed<4>;
template struct Fixed<8>;
template struct Layer<float>;
template struct Layer<double>;
template struct Counts<float>;
template struct Counts<int>;
