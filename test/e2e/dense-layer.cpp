// The dense layers of a small NN library: the output starts from a bias
// that may be null, M is batch x time spread over two loops, and an
// activation (ReLU, or a clamp to [act_min, act_max]) finishes each output.
// Also a per-channel bias along M (a convolution lowered to a GEMM) and a
// ternary ReLU as statements after the sum, in double. Each epilogue is fused into the rewritten kernel.
// Layers that zero each output ahead of its sum, with B x T as one M or,
// over padded sequences, B as a batch.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s --reference-kernel -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The lifted problems, epilogues included, on the CPU.
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
#include "e2e_util.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

struct Dense {
  int in, out;
  const float *weight; // [out][in]
  const float *bias;   // [out], or NULL
  float act_min, act_max;
};

// y[B*T][out] = relu(x[B*T][in] * weight^T + bias)
static void dense_relu(const Dense *layer, float *y, const float *x, int B,
                       int T) {
  const int in = layer->in, out = layer->out;
  const float *w = layer->weight, *bias = layer->bias;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = (B * T) x layer->out x layer->in; {{.*}} epilogue: + 'bias[o]' (none if null), max with '0.F'
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      for (int o = 0; o < out; o++) {
        float val = (bias != NULL) ? bias[o] : 0.0f;
        for (int i = 0; i < in; i++)
          val += x[(b * T + t) * in + i] * w[o * in + i];
        y[(b * T + t) * out + o] = fmaxf(val, 0.0f);
      }
    }
  }
}

// y = clamp(x * weight^T + bias, act_min, act_max), the bias added at the
// store.
static void dense_clamp(const Dense *layer, float *y, const float *x, int N) {
  const float lo = layer->act_min, hi = layer->act_max;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = N x {{.*}} epilogue: + 'layer->bias[o]', max with 'lo' (NaN kept), min with 'hi' (NaN kept)
  for (int n = 0; n < N; n++)
    for (int o = 0; o < layer->out; o++) {
      float sum = 0.0f;
      for (int i = 0; i < layer->in; i++)
        sum += x[n * layer->in + i] * layer->weight[o * layer->in + i];
      y[n * layer->out + o] = std::min(std::max(sum + layer->bias[o], lo), hi);
    }
}

// out[c][p] = relu(sum_k w[c][k] * cols[k][p] + bias[c]): one bias per
// output channel, broadcast along the row.
static void conv_gemm(double *outp, const double *w, const double *cols,
                      const double *bias, int Cout, int P, int K) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = Cout x P x K; {{.*}} epilogue: + 'bias[c]', max with '0'
  for (int c = 0; c < Cout; c++)
    for (int p = 0; p < P; p++) {
      double acc = 0;
      for (int k = 0; k < K; k++)
        acc += w[c * K + k] * cols[k * P + p];
      acc += bias[c];
      acc = acc > 0 ? acc : 0;
      outp[c * P + p] = acc;
    }
}

// y = x * weight^T, each output zeroed ahead of its sum: M is still B x T.
static void dense_zeroed(const Dense *layer, float *y, const float *x, int B,
                         int T) {
  const int in = layer->in, out = layer->out;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = (B * T) x layer->out x layer->in; {{.*}} fused zero-init of C, alpha = 1, beta = 0;
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++)
      for (int o = 0; o < out; o++) {
        y[(b * T + t) * out + o] = 0;
        for (int i = 0; i < in; i++)
          y[(b * T + t) * out + o] += x[(b * T + t) * in + i] * layer->weight[o * in + i];
      }
}

// The same over sequences that lie `xs` and `ys` elements apart (padded):
// b is a batch over which the weight is broadcast.
static void dense_padded(const Dense *layer, float *y, const float *x, int B,
                         int T, int xs, int ys) {
  const int in = layer->in, out = layer->out;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = T x layer->out x layer->in, batch B; {{.*}} fused zero-init of C, alpha = 1, beta = 0;
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++)
      for (int o = 0; o < out; o++) {
        y[b * ys + t * out + o] = 0;
        for (int i = 0; i < in; i++)
          y[b * ys + t * out + o] += x[b * xs + t * in + i] * layer->weight[o * in + i];
      }
}

int main() {
  const int B = 3, T = 5, IN = 24, OUT = 17;
  std::vector<float> x(B * T * IN), w(OUT * IN), bias(OUT);
  fillRandom(x.data(), long(x.size()), 1);
  fillRandom(w.data(), long(w.size()), 2);
  fillRandom(bias.data(), long(bias.size()), 3);
  // The bias adds its norm over every row it is broadcast to.
  const double product = frobenius(x.data(), long(x.size())) *
                         frobenius(w.data(), long(w.size()));
  const double withBias =
      product + frobenius(bias.data(), OUT) * std::sqrt(double(B * T));

  Dense layer = {IN, OUT, w.data(), bias.data(), -0.25f, 0.5f};
  std::vector<float> y(B * T * OUT, -1);
  dense_relu(&layer, y.data(), x.data(), B, T);
  printMatrix("relu", IN, withBias, y.data(), B * T, OUT, OUT, 1);

  Dense noBias = layer;
  noBias.bias = NULL;
  std::fill(y.begin(), y.end(), -1.0f);
  dense_relu(&noBias, y.data(), x.data(), B, T);
  printMatrix("relu-no-bias", IN, product, y.data(), B * T, OUT, OUT, 1);

  std::fill(y.begin(), y.end(), -1.0f);
  dense_clamp(&layer, y.data(), x.data(), B * T);
  printMatrix("clamp", IN, withBias, y.data(), B * T, OUT, OUT, 1);

  Dense plain = noBias;
  std::fill(y.begin(), y.end(), -1.0f);
  dense_zeroed(&plain, y.data(), x.data(), B, T);
  printMatrix("zeroed", IN, product, y.data(), B * T, OUT, OUT, 1);

  // Two padded sequences: the padding of y is poisoned and must stay so.
  const int XS = T * IN + 7, YS = T * OUT + 5;
  std::vector<float> xp(2 * XS), yp(2 * YS, -1);
  fillRandom(xp.data(), long(xp.size()), 7);
  dense_padded(&plain, yp.data(), xp.data(), 2, T, XS, YS);
  printMatrix("padded", IN,
              frobenius(xp.data(), long(xp.size())) *
                  frobenius(w.data(), long(w.size())),
              yp.data(), 1, 2 * YS, 2 * YS, 1);

  const int COUT = 9, P = 31, K = 13;
  std::vector<double> cw(COUT * K), cols(K * P), cb(COUT), outp(COUT * P, -1);
  fillRandom(cw.data(), long(cw.size()), 4);
  fillRandom(cols.data(), long(cols.size()), 5);
  fillRandom(cb.data(), long(cb.size()), 6);
  conv_gemm(outp.data(), cw.data(), cols.data(), cb.data(), COUT, P, K);
  printMatrix("conv", K,
              frobenius(cw.data(), long(cw.size())) *
                      frobenius(cols.data(), long(cols.size())) +
                  frobenius(cb.data(), COUT) * std::sqrt(double(P)),
              outp.data(), COUT, P, P, 1);
  return 0;
}
