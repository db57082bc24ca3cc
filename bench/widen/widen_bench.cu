// bench/widen: float matrices summed in double (gemm_widen.h), side by side
// with cuBLAS in one process: the rewritten loop with a double accumulator,
// the rewritten loop with a float one, cublasSgemm, and what a cuBLAS user
// writes for the double sum (widen A and B, cublasDgemm, round C). Each on
// device arrays, median of --reps timed calls after one warm-up; error
// against cublasDgemm on the widened inputs (the exact product rounded
// once), as max |x - ref| / (|A| |B|)_ij over all elements.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

void mm_double_sum(int m, int n, int k, const float *A, const float *B,
                   float *C);
void mm_float_sum(int m, int n, int k, const float *A, const float *B,
                  float *C);

#define CHECK(x)                                                               \
  do {                                                                         \
    if ((x) != 0) {                                                            \
      std::fprintf(stderr, "%s failed at line %d\n", #x, __LINE__);            \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

__global__ void widenKernel(const float *x, double *y, size_t n) {
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < n;
       e += size_t(gridDim.x) * blockDim.x)
    y[e] = x[e];
}
__global__ void narrowKernel(const double *x, float *y, size_t n) {
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < n;
       e += size_t(gridDim.x) * blockDim.x)
    y[e] = float(x[e]);
}

template <class F> double medianMs(int reps, F f) {
  f();
  CHECK(cudaDeviceSynchronize());
  std::vector<float> ms;
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaEventRecord(a));
    f();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float t;
    CHECK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

int main(int argc, char **argv) {
  int reps = 20;
  std::vector<int> sizes;
  for (int a = 1; a < argc; ++a)
    if (!std::strcmp(argv[a], "--reps") && a + 1 < argc)
      reps = std::atoi(argv[++a]);
    else
      sizes.push_back(std::atoi(argv[a]));
  if (sizes.empty())
    sizes = {1024, 4096, 8192};
  cublasHandle_t h;
  CHECK(cublasCreate(&h));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s\n\n", prop.name);
  std::printf("| n (m = n = k) | double-sum loop TFLOP/s | float-sum loop | "
              "cublasSgemm | widen + cublasDgemm + round | double-sum / "
              "cuBLAS double | error double-sum | error float-sum | error "
              "Sgemm |\n|---|---|---|---|---|---|---|---|---|\n");
  for (int n : sizes) {
    const size_t e = size_t(n) * n;
    std::vector<float> ha(e), hb(e);
    srand(n);
    for (size_t x = 0; x < e; ++x) {
      ha[x] = float(rand()) / RAND_MAX * 2 - 1;
      hb[x] = float(rand()) / RAND_MAX * 2 - 1;
    }
    float *a, *b, *c;
    double *da, *db, *dc;
    CHECK(cudaMalloc(&a, e * 4));
    CHECK(cudaMalloc(&b, e * 4));
    CHECK(cudaMalloc(&c, e * 4));
    CHECK(cudaMalloc(&da, e * 8));
    CHECK(cudaMalloc(&db, e * 8));
    CHECK(cudaMalloc(&dc, e * 8));
    CHECK(cudaMemcpy(a, ha.data(), e * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb.data(), e * 4, cudaMemcpyHostToDevice));
    const double one = 1, zero = 0;
    const float onef = 1, zerof = 0;
    // Row-major C = A B is column-major C^T = B^T A^T.
    auto dgemm = [&] {
      widenKernel<<<4096, 256>>>(a, da, e);
      widenKernel<<<4096, 256>>>(b, db, e);
      CHECK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, db, n,
                        da, n, &zero, dc, n));
      narrowKernel<<<4096, 256>>>(dc, c, e);
    };
    // The reference: the exact products summed in double, rounded once.
    dgemm();
    CHECK(cudaDeviceSynchronize());
    std::vector<double> ref(e);
    CHECK(cudaMemcpy(ref.data(), dc, e * 8, cudaMemcpyDeviceToHost));
    // |A| |B| per element, from |A| and |B| in double.
    for (size_t x = 0; x < e; ++x) {
      ha[x] = std::fabs(ha[x]);
      hb[x] = std::fabs(hb[x]);
    }
    CHECK(cudaMemcpy(a, ha.data(), e * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb.data(), e * 4, cudaMemcpyHostToDevice));
    dgemm();
    CHECK(cudaDeviceSynchronize());
    std::vector<double> scale(e);
    CHECK(cudaMemcpy(scale.data(), dc, e * 8, cudaMemcpyDeviceToHost));
    srand(n);
    for (size_t x = 0; x < e; ++x) {
      ha[x] = float(rand()) / RAND_MAX * 2 - 1;
      hb[x] = float(rand()) / RAND_MAX * 2 - 1;
    }
    CHECK(cudaMemcpy(a, ha.data(), e * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb.data(), e * 4, cudaMemcpyHostToDevice));
    std::vector<float> out(e);
    auto error = [&] {
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(out.data(), c, e * 4, cudaMemcpyDeviceToHost));
      double worst = 0;
      for (size_t x = 0; x < e; ++x)
        worst = std::max(worst, std::fabs(out[x] - ref[x]) / scale[x]);
      return worst;
    };
    auto wide = [&] { mm_double_sum(n, n, n, a, b, c); };
    auto narrow = [&] { mm_float_sum(n, n, n, a, b, c); };
    auto sgemm = [&] {
      CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &onef, b, n, a,
                        n, &zerof, c, n));
    };
    wide();
    const double eWide = error();
    narrow();
    const double eNarrow = error();
    sgemm();
    const double eS = error();
    const double tWide = medianMs(reps, wide), tNarrow = medianMs(reps, narrow),
                 tS = medianMs(reps, sgemm), tD = medianMs(reps, dgemm);
    const double flop = 2.0 * n * n * n / 1e9;
    std::printf("| %d | %.1f | %.1f | %.1f | %.1f | %.2fx | %.2g | %.2g | "
                "%.2g |\n",
                n, flop / tWide, flop / tNarrow, flop / tS, flop / tD,
                tD / tWide, eWide, eNarrow, eS);
    for (void *p : {(void *)a, (void *)b, (void *)c, (void *)da, (void *)db,
                    (void *)dc})
      CHECK(cudaFree(p));
  }
  CHECK(cublasDestroy(h));
  return 0;
}
