//===- staging-costs.cu - What a staged call's fixed costs are ------------===//
//
// Times, on the GPU machine, the pieces of a call with host operands that do
// not scale with its size (host/profit.cu's kCallSeconds and kPanelSeconds): the
// pointer queries, the machine query, a gather into pinned memory by the
// copy threads, a copy each way, an attribute set, a launch and an event
// round trip; then whole calls of the bench's sgemm_nn on host and on
// device arrays. Medians of 51 runs, in microseconds. staging-costs.sh
// builds and runs it.
//
//===----------------------------------------------------------------------===//
#include "core/device.h"
#include "gemms.h"
#include "host/gather.h"
#include "host/profit.h"
#include "host/staging.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

using namespace gemm_rt::detail;

namespace {
template <class F> double micros(F f) {
  f();
  std::vector<double> t;
  for (int r = 0; r < 51; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::micro>(
                    std::chrono::steady_clock::now() - t0)
                    .count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void show(const char *what, double us) {
  std::printf("| %s | %.1f |\n", what, us);
}

/// A copy of `bytes` split across the copy threads in pieces of `grain`.
struct Copy {
  const unsigned char *from;
  unsigned char *to;
};
void copyPiece(const void *context, int64_t begin, int64_t end) {
  const Copy &c = *static_cast<const Copy *>(context);
  std::copy(c.from + begin, c.from + end, c.to + begin);
}

__global__ void empty() {}

cudaError_t none(const gemm_rt::Problem &, cudaStream_t) {
  return cudaSuccess;
}
} // namespace

int main() {
  const long n = 512;
  const size_t bytes = size_t(n) * n * sizeof(float);
  std::vector<float> a(n * n, 1.0f), b(n * n, 1.0f), c(n * n);
  float *pinned, *da, *db, *dc;
  cudaHostAlloc(reinterpret_cast<void **>(&pinned), bytes, 0);
  cudaMalloc(&da, bytes);
  cudaMalloc(&db, bytes);
  cudaMalloc(&dc, bytes);
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaEvent_t e;
  cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  const HostGather packing({a.data(), 0, n, 1}, {1, n, n}, sizeof(float));

  std::printf("| piece (512^2 f32 operands, 1 MiB) | us |\n|---|---|\n");
  show("3 pointer queries", micros([&] {
         for (const void *p : {(const void *)a.data(), (const void *)b.data(),
                               (const void *)c.data()})
           pointerKind(p, "x");
       }));
  show("cudaMemGetInfo", micros([] {
         size_t f, t;
         cudaMemGetInfo(&f, &t);
       }));
  show("currentMachine", micros([] { currentMachine("x"); }));
  show("gather 1 MiB into pinned", micros([&] {
         packing.gather(pinned, 0, packing.runCount());
       }));
  {
    const size_t most = size_t(16) << 20;
    std::vector<unsigned char> from(most, 1);
    unsigned char *to;
    cudaHostAlloc(reinterpret_cast<void **>(&to), most, 0);
    const Copy copy{from.data(), to};
    char what[64];
    for (size_t size : {size_t(1) << 20, size_t(4) << 20, most})
      for (int64_t grain : {int64_t(256) << 10, int64_t(1) << 20,
                            int64_t(4) << 20, int64_t(size)}) {
        std::snprintf(what, sizeof what, "copy %zu MiB in pieces of %lld KiB",
                      size >> 20, (long long)(grain >> 10));
        show(what, micros([&] {
               parallelFor(int64_t(size), grain, copyPiece, &copy);
             }));
      }
    cudaFreeHost(to);
  }
  {
    // The planning of a staged 512^3 f32 call with a plan of five kernels.
    const gemm_rt::Variant variants[] = {
        {none, 128, 128, 1, 50000, 0.5, 1.0}, {none, 128, 64, 1, 45000, 0.5, 1.0},
        {none, 64, 128, 1, 45000, 0.5, 1.0},  {none, 64, 64, 2, 40000, 1.0, 1.0},
        {none, 256, 128, 1, 52000, 0.5, 1.0}};
    const gemm_rt::Plan plan{variants, 5, 3350};
    const gemm_rt::Problem p{"x", gemm_rt::DType::F32, 1, n, n, n,
                             {a.data(), 0, n, 1}, {b.data(), 0, n, 1},
                             {c.data(), 0, n, 1}, 1.0, 0.0};
    show("route (planning)", micros([&] {
           route(p, plan, {true, true, true}, Profitability::Model,
                 currentMachine);
         }));
  }
  show("memcpy 1 MiB into pinned (one thread)",
       micros([&] { std::copy(a.begin(), a.end(), pinned); }));
  show("H2D 1 MiB pinned + sync", micros([&] {
         cudaMemcpyAsync(da, pinned, bytes, cudaMemcpyHostToDevice, s);
         cudaStreamSynchronize(s);
       }));
  show("D2H 1 MiB pinned + sync", micros([&] {
         cudaMemcpyAsync(pinned, da, bytes, cudaMemcpyDeviceToHost, s);
         cudaStreamSynchronize(s);
       }));
  show("H2D 1 MiB pageable", micros([&] {
         cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice);
       }));
  show("cudaFuncSetAttribute (dynamic shared memory)", micros([] {
         cudaFuncSetAttribute(empty, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              64 << 10);
       }));
  show("launch of an empty kernel", micros([&] {
         empty<<<1, 32, 64 << 10, s>>>();
         cudaGetLastError();
       }));
  cudaStreamSynchronize(s);
  show("event record + synchronize", micros([&] {
         cudaEventRecord(e, s);
         cudaEventSynchronize(e);
       }));
  show("sgemm_nn 512^3, device arrays + sync", micros([&] {
         sgemm_nn(n, n, n, 1, da, n, db, n, 0, dc, n);
         cudaDeviceSynchronize();
       }));
  show("sgemm_nn 512^3, host arrays", micros([&] {
         sgemm_nn(n, n, n, 1, a.data(), n, b.data(), n, 0, c.data(), n);
       }));
  return 0;
}
