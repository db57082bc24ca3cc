// Nests versioned on a loop-invariant branch: a dense layer whose weights
// are stored either way round (the flag read through a parameter struct,
// the branch in the K loop, an optional bias), a product whose B layout a
// `?:` picks, a nest whose one arm is no GEMM, and a tensor library's
// layer (AIfES's style: extents read from `uint16_t` shape arrays, which by
// C's aliasing rule the float stores cannot change, and `if (c != 0) sum +=
// bias[j];` after the K loop). Each is run with the condition true and
// false, with guard cells around C.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s --reference-kernel -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
// CHECK-COUNT-5: versioned on
#include "e2e_util.h"
#include "guard_cells.h"

#include <vector>

struct Layer {
  int transposed;
  int rows, cols, depth;
};

static void dense(const float *in, const float *w, const float *bias,
                  float *out, const Layer *p) {
  int n, i, j;
  for (n = 0; n < p->rows; n++)
    for (i = 0; i < p->cols; i++) {
      float tmp = bias ? bias[i] : 0.f;
      for (j = 0; j < p->depth; j++) {
        if (p->transposed == 0)
          tmp += in[n * p->depth + j] * w[i * p->depth + j];
        else
          tmp += in[n * p->depth + j] * w[i + j * p->cols];
      }
      out[n * p->cols + i] = tmp;
    }
}

// The flag behind a pointer that an empty nest never reads: a call with no
// rows, or with K = 0, may pass a null one.
struct Flags {
  int transposed;
};
static void denseFlags(int M, int N, int K, const float *in, const float *w,
                       float *out, const Flags *f) {
  for (int n = 0; n < M; n++)
    for (int i = 0; i < N; i++) {
      float tmp = 0;
      for (int j = 0; j < K; j++) {
        if (f->transposed == 0)
          tmp += in[n * K + j] * w[i * K + j];
        else
          tmp += in[n * K + j] * w[i + j * N];
      }
      out[n * N + i] = tmp;
    }
}

static void gemmFlag(bool transB, int M, int N, int K, const double *A,
                     const double *B, double *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double acc = 0;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * (transB ? B[j * K + k] : B[k * N + j]);
      C[i * N + j] = acc;
    }
}

static void squareOrProduct(int square, int M, int N, int K, const float *A,
                            const float *B, float *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k) {
        if (square)
          C[i * N + j] += A[i * K + k] * A[i * K + k];
        else
          C[i * N + j] += A[i * K + k] * B[k * N + j];
      }
}

struct Tensor {
  unsigned short *shape;
  void *data;
};

static void linear(const Tensor *a, const Tensor *b, const Tensor *c,
                   Tensor *result) {
  unsigned short i, j, k;
  float sum;
  float *A = (float *)a->data, *B = (float *)b->data;
  float *bias = c != 0 ? (float *)c->data : 0;
  float *R = (float *)result->data;
  for (i = 0; i < a->shape[0]; i++)
    for (j = 0; j < b->shape[1]; j++) {
      sum = 0.0f;
      for (k = 0; k < a->shape[1]; k++)
        sum += A[i * a->shape[1] + k] * B[k * b->shape[1] + j];
      if (c != 0)
        sum += bias[j];
      R[i * result->shape[1] + j] = sum;
    }
}

int main() {
  const int M = 19, N = 23, K = 31;
  std::vector<float> af(M * K), bf(K * N), bias(N);
  std::vector<double> ad(M * K), bd(K * N);
  fillRandom(af.data(), M * K, 1);
  fillRandom(bf.data(), K * N, 2);
  fillRandom(bias.data(), N, 3);
  fillRandom(ad.data(), M * K, 4);
  fillRandom(bd.data(), K * N, 5);
  double normF = frobenius(af.data(), M * K) * frobenius(bf.data(), K * N);
  double normD = frobenius(ad.data(), M * K) * frobenius(bd.data(), K * N);
  for (int transposed : {0, 1}) {
    for (const float *b : {(const float *)bias.data(), (const float *)nullptr}) {
      Layer p = {transposed, M, N, K};
      std::vector<float> out = guarded(long(M) * N, float(NAN));
      dense(af.data(), bf.data(), b, out.data() + GUARD, &p);
      const char *label = transposed ? (b ? "denseTB" : "denseT")
                                     : (b ? "denseNB" : "denseN");
      printMatrix(label, K, normF + (b ? frobenius(bias.data(), N) : 0),
                  out.data() + GUARD, M, N, N, 1);
      checkGuards(label, out);
    }
  }
  for (int transposed : {0, 1}) {
    Flags f = {transposed};
    std::vector<float> out = guarded(long(M) * N, float(NAN));
    denseFlags(M, N, K, af.data(), bf.data(), out.data() + GUARD, &f);
    const char *label = transposed ? "flagsT" : "flagsN";
    printMatrix(label, K, normF, out.data() + GUARD, M, N, N, 1);
    checkGuards(label, out);
  }
  {
    // Empty nests with a null flag: no rows, then no K (C set to zero).
    std::vector<float> out = guarded(long(M) * N, float(NAN));
    denseFlags(0, N, K, af.data(), bf.data(), out.data() + GUARD, nullptr);
    checkGuards("flagsNoRows", out);
    denseFlags(M, N, 0, af.data(), bf.data(), out.data() + GUARD, nullptr);
    printMatrix("flagsNoK", 0, 1, out.data() + GUARD, M, N, N, 1);
    checkGuards("flagsNoK", out);
  }
  for (bool transB : {false, true}) {
    std::vector<double> c = guarded(long(M) * N, double(NAN));
    gemmFlag(transB, M, N, K, ad.data(), bd.data(), c.data() + GUARD);
    const char *label = transB ? "flagT" : "flagN";
    printMatrix(label, K, normD, c.data() + GUARD, M, N, N, 1);
    checkGuards(label, c);
  }
  for (bool withBias : {true, false}) {
    unsigned short aShape[] = {M, K}, bShape[] = {K, N}, cShape[] = {N},
                   rShape[] = {M, N};
    std::vector<float> out = guarded(long(M) * N, float(NAN));
    Tensor ta = {aShape, af.data()}, tb = {bShape, bf.data()},
           tc = {cShape, bias.data()}, tr = {rShape, out.data() + GUARD};
    linear(&ta, &tb, withBias ? &tc : nullptr, &tr);
    const char *label = withBias ? "linearB" : "linear";
    printMatrix(label, K, normF + (withBias ? frobenius(bias.data(), N) : 0),
                out.data() + GUARD, M, N, N, 1);
    checkGuards(label, out);
  }
  for (int square : {0, 1}) {
    std::vector<float> c = guarded(long(M) * N, 0.5f);
    squareOrProduct(square, M, N, K, af.data(), bf.data(), c.data() + GUARD);
    const char *label = square ? "square" : "product";
    printMatrix(label, K, normF + 0.5 * M * N, c.data() + GUARD, M, N, N, 1);
    checkGuards(label, c);
  }
  return 0;
}
