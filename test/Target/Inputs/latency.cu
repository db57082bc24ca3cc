// Dependent-chain latencies behind the Hopper rows of lib/Target/Targets.cpp:
// FFMA, DFMA, 32/64/128-bit shared-memory loads and a global load that
// misses the caches, in SM clocks, measured by one thread with clock64().
// Not a lit test (it needs a GPU): nvcc -arch=sm_90 -O3 latency.cu && ./a.out
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kChain = 1024;

template <typename T> __global__ void fmaChain(T *out, long long *clocks, T a, T b) {
  T x = out[0];
  long long start = clock64();
#pragma unroll 128
  for (int i = 0; i < kChain; ++i)
    x = fma(x, a, b);
  long long stop = clock64();
  out[0] = x;
  clocks[0] = stop - start;
}

// Pointer chase through shared memory with loads of W 32-bit words. Every
// variant folds the four words it holds into the next offset, so that no
// load is narrowed and each step costs the same ALU work (k is zero).
template <int W>
__global__ void sharedChain(unsigned *out, long long *clocks, unsigned k) {
  __shared__ __align__(16) unsigned tile[4096];
  for (int i = 0; i < 4096; ++i)
    tile[i] = i % 4 ? 0 : ((i + 16) % 4096) * 4; // byte offset of the next
  __syncthreads();
  unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  unsigned p = 0, x, y = k, z = k, w = k;
  long long start = clock64();
#pragma unroll 64
  for (int i = 0; i < kChain; ++i) {
    if constexpr (W == 1)
      asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(base + p));
    if constexpr (W == 2)
      asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "r"(base + p));
    if constexpr (W == 4)
      asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(base + p));
    p = x ^ y ^ z ^ w;
  }
  long long stop = clock64();
  out[0] = p;
  clocks[0] = stop - start;
}

// Pointer chase through global memory at a stride that defeats the caches.
__global__ void globalChain(const unsigned long long *next, unsigned long long *out,
                            long long *clocks, int steps) {
  unsigned long long p = 0;
  long long start = clock64();
  for (int i = 0; i < steps; ++i)
    p = __ldcg(next + p);
  long long stop = clock64();
  out[0] = p;
  clocks[0] = stop - start;
}

int main() {
  long long *clocks, host;
  cudaMalloc(&clocks, sizeof(long long));
  float *f; double *d; unsigned *u;
  cudaMalloc(&f, 4); cudaMalloc(&d, 8); cudaMalloc(&u, 4);
  cudaMemset(f, 0, 4); cudaMemset(d, 0, 8);
  for (int warm = 0; warm < 2; ++warm) {
    fmaChain<<<1, 1>>>(f, clocks, 1.0001f, 0.5f);
  }
  cudaMemcpy(&host, clocks, 8, cudaMemcpyDeviceToHost);
  printf("ffma %.2f\n", double(host) / kChain);
  for (int warm = 0; warm < 2; ++warm)
    fmaChain<<<1, 1>>>(d, clocks, 1.0001, 0.5);
  cudaMemcpy(&host, clocks, 8, cudaMemcpyDeviceToHost);
  printf("dfma %.2f\n", double(host) / kChain);
  sharedChain<1><<<1, 1>>>(u, clocks, 0);
  cudaMemcpy(&host, clocks, 8, cudaMemcpyDeviceToHost);
  printf("lds32 %.2f\n", double(host) / kChain);
  sharedChain<2><<<1, 1>>>(u, clocks, 0);
  cudaMemcpy(&host, clocks, 8, cudaMemcpyDeviceToHost);
  printf("lds64 %.2f\n", double(host) / kChain);
  sharedChain<4><<<1, 1>>>(u, clocks, 0);
  cudaMemcpy(&host, clocks, 8, cudaMemcpyDeviceToHost);
  printf("lds128 %.2f\n", double(host) / kChain);
  // 1 GiB of 8-byte slots chased once at a stride of 64 KiB + 128 B: every
  // load of the cold run goes to a new DRAM line.
  size_t slots = (1ull << 30) / 8, stride = (64ull << 10) / 8 + 16;
  unsigned long long *next, *hostNext = new unsigned long long[slots];
  for (size_t i = 0; i < slots; ++i)
    hostNext[i] = (i + stride) % slots;
  cudaMalloc(&next, slots * 8);
  cudaMemcpy(next, hostNext, slots * 8, cudaMemcpyHostToDevice);
  unsigned long long *out;
  cudaMalloc(&out, 8);
  const int steps = 4096;
  globalChain<<<1, 1>>>(next, out, clocks, steps);
  cudaMemcpy(&host, clocks, 8, cudaMemcpyDeviceToHost);
  printf("global %.2f\n", double(host) / steps);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int kHz = 0;
  cudaDeviceGetAttribute(&kHz, cudaDevAttrClockRate, 0);
  printf("device %s, %d SMs, clock %d kHz\n", prop.name, prop.multiProcessorCount, kHz);
  return cudaGetLastError() != cudaSuccess;
}
