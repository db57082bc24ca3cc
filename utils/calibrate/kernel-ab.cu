//===- kernel-ab.cu - One kernel's rate on an n^3 problem ------------------===//
//
// Built by kernel-ab.sh once per kernel file: KERNEL_FILE defines
// `gemm_rt::LaunchFn f` (a configuration and gemm_kernels::launch<...>, or an
// older generated kernel), and LAYOUT_NN, where defined, makes A row-major
// (else column-major), B_T makes B column-major (else row-major), and AB_F64
// makes the problem f64 (else f32); C is row-major. n is the first argument
// (default 4096). Prints the median of 30 timed launches after 5 warm-ups,
// on random data.
//
//===----------------------------------------------------------------------===//
#include KERNEL_FILE

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifdef AB_F64
using T = double;
constexpr gemm_rt::DType kType = gemm_rt::DType::F64;
#else
using T = float;
constexpr gemm_rt::DType kType = gemm_rt::DType::F32;
#endif

int main(int argc, char **argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : 4096;
  T *a, *b, *c;
  cudaMalloc(&a, n * n * sizeof(T));
  cudaMalloc(&b, n * n * sizeof(T));
  cudaMalloc(&c, n * n * sizeof(T));
  std::vector<T> h(n * n);
  unsigned s = 1;
  for (T &x : h) {
    s = s * 1664525u + 1013904223u;
    x = T(s >> 8) / T(16777216) - T(0.5);
  }
  cudaMemcpy(a, h.data(), n * n * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(b, h.data(), n * n * sizeof(T), cudaMemcpyHostToDevice);
#ifdef LAYOUT_NN
  const gemm_rt::Operand aOp = {a, 0, n, 1};
#else
  const gemm_rt::Operand aOp = {a, 0, 1, n};
#endif
#ifdef B_T
  const gemm_rt::Operand bOp = {b, 0, 1, n};
#else
  const gemm_rt::Operand bOp = {b, 0, n, 1};
#endif
  const gemm_rt::Problem p = {"kernel-ab", kType, 1, n, n, n,
                              aOp, bOp, {c, 0, n, 1}, 1.0, 0.0, {}};
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (int i = 0; i < 5; ++i)
    f(p, 0);
  std::vector<float> ms;
  for (int i = 0; i < 30; ++i) {
    cudaEventRecord(start);
    f(p, 0);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float t;
    cudaEventElapsedTime(&t, start, stop);
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  std::printf("%s n=%ld: %.2f TFLOP/s (%s)\n", KERNEL_FILE, n,
              2.0 * n * n * n / ms[15] / 1e9,
              cudaGetErrorString(cudaGetLastError()));
}
