//===- widen.cu - Double copies of float operands -------------------------===//
//
// See widen.h.
//
//===----------------------------------------------------------------------===//
#include "launch/widen.h"

#include "checks/cpu.h"
#include "core/check.h"
#include "core/device.h"
#include "launch/layout.h"

#include <array>
#include <map>

namespace gemm_rt::detail {

namespace {

__global__ void widenKernel(const float *from, double *to, size_t count) {
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < count;
       e += size_t(gridDim.x) * blockDim.x)
    to[e] = from[e];
}

/// C's elements, (b, i, j) at b * sb + i * sr + j * sc from both pointers.
__global__ void narrowKernel(const double *from, float *to, Operand c,
                             int64_t batch, int64_t m, int64_t n) {
  const int64_t count = batch * m * n;
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < count;
       e += int64_t(gridDim.x) * blockDim.x) {
    const int64_t b = e / (m * n), i = e / n % m, j = e % n;
    const int64_t at = b * c.sb + i * c.sr + j * c.sc;
    to[at] = static_cast<float>(from[at]);
  }
}

/// Enough blocks of 256 threads to cover `count`, at most 4096 (the loops
/// stride by the grid).
unsigned blocksFor(int64_t count) {
  return static_cast<unsigned>(std::min<int64_t>((count + 255) / 256, 4096));
}

/// A buffer that grows and is kept.
struct Buffer {
  double *data = nullptr;
  size_t count = 0;
};

/// The operands' buffers: A, B, C and the bias, on the host and per GPU.
struct Pool {
  std::mutex mutex;
  Buffer host[4];
  std::map<int, std::array<Buffer, 4>> device;
};

Pool &pool() {
  static Pool *p = new Pool; // Never destroyed: kernels may still use it.
  return *p;
}

/// `buffer` with room for `count` doubles, on `device` (-1: the host).
double *reserve(Buffer &buffer, size_t count, int device, const char *nest) {
  if (buffer.count >= count)
    return buffer.data;
  if (device < 0) {
    delete[] buffer.data;
    buffer.data = new double[count];
  } else {
    // The old buffer may still be read by a kernel queued before.
    checkCuda(cudaDeviceSynchronize(), nest, "a widened operand's kernel");
    checkCuda(cudaFree(buffer.data), nest, "cudaFree of a widened operand");
    checkCuda(cudaMalloc(&buffer.data, count * sizeof(double)), nest,
              "cudaMalloc of a widened operand");
  }
  buffer.count = count;
  return buffer.data;
}

} // namespace

Widened::Widened(const Problem &p)
    : lock(pool().mutex), p(p), wide(p) {
  wide.a = widen(p.a, p.m, p.k, true, 0);
  wide.b = widen(p.b, p.k, p.n, true, 1);
  wide.c = widen(p.c, p.m, p.n, p.beta != 0, 2);
  if (p.epilogue.bias.ptr)
    wide.epilogue.bias = widen(p.epilogue.bias, p.m, p.n, true, 3);
}

Widened::~Widened() = default;

Operand Widened::widen(const Operand &op, int64_t rows, int64_t cols,
                       bool read, int slot) {
  const Span span = spanOf(op, {p.batch, rows, cols}, sizeof(float));
  const size_t count = span.size() / sizeof(float);
  const float *from = reinterpret_cast<const float *>(span.begin);
  const Pointer where = cpuMode() ? Pointer{PointerKind::Host, -1}
                                  : pointerOf(op.ptr, p.nest);
  const int device = where.kind == PointerKind::Host ? -1 : where.device;
  double *buffer;
  if (device < 0) {
    buffer = reserve(pool().host[slot], count, -1, p.nest);
    for (size_t e = 0; read && e < count; ++e)
      buffer[e] = from[e];
  } else {
    const DeviceScope on(device, p.nest);
    buffer = reserve(pool().device[device][slot], count, device, p.nest);
    if (read) {
      widenKernel<<<blocksFor(count), 256>>>(from, buffer, count);
      checkCuda(cudaGetLastError(), p.nest, "widening an operand");
    }
  }
  if (slot == 2) {
    cDevice = device;
    cManaged = where.kind == PointerKind::Managed;
  }
  Operand w = op;
  w.ptr = buffer + (reinterpret_cast<uintptr_t>(op.ptr) - span.begin) /
                       sizeof(float);
  return w;
}

void Widened::narrowC() const {
  const double *from = static_cast<const double *>(wide.c.ptr);
  float *to = static_cast<float *>(const_cast<void *>(p.c.ptr));
  if (cDevice < 0) {
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t i = 0; i < p.m; ++i)
        for (int64_t j = 0; j < p.n; ++j) {
          const int64_t at = b * p.c.sb + i * p.c.sr + j * p.c.sc;
          to[at] = static_cast<float>(from[at]);
        }
    return;
  }
  const DeviceScope on(cDevice, p.nest);
  narrowKernel<<<blocksFor(p.batch * p.m * p.n), 256>>>(from, to, p.c,
                                                        p.batch, p.m, p.n);
  checkCuda(cudaGetLastError(), p.nest, "rounding C to float");
  // Device memory: queued on the default stream, as run() leaves its
  // kernels; the host reads managed memory directly, so that waits.
  if (cManaged)
    checkCuda(cudaStreamSynchronize(0), p.nest, "rounding C to float");
}

} // namespace gemm_rt::detail
