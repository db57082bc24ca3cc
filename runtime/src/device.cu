//===- device.cu - The GPU, pointer kinds and the staging pool ------------===//
//
// Implements the queries and the pool declared in device.h.
//
//===----------------------------------------------------------------------===//
#include "device.h"

#include "check.h"

#include <algorithm>
#include <cuda_runtime.h>
#include <optional>
#include <string>

namespace gemm_rt::detail {

namespace {
/// What the probe learns of a usable GPU.
struct Gpu {
  std::string name;
  int sms;
};

std::optional<Gpu> probeGpu() {
  int count = 0, device = 0;
  cudaDeviceProp prop;
  // cudaFree(nullptr) creates the context, which fails on a GPU that exists
  // but cannot be used (prohibited compute mode, no free exclusive slot).
  bool usable = cudaGetDeviceCount(&count) == cudaSuccess && count > 0 &&
                cudaGetDevice(&device) == cudaSuccess &&
                cudaGetDeviceProperties(&prop, device) == cudaSuccess &&
                cudaFree(nullptr) == cudaSuccess;
  if (!usable) {
    // The program's own CUDA calls must not see our probe's error.
    (void)cudaGetLastError();
    return std::nullopt;
  }
  return Gpu{prop.name, prop.multiProcessorCount};
}

const std::optional<Gpu> &gpu() {
  static const std::optional<Gpu> probed = probeGpu();
  return probed;
}
} // namespace

const char *gpuName() { return gpu() ? gpu()->name.c_str() : nullptr; }

int smCount() { return gpu()->sms; }

PointerKind pointerKind(const void *ptr, const char *nest) {
  cudaPointerAttributes attrs;
  checkCuda(cudaPointerGetAttributes(&attrs, ptr), nest,
            "cudaPointerGetAttributes");
  switch (attrs.type) {
  case cudaMemoryTypeDevice:
    return PointerKind::Device;
  case cudaMemoryTypeManaged:
    return PointerKind::Managed;
  default:
    // Pinned host memory could be read in place, but staging is always right.
    return PointerKind::Host;
  }
}

const char *pointerKindName(PointerKind kind) {
  static const char *const names[] = {"device", "managed", "host-staged"};
  return names[static_cast<int>(kind)];
}

void *poolBuffer(Role role, size_t bytes, const char *nest) {
  struct Buffer {
    void *ptr = nullptr;
    size_t capacity = 0;
  };
  static Buffer buffers[4];
  Buffer &buf = buffers[static_cast<int>(role)];
  if (bytes <= buf.capacity)
    return buf.ptr;
  checkCuda(cudaFree(buf.ptr), nest, "freeing a pool buffer");
  size_t capacity = std::max(bytes, 2 * buf.capacity);
  checkCuda(cudaMalloc(&buf.ptr, capacity), nest,
            "allocating a pool buffer");
  buf.capacity = capacity;
  return buf.ptr;
}

} // namespace gemm_rt::detail
