//===- gpus.cu - The rewrite on host arrays over several GPUs -------------===//
//
// Times, in one process, gemm-opt's rewrite of bench/inputs (sgemm_nn,
// dgemm_nn) on std::vector operands as users run it (no switch set: the
// runtime splits C over the GPUs where its model predicts a gain) against
// the same call held to one GPU (GEMM_OPT_GPUS=<first>), against cublasXt
// on every visible GPU (the library that tiles host-array products over
// GPUs), and against pageable cudaMemcpy + cuBLAS + cudaMemcpy on one GPU.
// Wall-clock medians, beta == 0, random data; every result is checked
// against cublasXt's. bench/gpus.sh builds and runs it.
//
// Usage: gpus [N...]   square sizes (default 8192 16384)
//
//===----------------------------------------------------------------------===//
#include "gemms.h"
#include "host-util.h"

#include <cublasXt.h>
#include <string>

namespace {

cublasHandle_t handle;
cublasXtHandle_t xt;

template <class T> struct Ops;
template <> struct Ops<float> {
  static constexpr const char *name = "f32";
  static constexpr Gemm<float> rewrite = sgemm_nn;
  static constexpr double bound = 1e-4;
  // Row-major C = A B is column-major C^T = B^T A^T.
  static void blas(long n, const float *a, const float *b, float *c) {
    const float one = 1, zero = 0;
    check(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, n,
                      a, n, &zero, c, n),
          "cublasSgemm");
  }
  static void blasXt(long n, const float *a, const float *b, float *c) {
    const float one = 1, zero = 0;
    check(cublasXtSgemm(xt, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, n, a,
                        n, &zero, c, n),
          "cublasXtSgemm");
  }
};
template <> struct Ops<double> {
  static constexpr const char *name = "f64";
  static constexpr Gemm<double> rewrite = dgemm_nn;
  static constexpr double bound = 1e-12;
  static void blas(long n, const double *a, const double *b, double *c) {
    const double one = 1, zero = 0;
    check(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, n,
                      a, n, &zero, c, n),
          "cublasDgemm");
  }
  static void blasXt(long n, const double *a, const double *b, double *c) {
    const double one = 1, zero = 0;
    check(cublasXtDgemm(xt, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, n, a,
                        n, &zero, c, n),
          "cublasXtDgemm");
  }
};

/// Runs f with GEMM_OPT_GPUS set to `gpus` (unset where null).
template <class F> void withGpus(const char *gpus, F f) {
  if (gpus)
    setenv("GEMM_OPT_GPUS", gpus, 1);
  else
    unsetenv("GEMM_OPT_GPUS");
  f();
  unsetenv("GEMM_OPT_GPUS");
}

template <class T> bool square(long n, int gpus) {
  const size_t count = size_t(n) * n, bytes = count * sizeof(T);
  std::vector<T> a = random<T>(count), b = random<T>(count), split(count),
                 one(count), viaXt(count), hand(count);
  T *da, *db, *dc;
  check(cudaMalloc(&da, bytes), "cudaMalloc");
  check(cudaMalloc(&db, bytes), "cudaMalloc");
  check(cudaMalloc(&dc, bytes), "cudaMalloc");
  auto asUsers = [&] {
    withGpus(nullptr, [&] {
      Ops<T>::rewrite(n, n, n, T(1), a.data(), n, b.data(), n, T(0),
                      split.data(), n);
    });
  };
  auto onOne = [&] {
    withGpus("0", [&] {
      Ops<T>::rewrite(n, n, n, T(1), a.data(), n, b.data(), n, T(0),
                      one.data(), n);
    });
  };
  auto byXt = [&] { Ops<T>::blasXt(n, a.data(), b.data(), viaXt.data()); };
  auto byHand = [&] {
    check(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice), "A in");
    check(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice), "B in");
    Ops<T>::blas(n, da, db, dc);
    check(cudaMemcpy(hand.data(), dc, bytes, cudaMemcpyDeviceToHost), "C out");
  };
  const int runs = n >= 16384 ? 3 : 5;
  const auto [tOne, tSplit] = medians(onOne, asUsers, 1, runs);
  const auto [tXt, tHand] = medians(byXt, byHand, 1, runs);
  const double err = std::max({relError(split, viaXt), relError(one, viaXt),
                               relError(hand, viaXt)});
  const bool ok = err < Ops<T>::bound;
  const double tflop = 2.0 * n * n * n / 1e12;
  std::printf("| %s | %ld | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.1e %s "
              "|\n",
              Ops<T>::name, n, tflop / tOne, tflop / tSplit, tflop / tXt,
              tflop / tHand, tOne / tSplit, tXt / tSplit, err,
              ok ? "ok" : "WRONG");
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  int gpus = 0;
  check(cudaGetDeviceCount(&gpus), "cudaGetDeviceCount");
  std::vector<int> all(gpus);
  for (int d = 0; d < gpus; ++d)
    all[d] = d;
  check(cublasCreate(&handle), "cublasCreate");
  check(cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
  check(cublasXtCreate(&xt), "cublasXtCreate");
  check(cublasXtDeviceSelect(xt, gpus, all.data()), "cublasXtDeviceSelect");
  std::vector<long> sizes;
  for (int i = 1; i < argc; ++i)
    sizes.push_back(std::atol(argv[i]));
  if (sizes.empty())
    sizes = {8192, 16384};
  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  std::printf("## Host arrays on %d GPU(s) (%s): TFLOP/s\n\n"
              "| type | n | rewrite, 1 GPU | rewrite, no switch | cublasXt, "
              "%d GPU(s) | memcpy + cuBLAS, 1 GPU | no switch / 1 GPU | "
              "no switch / cublasXt | error |\n"
              "|---|---|---|---|---|---|---|---|---|\n",
              gpus, prop.name, gpus);
  bool ok = true;
  for (long n : sizes) {
    ok = square<float>(n, gpus) && ok;
    ok = square<double>(n, gpus) && ok;
  }
  cublasXtDestroy(xt);
  return ok ? 0 : 1;
}
