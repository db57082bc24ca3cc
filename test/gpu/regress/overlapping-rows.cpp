// Regression (GPU): operands whose rows overlap -- a leading dimension
// smaller than the row extent, 0, or 1 (Toeplitz-like), and odd batch
// strides -- are legal read-only views. The packed path's alignment check
// must refuse them, not abort with "misaligned address", and a staged dense
// copy of B, whose two strides are then both 1, must keep the unit stride the
// kernel was compiled for (column-major C stages along N). f32 and f64, host
// operands; the shapes include the ones the fuzzer found.
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

static void nestF(int m, int n, int k, const float *a, int lda, const float *b,
                  int ldb, float *c, int ldc) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int l = 0; l < k; ++l)
        s += a[i * lda + l] * b[l * ldb + j];
      c[i * ldc + j] = s;
    }
}

/// C column-major.
static void nestColF(int m, int n, int k, const float *a, int lda,
                     const float *b, int ldb, float *c, int ldc) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int l = 0; l < k; ++l)
        s += a[i * lda + l] * b[l * ldb + j];
      c[j * ldc + i] = s;
    }
}

static void nestD(int m, int n, int k, const double *a, int lda,
                  const double *b, int ldb, double *c, int ldc) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int l = 0; l < k; ++l)
        s += a[i * lda + l] * b[l * ldb + j];
      c[i * ldc + j] = s;
    }
}

/// Odd batch strides of A and C, A's rows overlapping, B broadcast (its
/// batch stride 0 at run time).
static void batched(int bs, int m, int n, int k, const float *a, long sa,
                    int lda, const float *b, long sb, int ldb, float *c,
                    long sc, int ldc) {
  for (int p = 0; p < bs; ++p)
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        for (int l = 0; l < k; ++l)
          c[p * sc + i * ldc + j] += a[p * sa + i * lda + l] * b[p * sb + l * ldb + j];
}

static double at(const float *p, long x) { return p[x]; }
static double at(const double *p, long x) { return p[x]; }

/// Checks C against a double reference (norm-wise) and the guards exactly.
template <class T>
static bool check(const char *what, bool accumulates, int bs, int m, int n, int k,
                  const std::vector<T> &a, long sa, int lda,
                  const std::vector<T> &b, int ldb, const std::vector<T> &c0,
                  const std::vector<T> &c, long sc, long cr, long cc, int G) {
  double err2 = 0, scale2 = 0;
  std::vector<char> written(c.size(), 0);
  for (int p = 0; p < bs; ++p)
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        const long x = G + p * sc + i * cr + j * cc;
        written[x] = 1;
        double ref = accumulates ? at(c0.data(), x) : 0, norm = std::fabs(ref);
        for (int l = 0; l < k; ++l) {
          double q = at(a.data(), G + p * sa + long(i) * lda + l) *
                     at(b.data(), G + long(l) * ldb + j);
          ref += q;
          norm += std::fabs(q);
        }
        err2 += (c[x] - ref) * (c[x] - ref);
        scale2 += norm * norm;
      }
  long outside = 0;
  for (size_t x = 0; x < c.size(); ++x)
    outside += !written[x] && c[x] != c0[x];
  const double eps = sizeof(T) == 4 ? 0x1p-24 : 0x1p-53;
  const bool ok =
      std::sqrt(err2) <= 4.0 * (k + 2) * eps * std::sqrt(scale2) && !outside;
  if (!ok)
    std::printf("FAIL %s m=%d n=%d k=%d lda=%d ldb=%d: err %.3g, %ld outside\n",
                what, m, n, k, lda, ldb, std::sqrt(err2), outside);
  return ok;
}

template <class T>
static std::vector<T> randomVector(long size) {
  std::vector<T> v(size);
  for (T &x : v)
    x = T(std::rand()) / RAND_MAX * 2 - 1;
  return v;
}

template <class T>
static int one(const char *what, int m, int n, int k, int lda, int ldb,
               void (*f)(int, int, int, const T *, int, const T *, int, T *,
                         int),
               bool colC = false) {
  const int G = 32, ldc = (colC ? m : n) + 3;
  auto a = randomVector<T>(long(m) * (lda > 0 ? lda : 1) + k + 2 * G);
  auto b = randomVector<T>(long(k) * (ldb > 0 ? ldb : 1) + n + 2 * G);
  auto c = randomVector<T>(long(colC ? n : m) * ldc + 2 * G), c0 = c;
  f(m, n, k, a.data() + G, lda, b.data() + G, ldb, c.data() + G, ldc);
  return !check(what, false, 1, m, n, k, a, 0, lda, b, ldb, c0, c, 0,
                colC ? 1 : ldc, colC ? ldc : 1, G);
}

int main() {
  std::srand(7);
  int failures = 0, runs = 0;
  const int shapes[][3] = {{1, 5, 1537}, {168, 69, 3}, {199, 97, 31},
                           {64, 64, 64}, {130, 260, 40}, {7, 300, 129}};
  for (const auto &s : shapes) {
    const int m = s[0], n = s[1], k = s[2];
    // Leading dimensions below the extents: overlapping rows.
    for (int lda : {0, 1, 2, 3, 4, k > 1 ? k - 1 : 1, k})
      for (int ldb : {0, 1, 2, 4, n > 1 ? n - 1 : 1, n}) {
        failures += one<float>("f32", m, n, k, lda, ldb, nestF);
        failures += one<double>("f64", m, n, k, lda, ldb, nestD);
        runs += 2;
      }
  }
  // C column-major: staged along N, B's panels are copies of B^T.
  for (const auto &s : {std::array<int, 3>{2, 2, 142}, {37, 45, 142},
                        {130, 260, 40}, {1, 5, 1537}})
    for (int ldb : {1, 0, s[1]}) {
      failures += one<float>("f32, C column-major", s[0], s[1], s[2], s[2],
                             ldb, nestColF, true);
      ++runs;
    }
  // Odd batch strides with overlapping rows of A.
  for (int t = 0; t < 40; ++t) {
    const int G = 32, bs = 1 + t % 4, m = 1 + std::rand() % 150,
              n = 1 + std::rand() % 150, k = 1 + std::rand() % 90;
    const int lda = std::rand() % (k + 2), ldb = n + std::rand() % 3,
              ldc = n + std::rand() % 5;
    const long sa = 1 + std::rand() % 17, sc = long(m) * ldc + 1 + 2 * (t % 3);
    auto a = randomVector<float>(sa * bs + long(m) * lda + k + 2 * G);
    auto b = randomVector<float>(long(k) * ldb + 2 * G);
    auto c = randomVector<float>(sc * bs + 2 * G), c0 = c;
    batched(bs, m, n, k, a.data() + G, sa, lda, b.data() + G, 0, ldb,
            c.data() + G, sc, ldc);
    failures += !check("batched f32", true, bs, m, n, k, a, sa, lda, b, ldb, c0, c,
                       sc, ldc, 1, G);
    ++runs;
  }
  std::printf("overlapping-rows: %d of %d problems failed\n", failures, runs);
  return failures != 0;
}
