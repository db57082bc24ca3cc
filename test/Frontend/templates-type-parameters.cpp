// Function templates with several type parameters, one per operand (a
// batched product over int8 inputs into int32, or floats: tflite's
// BatchMatMul<Ta, Tb, Tout>): rewritten where every parameter float lifts
// to an f32 GEMM and every one double to an f64 GEMM, gemm-opt making the
// instantiations the file lacks. Each parameter is the element type of an
// operand, so an instantiation of any other types (int8 into int32, float
// into double) fits neither launcher and calls the overload that runs the
// nest as written. Left as written, with a remark: a parameter that is no
// operand's element type (an accumulator's), and a template whose file
// instantiates it for mixed types only.
//
// RUN: gemm-opt %s --reference-kernel -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: %nvcc -std=c++17 -I %gemm_runtime_include -c %t.cu -o %t.o
//
// OUT:      static bool gemm_opt_nest_0(const float *a
// OUT:      static bool gemm_opt_nest_0(const double *a
// OUT:      static bool gemm_opt_nest_1(const float *a
// OUT:      static bool gemm_opt_nest_1(const double *a
// OUT-NOT:  static bool gemm_opt_nest_{{[0-9]+}}(const
// OUT:      static bool gemm_opt_nest_0(...) { return false; }
// OUT:      static bool gemm_opt_nest_1(...) { return false; }
// OUT-NOT:  static bool gemm_opt_nest_

#include <cstdint>

// Instantiated by the file for floats and for int8 into int32: gemm-opt
// makes the double one.
template <typename Ta, typename Tb, typename Tout>
void batchMatMul(long batches, long rows, long cols, long depth,
                 const Ta *lhs, long lhsStride, const Tb *rhs, long rhsStride,
                 Tout *out) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = rows x cols x depth, batch batches; A row-major, B column-major, C column-major; accumulates in 'total', alpha = 1, beta = 0; and in the template's other 1 instantiation(s), one launcher overload each (gemm-opt instantiated it for double, which the file does not; instantiations of other types run the nest as written); rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_0(lhs, batches, rows, depth, lhsStride, depth, 1, rhs, batches, depth, cols, rhsStride, 1, depth, out, batches, rows, cols, cols * rows, 1, rows, 1, 0)) {
  for (long b = 0; b < batches; ++b)
    for (long j = 0; j < cols; ++j)
      for (long i = 0; i < rows; ++i) {
        Tout total = 0;
        for (long k = 0; k < depth; ++k)
          total += static_cast<Tout>(lhs[b * lhsStride + depth * i + k]) *
                   static_cast<Tout>(rhs[b * rhsStride + j * depth + k]);
        out[(b * cols + j) * rows + i] = total;
      }
}

// A header's template that the file never instantiates: gemm-opt makes
// both.
template <typename Ta, typename Tb, typename Tout>
void matMul(long rows, long cols, long depth, const Ta *lhs, const Tb *rhs,
            Tout *out) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, {{.*}} (gemm-opt instantiated it for float and double, which the file does not; instantiations of other types run the nest as written); rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  for (long j = 0; j < cols; ++j)
    for (long i = 0; i < rows; ++i) {
      Tout total = 0;
      for (long k = 0; k < depth; ++k)
        total += lhs[depth * i + k] * rhs[j * depth + k];
      out[rows * j + i] = total;
    }
}

// The accumulator's type is a parameter of its own: accumulated<float,
// double> sums in double, and its call would fit the float launcher.
template <typename T, typename Acc>
void accumulated(int n, const T *A, const T *B, T *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: its template parameter 'Acc' is the element type of none of A, B, C and the bias, so an instantiation that differs from the float or the double one in 'Acc' alone would call that one's launcher [-Rpass-missed=gemm]
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      Acc s = 0;
      for (int k = 0; k < n; k++)
        s += A[i * n + k] * B[k * n + j];
      C[i * n + j] = s;
    }
}

// Instantiated for float inputs into double only: no GEMM of one element
// type to lift, nothing made; the remark names what stops the
// instantiation.
template <typename Ta, typename Tc>
void mixed(int n, const Ta *A, const Ta *B, Tc *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: in its instantiation 'mixed<float, double>': mixed element types (float, float -> double): A, B and C must all be float or all double [-Rpass-missed=gemm]
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

template void batchMatMul<float, float, float>(long, long, long, long,
                                               const float *, long,
                                               const float *, long, float *);
template void batchMatMul<int8_t, int8_t, int32_t>(long, long, long, long,
                                                   const int8_t *, long,
                                                   const int8_t *, long,
                                                   int32_t *);
template void mixed<float, double>(int, const float *, const float *,
                                   double *);
