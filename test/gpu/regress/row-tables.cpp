// Regression (GPU): tables of rows, gathered into contiguous copies and
// scattered back. A vector of vectors (f64, C += A*B over a block of C at
// row and column offsets) and row pointers with the second factor read along
// its columns (f32, C = A*B^T), on shapes large enough to run in several
// panels. Each row is longer than the matrix and poisoned past it; the
// tails and the elements outside the block must keep their values. Each
// result is checked against a reference that gemm-opt does not rewrite (its
// body calls a function), with an element-wise GEMM bound.
#include <cmath>
#include <cstdio>
#include <vector>

using Matrix = std::vector<std::vector<double>>;

static void blockUpdate(const Matrix &a, const Matrix &b, Matrix &c, int i0,
                        int i1, int j0, int j1, int K) {
  for (int i = i0; i < i1; ++i)
    for (int k = 0; k < K; ++k)
      for (int j = j0; j < j1; ++j)
        c[i][j] += a[i][k] * b[k][j];
}

static void productNT(int M, int N, int K, float **a, float **bt, float **c) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < K; ++k)
        s += a[i][k] * bt[j][k];
      c[i][j] = s;
    }
}

static double touch(double x) { return x; }

static unsigned state = 12345;
static double uniform() {
  state = state * 1664525u + 1013904223u;
  return (state >> 8) * (2.0 / 16777216.0) - 1.0;
}

/// Whether got is within the GEMM bound of want, a sum of K products whose
/// magnitudes add up to absSum.
static bool close(double got, double want, double absSum, int K, double eps) {
  return std::fabs(got - want) <= (K + 2) * eps * absSum + 1e-30;
}

int main() {
  const int tail = 4;
  int failures = 0;
  {
    const int M = 1500, N = 1300, K = 700, i0 = 7, i1 = 1401, j0 = 5,
              j1 = 1290;
    const double poison = -777.0;
    Matrix a(M, std::vector<double>(K + tail, poison)),
        b(K, std::vector<double>(N + tail, poison)),
        c(M, std::vector<double>(N + tail, poison));
    for (int i = 0; i < M; ++i)
      for (int k = 0; k < K; ++k)
        a[i][k] = uniform();
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < N; ++j)
        b[k][j] = uniform();
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        c[i][j] = uniform();
    const Matrix c0 = c;
    blockUpdate(a, b, c, i0, i1, j0, j1, K);
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N + tail; ++j) {
        const bool inside = i >= i0 && i < i1 && j >= j0 && j < j1;
        if (!inside) {
          failures += c[i][j] != c0[i][j];
          continue;
        }
        if (i % 7 != 0 && j % 11 != 0)
          continue;
        double sum = c0[i][j], absSum = std::fabs(c0[i][j]);
        for (int k = 0; k < K; ++k) {
          double p = touch(a[i][k] * b[k][j]);
          sum += p;
          absSum += std::fabs(p);
        }
        if (!close(c[i][j], sum, absSum, K, 0x1p-53) && failures++ < 5)
          std::printf("vectors: c[%d][%d] = %g, want %g\n", i, j, c[i][j],
                      sum);
      }
  }
  {
    const int M = 2100, N = 900, K = 1200;
    const float poison = -777.0f;
    std::vector<std::vector<float>> rows(M + N + M);
    std::vector<float *> a(M), bt(N), c(M);
    for (int r = 0; r < M + N + M; ++r) {
      const int length = r < M ? K : r < M + N ? K : N;
      rows[r].assign(length + tail, poison);
      for (int t = 0; t < length; ++t)
        rows[r][t] = float(uniform());
    }
    for (int i = 0; i < M; ++i) {
      a[i] = rows[i].data();
      c[i] = rows[M + N + i].data();
    }
    for (int j = 0; j < N; ++j)
      bt[j] = rows[M + j].data();
    productNT(M, N, K, a.data(), bt.data(), c.data());
    for (int i = 0; i < M; ++i) {
      for (int t = 0; t < tail; ++t)
        failures += c[i][N + t] != poison;
      for (int j = i % 5; j < N; j += 5) {
        double sum = 0, absSum = 0;
        for (int k = 0; k < K; ++k) {
          double p = touch(double(a[i][k]) * double(bt[j][k]));
          sum += p;
          absSum += std::fabs(p);
        }
        if (!close(c[i][j], sum, absSum, K, 0x1p-24) && failures++ < 5)
          std::printf("pointers: c[%d][%d] = %g, want %g\n", i, j, c[i][j],
                      sum);
      }
    }
  }
  std::printf("%d wrong elements\n", failures);
  return failures != 0;
}
