// Regression (GPU): a batch loop inside the nest, B broadcast over the batch
// (batch stride 0), column-major C with ldc > M and gaps between batches,
// the `C -= A*B` form. Nothing but C's elements may change: not the padding
// rows, not the gaps, not the guard cells around the buffer. Run on random
// shapes as written by the user, with the buffers in host, device and
// managed memory in turn (built by nvcc): a write past C's span is invisible
// through host staging but not in place. The reference below is no loop
// nest gemm-opt would rewrite (its body calls a function).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#ifdef __CUDACC__
#include <cuda_runtime.h>
#endif

/// Runs f on copies of the buffers in memory of kind `kind` (0 host, 1
/// device, 2 managed; only host without nvcc) and copies them back.
template <class F>
static void inMemory(int kind, std::vector<float> &a, std::vector<float> &b,
                     std::vector<float> &c, F f) {
#ifdef __CUDACC__
  if (kind != 0) {
    float *p[3];
    std::vector<float> *v[3] = {&a, &b, &c};
    for (int x = 0; x < 3; ++x) {
      const size_t bytes = v[x]->size() * sizeof(float);
      if (kind == 1)
        cudaMalloc(&p[x], bytes);
      else
        cudaMallocManaged(&p[x], bytes);
      cudaMemcpy(p[x], v[x]->data(), bytes, cudaMemcpyDefault);
    }
    f(p[0], p[1], p[2]);
    cudaDeviceSynchronize();
    for (int x = 0; x < 3; ++x) {
      cudaMemcpy(v[x]->data(), p[x], v[x]->size() * sizeof(float),
                 cudaMemcpyDefault);
      cudaFree(p[x]);
    }
    return;
  }
#endif
  (void)kind;
  f(a.data(), b.data(), c.data());
}

static void nest(int M, int N, int K, int BATCH, const float *A, int lda,
                 long sa, const float *B, int ldb, long sbb, float *C, int ldc,
                 long sc) {
  for (int i = 0; i < M; ++i)
    for (int b = 0; b < BATCH; ++b)
      for (int j = 0; j < N; ++j)
        for (int k = 0; k < K; ++k)
          C[b * sc + i + j * ldc] -= A[b * sa + i * lda + k] * B[b * sbb + k * ldb + j];
}

static double at(const float *p, long x) { return p[x]; }

int main(int argc, char **argv) {
  const int trials = argc > 1 ? std::atoi(argv[1]) : 200;
  const int G = 64;
  const float poison = -7777.0f;
  std::srand(12345);
  auto pick = [](int lo, int hi) { return lo + std::rand() % (hi - lo + 1); };
  int failures = 0;
  for (int t = 0; t < trials; ++t) {
    const int M = pick(1, 300), N = pick(1, 300), K = pick(1, 200),
              BATCH = pick(1, 4);
    const int lda = K + pick(0, 5), ldb = N + pick(0, 5),
              ldc = M + pick(0, 9);
    const long sa = long(M) * lda + pick(0, 7);
    const long sc = long(ldc) * N + pick(0, 11);
    std::vector<float> a(sa * BATCH + 2 * G), b(long(ldb) * K + 2 * G),
        c(sc * BATCH + 2 * G), c0;
    for (float &x : a) x = float(std::rand()) / RAND_MAX * 2 - 1;
    for (float &x : b) x = float(std::rand()) / RAND_MAX * 2 - 1;
    for (float &x : c) x = poison;
    for (int bb = 0; bb < BATCH; ++bb)
      for (int j = 0; j < N; ++j)
        for (int i = 0; i < M; ++i)
          c[G + bb * sc + i + long(j) * ldc] = float(std::rand()) / RAND_MAX;
    c0 = c;
    const std::vector<float> a0 = a, b0 = b;
    inMemory(t % 3, a, b, c, [&](float *pa, float *pb, float *pc) {
      nest(M, N, K, BATCH, pa + G, lda, sa, pb + G, ldb, 0, pc + G, ldc, sc);
    });
    // Written elements, norm-wise; everything else, exactly.
    std::vector<char> written(c.size(), 0);
    double err2 = 0, scale2 = 0;
    for (int bb = 0; bb < BATCH; ++bb)
      for (int j = 0; j < N; ++j)
        for (int i = 0; i < M; ++i) {
          const long x = G + bb * sc + i + long(j) * ldc;
          written[x] = 1;
          double ref = at(c0.data(), x), norm = 0;
          for (int k = 0; k < K; ++k) {
            double p = at(a.data(), G + bb * sa + long(i) * lda + k) *
                       at(b.data(), G + long(k) * ldb + j);
            ref -= p;
            norm += std::fabs(p);
          }
          err2 += (c[x] - ref) * (c[x] - ref);
          scale2 += (norm + std::fabs(at(c0.data(), x))) *
                    (norm + std::fabs(at(c0.data(), x)));
        }
    long outside = 0;
    for (size_t x = 0; x < c.size(); ++x)
      outside += !written[x] && c[x] != poison;
    const bool inputsKept = a == a0 && b == b0;
    const bool ok = std::sqrt(err2) <= 4.0 * (K + 2) * 0x1p-24 * std::sqrt(scale2) &&
                    outside == 0 && inputsKept;
    if (!ok) {
      ++failures;
      std::printf("FAIL memory %d M=%d N=%d K=%d batch=%d lda=%d ldb=%d ldc=%d "
                  "sa=%ld sc=%ld: err %.3g, %ld elements outside C changed, "
                  "A and B %s\n",
                  t % 3, M, N, K, BATCH, lda, ldb, ldc, sa, sc,
                  std::sqrt(err2), outside, inputsKept ? "kept" : "CHANGED");
    }
  }
  std::printf("write-outside-c: %d of %d shapes failed\n", failures, trials);
  return failures != 0;
}
