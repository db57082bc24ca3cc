//===- kernel-ab.cu - One kernel's rate on a 4096^3 f32 problem -----------===//
//
// Built by kernel-ab.sh once per kernel file: KERNEL_FILE defines
// `gemm_rt::LaunchFn f` (a configuration and gemm_kernels::launch<...>, or an
// older generated kernel), and LAYOUT_NN, where defined, makes A row-major
// (else column-major), and B_T makes B column-major (else row-major); C is
// row-major. Prints the median of 30 timed launches after 5 warm-ups, on
// random data.
//
//===----------------------------------------------------------------------===//
#include KERNEL_FILE

#include <algorithm>
#include <cstdio>
#include <vector>

int main() {
  const long n = 4096;
  float *a, *b, *c;
  cudaMalloc(&a, n * n * 4);
  cudaMalloc(&b, n * n * 4);
  cudaMalloc(&c, n * n * 4);
  std::vector<float> h(n * n);
  unsigned s = 1;
  for (float &x : h) {
    s = s * 1664525u + 1013904223u;
    x = float(s >> 8) / 16777216.0f - 0.5f;
  }
  cudaMemcpy(a, h.data(), n * n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(b, h.data(), n * n * 4, cudaMemcpyHostToDevice);
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
  const gemm_rt::Problem p = {"kernel-ab", gemm_rt::DType::F32, 1, n, n, n,
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
  std::printf("%s: %.2f TFLOP/s (%s)\n", KERNEL_FILE,
              2.0 * n * n * n / ms[15] / 1e9,
              cudaGetErrorString(cudaGetLastError()));
}
