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

} // namespace

Widened::Widened(const Problem &p) : p(p), wide(p) {
  wide.a = widen(p.a, p.m, p.k, true);
  wide.b = widen(p.b, p.k, p.n, true);
  wide.c = widen(p.c, p.m, p.n, p.beta != 0);
  cDevice = copies.back().device;
  if (p.epilogue.bias.ptr)
    wide.epilogue.bias = widen(p.epilogue.bias, p.m, p.n, true);
}

Widened::~Widened() {
  for (const Copy &copy : copies) {
    if (copy.device < 0) {
      delete[] copy.buffer;
      continue;
    }
    const DeviceScope on(copy.device, p.nest);
    checkCuda(cudaFree(copy.buffer), p.nest, "cudaFree of a widened operand");
  }
}

Operand Widened::widen(const Operand &op, int64_t rows, int64_t cols,
                       bool read) {
  const Span span = spanOf(op, {p.batch, rows, cols}, sizeof(float));
  const size_t count = span.size() / sizeof(float);
  const float *from = reinterpret_cast<const float *>(span.begin);
  const Pointer where = cpuMode() ? Pointer{PointerKind::Host, -1}
                                  : pointerOf(op.ptr, p.nest);
  Copy copy{nullptr, where.kind == PointerKind::Host ? -1 : where.device};
  if (copy.device < 0) {
    copy.buffer = new double[count];
    for (size_t e = 0; read && e < count; ++e)
      copy.buffer[e] = from[e];
  } else {
    const DeviceScope on(copy.device, p.nest);
    checkCuda(cudaMalloc(&copy.buffer, count * sizeof(double)), p.nest,
              "cudaMalloc of a widened operand");
    if (read) {
      widenKernel<<<blocksFor(count), 256>>>(from, copy.buffer, count);
      checkCuda(cudaGetLastError(), p.nest, "widening an operand");
    }
  }
  copies.push_back(copy);
  Operand w = op;
  w.ptr = copy.buffer + (reinterpret_cast<uintptr_t>(op.ptr) - span.begin) /
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
  checkCuda(cudaDeviceSynchronize(), p.nest, "rounding C to float");
}

} // namespace gemm_rt::detail
