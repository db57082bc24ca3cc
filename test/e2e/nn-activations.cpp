// A small NN framework's layers with activations besides clamps, and a
// BLAS translated by f2c: a dense layer with a nullable bias and llm.c's
// GELU (tanh form, its constant a macro, the cube through a local), a
// double dense layer under tanh, a sigmoid whose accumulator starts at the
// bias, GELU's erf form, SGEMM reading *alpha and *beta (once with alpha
// inside C, where the rewrite must run the loop), and a layer that is a
// class template instantiated for float and double.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s --reference-kernel -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The lifted problems, epilogues included, on the CPU; the nest whose C
// holds alpha runs its loop.
// RUN: env GEMM_OPT_DEVICE=cpu GEMM_OPT_TRACE=1 %t.gpu > %t.lifted 2> %t.trace
// RUN: %python %S/compare.py %t.expected %t.lifted
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace
#include "e2e_util.h"

#include <cmath>
#include <cstddef>
#include <vector>

#define GELU_SCALING_FACTOR sqrtf(2.0f / M_PI)

// out[N][OC] = gelu(inp[N][C] * weight^T + bias), as llm.c writes it.
static void dense_gelu(float *out, const float *inp, const float *weight,
                       const float *bias, int N, int C, int OC) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = N x OC x C; {{.*}} epilogue: + 'bias[o]' (none if null), GELU (tanh form, k = 'sqrtf(2.F / 3.1415926535897931)', c = '0.0447149985F')
  for (int n = 0; n < N; n++)
    for (int o = 0; o < OC; o++) {
      float val = (bias != NULL) ? bias[o] : 0.0f;
      for (int i = 0; i < C; i++)
        val += inp[n * C + i] * weight[o * C + i];
      float x = val;
      float cube = 0.044715f * x * x * x;
      out[n * OC + o] =
          0.5f * x * (1.0f + tanhf(GELU_SCALING_FACTOR * (x + cube)));
    }
}

// y = tanh(x * w + b) in double, the bias a term of the store.
static void dense_tanh(double *y, const double *x, const double *w,
                       const double *b, int N, int C, int OC) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, {{.*}} epilogue: + 'b[o]', tanh
  for (int n = 0; n < N; n++)
    for (int o = 0; o < OC; o++) {
      double acc = 0;
      for (int i = 0; i < C; i++)
        acc += x[n * C + i] * w[i * OC + o];
      y[n * OC + o] = std::tanh(acc + b[o]);
    }
}

// A gate: sigmoid(x * w + b), the accumulator starting at the bias.
static void dense_sigmoid(float *y, const float *x, const float *w,
                          const float *b, int N, int C, int OC) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, {{.*}} epilogue: + 'b[o]', sigmoid
  for (int n = 0; n < N; n++)
    for (int o = 0; o < OC; o++) {
      float s = b[o];
      for (int i = 0; i < C; i++)
        s += x[n * C + i] * w[o * C + i];
      y[n * OC + o] = 1.0f / (1.0f + expf(-s));
    }
}

// GELU's exact form in double: 0.5 x (1 + erf(x / sqrt(2))).
static void dense_gelu_erf(double *y, const double *x, const double *w, int N,
                           int C, int OC) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, {{.*}} epilogue: GELU (erf form, erf(x * '1.0 / sqrt(2.)'))
  for (int n = 0; n < N; n++)
    for (int o = 0; o < OC; o++) {
      double s = 0;
      for (int i = 0; i < C; i++)
        s += x[n * C + i] * w[o * C + i];
      y[n * OC + o] = 0.5 * s * (1 + erf(s / sqrt(2.0)));
    }
}

typedef int integer;
typedef float real;

// The reference BLAS's SGEMM (NN) as f2c translates it: 1-based, every
// argument a pointer.
static int sgemm_(integer *m, integer *n, integer *k, real *alpha, real *a,
                  integer *lda, real *b, integer *ldb, real *beta, real *c__,
                  integer *ldc) {
  integer a_dim1, a_offset, b_dim1, b_offset, c_dim1, c_offset, i__, j, l;
  real temp;
  a_dim1 = *lda;
  a_offset = 1 + a_dim1;
  a -= a_offset;
  b_dim1 = *ldb;
  b_offset = 1 + b_dim1;
  b -= b_offset;
  c_dim1 = *ldc;
  c_offset = 1 + c_dim1;
  c__ -= c_offset;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, {{.*}} alpha = (*alpha), beta = *beta; reads '*alpha' before the nest (the loop runs where C holds it); reads '*beta' before the nest (the loop runs where C holds it)
  for (j = 1; j <= *n; ++j) {
    if (*beta == 0.f) {
      for (i__ = 1; i__ <= *m; ++i__)
        c__[i__ + j * c_dim1] = 0.f;
    } else if (*beta != 1.f) {
      for (i__ = 1; i__ <= *m; ++i__)
        c__[i__ + j * c_dim1] = *beta * c__[i__ + j * c_dim1];
    }
    for (l = 1; l <= *k; ++l) {
      temp = *alpha * b[l + j * b_dim1];
      for (i__ = 1; i__ <= *m; ++i__)
        c__[i__ + j * c_dim1] += temp * a[i__ + l * a_dim1];
    }
  }
  return 0;
}

// A layer of a templated framework: y = relu(x * W^T + b).
template <class T> struct Layer {
  int in, out;
  std::vector<T> w, b;

  void forward(const T *x, T *y, int n) const {
    // CHECK: :[[@LINE+1]]:5: remark: GEMM recognised: f32, {{.*}} epilogue: + 'this->b[o]', max with '0'; and in the template's other 1 instantiation(s), one launcher overload each
    for (int s = 0; s < n; s++)
      for (int o = 0; o < out; o++) {
        T acc = b[o];
        for (int i = 0; i < in; i++)
          acc += x[s * in + i] * w[o * in + i];
        y[s * out + o] = acc > 0 ? acc : 0;
      }
  }
};

// A function's error: at most 1.2 times the product's (its steepest
// slope, GELU's 1.13), plus the libm's ulps of a result no larger than
// |x| + 1.
static double withFunction(double scale, long count) {
  return 1.2 * scale + std::sqrt(double(count));
}

int main() {
  const int N = 13, C = 24, OC = 17;
  std::vector<float> x(N * C), w(OC * C), bias(OC), y(N * OC);
  fillRandom(x.data(), long(x.size()), 1);
  fillRandom(w.data(), long(w.size()), 2);
  fillRandom(bias.data(), long(bias.size()), 3);
  const double product = frobenius(x.data(), long(x.size())) *
                         frobenius(w.data(), long(w.size()));
  const double withBias =
      product + frobenius(bias.data(), OC) * std::sqrt(double(N));

  dense_gelu(y.data(), x.data(), w.data(), bias.data(), N, C, OC);
  printMatrix("gelu", C, withFunction(withBias, N * OC), y.data(), N, OC, OC,
              1);
  dense_gelu(y.data(), x.data(), w.data(), NULL, N, C, OC);
  printMatrix("gelu-no-bias", C, withFunction(product, N * OC), y.data(), N,
              OC, OC, 1);
  dense_sigmoid(y.data(), x.data(), w.data(), bias.data(), N, C, OC);
  printMatrix("sigmoid", C, withFunction(withBias, N * OC), y.data(), N, OC,
              OC, 1);

  std::vector<double> dx(N * C), dw(OC * C), db(OC), dy(N * OC);
  fillRandom(dx.data(), long(dx.size()), 4);
  fillRandom(dw.data(), long(dw.size()), 5);
  fillRandom(db.data(), long(db.size()), 6);
  const double dproduct = frobenius(dx.data(), long(dx.size())) *
                          frobenius(dw.data(), long(dw.size()));
  dense_tanh(dy.data(), dx.data(), dw.data(), db.data(), N, C, OC);
  printMatrix("tanh", C,
              withFunction(dproduct + frobenius(db.data(), OC) *
                                          std::sqrt(double(N)),
                           N * OC),
              dy.data(), N, OC, OC, 1);
  dense_gelu_erf(dy.data(), dx.data(), dw.data(), N, C, OC);
  printMatrix("gelu-erf", C, withFunction(dproduct, N * OC), dy.data(), N, OC,
              OC, 1);

  // SGEMM, column-major with padded leading dimensions.
  integer m = 21, n = 15, k = 19, lda = 23, ldb = 20, ldc = 22;
  std::vector<float> a(lda * k), b(ldb * n), c(ldc * n);
  fillRandom(a.data(), long(a.size()), 7);
  fillRandom(b.data(), long(b.size()), 8);
  const double ab = frobenius(a.data(), long(a.size())) *
                    frobenius(b.data(), long(b.size()));
  for (float beta : {0.0f, 0.5f}) {
    float alpha = -1.5f;
    fillRandom(c.data(), long(c.size()), 9);
    const double c0 = frobenius(c.data(), long(c.size()));
    sgemm_(&m, &n, &k, &alpha, a.data(), &lda, b.data(), &ldb, &beta,
           c.data(), &ldc);
    printMatrix(beta == 0 ? "sgemm-beta0" : "sgemm-beta", k,
                1.5 * ab + beta * c0, c.data(), m, n, 1, ldc);
  }
  // alpha is an element of C that the nest updates: as written, the loop
  // reads it as it changes; the rewrite must run that loop.
  {
    float beta = 1.0f;
    fillRandom(c.data(), long(c.size()), 10);
    c[ldc * (n - 1)] = 0.25f;
    sgemm_(&m, &n, &k, &c[ldc * (n - 1)], a.data(), &lda, b.data(), &ldb,
           &beta, c.data(), &ldc);
    // TRACE: gemm-opt: nest nn-activations.cpp:{{[0-9]+}}:3 runs the original loop: C holds a scalar that the nest reads through a pointer
    printMatrix("sgemm-alpha-in-c", k, 4 * ab + 2, c.data(), m, n, 1, ldc);
  }

  Layer<float> lf{C, OC, w, bias};
  lf.forward(x.data(), y.data(), N);
  printMatrix("layer-f32", C, withBias, y.data(), N, OC, OC, 1);
  Layer<double> ld{C, OC, dw, db};
  ld.forward(dx.data(), dy.data(), N);
  printMatrix("layer-f64", C,
              dproduct + frobenius(db.data(), OC) * std::sqrt(double(N)),
              dy.data(), N, OC, OC, 1);
  return 0;
}
