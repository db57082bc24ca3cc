// Regression (GPU): each call runs on the GPU that holds its operands. On
// every visible GPU d, A, B and C are allocated there while another GPU is
// current when the nest is called; the result must be right, C's guard
// cells untouched, and the caller's current device the same after the call.
// Calls on host arrays then run on the GPU that hostCallDevice picks
// (docs/switches.md, "Which GPUs"); regress.sh checks that choice in the
// trace under GEMM_OPT_GPUS and an MPI local rank. With --split, calls on
// host arrays under GEMM_OPT_GPUS=all also share C's rows over every GPU
// (regress.sh checks the shares in the trace), in every form below (A and
// B by columns with C padded and accumulated into, C by columns, a batch,
// a bias and a ReLU), and under staging budgets that one GPU's share of the
// memory cannot hold but two can: in several slices of K, with B copied
// once to every GPU, and with B too large for that, staged by each GPU in
// blocks. With one GPU, every check runs on it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
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

/// A and B by columns, C by rows with 3 elements of padding, added into.
static void productByColumns(int M, int N, int K, const float *A,
                             const float *B, float *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < K; ++k)
        s += A[k * M + i] * B[j * K + k];
      C[i * (N + 3) + j] = 2 * C[i * (N + 3) + j] + s;
    }
}

/// C by columns.
static void productIntoColumns(int M, int N, int K, const float *A,
                               const float *B, float *C) {
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < M; ++i) {
      float s = 0;
      for (int k = 0; k < K; ++k)
        s += A[i * K + k] * B[k * N + j];
      C[j * M + i] = s;
    }
}

/// A bias along the rows and a ReLU.
static void productBiasRelu(int M, int N, int K, const float *A,
                            const float *B, const float *bias, float *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < K; ++k)
        s += A[i * K + k] * B[k * N + j];
      C[i * N + j] = std::max(s + bias[j], 0.f);
    }
}

/// A batch of 3 products.
static void batchedProduct(int M, int N, int K, const float *A,
                           const float *B, float *C) {
  for (int b = 0; b < 3; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float s = 0;
        for (int k = 0; k < K; ++k)
          s += A[b * M * K + i * K + k] * B[b * K * N + k * N + j];
        C[b * M * N + i * N + j] = s;
      }
}

enum class Form { ByColumns, IntoColumns, Batched, BiasRelu };

/// One form on host arrays, with the same exact data and guard cells as
/// check's; the element (b, i, j) of C is compared with its sum in double.
static bool checkForm(Form form, int M, int N, int K) {
  const int G = 32, batch = form == Form::Batched ? 3 : 1;
  const int ldc = form == Form::ByColumns ? N + 3 : N;
  const float poison = -7777.f;
  std::vector<float> a(size_t(batch) * M * K), b(size_t(batch) * K * N),
      c(size_t(batch) * M * ldc + 2 * G, poison);
  for (float &x : a) x = float(std::rand() % 17 - 8) / 256;
  for (float &x : b) x = float(std::rand() % 17 - 8) / 256;
  std::vector<float> bias(N);
  for (float &x : bias) x = float(std::rand() % 17 - 8) / 16;
  if (form == Form::ByColumns)
    for (float &x : c) x = float(std::rand() % 17 - 8) / 256;
  const std::vector<float> before = c;
  float *out = c.data() + G;
  if (form == Form::ByColumns)
    productByColumns(M, N, K, a.data(), b.data(), out);
  else if (form == Form::IntoColumns)
    productIntoColumns(M, N, K, a.data(), b.data(), out);
  else if (form == Form::BiasRelu)
    productBiasRelu(M, N, K, a.data(), b.data(), bias.data(), out);
  else
    batchedProduct(M, N, K, a.data(), b.data(), out);
  bool ok = true;
  for (size_t x = 0; x < c.size(); ++x) {
    const long inC = long(x) - G;
    const long per = long(M) * ldc;
    const int m = int(inC / (inC >= 0 ? per : 1) % batch);
    const long at = inC - long(m) * per;
    // Column-major C: (i, j) at j * M + i.
    const int i = form == Form::IntoColumns ? int(at % M) : int(at / ldc);
    const int j = form == Form::IntoColumns ? int(at / M) : int(at % ldc);
    if (inC < 0 || inC >= batch * per || j >= N) {
      ok = ok && c[x] == before[x];
      continue;
    }
    double s = form == Form::ByColumns ? 2.0 * before[x] : 0;
    for (int k = 0; k < K; ++k)
      s += form == Form::ByColumns
               ? double(a[size_t(k) * M + i]) * b[size_t(j) * K + k]
               : double(a[size_t(m) * M * K + size_t(i) * K + k]) *
                     b[size_t(m) * K * N + size_t(k) * N + j];
    if (form == Form::BiasRelu)
      s = std::max(s + bias[j], 0.0);
    ok = ok && c[x] == float(s);
  }
  if (!ok)
    std::printf("FAIL form %d on host arrays, M=%d N=%d K=%d\n", int(form),
                M, N, K);
  return ok;
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
    // Staging budgets that A, B and C together exceed but two GPUs' hold:
    // 7 MiB under 13 MiB, in two slices of K (each GPU's rows of C and
    // three slices of 1024), in every form (a batch is not sliced); 8 MiB
    // under 5 MiB, where neither C's rows and slices fit nor B (4 MiB) in
    // half of each GPU's, and each stages B itself; 16.25 MiB under 10 MiB,
    // B (256 KiB) copied once to every GPU. A GPU keeps a copy's buffer,
    // which later budgets count: the smaller B goes last.
    const int budgets[][4] = {{1024, 512, 2048, 13 << 20},
                              {512, 1024, 1024, 5 << 20},
                              {8192, 256, 256, 10 << 20}};
    for (const auto &s : budgets) {
      setenv("GEMM_OPT_DEVICE_MEMORY", std::to_string(s[3]).c_str(), 1);
      failed += !check(gpus, -1, s[0], s[1], s[2]);
      ++calls;
      if (&s == &budgets[0])
        for (Form form : {Form::ByColumns, Form::IntoColumns, Form::Batched,
                          Form::BiasRelu}) {
          failed += !checkForm(form, s[0], s[1], s[2]);
          ++calls;
        }
    }
    unsetenv("GEMM_OPT_DEVICE_MEMORY");
    const int split[][3] = {
        {1000, 300, 200}, {2049, 64, 33}, {600, 1000, 500}};
    for (const auto &s : split) {
      failed += !check(gpus, -1, s[0], s[1], s[2]);
      ++calls;
      for (Form form : {Form::ByColumns, Form::IntoColumns, Form::Batched,
                        Form::BiasRelu}) {
        failed += !checkForm(form, s[0], s[1], s[2]);
        ++calls;
      }
    }
  }
  std::printf("%d GPU(s): %d of %d calls right\n", gpus, calls - failed,
              calls);
  return failed ? 1 : 0;
}
