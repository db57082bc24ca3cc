// Regression (GPU): fused epilogues, C = act(A*B + bias), under every
// variant of the plans and with K split (test/gpu/regress.sh forces each
// through GEMM_OPT_CHOICE): the bias and the clamps must apply once, after
// the whole sum over K. A dense layer with a nullable bias and a ReLU (f32),
// a per-row bias with a clamp (f64), on random shapes with long K. Each
// result is checked against a reference that gemm-opt does not rewrite (its
// body calls a function), with an element-wise GEMM bound, and the padding
// columns of C must keep their poison.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

static void dense(int M, int N, int K, const float *x, const float *w,
                  const float *bias, float *y, int ldy) {
  for (int i = 0; i < M; ++i)
    for (int o = 0; o < N; ++o) {
      float v = (bias != NULL) ? bias[o] : 0.0f;
      for (int k = 0; k < K; ++k)
        v += x[i * K + k] * w[o * K + k];
      y[i * ldy + o] = fmaxf(v, 0.0f);
    }
}

static void clamped(int M, int N, int K, const double *a, const double *b,
                    const double *rowBias, double lo, double hi, double *c) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k)
        s += a[i * K + k] * b[k * N + j];
      c[i * N + j] = std::fmin(std::fmax(s + rowBias[i], lo), hi);
    }
}

static double touch(double x) { return x; }

/// The epilogue's value from a double sum, and the GEMM bound on it.
template <class T>
static bool close(T got, double sum, double absSum, double bias, double lo,
                  double hi, int K) {
  const double eps = sizeof(T) == 4 ? 0x1p-24 : 0x1p-53;
  const double want = std::fmin(std::fmax(sum + bias, lo), hi);
  const double bound = (K + 2) * eps * (absSum + std::fabs(bias)) + 1e-30;
  return std::fabs(double(got) - want) <= bound;
}

static unsigned state = 12345;
static double uniform() {
  state = state * 1664525u + 1013904223u;
  return (state >> 8) * (2.0 / 16777216.0) - 1.0;
}

int main() {
  int failures = 0;
  const int shapes[][3] = {{77, 45, 3001}, {128, 96, 4096}, {5, 300, 777},
                           {200, 7, 2049}};
  for (const auto &shape : shapes) {
    const int M = shape[0], N = shape[1], K = shape[2], ldy = N + 3;
    std::vector<float> x(size_t(M) * K), w(size_t(N) * K), bias(N);
    for (float &v : x) v = float(uniform());
    for (float &v : w) v = float(uniform());
    for (float &v : bias) v = float(uniform());
    for (int withBias = 0; withBias < 2; ++withBias) {
      std::vector<float> y(size_t(M) * ldy, NAN);
      dense(M, N, K, x.data(), w.data(), withBias ? bias.data() : nullptr,
            y.data(), ldy);
      for (int i = 0; i < M; ++i)
        for (int o = 0; o < ldy; ++o) {
          float got = y[size_t(i) * ldy + o];
          if (o >= N) {
            failures += !std::isnan(got);
            continue;
          }
          double sum = 0, absSum = 0;
          for (int k = 0; k < K; ++k) {
            double p = touch(double(x[size_t(i) * K + k]) *
                             double(w[size_t(o) * K + k]));
            sum += p;
            absSum += std::fabs(p);
          }
          if (!close(got, sum, absSum, withBias ? bias[o] : 0.0, 0.0,
                     INFINITY, K)) {
            if (failures++ < 5)
              std::printf("dense %dx%dx%d bias=%d: y[%d][%d] = %g\n", M, N, K,
                          withBias, i, o, got);
          }
        }
    }
    std::vector<double> a(size_t(M) * K), b(size_t(K) * N), rowBias(M),
        c(size_t(M) * N);
    for (double &v : a) v = uniform();
    for (double &v : b) v = uniform();
    for (double &v : rowBias) v = uniform();
    const double lo = -0.5, hi = 2.0;
    clamped(M, N, K, a.data(), b.data(), rowBias.data(), lo, hi, c.data());
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double sum = 0, absSum = 0;
        for (int k = 0; k < K; ++k) {
          double p = touch(a[size_t(i) * K + k] * b[size_t(k) * N + j]);
          sum += p;
          absSum += std::fabs(p);
        }
        if (!close(c[size_t(i) * N + j], sum, absSum, rowBias[i], lo, hi, K)) {
          if (failures++ < 5)
            std::printf("clamped %dx%dx%d: c[%d][%d] = %g\n", M, N, K, i, j,
                        c[size_t(i) * N + j]);
        }
      }
  }
  std::printf("%d wrong elements\n", failures);
  return failures != 0;
}
