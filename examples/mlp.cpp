// A small two-layer perceptron with a batched attention score, written the
// way numerical code often is: plain loops over flat buffers and arrays.
// gemm-opt rewrites its matrix products; everything else stays as written.
//
//   gemm-opt examples/mlp.cpp -o mlp.cu
//   nvcc mlp.cu $(gemm-opt --nvcc-flags) -o mlp && ./mlp
//
// With `--dump` it prints every result matrix in the format that
// test/e2e/compare.py reads, so two builds can be compared norm-wise.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

enum { Batch = 96, In = 300, Hidden = 257, Out = 64, Heads = 8, Seq = 48, Dim = 32 };

static void fill(std::vector<float> &v, unsigned seed) {
  unsigned long long state = seed * 6364136223846793005ULL + 1;
  for (float &x : v) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    x = float(double(state >> 11) / 9007199254740992.0 * 2 - 1);
  }
}

static double norm(const std::vector<float> &v) {
  double s = 0;
  for (float x : v)
    s += double(x) * x;
  return std::sqrt(s);
}

static void dump(const char *label, long k, double scale,
                 const std::vector<float> &v) {
  std::printf("matrix %s f32 %ld %.17g %zu", label, k, scale, v.size());
  for (float x : v)
    std::printf(" %.9g", x);
  std::printf("\n");
}

/// y = x * W^T + bias: W is stored row-major as [Out][In], so the product
/// reads it transposed.
static void dense(int batch, int in, int out, const float *x, const float *w,
                  const float *bias, float *y) {
  for (int b = 0; b < batch; ++b)
    for (int o = 0; o < out; ++o)
      y[b * out + o] = bias[o];
  for (int b = 0; b < batch; ++b)
    for (int o = 0; o < out; ++o) {
      float acc = 0.0f;
      for (int i = 0; i < in; ++i)
        acc += x[b * in + i] * w[o * in + i];
      y[b * out + o] += acc;
    }
}

/// scores[h] = scale * Q[h] * K[h]^T for each head.
static float q[Heads][Seq][Dim], k[Heads][Seq][Dim], scores[Heads][Seq][Seq];

static void attentionScores(float scale) {
  for (int h = 0; h < Heads; ++h)
    for (int s = 0; s < Seq; ++s)
      for (int t = 0; t < Seq; ++t) {
        scores[h][s][t] = 0;
        for (int d = 0; d < Dim; ++d)
          scores[h][s][t] += scale * q[h][s][d] * k[h][t][d];
      }
}

int main(int argc, char **argv) {
  bool dumpAll = argc > 1 && std::strcmp(argv[1], "--dump") == 0;
  std::vector<float> x(Batch * In), w1(Hidden * In), b1(Hidden),
      w2(Out * Hidden), b2(Out), h(Batch * Hidden), y(Batch * Out);
  fill(x, 1);
  fill(w1, 2);
  fill(b1, 3);
  fill(w2, 4);
  fill(b2, 5);

  dense(Batch, In, Hidden, x.data(), w1.data(), b1.data(), h.data());
  if (dumpAll)
    dump("hidden", In, norm(x) * norm(w1) + norm(b1) * Batch, h);
  for (float &v : h)
    v = v > 0 ? v : 0;
  dense(Batch, Hidden, Out, h.data(), w2.data(), b2.data(), y.data());
  if (dumpAll)
    dump("output", Hidden, norm(h) * norm(w2) + norm(b2) * Batch, y);

  std::vector<float> qv(Heads * Seq * Dim), kv(Heads * Seq * Dim);
  fill(qv, 6);
  fill(kv, 7);
  std::memcpy(q, qv.data(), sizeof q);
  std::memcpy(k, kv.data(), sizeof k);
  float scale = 1.0f / std::sqrt(float(Dim));
  attentionScores(scale);
  std::vector<float> sv(&scores[0][0][0], &scores[0][0][0] + Heads * Seq * Seq);
  if (dumpAll)
    dump("scores", Dim, scale * norm(qv) * norm(kv), sv);

  std::printf("mlp: |hidden| = %.6g, |output| = %.6g, |scores| = %.6g\n",
              norm(h), norm(y), norm(sv));
  return 0;
}
