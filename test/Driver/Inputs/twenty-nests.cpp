// Twenty matrix products of a small numerical library, one per routine, in
// the forms the front end accepts: f32 and f64; row- and column-major;
// transposed operands; static extents and extents known only at run time;
// batched products; fused zero-init and beta scaling; std::vector and
// struct members; any loop order. The rest is ordinary host code: setup,
// checksums and a report.
//
// gemm-opt is expected to rewrite a file of this size in under a second of
// CPU (docs/cost-model.md, "Cost"): it stresses the schedule search with
// many nests, several of one problem class.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

namespace {

//===----------------------------------------------------------------------===//
// Host helpers: deterministic fill, norms and the report.
//===----------------------------------------------------------------------===//

/// A linear congruential generator: the same numbers on every platform.
struct Random {
  unsigned long long state;

  explicit Random(unsigned seed) : state(seed * 6364136223846793005ULL + 1) {}

  double next() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return double(state >> 11) / 9007199254740992.0 * 2 - 1;
  }
};

template <typename T> void fill(T *data, long count, unsigned seed) {
  Random random(seed);
  for (long i = 0; i < count; ++i)
    data[i] = T(random.next());
}

template <typename T> void fill(std::vector<T> &v, unsigned seed) {
  fill(v.data(), long(v.size()), seed);
}

template <typename T> double frobenius(const T *data, long count) {
  double sum = 0;
  for (long i = 0; i < count; ++i)
    sum += double(data[i]) * double(data[i]);
  return std::sqrt(sum);
}

template <typename T> double frobenius(const std::vector<T> &v) {
  return frobenius(v.data(), long(v.size()));
}

/// One line of the report per routine.
struct Entry {
  const char *name;
  long flops;
  double norm;
};

std::vector<Entry> &report() {
  static std::vector<Entry> entries;
  return entries;
}

void record(const char *name, long m, long n, long k, long batch,
            double norm) {
  report().push_back({name, 2 * m * n * k * batch, norm});
}

void printReport() {
  long total = 0;
  for (const Entry &e : report()) {
    std::printf("%-24s %14ld flops  |C| = %.6e\n", e.name, e.flops, e.norm);
    total += e.flops;
  }
  std::printf("%zu routines, %ld flops in all\n", report().size(), total);
}

/// Sizes read from the command line, so that the compiler cannot see them.
struct Sizes {
  int m = 300, n = 200, k = 100, batch = 6;

  void parse(int argc, char **argv) {
    if (argc > 1)
      m = std::atoi(argv[1]);
    if (argc > 2)
      n = std::atoi(argv[2]);
    if (argc > 3)
      k = std::atoi(argv[3]);
    if (argc > 4)
      batch = std::atoi(argv[4]);
  }
};

//===----------------------------------------------------------------------===//
// 1. f32, static 2-D arrays, row-major (the textbook triple loop).
//===----------------------------------------------------------------------===//

enum { Square = 512 };
float sqA[Square][Square], sqB[Square][Square], sqC[Square][Square];

void squareSgemm() {
  for (int i = 0; i < Square; ++i)
    for (int j = 0; j < Square; ++j)
      for (int k = 0; k < Square; ++k)
        sqC[i][j] += sqA[i][k] * sqB[k][j];
}

void runSquareSgemm() {
  fill(&sqA[0][0], long(Square) * Square, 1);
  fill(&sqB[0][0], long(Square) * Square, 2);
  std::memset(sqC, 0, sizeof sqC);
  squareSgemm();
  record("square sgemm", Square, Square, Square, 1,
         frobenius(&sqC[0][0], long(Square) * Square));
}

//===----------------------------------------------------------------------===//
// 2. f64, static 2-D arrays of three different extents.
//===----------------------------------------------------------------------===//

enum { RectM = 256, RectN = 384, RectK = 128 };
double rcA[RectM][RectK], rcB[RectK][RectN], rcC[RectM][RectN];

void rectDgemm() {
  for (int i = 0; i < RectM; ++i)
    for (int j = 0; j < RectN; ++j)
      for (int k = 0; k < RectK; ++k)
        rcC[i][j] += rcA[i][k] * rcB[k][j];
}

void runRectDgemm() {
  fill(&rcA[0][0], long(RectM) * RectK, 3);
  fill(&rcB[0][0], long(RectK) * RectN, 4);
  std::memset(rcC, 0, sizeof rcC);
  rectDgemm();
  record("rectangular dgemm", RectM, RectN, RectK, 1,
         frobenius(&rcC[0][0], long(RectM) * RectN));
}

//===----------------------------------------------------------------------===//
// 3-6. f32 on flat pointers with leading dimensions, the four transposes.
//===----------------------------------------------------------------------===//

/// C = A * B, all row-major.
void sgemmNN(int m, int n, int k, const float *A, int lda, const float *B,
             int ldb, float *C, int ldc) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        C[i * ldc + j] += A[i * lda + l] * B[l * ldb + j];
}

/// C = A * B^T: B is stored n x k.
void sgemmNT(int m, int n, int k, const float *A, int lda, const float *B,
             int ldb, float *C, int ldc) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        C[i * ldc + j] += A[i * lda + l] * B[j * ldb + l];
}

/// C = A^T * B: A is stored k x m.
void sgemmTN(int m, int n, int k, const float *A, int lda, const float *B,
             int ldb, float *C, int ldc) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        C[i * ldc + j] += A[l * lda + i] * B[l * ldb + j];
}

/// C = A^T * B^T.
void sgemmTT(int m, int n, int k, const float *A, int lda, const float *B,
             int ldb, float *C, int ldc) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        C[i * ldc + j] += A[l * lda + i] * B[j * ldb + l];
}

void runFlatSgemms(const Sizes &s) {
  // Leading dimensions padded past the extents, as a caller's would be.
  int lda = s.k + 3, ldat = s.m + 5, ldb = s.n + 1, ldbt = s.k + 7,
      ldc = s.n + 2;
  std::vector<float> A(long(s.m) * lda), At(long(s.k) * ldat),
      B(long(s.k) * ldb), Bt(long(s.n) * ldbt), C(long(s.m) * ldc);
  fill(A, 5);
  fill(At, 6);
  fill(B, 7);
  fill(Bt, 8);

  std::fill(C.begin(), C.end(), 0.0f);
  sgemmNN(s.m, s.n, s.k, A.data(), lda, B.data(), ldb, C.data(), ldc);
  record("sgemm NN", s.m, s.n, s.k, 1, frobenius(C));

  std::fill(C.begin(), C.end(), 0.0f);
  sgemmNT(s.m, s.n, s.k, A.data(), lda, Bt.data(), ldbt, C.data(), ldc);
  record("sgemm NT", s.m, s.n, s.k, 1, frobenius(C));

  std::fill(C.begin(), C.end(), 0.0f);
  sgemmTN(s.m, s.n, s.k, At.data(), ldat, B.data(), ldb, C.data(), ldc);
  record("sgemm TN", s.m, s.n, s.k, 1, frobenius(C));

  std::fill(C.begin(), C.end(), 0.0f);
  sgemmTT(s.m, s.n, s.k, At.data(), ldat, Bt.data(), ldbt, C.data(), ldc);
  record("sgemm TT", s.m, s.n, s.k, 1, frobenius(C));
}

//===----------------------------------------------------------------------===//
// 7-8. f64 on flat pointers: a plain product and a BLAS-style update.
//===----------------------------------------------------------------------===//

/// C += A * B in double precision, unsigned long induction variables.
void dgemmNN(unsigned long m, unsigned long n, unsigned long k,
             const double *A, unsigned long lda, const double *B,
             unsigned long ldb, double *C, unsigned long ldc) {
  for (unsigned long i = 0; i < m; ++i)
    for (unsigned long j = 0; j < n; ++j)
      for (unsigned long l = 0; l < k; ++l)
        C[i * ldc + j] += A[i * lda + l] * B[l * ldb + j];
}

/// C = alpha * A * B^T + beta * C, the scaling fused into the nest.
void dgemmUpdateNT(int m, int n, int k, double alpha, const double *A,
                   int lda, const double *B, int ldb, double beta, double *C,
                   int ldc) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      C[i * ldc + j] *= beta;
      for (int l = 0; l < k; ++l)
        C[i * ldc + j] += alpha * A[i * lda + l] * B[j * ldb + l];
    }
}

void runFlatDgemms(const Sizes &s) {
  unsigned long lda = s.k, ldb = s.n, ldc = s.n;
  std::vector<double> A(long(s.m) * s.k), B(long(s.k) * s.n),
      Bt(long(s.n) * s.k), C(long(s.m) * s.n);
  fill(A, 9);
  fill(B, 10);
  fill(Bt, 11);

  std::fill(C.begin(), C.end(), 0.0);
  dgemmNN(s.m, s.n, s.k, A.data(), lda, B.data(), ldb, C.data(), ldc);
  record("dgemm NN", s.m, s.n, s.k, 1, frobenius(C));

  fill(C, 12);
  dgemmUpdateNT(s.m, s.n, s.k, 0.5, A.data(), s.k, Bt.data(), s.k, -1.25,
                C.data(), s.n);
  record("dgemm update NT", s.m, s.n, s.k, 1, frobenius(C));
}

//===----------------------------------------------------------------------===//
// 9. f64 column-major, Fortran style: a(i, l) is a[i + l * lda].
//===----------------------------------------------------------------------===//

void dgemmColumnMajor(int m, int n, int k, const double *a, int lda,
                      const double *b, int ldb, double *c, int ldc) {
  for (int j = 0; j < n; ++j)
    for (int l = 0; l < k; ++l)
      for (int i = 0; i < m; ++i)
        c[i + j * ldc] += a[i + l * lda] * b[l + j * ldb];
}

void runColumnMajor(const Sizes &s) {
  std::vector<double> a(long(s.m) * s.k), b(long(s.k) * s.n),
      c(long(s.m) * s.n, 0.0);
  fill(a, 13);
  fill(b, 14);
  dgemmColumnMajor(s.m, s.n, s.k, a.data(), s.m, b.data(), s.k, c.data(),
                   s.m);
  record("dgemm column-major", s.m, s.n, s.k, 1, frobenius(c));
}

//===----------------------------------------------------------------------===//
// 10. f32 batched, static 3-D arrays: attention scores Q K^T per head.
//===----------------------------------------------------------------------===//

enum { Heads = 8, Seq = 128, HeadDim = 64 };
float query[Heads][Seq][HeadDim], key[Heads][Seq][HeadDim],
    scores[Heads][Seq][Seq];

void attentionScores(float scale) {
  for (int h = 0; h < Heads; ++h)
    for (int s = 0; s < Seq; ++s)
      for (int t = 0; t < Seq; ++t) {
        scores[h][s][t] = 0;
        for (int d = 0; d < HeadDim; ++d)
          scores[h][s][t] += scale * query[h][s][d] * key[h][t][d];
      }
}

void runAttention() {
  fill(&query[0][0][0], long(Heads) * Seq * HeadDim, 15);
  fill(&key[0][0][0], long(Heads) * Seq * HeadDim, 16);
  attentionScores(1.0f / std::sqrt(float(HeadDim)));
  record("attention scores", Seq, Seq, HeadDim, Heads,
         frobenius(&scores[0][0][0], long(Heads) * Seq * Seq));
}

//===----------------------------------------------------------------------===//
// 11-12. Batched products of run-time extents.
//===----------------------------------------------------------------------===//

/// Strided batches, B transposed, through a scalar accumulator.
void sgemmStridedBatched(int nb, int m, int n, int k, const float *A, long sA,
                         int lda, const float *B, long sB, int ldb, float *C,
                         long sC, int ldc, float alpha) {
  for (int b = 0; b < nb; ++b)
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        float acc = 0;
        for (int l = 0; l < k; ++l)
          acc += A[b * sA + i * lda + l] * B[b * sB + j * ldb + l];
        C[b * sC + i * ldc + j] = alpha * acc;
      }
}

/// Packed batches of double matrices: the batch stride is a matrix.
void dgemmPackedBatched(int nb, int m, int n, int k, const double *A,
                        const double *B, double *C) {
  for (int b = 0; b < nb; ++b)
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        for (int l = 0; l < k; ++l)
          C[(b * m + i) * n + j] +=
              A[(b * m + i) * k + l] * B[(b * k + l) * n + j];
}

void runBatched(const Sizes &s) {
  long sA = long(s.m) * s.k, sB = long(s.n) * s.k, sC = long(s.m) * s.n;
  std::vector<float> A(sA * s.batch), B(sB * s.batch), C(sC * s.batch);
  fill(A, 17);
  fill(B, 18);
  sgemmStridedBatched(s.batch, s.m, s.n, s.k, A.data(), sA, s.k, B.data(), sB,
                      s.k, C.data(), sC, s.n, 2.0f);
  record("sgemm strided batched", s.m, s.n, s.k, s.batch, frobenius(C));

  std::vector<double> dA(sA * s.batch), dB(sB * s.batch),
      dC(sC * s.batch, 0.0);
  fill(dA, 19);
  fill(dB, 20);
  dgemmPackedBatched(s.batch, s.m, s.n, s.k, dA.data(), dB.data(), dC.data());
  record("dgemm packed batched", s.m, s.n, s.k, s.batch, frobenius(dC));
}

//===----------------------------------------------------------------------===//
// 13. A dense layer on std::vector: y = x W^T + bias.
//===----------------------------------------------------------------------===//

void dense(int batch, int in, int out, const std::vector<float> &x,
           const std::vector<float> &w, const std::vector<float> &bias,
           std::vector<float> &y) {
  for (int b = 0; b < batch; ++b)
    for (int o = 0; o < out; ++o)
      y[b * out + o] = bias[o];
  for (int b = 0; b < batch; ++b)
    for (int o = 0; o < out; ++o)
      for (int i = 0; i < in; ++i)
        y[b * out + o] += x[b * in + i] * w[o * in + i];
}

/// The rectifier, applied in place: no product, left alone.
void relu(std::vector<float> &v) {
  for (float &x : v)
    x = x > 0 ? x : 0;
}

void runDense(const Sizes &s) {
  int batch = s.m, in = s.k, out = s.n;
  std::vector<float> x(long(batch) * in), w(long(out) * in), bias(out),
      y(long(batch) * out);
  fill(x, 21);
  fill(w, 22);
  fill(bias, 23);
  dense(batch, in, out, x, w, bias, y);
  relu(y);
  record("dense layer", batch, out, in, 1, frobenius(y));
}

//===----------------------------------------------------------------------===//
// 14. f32 with alpha hoisted into a scalar, size_t indices.
//===----------------------------------------------------------------------===//

void sgemmScaled(size_t m, size_t n, size_t k, float alpha, const float *A,
                 const float *B, float *C) {
  for (size_t i = 0; i < m; ++i)
    for (size_t l = 0; l < k; ++l) {
      float a = alpha * A[i * k + l];
      for (size_t j = 0; j < n; ++j)
        C[i * n + j] += a * B[l * n + j];
    }
}

void runScaled(const Sizes &s) {
  std::vector<float> A(long(s.m) * s.k), B(long(s.k) * s.n),
      C(long(s.m) * s.n, 0.0f);
  fill(A, 24);
  fill(B, 25);
  sgemmScaled(s.m, s.n, s.k, 0.75f, A.data(), B.data(), C.data());
  record("sgemm hoisted alpha", s.m, s.n, s.k, 1, frobenius(C));
}

//===----------------------------------------------------------------------===//
// 15. f64 with a fused zero-init: C = A * B overwrites C.
//===----------------------------------------------------------------------===//

void dgemmOverwrite(int m, int n, int k, const double *A, const double *B,
                    double *C) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      C[i * n + j] = 0;
      for (int l = 0; l < k; ++l)
        C[i * n + j] += A[i * k + l] * B[l * n + j];
    }
}

void runOverwrite(const Sizes &s) {
  std::vector<double> A(long(s.m) * s.k), B(long(s.k) * s.n),
      C(long(s.m) * s.n);
  fill(A, 26);
  fill(B, 27);
  fill(C, 28); // overwritten: the nest starts from zero
  dgemmOverwrite(s.m, s.n, s.k, A.data(), B.data(), C.data());
  record("dgemm overwrite", s.m, s.n, s.k, 1, frobenius(C));
}

//===----------------------------------------------------------------------===//
// 16-17. Static tall-skinny and short-wide f32 products.
//===----------------------------------------------------------------------===//

enum { Long = 4096, Thin = 64 };

/// C (4096 x 64) = A (4096 x 4096) * B (4096 x 64): a projection.
void tallSkinny(const float *A, const float *B, float *C) {
  for (int i = 0; i < Long; ++i)
    for (int j = 0; j < Thin; ++j)
      for (int k = 0; k < Long; ++k)
        C[i * Thin + j] += A[i * Long + k] * B[k * Thin + j];
}

/// C (64 x 4096) = A (64 x 64) * B (64 x 4096): a small panel times a wide
/// one.
void shortWide(const float *A, const float *B, float *C) {
  for (int i = 0; i < Thin; ++i)
    for (int j = 0; j < Long; ++j)
      for (int k = 0; k < Thin; ++k)
        C[i * Long + j] += A[i * Thin + k] * B[k * Long + j];
}

void runSkinny() {
  std::vector<float> A(long(Long) * Long), B(long(Long) * Thin),
      C(long(Long) * Thin, 0.0f);
  fill(A, 29);
  fill(B, 30);
  tallSkinny(A.data(), B.data(), C.data());
  record("tall-skinny sgemm", Long, Thin, Long, 1, frobenius(C));

  std::vector<float> P(long(Thin) * Thin), Q(long(Thin) * Long),
      R(long(Thin) * Long, 0.0f);
  fill(P, 31);
  fill(Q, 32);
  shortWide(P.data(), Q.data(), R.data());
  record("short-wide sgemm", Thin, Long, Thin, 1, frobenius(R));
}

//===----------------------------------------------------------------------===//
// 18. A small static f64 product, long induction variables and <=.
//===----------------------------------------------------------------------===//

enum { Small = 96 };
double smA[Small][Small], smB[Small][Small], smC[Small][Small];

void smallDgemm() {
  for (long i = 0; i <= Small - 1; ++i)
    for (long j = 0; j <= Small - 1; ++j)
      for (long k = 0; k <= Small - 1; ++k)
        smC[i][j] += smA[i][k] * smB[k][j];
}

void runSmall() {
  fill(&smA[0][0], long(Small) * Small, 33);
  fill(&smB[0][0], long(Small) * Small, 34);
  std::memset(smC, 0, sizeof smC);
  smallDgemm();
  record("small dgemm", Small, Small, Small, 1,
         frobenius(&smC[0][0], long(Small) * Small));
}

//===----------------------------------------------------------------------===//
// 19. f32 matrices held as struct members.
//===----------------------------------------------------------------------===//

struct Matrix {
  int rows, cols, ld;
  float *data;
};

Matrix makeMatrix(int rows, int cols, unsigned seed) {
  Matrix m{rows, cols, cols, new float[long(rows) * cols]};
  fill(m.data, long(rows) * cols, seed);
  return m;
}

void freeMatrix(Matrix &m) {
  delete[] m.data;
  m.data = nullptr;
}

void multiplyInto(const Matrix &a, const Matrix &b, Matrix &c) {
  for (int i = 0; i < c.rows; ++i)
    for (int j = 0; j < c.cols; ++j)
      for (int l = 0; l < a.cols; ++l)
        c.data[i * c.ld + j] += a.data[i * a.ld + l] * b.data[l * b.ld + j];
}

void runStructs(const Sizes &s) {
  Matrix a = makeMatrix(s.m, s.k, 35), b = makeMatrix(s.k, s.n, 36),
         c = makeMatrix(s.m, s.n, 37);
  std::fill(c.data, c.data + long(s.m) * s.n, 0.0f);
  multiplyInto(a, b, c);
  record("struct members", s.m, s.n, s.k, 1,
         frobenius(c.data, long(s.m) * s.n));
  freeMatrix(a);
  freeMatrix(b);
  freeMatrix(c);
}

//===----------------------------------------------------------------------===//
// 20. f64 in k-i-j order (the cache-friendly order of a CPU code).
//===----------------------------------------------------------------------===//

void dgemmKIJ(int m, int n, int k, const double *A, int lda, const double *B,
              int ldb, double *C, int ldc) {
  for (int l = 0; l < k; ++l)
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        C[i * ldc + j] += A[i * lda + l] * B[l * ldb + j];
}

void runKIJ(const Sizes &s) {
  std::vector<double> A(long(s.m) * s.k), B(long(s.k) * s.n),
      C(long(s.m) * s.n, 0.0);
  fill(A, 38);
  fill(B, 39);
  dgemmKIJ(s.m, s.n, s.k, A.data(), s.k, B.data(), s.n, C.data(), s.n);
  record("dgemm k-i-j", s.m, s.n, s.k, 1, frobenius(C));
}

//===----------------------------------------------------------------------===//
// Host code around the products: statistics of the results, left alone.
//===----------------------------------------------------------------------===//

/// The mean and the spread of a vector: single loops, no products.
struct Moments {
  double mean = 0, deviation = 0;
};

template <typename T> Moments moments(const std::vector<T> &v) {
  Moments m;
  if (v.empty())
    return m;
  for (const T &x : v)
    m.mean += double(x);
  m.mean /= double(v.size());
  for (const T &x : v)
    m.deviation += (double(x) - m.mean) * (double(x) - m.mean);
  m.deviation = std::sqrt(m.deviation / double(v.size()));
  return m;
}

/// A histogram of values in [-range, range) with `bins` bins.
std::vector<long> histogram(const std::vector<double> &v, double range,
                            int bins) {
  std::vector<long> counts(bins, 0);
  for (double x : v) {
    int bin = int((x + range) / (2 * range) * bins);
    if (bin >= 0 && bin < bins)
      ++counts[bin];
  }
  return counts;
}

void printHistogram(const std::vector<long> &counts) {
  long most = 1;
  for (long c : counts)
    most = c > most ? c : most;
  for (size_t i = 0; i < counts.size(); ++i) {
    int width = int(40 * counts[i] / most);
    std::printf("%3zu |", i);
    for (int w = 0; w < width; ++w)
      std::printf("#");
    std::printf("\n");
  }
}

/// The relative difference of two vectors in the 2-norm.
double relativeDifference(const std::vector<double> &x,
                          const std::vector<double> &y) {
  double diff = 0, base = 0;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
    diff += (x[i] - y[i]) * (x[i] - y[i]);
    base += y[i] * y[i];
  }
  return base > 0 ? std::sqrt(diff / base) : std::sqrt(diff);
}

/// A quick check that two routines agree: dgemmNN and dgemmKIJ compute the
/// same product in different orders.
bool ordersAgree(const Sizes &s) {
  int m = s.m / 4 + 1, n = s.n / 4 + 1, k = s.k / 4 + 1;
  std::vector<double> A(long(m) * k), B(long(k) * n), C1(long(m) * n, 0.0),
      C2(long(m) * n, 0.0);
  fill(A, 40);
  fill(B, 41);
  dgemmNN(m, n, k, A.data(), k, B.data(), n, C1.data(), n);
  dgemmKIJ(m, n, k, A.data(), k, B.data(), n, C2.data(), n);
  double difference = relativeDifference(C1, C2);
  std::printf("k-i-j against i-j-k: relative difference %.3e\n", difference);
  return difference < 1e-12 * k;
}

/// The distribution of a product's entries, for the report.
void describe(const Sizes &s) {
  std::vector<double> A(long(s.m) * s.k), B(long(s.k) * s.n),
      C(long(s.m) * s.n);
  fill(A, 42);
  fill(B, 43);
  dgemmOverwrite(s.m, s.n, s.k, A.data(), B.data(), C.data());
  Moments m = moments(C);
  std::printf("entries of A B: mean %.4f, deviation %.4f\n", m.mean,
              m.deviation);
  double range = 4 * (m.deviation > 0 ? m.deviation : 1);
  printHistogram(histogram(C, range, 16));
}

//===----------------------------------------------------------------------===//
// Printing, timing and a CSV report: more host code, left alone.
//===----------------------------------------------------------------------===//

/// The top-left corner of a row-major matrix, at most `rows` x `cols`.
template <typename T>
void printCorner(const char *label, const T *data, int m, int n, int ld,
                 int rows = 4, int cols = 4) {
  std::printf("%s (%d x %d):\n", label, m, n);
  for (int i = 0; i < m && i < rows; ++i) {
    std::printf("  ");
    for (int j = 0; j < n && j < cols; ++j)
      std::printf("% .5f ", double(data[i * ld + j]));
    std::printf("%s\n", n > cols ? "..." : "");
  }
  if (m > rows)
    std::printf("  ...\n");
}

/// Seconds since the first call, from the C clock.
double seconds() {
  static const std::clock_t start = std::clock();
  return double(std::clock() - start) / CLOCKS_PER_SEC;
}

/// A stopwatch over one routine.
struct Stopwatch {
  const char *name;
  double begin;

  explicit Stopwatch(const char *name) : name(name), begin(seconds()) {}

  double elapsed() const { return seconds() - begin; }
};

/// The report as comma-separated values, one routine a row.
bool writeCsv(const char *path) {
  std::FILE *file = std::fopen(path, "w");
  if (!file)
    return false;
  std::fprintf(file, "routine,flops,norm\n");
  for (const Entry &e : report())
    std::fprintf(file, "\"%s\",%ld,%.17g\n", e.name, e.flops, e.norm);
  return std::fclose(file) == 0;
}

/// Reads back what writeCsv wrote and counts its rows.
long countCsvRows(const char *path) {
  std::FILE *file = std::fopen(path, "r");
  if (!file)
    return -1;
  long rows = 0;
  int c;
  while ((c = std::fgetc(file)) != EOF)
    rows += c == '\n';
  std::fclose(file);
  return rows - 1; // the header
}

/// Whether every entry of the report is finite.
bool allFinite() {
  for (const Entry &e : report())
    if (!std::isfinite(e.norm))
      return false;
  return true;
}

/// The routine with the most flops, for the summary.
const Entry *largest() {
  const Entry *best = nullptr;
  for (const Entry &e : report())
    if (!best || e.flops > best->flops)
      best = &e;
  return best;
}

/// The entries whose names contain `word`.
std::vector<Entry> select(const char *word) {
  std::vector<Entry> found;
  for (const Entry &e : report())
    if (std::strstr(e.name, word))
      found.push_back(e);
  return found;
}

/// A one-line summary per family of routines.
void printFamilies() {
  const char *families[] = {"sgemm", "dgemm", "batched", "layer", "struct"};
  for (const char *family : families) {
    std::vector<Entry> entries = select(family);
    long flops = 0;
    for (const Entry &e : entries)
      flops += e.flops;
    std::printf("%-8s %2zu routines %14ld flops\n", family, entries.size(),
                flops);
  }
}

/// Scales a vector in place: a single loop, not a product of matrices.
template <typename T> void scale(std::vector<T> &v, T factor) {
  for (T &x : v)
    x *= factor;
}

/// y += a x over vectors (an axpy, one loop).
template <typename T>
void axpy(T a, const std::vector<T> &x, std::vector<T> &y) {
  for (size_t i = 0; i < x.size() && i < y.size(); ++i)
    y[i] += a * x[i];
}

/// A dot product (one loop): a reduction, not a GEMM.
template <typename T> T dot(const std::vector<T> &x, const std::vector<T> &y) {
  T sum = 0;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i)
    sum += x[i] * y[i];
  return sum;
}

/// The power method on a small symmetric matrix built from the library's
/// vectors: the matrix-vector product is written with a dot per row.
double dominantEigenvalue(int n, int iterations) {
  std::vector<std::vector<double>> rows(n, std::vector<double>(n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j)
      rows[i][j] = rows[j][i] = 1.0 / (1.0 + i + j);
  std::vector<double> v(n, 1.0), w(n);
  double lambda = 0;
  for (int it = 0; it < iterations; ++it) {
    for (int i = 0; i < n; ++i)
      w[i] = dot(rows[i], v);
    lambda = std::sqrt(dot(w, w));
    if (lambda == 0)
      break;
    v = w;
    scale(v, 1.0 / lambda);
  }
  return lambda;
}

/// A smoke test of the vector helpers.
bool helpersWork() {
  std::vector<double> x = {1, 2, 3}, y = {4, 5, 6};
  axpy(2.0, x, y);
  bool ok = y[0] == 6 && y[1] == 9 && y[2] == 12 && dot(x, x) == 14;
  double lambda = dominantEigenvalue(8, 50);
  std::printf("Hilbert(8) dominant eigenvalue %.6f\n", lambda);
  return ok && lambda > 1.6 && lambda < 1.7;
}

//===----------------------------------------------------------------------===//
// Options.
//===----------------------------------------------------------------------===//

struct Options {
  Sizes sizes;
  bool quiet = false;
  bool statistics = true;
  int repeat = 1;
};

void usage(const char *argv0) {
  std::printf("usage: %s [m [n [k [batch]]]] [--quiet] [--no-statistics] "
              "[--repeat=N]\n",
              argv0);
}

bool parseOptions(int argc, char **argv, Options &options) {
  std::vector<char *> positional = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quiet") == 0)
      options.quiet = true;
    else if (std::strcmp(argv[i], "--no-statistics") == 0)
      options.statistics = false;
    else if (std::strncmp(argv[i], "--repeat=", 9) == 0)
      options.repeat = std::atoi(argv[i] + 9);
    else if (std::strcmp(argv[i], "--help") == 0)
      return false;
    else if (argv[i][0] == '-')
      return false;
    else
      positional.push_back(argv[i]);
  }
  options.sizes.parse(int(positional.size()), positional.data());
  const Sizes &s = options.sizes;
  return s.m > 0 && s.n > 0 && s.k > 0 && s.batch > 0 && options.repeat > 0;
}

//===----------------------------------------------------------------------===//
// The suite.
//===----------------------------------------------------------------------===//

/// Every routine once, in the order of this file.
void runAll(const Sizes &s) {
  runSquareSgemm();
  runRectDgemm();
  runFlatSgemms(s);
  runFlatDgemms(s);
  runColumnMajor(s);
  runAttention();
  runBatched(s);
  runDense(s);
  runScaled(s);
  runOverwrite(s);
  runSkinny();
  runSmall();
  runStructs(s);
  runKIJ(s);
}

/// How far the norms of two repetitions drift apart: they should not.
double drift(const std::vector<Entry> &first, const std::vector<Entry> &again) {
  double worst = 0;
  for (size_t i = 0; i < first.size() && i < again.size(); ++i) {
    double scale = std::fabs(first[i].norm) > 0 ? std::fabs(first[i].norm) : 1;
    double d = std::fabs(first[i].norm - again[i].norm) / scale;
    worst = d > worst ? d : worst;
  }
  return worst;
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  if (!parseOptions(argc, argv, options)) {
    usage(argv[0]);
    return 2;
  }
  const Sizes &s = options.sizes;
  if (!options.quiet)
    std::printf("m = %d, n = %d, k = %d, batch = %d\n", s.m, s.n, s.k,
                s.batch);

  runAll(s);
  std::vector<Entry> first = report();
  for (int r = 1; r < options.repeat; ++r) {
    report().clear();
    runAll(s);
    double d = drift(first, report());
    if (!options.quiet)
      std::printf("repetition %d: largest relative drift %.3e\n", r + 1, d);
  }
  if (!options.quiet)
    printReport();

  Stopwatch watch("checks");
  bool ok = ordersAgree(s) && helpersWork() && allFinite();
  if (!options.quiet) {
    printFamilies();
    if (const Entry *big = largest())
      std::printf("largest: %s, %ld flops\n", big->name, big->flops);
    printCorner("attention scores, head 0", &scores[0][0][0], Seq, Seq, Seq);
    if (writeCsv("twenty-nests.csv"))
      std::printf("wrote %ld rows to twenty-nests.csv\n",
                  countCsvRows("twenty-nests.csv"));
    std::printf("checks took %.3f s\n", watch.elapsed());
  }
  if (options.statistics && !options.quiet)
    describe(s);
  std::printf("%s\n", ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
