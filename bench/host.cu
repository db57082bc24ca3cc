//===- host.cu - The rewrite on host arrays against a hand-written call ---===//
//
// Times, in one process, gemm-opt's rewrite of bench/inputs (sgemm_nn,
// dgemm_nn) called on std::vector operands against what a user writes by
// hand: pageable cudaMemcpy of A and B in, cuBLAS (pedantic FP32 math),
// cudaMemcpy of C out, device buffers allocated beforehand. Wall-clock
// medians after warm-up, beta == 0, random data; each result is checked
// against cuBLAS's. Then tiny problems and matrix-vector products (n = 1)
// against the original loops (bench/inputs compiled as written, renamed
// loop_*), and tiny problems on device arrays against cuBLAS (calls that
// must reach the GPU). bench/host.sh builds and runs it.
//
// Usage: host           the tables
//        host --once    one f32 and one f64 call per square size (for
//                       GEMM_OPT_TRACE)
//        host --small   only the tables of small problems
//        host --big N   one f64 N^3 product with padded C (ldc = N + 3,
//                       beta = 0.5) checked against cuBLAS, padding intact;
//                       run under GEMM_OPT_DEVICE_MEMORY to force panels
//
//===----------------------------------------------------------------------===//
#include "gemms.h"
#include "host-util.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <random>
#include <utility>
#include <vector>

void loop_sgemm_nn(long, long, long, float, const float *, long,
                   const float *, long, float, float *, long);
void loop_dgemm_nn(long, long, long, double, const double *, long,
                   const double *, long, double, double *, long);

namespace {

cublasHandle_t handle;

template <class T> struct Ops;
template <> struct Ops<float> {
  static constexpr const char *name = "f32";
  static constexpr Gemm<float> rewrite = sgemm_nn, loop = loop_sgemm_nn;
  static void blas(long m, long n, long k, const float *a, long lda,
                   const float *b, long ldb, float beta, float *c, long ldc) {
    const float one = 1;
    // Row-major C = A B is column-major C^T = B^T A^T.
    check(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, ldb,
                      a, lda, &beta, c, ldc),
          "cublasSgemm");
  }
};
template <> struct Ops<double> {
  static constexpr const char *name = "f64";
  static constexpr Gemm<double> rewrite = dgemm_nn, loop = loop_dgemm_nn;
  static void blas(long m, long n, long k, const double *a, long lda,
                   const double *b, long ldb, double beta, double *c,
                   long ldc) {
    const double one = 1;
    check(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, ldb,
                      a, lda, &beta, c, ldc),
          "cublasDgemm");
  }
};

template <class T> bool square(long n, int runs) {
  const size_t count = size_t(n) * n, bytes = count * sizeof(T);
  std::vector<T> a = random<T>(count), b = random<T>(count), c(count),
                 hand(count);
  T *da, *db, *dc;
  check(cudaMalloc(&da, bytes), "cudaMalloc");
  check(cudaMalloc(&db, bytes), "cudaMalloc");
  check(cudaMalloc(&dc, bytes), "cudaMalloc");
  auto byHand = [&] {
    check(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice), "A in");
    check(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice), "B in");
    Ops<T>::blas(n, n, n, da, n, db, n, T(0), dc, n);
    check(cudaMemcpy(hand.data(), dc, bytes, cudaMemcpyDeviceToHost), "C out");
  };
  auto rewrite = [&] {
    Ops<T>::rewrite(n, n, n, T(1), a.data(), n, b.data(), n, T(0), c.data(),
                    n);
  };
  const auto [tHand, tRewrite] = medians(byHand, rewrite, 2, runs);
  const double err = relError(c, hand);
  const bool ok = err < (sizeof(T) == 4 ? 1e-4 : 1e-12);
  std::printf("| %s | %ld | %.3f | %.3f | %.2f | %.1e %s |\n", Ops<T>::name, n,
              tHand * 1e3, tRewrite * 1e3, tHand / tRewrite, err,
              ok ? "ok" : "WRONG");
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return ok;
}

/// The rewrite against the original loop on m x n x k.
template <class T> void againstLoop(long m, long n, long k) {
  std::vector<T> a = random<T>(size_t(m) * k), b = random<T>(size_t(k) * n),
                 c(size_t(m) * n);
  const double flops = 2.0 * m * n * k;
  const int inner = std::max(1, int(2e7 / flops));
  const auto [tLoop, tRewrite] = medians(
      [&] {
        Ops<T>::loop(m, n, k, T(1), a.data(), k, b.data(), n, T(0), c.data(),
                     n);
      },
      [&] {
        Ops<T>::rewrite(m, n, k, T(1), a.data(), k, b.data(), n, T(0),
                        c.data(), n);
      },
      1, 15, inner);
  std::printf("| %s | %ldx%ldx%ld | %.2f | %.2f | %.2f |\n", Ops<T>::name, m, n,
              k, tLoop * 1e6, tRewrite * 1e6, tLoop / tRewrite);
}

/// The rewrite against cuBLAS on device arrays of a tiny m x n x k: the cost
/// of a call that must reach the GPU (its operands cannot go to the host
/// loop), per call, 200 calls queued and then waited for. False if C differs.
template <class T> bool tinyOnDevice(long m, long n, long k) {
  const std::vector<T> a = random<T>(size_t(m) * k), b = random<T>(size_t(k) * n);
  std::vector<T> c(size_t(m) * n), hand(c.size());
  T *d[4];
  for (T *&p : d)
    check(cudaMalloc(&p, std::max(a.size(), std::max(b.size(), c.size())) *
                             sizeof(T)),
          "cudaMalloc");
  check(cudaMemcpy(d[0], a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice), "A");
  check(cudaMemcpy(d[1], b.data(), b.size() * sizeof(T), cudaMemcpyHostToDevice), "B");
  constexpr int calls = 200;
  const auto [tBlas, tRewrite] = medians(
      [&] {
        for (int i = 0; i < calls; ++i)
          Ops<T>::blas(m, n, k, d[0], k, d[1], n, T(0), d[3], n);
        check(cudaDeviceSynchronize(), "cuBLAS");
      },
      [&] {
        for (int i = 0; i < calls; ++i)
          Ops<T>::rewrite(m, n, k, T(1), d[0], k, d[1], n, T(0), d[2], n);
        check(cudaDeviceSynchronize(), "rewrite");
      },
      2, 11);
  check(cudaMemcpy(c.data(), d[2], c.size() * sizeof(T), cudaMemcpyDeviceToHost), "C");
  check(cudaMemcpy(hand.data(), d[3], c.size() * sizeof(T), cudaMemcpyDeviceToHost), "C");
  for (T *p : d)
    cudaFree(p);
  const bool ok = relError(c, hand) < (sizeof(T) == 4 ? 1e-5 : 1e-13);
  std::printf("| %s | %ldx%ldx%ld | %.2f | %.2f | %.2f | %s |\n", Ops<T>::name,
              m, n, k, tBlas / calls * 1e6, tRewrite / calls * 1e6,
              tBlas / tRewrite, ok ? "ok" : "WRONG");
  return ok;
}

/// f64 n^3 with C padded (ldc = n + 3) and beta = 0.5, against cuBLAS.
bool big(long n) {
  const long ldc = n + 3;
  std::vector<double> a = random<double>(size_t(n) * n),
                      b = random<double>(size_t(n) * n),
                      c = random<double>(size_t(n) * ldc);
  for (long i = 0; i < n; ++i)
    for (long j = n; j < ldc; ++j)
      c[size_t(i) * ldc + j] = 12345.0;
  std::vector<double> expect = c;
  double *da, *db, *dc;
  check(cudaMalloc(&da, a.size() * 8), "cudaMalloc");
  check(cudaMalloc(&db, b.size() * 8), "cudaMalloc");
  check(cudaMalloc(&dc, c.size() * 8), "cudaMalloc");
  check(cudaMemcpy(da, a.data(), a.size() * 8, cudaMemcpyHostToDevice), "A");
  check(cudaMemcpy(db, b.data(), b.size() * 8, cudaMemcpyHostToDevice), "B");
  check(cudaMemcpy(dc, c.data(), c.size() * 8, cudaMemcpyHostToDevice), "C");
  Ops<double>::blas(n, n, n, da, n, db, n, 0.5, dc, ldc);
  check(cudaMemcpy(expect.data(), dc, c.size() * 8, cudaMemcpyDeviceToHost),
        "C out");
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  const auto t0 = std::chrono::steady_clock::now();
  dgemm_nn(n, n, n, 1.0, a.data(), n, b.data(), n, 0.5, c.data(), ldc);
  const double t = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - t0)
                       .count();
  bool padding = true;
  for (long i = 0; i < n; ++i)
    for (long j = n; j < ldc; ++j)
      padding = padding && c[size_t(i) * ldc + j] == 12345.0;
  const double err = relError(c, expect);
  const bool ok = padding && err < 1e-12;
  std::printf("big f64 %ld^3 (A+B+C %.0f MiB, ldc %ld, beta 0.5): %.1f ms, "
              "err %.1e, padding %s: %s\n",
              n, 3.0 * n * n * 8 / (1 << 20), ldc, t * 1e3, err,
              padding ? "intact" : "CHANGED", ok ? "PASS" : "FAIL");
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  check(cublasCreate(&handle), "cublasCreate");
  check(cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
  if (argc == 3 && !std::strcmp(argv[1], "--big"))
    return big(std::atol(argv[2])) ? 0 : 1;
  if (argc == 2 && !std::strcmp(argv[1], "--once")) {
    for (long n : {512, 1024, 2048, 4096}) {
      std::vector<float> s = random<float>(size_t(n) * n), sc(s.size());
      sgemm_nn(n, n, n, 1, s.data(), n, s.data(), n, 0, sc.data(), n);
      std::vector<double> d = random<double>(size_t(n) * n), dc(d.size());
      dgemm_nn(n, n, n, 1, d.data(), n, d.data(), n, 0, dc.data(), n);
    }
    return 0;
  }
  const bool small = argc == 2 && !std::strcmp(argv[1], "--small");
  bool ok = true;
  if (!small) {
    cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    std::printf(
        "## Host arrays: rewrite vs pageable cudaMemcpy + cuBLAS (%s)\n\n",
        prop.name);
    std::printf("| type | n | by hand ms | rewrite ms | speed-up | error |\n"
                "|---|---|---|---|---|---|\n");
    for (long n : {512, 1024, 2048, 4096})
      ok = square<float>(n, n >= 4096 ? 7 : 11) && ok;
    for (long n : {512, 1024, 2048, 4096})
      ok = square<double>(n, n >= 4096 ? 7 : 11) && ok;
  }
  std::printf("\n## Small and matrix-vector products: rewrite vs the loop\n\n"
              "| type | m x n x k | loop us | rewrite us | loop / rewrite |\n"
              "|---|---|---|---|---|\n");
  for (long s : {4, 8, 16, 32, 64}) {
    againstLoop<float>(s, s, s);
    againstLoop<double>(s, s, s);
  }
  for (long s : {256, 1024, 4096}) {
    againstLoop<float>(s, 1, s);
    againstLoop<double>(s, 1, s);
  }
  std::printf("\n## Tiny products on device arrays: rewrite vs cuBLAS\n\n"
              "| type | m x n x k | cuBLAS us | rewrite us | cuBLAS / rewrite "
              "| result |\n|---|---|---|---|---|---|\n");
  for (long s : {1, 4, 16}) {
    ok = tinyOnDevice<float>(s, s, s) && ok;
    ok = tinyOnDevice<double>(s, s, s) && ok;
  }
  ok = tinyOnDevice<float>(7, 5, 3) && ok;
  return ok ? 0 : 1;
}
