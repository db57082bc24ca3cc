// Regression (GPU): each call runs on the GPU that holds its operands. On
// every visible GPU d, A, B and C are allocated there while another GPU is
// current when the nest is called; the result must be right, C's guard
// cells untouched, and the caller's current device the same after the call.
// Calls on host arrays then run on the GPU that hostCallDevice picks
// (docs/switches.md, "Which GPUs"); regress.sh checks that choice in the
// trace under GEMM_OPT_GPUS and an MPI local rank. With --split, calls on
// host arrays under GEMM_OPT_GPUS=all also share C's rows over every GPU
// (regress.sh checks the shares in the trace). With one GPU, every check
// runs on it.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

static void product(int M, int N, int K, const float *A, const float *B,
                    float *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < K; ++k)
        s += A[i * K + k] * B[k * N + j];
      C[i * N + j] = s;
    }
}

/// C = A * B for 2^-8-scaled small integers: every product and sum is exact
/// in float, so the result must equal the reference bit for bit.
static bool check(int gpus, int owner, int M, int N, int K) {
  const int G = 32;
  const float poison = -7777.f;
  std::vector<float> a(size_t(M) * K), b(size_t(K) * N),
      c(size_t(M) * N + 2 * G, poison);
  for (float &x : a) x = float(std::rand() % 17 - 8) / 256;
  for (float &x : b) x = float(std::rand() % 17 - 8) / 256;
  float *dA = nullptr, *dB = nullptr, *dC = nullptr;
  if (owner >= 0) {
    cudaSetDevice(owner);
    cudaMalloc(&dA, a.size() * sizeof(float));
    cudaMalloc(&dB, b.size() * sizeof(float));
    cudaMalloc(&dC, c.size() * sizeof(float));
    cudaMemcpy(dA, a.data(), a.size() * sizeof(float), cudaMemcpyDefault);
    cudaMemcpy(dB, b.data(), b.size() * sizeof(float), cudaMemcpyDefault);
    cudaMemcpy(dC, c.data(), c.size() * sizeof(float), cudaMemcpyDefault);
  }
  // Another GPU is current when the nest is called.
  const int current = owner >= 0 ? (owner + 1) % gpus : 0;
  cudaSetDevice(current);
  if (owner >= 0)
    product(M, N, K, dA, dB, dC + G);
  else
    product(M, N, K, a.data(), b.data(), c.data() + G);
  int after = -1;
  cudaGetDevice(&after);
  if (owner >= 0) {
    cudaSetDevice(owner);
    cudaMemcpy(c.data(), dC, c.size() * sizeof(float), cudaMemcpyDefault);
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    cudaSetDevice(current);
  }
  bool ok = after == current;
  for (size_t x = 0; x < c.size(); ++x) {
    const long inC = long(x) - G;
    if (inC < 0 || inC >= long(M) * N) {
      ok = ok && c[x] == poison;
      continue;
    }
    const int i = int(inC / N), j = int(inC % N);
    double s = 0;
    for (int k = 0; k < K; ++k)
      s += double(a[size_t(i) * K + k]) * b[size_t(k) * N + j];
    ok = ok && c[x] == float(s);
  }
  if (!ok)
    std::printf("FAIL operands on %s%d, device %d current, M=%d N=%d K=%d; "
                "current after the call: %d\n",
                owner >= 0 ? "GPU " : "host", owner >= 0 ? owner : 0, current,
                M, N, K, after);
  return ok;
}

int main(int argc, char **argv) {
  int gpus = 0;
  if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus < 1) {
    std::printf("no GPU\n");
    return 1;
  }
  const int shapes[][3] = {{1, 1, 1}, {7, 5, 3}, {64, 64, 64},
                           {300, 200, 100}, {1024, 512, 256}};
  int failed = 0, calls = 0;
  for (int owner = -1; owner < gpus; ++owner)
    for (const auto &s : shapes) {
      failed += !check(gpus, owner, s[0], s[1], s[2]);
      ++calls;
    }
  // --split: host arrays with C's rows shared over every GPU
  // (GEMM_OPT_GPUS=all): shares that end inside a tile, a last share of one
  // row, few columns.
  if (argc == 2 && std::strcmp(argv[1], "--split") == 0) {
    setenv("GEMM_OPT_GPUS", "all", 1);
    const int split[][3] = {
        {1000, 300, 200}, {2049, 64, 33}, {600, 1000, 500}};
    for (const auto &s : split) {
      failed += !check(gpus, -1, s[0], s[1], s[2]);
      ++calls;
    }
  }
  std::printf("%d GPU(s): %d of %d calls right\n", gpus, calls - failed,
              calls);
  return failed ? 1 : 0;
}
