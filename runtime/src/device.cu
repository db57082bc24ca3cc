//===- device.cu - The GPU, pointer kinds and the staging pool ------------===//
//
// Implements the queries and the pool declared in device.h.
//
//===----------------------------------------------------------------------===//
#include "device.h"

#include "check.h"

#include <algorithm>
#include <cuda_runtime.h>
#include <string>

namespace gemm_rt::detail {

namespace {
/// What the probe learns: the usable GPU, or why there is none.
struct Gpu {
  std::string name;
  int sms = 0;
  /// "no GPU (<the CUDA call that failed>: <its error>)", or empty.
  std::string missing;
};

Gpu probeGpu() {
  Gpu gpu;
  auto succeeded = [&](cudaError_t error, const char *call) {
    if (error != cudaSuccess)
      gpu.missing = std::string("no GPU (") + call + ": " +
                    cudaGetErrorString(error) + ")";
    return error == cudaSuccess;
  };
  int count = 0, device = 0;
  cudaDeviceProp prop;
  // cudaFree(nullptr) creates the context, which fails on a GPU that exists
  // but cannot be used (prohibited compute mode, no free exclusive slot).
  bool usable =
      succeeded(cudaGetDeviceCount(&count), "cudaGetDeviceCount") &&
      // A count of 0 says what cudaErrorNoDevice says.
      succeeded(count > 0 ? cudaSuccess : cudaErrorNoDevice,
                "cudaGetDeviceCount") &&
      succeeded(cudaGetDevice(&device), "cudaGetDevice") &&
      succeeded(cudaGetDeviceProperties(&prop, device),
                "cudaGetDeviceProperties") &&
      succeeded(cudaFree(nullptr), "cudaFree");
  if (!usable) {
    // The program's own CUDA calls must not see our probe's error.
    (void)cudaGetLastError();
    return gpu;
  }
  gpu.name = prop.name;
  gpu.sms = prop.multiProcessorCount;
  return gpu;
}

const Gpu &gpu() {
  static const Gpu probed = probeGpu();
  return probed;
}
} // namespace

const char *gpuName() {
  return gpu().missing.empty() ? gpu().name.c_str() : nullptr;
}

const char *noGpuReason() { return gpu().missing.c_str(); }

int smCount() { return gpu().sms; }

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

namespace {
struct Buffer {
  void *ptr = nullptr;
  size_t capacity = 0;
};

Buffer &bufferOf(Role role) {
  static Buffer buffers[static_cast<int>(Role::Chunks) + 1];
  return buffers[static_cast<int>(role)];
}
} // namespace

void *poolBuffer(Role role, size_t bytes, const char *nest) {
  Buffer &buf = bufferOf(role);
  if (bytes <= buf.capacity)
    return buf.ptr;
  size_t capacity = std::max(bytes, 2 * buf.capacity);
  checkCuda(cudaFree(buf.ptr), nest, "freeing a pool buffer");
  buf = {};
  // Staging sizes its panels to the free memory: doubling may not fit.
  if (capacity > bytes && cudaMalloc(&buf.ptr, capacity) != cudaSuccess) {
    (void)cudaGetLastError();
    capacity = bytes;
  }
  if (capacity == bytes)
    checkCuda(cudaMalloc(&buf.ptr, capacity), nest,
              "allocating a pool buffer");
  buf.capacity = capacity;
  return buf.ptr;
}

size_t poolCapacity(Role role) { return bufferOf(role).capacity; }

} // namespace gemm_rt::detail
