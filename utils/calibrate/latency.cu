//===- latency.cu - The Hopper microbenchmarks behind lib/Target ---------===//
//
// Dependent-chain latencies behind the Hopper rows of lib/Target/Targets.cpp:
// FFMA, DFMA, 32/64/128-bit shared-memory loads, a global load that misses
// the caches and the FP64 mma.sync shapes, in SM clocks, measured by one
// thread (one warp for mma.sync) with clock64(); then the mma.sync shapes'
// throughput with every SM busy, the rate of CodeGen's dmma inner loop
// (operands in registers, then read from shared memory), and the L2
// bandwidth of 128-bit loads from a buffer that the L2 holds.
//
// On the GPU machine (utils/calibrate/README.md):
//   nvcc -arch=sm_90 -O3 utils/calibrate/latency.cu -o /tmp/latency
//   /tmp/latency
//
//===----------------------------------------------------------------------===//
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

// One FP64 mma.sync of shape m8n8k4 (M = 8) or m16n8kK (M = 16) on
// accumulator d; the A and B registers are whatever the lane holds.
template <int M, int K> __device__ __forceinline__ void dmma(double (&d)[4], double a, double b) {
  if constexpr (M == 8)
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
                 : "+d"(d[0]), "+d"(d[1]) : "d"(a), "d"(b));
  if constexpr (M == 16 && K == 4)
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
                 : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3]) : "d"(a), "d"(b), "d"(b));
  if constexpr (M == 16 && K == 8)
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3]) : "d"(a), "d"(b), "d"(a), "d"(b), "d"(a), "d"(b));
  if constexpr (M == 16 && K == 16)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%0, %1, %2, %3};"
                 : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
                 : "d"(a), "d"(b), "d"(a), "d"(b), "d"(a), "d"(b), "d"(a), "d"(b), "d"(a), "d"(b), "d"(a), "d"(b));
}

// Chains independent accumulators per warp: with Chains = 1 the clocks per
// step are the latency, with enough warps and chains the SM's throughput.
template <int M, int K, int Chains>
__global__ void dmmaChain(double *out, long long *clocks, int steps) {
  double d[Chains][4] = {};
  double a = out[threadIdx.x % 32], b = out[32 + threadIdx.x % 32];
  long long start = clock64();
  for (int i = 0; i < steps; ++i)
#pragma unroll
    for (int c = 0; c < Chains; ++c)
      dmma<M, K>(d[c], a, b);
  long long stop = clock64();
  double sum = 0;
  for (int c = 0; c < Chains; ++c)
    sum += d[c][0] + d[c][1] + d[c][2] + d[c][3];
  out[64 + blockIdx.x * blockDim.x + threadIdx.x] = sum;
  if (threadIdx.x == 0 && blockIdx.x == 0)
    clocks[0] = stop - start;
}

// The inner loop of CodeGen's dmma kernel without its barriers and global
// loads: each of 8 warps multiplies a 64 x 32 tile as a 4 x 4 grid of
// m16n8kK products whose A and B operands are distinct registers (rows r
// share A, columns j share B), read each step from shared memory the way
// the kernels do (FromShared) or kept in registers.
template <int K, bool FromShared>
__global__ void dmmaTile(double *out, int steps) {
  constexpr int S = K / 4, BM = 128, PAD = 4, BK = 32;
  __shared__ double tile[BK][BM + PAD];
  for (int i = threadIdx.x; i < BK * (BM + PAD); i += blockDim.x)
    tile[i / (BM + PAD)][i % (BM + PAD)] = out[i % 64];
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wm0 = (warp / 4) * 64, wn0 = (warp % 4) * 32;
  double acc[4][4][4] = {};
  double fa[S][8], fb[S][4];
  for (int s = 0; s < S; ++s) {
    for (int i = 0; i < 8; ++i)
      fa[s][i] = tile[4 * s + lane % 4][wm0 + i * 8 + lane / 4];
    for (int j = 0; j < 4; ++j)
      fb[s][j] = tile[4 * s + lane % 4][wn0 + j * 8 + lane / 4];
  }
  for (int step = 0; step < steps; ++step) {
    if (FromShared) {
      const int k0 = (step * K) % BK;
#pragma unroll
      for (int s = 0; s < S; ++s) {
#pragma unroll
        for (int i = 0; i < 8; ++i)
          fa[s][i] = tile[k0 + 4 * s + lane % 4][wm0 + i * 8 + lane / 4];
#pragma unroll
        for (int j = 0; j < 4; ++j)
          fb[s][j] = tile[k0 + 4 * s + lane % 4][wn0 + j * 8 + lane / 4];
      }
    }
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        if constexpr (K == 8)
          asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                       : "+d"(acc[r][j][0]), "+d"(acc[r][j][1]), "+d"(acc[r][j][2]), "+d"(acc[r][j][3])
                       : "d"(fa[0][2 * r]), "d"(fa[0][2 * r + 1]), "d"(fa[1][2 * r]), "d"(fa[1][2 * r + 1]),
                         "d"(fb[0][j]), "d"(fb[1][j]));
        else
          asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%0, %1, %2, %3};"
                       : "+d"(acc[r][j][0]), "+d"(acc[r][j][1]), "+d"(acc[r][j][2]), "+d"(acc[r][j][3])
                       : "d"(fa[0][2 * r]), "d"(fa[0][2 * r + 1]), "d"(fa[1][2 * r]), "d"(fa[1][2 * r + 1]),
                         "d"(fa[2][2 * r]), "d"(fa[2][2 * r + 1]), "d"(fa[3][2 * r]), "d"(fa[3][2 * r + 1]),
                         "d"(fb[0][j]), "d"(fb[1][j]), "d"(fb[2][j]), "d"(fb[3][j]));
      }
  }
  double sum = 0;
  for (int r = 0; r < 4; ++r)
    for (int j = 0; j < 4; ++j)
      sum += acc[r][j][0] + acc[r][j][1] + acc[r][j][2] + acc[r][j][3];
  out[64 + blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// FMAs per clock per SM of dmmaTile, one block of 256 threads per SM.
template <int K, bool FromShared> void dmmaTileRate(double *buf, int sms, int kHz) {
  const int steps = 4096;
  cudaEvent_t t0, t1;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  dmmaTile<K, FromShared><<<sms, 256>>>(buf, steps);
  cudaEventRecord(t0);
  dmmaTile<K, FromShared><<<sms, 256>>>(buf, steps);
  cudaEventRecord(t1);
  cudaEventSynchronize(t1);
  float ms = 0;
  cudaEventElapsedTime(&ms, t0, t1);
  double fmas = double(sms) * 8 * 16 * steps * 16 * 8 * K;
  printf("dmma tile m16n8k%d, operands from %s: %.1f FMA/clock/SM, %.1f TFLOP/s\n", K,
         FromShared ? "shared memory" : "registers",
         fmas / (ms * 1e-3) / (double(kHz) * 1e3) / sms, 2 * fmas / (ms * 1e-3) / 1e12);
}

// mma.sync latency (one warp) and FMAs per clock per SM (8 warps of 8
// chains on every SM, timed by events at the reported clock).
template <int M, int K> void dmmaShape(double *buf, long long *clocks, int sms, int kHz) {
  long long host;
  const int steps = 4096;
  dmmaChain<M, K, 1><<<1, 32>>>(buf, clocks, steps);
  cudaMemcpy(&host, clocks, 8, cudaMemcpyDeviceToHost);
  double latency = double(host) / steps;
  cudaEvent_t t0, t1;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  dmmaChain<M, K, 8><<<sms, 256>>>(buf, clocks, steps);
  cudaEventRecord(t0);
  dmmaChain<M, K, 8><<<sms, 256>>>(buf, clocks, steps);
  cudaEventRecord(t1);
  cudaEventSynchronize(t1);
  float ms = 0;
  cudaEventElapsedTime(&ms, t0, t1);
  double fmas = double(sms) * 8 * 8 * steps * M * 8 * K;
  double perClockPerSM = fmas / (ms * 1e-3) / (double(kHz) * 1e3) / sms;
  printf("dmma m%dn8k%d latency %.2f, %.1f FMA/clock/SM, %.1f TFLOP/s\n", M, K, latency,
         perClockPerSM, 2 * fmas / (ms * 1e-3) / 1e12);
}

// Every thread sums `rounds` passes of 128-bit loads over `words` 16-byte
// words, so that the loads stay in flight and the L2 serves them all.
__global__ void l2Read(const uint4 *buf, size_t words, int rounds, unsigned *out) {
  unsigned x = 0;
  size_t stride = size_t(gridDim.x) * blockDim.x;
  for (int r = 0; r < rounds; ++r)
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < words; i += stride) {
      uint4 v = __ldcg(buf + i);
      x ^= v.x ^ v.y ^ v.z ^ v.w;
    }
  if (x == 0x12345678u)
    out[0] = x;
}

void l2Bandwidth(int sms) {
  const size_t bytes = 16u << 20, words = bytes / 16;
  const int rounds = 50;
  uint4 *buf;
  unsigned *out;
  cudaMalloc(&buf, bytes);
  cudaMalloc(&out, 4);
  cudaMemset(buf, 1, bytes);
  l2Read<<<sms * 4, 512>>>(buf, words, 1, out);
  cudaEvent_t t0, t1;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  cudaEventRecord(t0);
  l2Read<<<sms * 4, 512>>>(buf, words, rounds, out);
  cudaEventRecord(t1);
  cudaEventSynchronize(t1);
  float ms = 0;
  cudaEventElapsedTime(&ms, t0, t1);
  printf("l2 read %.0f GB/s (16 MiB buffer)\n", double(bytes) * rounds / (ms * 1e-3) / 1e9);
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
  double *buf;
  cudaMalloc(&buf, (64 + 256 * prop.multiProcessorCount) * sizeof(double));
  cudaMemset(buf, 0, 64 * sizeof(double));
  dmmaShape<8, 4>(buf, clocks, prop.multiProcessorCount, kHz);
  dmmaShape<16, 4>(buf, clocks, prop.multiProcessorCount, kHz);
  dmmaShape<16, 8>(buf, clocks, prop.multiProcessorCount, kHz);
  dmmaShape<16, 16>(buf, clocks, prop.multiProcessorCount, kHz);
  dmmaTileRate<8, false>(buf, prop.multiProcessorCount, kHz);
  dmmaTileRate<16, false>(buf, prop.multiProcessorCount, kHz);
  dmmaTileRate<8, true>(buf, prop.multiProcessorCount, kHz);
  dmmaTileRate<16, true>(buf, prop.multiProcessorCount, kHz);
  l2Bandwidth(prop.multiProcessorCount);
  return cudaGetLastError() != cudaSuccess;
}
