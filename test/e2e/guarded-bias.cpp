// Biases assigned under a test and complex helpers applied to real values:
// a fully connected layer whose bias pointer may be null, clamped through a
// helper; a layer whose flag says whether it has a bias, then a ReLU; a
// layer choosing its bias with a `?:` on a flag; and a Gram matrix written
// with std::conj for a real element type. Each layer runs with and without
// its bias, C between guard cells that must keep their values. TNN's
// NaiveFC template adds its bias by `if (bias) acc += bias[o];`, and
// tinygrad's generated kernel reads the bias into a local ahead of the sum.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s --reference-kernel -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
// CHECK-COUNT-6: GEMM recognised
#include "e2e_util.h"
#include "guard_cells.h"

#include <algorithm>
#include <complex>
#include <string>
#include <vector>

template <typename T> inline T clampRange(T v, T lo, T hi) {
  using std::max;
  using std::min;
  return min(max(v, lo), hi);
}

static void connected(const float *in, const float *w, const float *bias,
                      float *out, int batches, int depth, int outs, float lo,
                      float hi) {
  for (int b = 0; b < batches; ++b)
    for (int o = 0; o < outs; ++o) {
      float total = 0.f;
      for (int d = 0; d < depth; ++d)
        total += in[b * depth + d] * w[o * depth + d];
      float offset = 0.0f;
      if (bias) {
        offset = bias[o];
      }
      out[o + outs * b] = clampRange(total + offset, lo, hi);
    }
}

template <typename T>
static void naiveFC(T *in, T *out, T *wt, float *bias, int batch, int nin,
                    int nout) {
  for (int b = 0; b < batch; ++b) {
    T *row = in + b * nin;
    T *dst = out + b * nout;
    for (int o = 0; o < nout; ++o) {
      float acc = 0;
      for (int i = 0; i < nin; ++i)
        acc += float(wt[o * nin + i]) * float(row[i]);
      if (bias)
        acc += bias[o];
      dst[o] = acc;
    }
  }
}

static void generated(float *out, const float *x, const float *w,
                      const float *bias, int M, int N, int K) {
  for (int r0 = 0; r0 < M; r0++)
    for (int r1 = 0; r1 < N; r1++) {
      float acc = 0.0f;
      float bv = bias[r1];
      for (int r2 = 0; r2 < K; r2++) {
        float xv = x[r0 * K + r2];
        float wv = w[r1 * K + r2];
        acc = ((xv * wv) + acc);
      }
      out[r0 * N + r1] = (acc + bv);
    }
}

struct Layer {
  int withBias, outputs;
  const float *weights, *bias;
};

static void layerRelu(const Layer &layer, const float *in, float *out,
                      int rows, int width) {
  for (int j = 0; j < rows; j++) {
    const float *x = in + j * width;
    float *y = out + j * layer.outputs;
    for (int p = 0; p < layer.outputs; p++) {
      const float *kp = layer.weights + width * p;
      float sum = 0.f;
      if (layer.withBias)
        sum = layer.bias[p];
      for (int i = 0; i < width; i++)
        sum += x[i] * kp[i];
      y[p] = std::max(sum, 0.f);
    }
  }
}

static void rowBias(const double *a, const double *b, const double *bias,
                    double *c, int M, int N, int K, bool withBias) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = withBias ? bias[i] : 0.0;
      for (int k = 0; k < K; ++k)
        s += a[i * K + k] * b[k * N + j];
      c[i * N + j] = s;
    }
}

template <class T> static void gram(const T *x, int m, int n, T *g) {
  for (int r = 0; r < m; r++)
    for (int c = 0; c < m; c++) {
      T acc = 0;
      for (int i = 0; i < n; i++)
        acc += x[r * n + i] * std::real(std::conj(x[c * n + i]));
      g[r * m + c] = acc;
    }
}

int main() {
  const int M = 21, N = 19, K = 33;
  std::vector<float> in(M * K), w(N * K), bias(N);
  std::vector<double> ad(M * K), bd(K * N), biasD(M);
  fillRandom(in.data(), M * K, 11);
  fillRandom(w.data(), N * K, 12);
  fillRandom(bias.data(), N, 13);
  fillRandom(ad.data(), M * K, 14);
  fillRandom(bd.data(), K * N, 15);
  fillRandom(biasD.data(), M, 16);
  double norm = frobenius(in.data(), M * K) * frobenius(w.data(), N * K);
  double normD = frobenius(ad.data(), M * K) * frobenius(bd.data(), K * N);
  for (bool withBias : {true, false}) {
    double scale = norm + (withBias ? frobenius(bias.data(), N) : 0);
    const char *suffix = withBias ? "Bias" : "None";
    std::string label;

    std::vector<float> out = guarded<float>(long(M) * N);
    connected(in.data(), w.data(), withBias ? bias.data() : nullptr,
              out.data() + GUARD, M, K, N, -0.25f, 0.5f);
    label = std::string("connected") + suffix;
    printMatrix(label.c_str(), K, scale, out.data() + GUARD, M, N, N, 1);
    checkGuards(label.c_str(), out);

    // A null bias pointer with the flag off: the loop never reads it.
    Layer layer = {withBias, N, w.data(), withBias ? bias.data() : nullptr};
    out = guarded<float>(long(M) * N);
    layerRelu(layer, in.data(), out.data() + GUARD, M, K);
    label = std::string("relu") + suffix;
    printMatrix(label.c_str(), K, scale, out.data() + GUARD, M, N, N, 1);
    checkGuards(label.c_str(), out);

    out = guarded<float>(long(M) * N);
    naiveFC(in.data(), out.data() + GUARD, w.data(),
            withBias ? bias.data() : nullptr, M, K, N);
    label = std::string("naiveFC") + suffix;
    printMatrix(label.c_str(), K, scale, out.data() + GUARD, M, N, N, 1);
    checkGuards(label.c_str(), out);

    std::vector<float> zeros(N, 0.0f);
    out = guarded<float>(long(M) * N);
    generated(out.data() + GUARD, in.data(), w.data(),
              withBias ? bias.data() : zeros.data(), M, N, K);
    label = std::string("generated") + suffix;
    printMatrix(label.c_str(), K, scale, out.data() + GUARD, M, N, N, 1);
    checkGuards(label.c_str(), out);

    std::vector<double> c = guarded<double>(long(M) * N);
    rowBias(ad.data(), bd.data(), biasD.data(), c.data() + GUARD, M, N, K,
            withBias);
    label = std::string("rowBias") + suffix;
    printMatrix(label.c_str(), K,
                normD + (withBias ? frobenius(biasD.data(), M) : 0),
                c.data() + GUARD, M, N, N, 1);
    checkGuards(label.c_str(), c);
  }
  std::vector<float> g = guarded<float>(long(M) * M);
  gram(in.data(), M, K, g.data() + GUARD);
  printMatrix("gram", K, frobenius(in.data(), M * K) * frobenius(in.data(), M * K),
              g.data() + GUARD, M, M, M, 1);
  checkGuards("gram", g);
  return 0;
}
