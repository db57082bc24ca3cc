//===- host-util.h - What the host-array benchmarks share -------*- C++ -*-===//
//
// Error checks, random operands, interleaved wall-clock medians and the
// relative error, for bench/host.cu and bench/gpus.cu.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_BENCH_HOST_UTIL_H
#define GEMM_OPT_BENCH_HOST_UTIL_H

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <random>
#include <utility>
#include <vector>

namespace {

void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

void check(cublasStatus_t s, const char *what) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "%s: cuBLAS status %d\n", what, int(s));
    std::exit(1);
  }
}

std::mt19937_64 rng(42);

template <class T> std::vector<T> random(size_t count) {
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<T> v(count);
  for (T &x : v)
    x = T(d(rng));
  return v;
}

/// Median seconds of `runs` timed calls of f and of g, after `warm` untimed
/// ones of each; each sample averages `inner` calls. The two are timed in
/// turn, so that drift in the machine's state (clocks, caches, other load)
/// moves both alike.
template <class F, class G>
std::pair<double, double> medians(F f, G g, int warm, int runs,
                                  int inner = 1) {
  for (int i = 0; i < warm; ++i) {
    f();
    g();
  }
  const auto time = [inner](auto &h) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < inner; ++i)
      h();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         t0)
               .count() /
           inner;
  };
  std::vector<double> tf, tg;
  for (int r = 0; r < runs; ++r) {
    tf.push_back(time(f));
    tg.push_back(time(g));
  }
  std::sort(tf.begin(), tf.end());
  std::sort(tg.begin(), tg.end());
  return {tf[tf.size() / 2], tg[tg.size() / 2]};
}

/// max |x - y| / max |y|.
template <class T>
double relError(const std::vector<T> &x, const std::vector<T> &y) {
  double err = 0, scale = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    err = std::max(err, std::fabs(double(x[i]) - double(y[i])));
    scale = std::max(scale, std::fabs(double(y[i])));
  }
  return err / scale;
}

} // namespace

#endif // GEMM_OPT_BENCH_HOST_UTIL_H
