// Nests versioned on a `switch` on a loop-invariant integer, each run for
// every listed value and for values no label lists, with guard cells around
// C: a fully connected layer whose activation a helper picks by its type (a
// nullable-flag bias; ReLU and sigmoid are GEMM versions, leaky ReLU, a clip
// whose bounds the nest reads from memory and softplus run the loops, and an
// unlisted type leaves the sum); a batched product whose B is shared by the
// batches or not, as a switch on B's rank sets B's pointer (`default:` first,
// sharing a case); an update per layout in the K loop whose NN case is also
// the default; a helper whose ReLU6 falls through (a comment says so) into
// the upper clamp; and the activation again with braced cases that end in
// `break` (ncnn's), and a helper whose cases return.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s --reference-kernel -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
// CHECK-COUNT-6: versioned on the 'switch'
#include "e2e_util.h"
#include "guard_cells.h"

#include <algorithm>
#include <cmath>
#include <vector>

static float act_apply(float r, int act, const float *p) {
  switch (act) {
  case 1:
    r = r < 0.f ? 0.f : r;
    break;
  case 2:
    r = r > 0.f ? r : r * p[0];
    break;
  case 3:
    r = std::min(std::max(r, p[0]), p[1]);
    break;
  case 4:
    r = 1.f / (1.f + std::exp(-r));
    break;
  case 5:
    r = std::log(1.f + std::exp(r));
    break;
  default:
    break;
  }
  return r;
}

static void fc_forward(const float *in, const float *w, const float *bias,
                       int bias_term, int act, const float *p, float *out,
                       int rows, int outs, int width) {
  for (int r = 0; r < rows; r++)
    for (int o = 0; o < outs; o++) {
      float sum = bias_term ? bias[o] : 0.f;
      for (int i = 0; i < width; i++)
        sum += in[r * width + i] * w[o * width + i];
      out[r * outs + o] = act_apply(sum, act, p);
    }
}

static void batch_matmul(const float *a, const float *b, float *c, int batch,
                         int M, int N, int K, int b_dims) {
  for (int nb = 0; nb < batch; nb++) {
    const float *pb = b;
    switch (b_dims) {
    default:
    case 3:
      pb = b + nb * K * N;
      break;
    case 2:
      break;
    }
    for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++) {
        float tmp = 0.f;
        for (int kk = 0; kk < K; kk++)
          tmp += a[nb * M * K + i * K + kk] * pb[kk * N + j];
        c[nb * M * N + i * N + j] = tmp;
      }
  }
}

enum Trans { TRANS_NONE = 0, TRANS_B = 1, TRANS_A = 2 };

static void gemm_trans(int trans, int M, int N, int K, const double *A,
                       const double *B, double *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      C[i * N + j] = 0;
      for (int k = 0; k < K; ++k)
        switch (trans) {
        case TRANS_A:
          C[i * N + j] += A[k * M + i] * B[k * N + j];
          break;
        case TRANS_B:
          C[i * N + j] += A[i * K + k] * B[j * K + k];
          break;
        case TRANS_NONE:
        default:
          C[i * N + j] += A[i * K + k] * B[k * N + j];
        }
    }
}

static inline float bounded(float v, int kind) {
  switch (kind) {
  case 6:
    v = fmaxf(v, 0.f);
    /* fall through */
  case 7:
    v = fminf(v, 6.f);
  }
  return v;
}

static void relu6(int kind, int M, int N, int K, const float *A,
                  const float *B, float *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < K; ++k)
        s += A[i * K + k] * B[k * N + j];
      C[i * N + j] = bounded(s, kind);
    }
}

// ncnn's spelling: each case braced, its `break` inside the braces.
static inline float braced_act(float v, int type, const float *p) {
  switch (type) {
  case 1:
  {
    v = fmaxf(v, 0.f);
    break;
  }
  case 2:
  {
    float slope = p[0];
    v = v > 0.f ? v : v * slope;
    break;
  }
  case 4:
  {
    v = 1.f / (1.f + expf(-v));
    break;
  }
  }
  return v;
}

// A helper whose cases return; its default falls to the end.
static inline float returning_act(float v, int type) {
  switch (type) {
  case 1:
    return v < 0.f ? 0.f : v;
  case 3: {
    return std::min(v, 6.f);
  }
  default:
    v = std::max(v, -1.f);
  }
  return v;
}

static void fc_braced(const float *in, const float *w, const float *bias,
                      int type, const float *p, float *out, int rows,
                      int outs, int width) {
  for (int j = 0; j < rows; j++)
    for (int o = 0; o < outs; o++) {
      float sum = bias ? bias[o] : 0.f;
      for (int i = 0; i < width; i++)
        sum += in[j * width + i] * w[o * width + i];
      out[j * outs + o] = braced_act(sum, type, p);
    }
}

static void fc_returning(const float *in, const float *w, int type,
                         float *out, int rows, int outs, int width) {
  for (int j = 0; j < rows; j++)
    for (int o = 0; o < outs; o++) {
      float sum = 0.f;
      for (int i = 0; i < width; i++)
        sum += in[j * width + i] * w[o * width + i];
      out[j * outs + o] = returning_act(sum, type);
    }
}

// A function's error: at most its steepest slope (1 here) times the
// product's, plus the libm's ulps of a result no larger than |x| + 1.
static double withFunction(double scale, long count) {
  return 1.2 * scale + std::sqrt(double(count));
}

int main() {
  const int M = 19, N = 23, K = 31, BATCH = 3;
  std::vector<float> a(BATCH * M * K), b(BATCH * K * N), bias(N);
  std::vector<double> ad(M * K), bd(K * N);
  fillRandom(a.data(), long(a.size()), 1);
  fillRandom(b.data(), long(b.size()), 2);
  fillRandom(bias.data(), N, 3);
  fillRandom(ad.data(), M * K, 4);
  fillRandom(bd.data(), K * N, 5);
  const float params[] = {-0.25f, 0.5f};
  char label[64];

  // M x K inputs against N x K weights, with and without the bias.
  double product = frobenius(a.data(), M * K) * frobenius(b.data(), N * K);
  for (int act : {0, 1, 2, 3, 4, 5, 6, -1}) {
    for (int biasTerm : {1, 0}) {
      std::vector<float> out = guarded<float>(long(M) * N);
      fc_forward(a.data(), b.data(), bias.data(), biasTerm, act, params,
                 out.data() + GUARD, M, N, K);
      std::snprintf(label, sizeof label, "fc-%d-%d", act, biasTerm);
      double scale =
          product + (biasTerm ? frobenius(bias.data(), N) * std::sqrt(M) : 0);
      printMatrix(label, K, act == 4 ? withFunction(scale, M * N) : scale,
                  out.data() + GUARD, M, N, N, 1);
      checkGuards(label, out);
    }
  }
  for (int type : {1, 2, 4, 0}) {
    for (const float *b0 : {(const float *)bias.data(), (const float *)0}) {
      std::vector<float> out = guarded<float>(long(M) * N);
      fc_braced(a.data(), b.data(), b0, type, params, out.data() + GUARD, M, N,
                K);
      std::snprintf(label, sizeof label, "braced-%d-%d", type, b0 != 0);
      double scale =
          product + (b0 ? frobenius(bias.data(), N) * std::sqrt(M) : 0);
      printMatrix(label, K, type == 4 ? withFunction(scale, M * N) : scale,
                  out.data() + GUARD, M, N, N, 1);
      checkGuards(label, out);
    }
  }
  for (int type : {1, 3, 5}) {
    std::vector<float> out = guarded<float>(long(M) * N);
    fc_returning(a.data(), b.data(), type, out.data() + GUARD, M, N, K);
    std::snprintf(label, sizeof label, "returning-%d", type);
    printMatrix(label, K, product, out.data() + GUARD, M, N, N, 1);
    checkGuards(label, out);
  }
  for (int dims : {2, 3, 9}) {
    std::vector<float> c = guarded<float>(long(BATCH) * M * N);
    batch_matmul(a.data(), b.data(), c.data() + GUARD, BATCH, M, N, K, dims);
    std::snprintf(label, sizeof label, "matmul-%d", dims);
    printMatrix(label, K,
                frobenius(a.data(), long(a.size())) *
                    frobenius(b.data(), long(b.size())),
                c.data() + GUARD, BATCH * M, N, N, 1);
    checkGuards(label, c);
  }
  // TRANS_B reads B as N x K and TRANS_A reads A as K x M: the same buffers.
  double productD = frobenius(ad.data(), M * K) * frobenius(bd.data(), K * N);
  for (int trans : {int(TRANS_NONE), int(TRANS_B), int(TRANS_A), 5}) {
    std::vector<double> c = guarded<double>(long(M) * N);
    gemm_trans(trans, M, N, K, ad.data(), bd.data(), c.data() + GUARD);
    std::snprintf(label, sizeof label, "trans-%d", trans);
    printMatrix(label, K, productD, c.data() + GUARD, M, N, N, 1);
    checkGuards(label, c);
  }
  // Sums of magnitude above 6 meet the upper clamp too.
  std::vector<float> big(K * N);
  for (long e = 0; e < K * N; ++e)
    big[e] = 8 * b[e];
  double productBig = frobenius(a.data(), M * K) * frobenius(big.data(), K * N);
  for (int kind : {6, 7, 0, 8}) {
    std::vector<float> c = guarded<float>(long(M) * N);
    relu6(kind, M, N, K, a.data(), big.data(), c.data() + GUARD);
    std::snprintf(label, sizeof label, "relu6-%d", kind);
    printMatrix(label, K, productBig, c.data() + GUARD, M, N, N, 1);
    checkGuards(label, c);
  }
  return 0;
}
