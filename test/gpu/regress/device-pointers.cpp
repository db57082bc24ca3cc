// Regression (GPU): rewritten nests called on device, managed and host
// memory over tiny to medium problems (1x1x1 and 7x5x3 up), f32 and f64, in
// four forms: A row-major, A transposed with alpha and beta on a scalar
// accumulator, a bias with ReLU, and a double accumulator (float matrices
// widened to double). Run with no GEMM_OPT_* switch set, the
// configuration users run: a tiny call on device operands must not reach
// its host loop (it would dereference device memory), and every result must
// match a reference, with C's padding and guard cells untouched. The
// reference below is no loop nest gemm-opt would rewrite (its body calls a
// function).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#ifdef __CUDACC__
#include <cuda_runtime.h>
#endif

template <class T>
static void rowMajor(int M, int N, int K, const T *A, int lda, const T *B,
                     int ldb, T *C, int ldc) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        C[i * ldc + j] += A[i * lda + k] * B[k * ldb + j];
}

template <class T>
static void transposedA(int M, int N, int K, T alpha, const T *A, int lda,
                        const T *B, int ldb, T beta, T *C, int ldc) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      T s = 0;
      for (int k = 0; k < K; ++k)
        s += A[k * lda + i] * B[k * ldb + j];
      C[i * ldc + j] = alpha * s + beta * C[i * ldc + j];
    }
}

template <class T>
static void biasRelu(int M, int N, int K, const T *A, int lda, const T *B,
                     int ldb, const T *bias, T *C, int ldc) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      T s = bias[j];
      for (int k = 0; k < K; ++k)
        s += A[i * lda + k] * B[k * ldb + j];
      C[i * ldc + j] = s > 0 ? s : 0;
    }
}

// Summed in double whatever T is: float matrices are widened (gemm_widen.h).
template <class T>
static void widened(int M, int N, int K, const T *A, int lda, const T *B,
                    int ldb, T *C, int ldc) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k)
        s += A[i * lda + k] * B[k * ldb + j];
      C[i * ldc + j] += s;
    }
}

/// Runs f on copies of the buffers in memory of kind `kind` (0 host, 1
/// device, 2 managed; only host without nvcc) and copies them back.
template <class T, class F>
static void inMemory(int kind, std::vector<std::vector<T> *> buffers, F f) {
  std::vector<T *> p;
  for (std::vector<T> *v : buffers)
    p.push_back(v->data());
#ifdef __CUDACC__
  if (kind != 0) {
    for (size_t x = 0; x < buffers.size(); ++x) {
      const size_t bytes = buffers[x]->size() * sizeof(T);
      if (kind == 1)
        cudaMalloc(&p[x], bytes);
      else
        cudaMallocManaged(&p[x], bytes);
      cudaMemcpy(p[x], buffers[x]->data(), bytes, cudaMemcpyDefault);
    }
  }
  f(p);
  if (kind != 0) {
    cudaDeviceSynchronize();
    for (size_t x = 0; x < buffers.size(); ++x) {
      cudaMemcpy(buffers[x]->data(), p[x], buffers[x]->size() * sizeof(T),
                 cudaMemcpyDefault);
      cudaFree(p[x]);
    }
  }
#else
  (void)kind;
  f(p);
#endif
}

static double dot(double x, double y) { return x * y; }

/// One call of `form` (0, 1, 2) on memory `kind`; true if C is right.
template <class T> static bool check(int form, int kind, int M, int N, int K) {
  const int G = 16, lda = (form == 1 ? M : K) + 3, ldb = N + 1, ldc = N + 2;
  const T poison = T(-7777), alpha = T(1.5), beta = T(-0.5);
  const int aRows = form == 1 ? K : M;
  std::vector<T> a(size_t(aRows) * lda + 2 * G), b(size_t(K) * ldb + 2 * G),
      bias(N + 2 * G), c(size_t(M) * ldc + 2 * G, poison);
  for (T &x : a) x = T(std::rand()) / RAND_MAX * 2 - 1;
  for (T &x : b) x = T(std::rand()) / RAND_MAX * 2 - 1;
  for (T &x : bias) x = T(std::rand()) / RAND_MAX - T(0.5);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      c[G + size_t(i) * ldc + j] = T(std::rand()) / RAND_MAX;
  const std::vector<T> c0 = c;
  inMemory<T>(kind, {&a, &b, &bias, &c}, [&](const std::vector<T *> &p) {
    if (form == 0)
      rowMajor(M, N, K, p[0] + G, lda, p[1] + G, ldb, p[3] + G, ldc);
    else if (form == 1)
      transposedA(M, N, K, alpha, p[0] + G, lda, p[1] + G, ldb, beta,
                  p[3] + G, ldc);
    else if (form == 2)
      biasRelu(M, N, K, p[0] + G, lda, p[1] + G, ldb, p[2] + G, p[3] + G,
               ldc);
    else
      widened(M, N, K, p[0] + G, lda, p[1] + G, ldb, p[3] + G, ldc);
  });
  const double eps = sizeof(T) == 4 ? 0x1p-24 : 0x1p-53;
  bool ok = true;
  for (size_t x = 0; x < c.size(); ++x) {
    const long inC = long(x) - G;
    const int i = int(inC / ldc), j = int(inC % ldc);
    if (inC < 0 || i >= M || j >= N) {
      ok = ok && c[x] == poison;
      continue;
    }
    double s = form == 2 ? double(bias[G + j]) : 0, norm = std::fabs(s);
    for (int k = 0; k < K; ++k) {
      const double ak = form == 1 ? a[G + size_t(k) * lda + i]
                                  : a[G + size_t(i) * lda + k];
      s += dot(ak, b[G + size_t(k) * ldb + j]);
      norm += std::fabs(ak * b[G + size_t(k) * ldb + j]);
    }
    double ref = form == 0 || form == 3 ? c0[x] + s
                 : form == 1 ? alpha * s + beta * c0[x]
                             : (s > 0 ? s : 0);
    norm = (form == 1 ? 1.5 : 1) * norm + std::fabs(c0[x]);
    ok = ok && std::fabs(c[x] - ref) <= 4.0 * (K + 2) * eps * norm + 1e-300;
  }
  if (!ok)
    std::printf("FAIL %s form %d memory %s M=%d N=%d K=%d\n",
                sizeof(T) == 4 ? "f32" : "f64", form,
                kind == 0 ? "host" : kind == 1 ? "device" : "managed", M, N,
                K);
  return ok;
}

int main() {
  const int shapes[][3] = {{1, 1, 1},   {7, 5, 3},    {2, 3, 4},
                           {3, 1, 5},   {16, 16, 16}, {17, 16, 16},
                           {1, 64, 1},  {64, 1, 64},  {33, 47, 65},
                           {128, 96, 80}};
  std::srand(4242);
  int calls = 0, failures = 0;
  for (const auto &s : shapes)
    for (int form = 0; form < 4; ++form)
      for (int kind = 0; kind < 3; ++kind) {
        failures += !check<float>(form, kind, s[0], s[1], s[2]);
        failures += !check<double>(form, kind, s[0], s[1], s[2]);
        calls += 2;
      }
  std::printf("device-pointers: %d of %d calls failed\n", failures, calls);
  return failures != 0;
}
