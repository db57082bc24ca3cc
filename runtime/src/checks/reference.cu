//===- reference.cu - The plain reference GEMM kernel ---------------------===//
//
// One thread per element of C, accumulating in double. It is slow but simple
// enough to trust, so it serves as the launcher's kernel until tuned kernels
// exist, and as the oracle they are checked against.
//
//===----------------------------------------------------------------------===//
#include "gemm_runtime.h"

#include <algorithm>

namespace gemm_rt {

namespace {
constexpr int blockSide = 16;

/// Grid-stride loops cover any extent, so the grid may be clipped to the
/// hardware limits (65535 in y and z) without losing rows or batches.
template <class T> __global__ void referenceKernel(Problem p) {
  const T *a = static_cast<const T *>(p.a.ptr);
  const T *b = static_cast<const T *>(p.b.ptr);
  T *c = static_cast<T *>(const_cast<void *>(p.c.ptr));
  int64_t rowStep = int64_t(gridDim.y) * blockDim.y;
  int64_t colStep = int64_t(gridDim.x) * blockDim.x;
  for (int64_t batch = blockIdx.z; batch < p.batch; batch += gridDim.z) {
    for (int64_t i = blockIdx.y * int64_t(blockDim.y) + threadIdx.y; i < p.m;
         i += rowStep) {
      for (int64_t j = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; j < p.n;
           j += colStep) {
        const T *aRow = a + batch * p.a.sb + i * p.a.sr;
        const T *bCol = b + batch * p.b.sb + j * p.b.sc;
        double acc = 0;
        for (int64_t l = 0; l < p.k; ++l)
          acc += double(aRow[l * p.a.sc]) * double(bCol[l * p.b.sr]);
        T &out = c[batch * p.c.sb + i * p.c.sr + j * p.c.sc];
        // BLAS semantics: with beta == 0, C is never read, so NaN in it
        // does not leak into the result.
        double result = p.alpha * acc;
        if (p.beta != 0)
          result += p.beta * double(out);
        out = T(finishElement<T>(p.epilogue, result, batch, i, j));
      }
    }
  }
}

unsigned gridExtent(int64_t extent, int64_t limit) {
  return unsigned(std::min((extent + blockSide - 1) / blockSide, limit));
}
} // namespace

cudaError_t launchReference(const Problem &device, cudaStream_t stream) {
  dim3 block(blockSide, blockSide);
  dim3 grid(gridExtent(device.n, 2147483647), gridExtent(device.m, 65535),
            unsigned(std::min<int64_t>(device.batch, 65535)));
  if (device.dtype == DType::F32)
    referenceKernel<float><<<grid, block, 0, stream>>>(device);
  else
    referenceKernel<double><<<grid, block, 0, stream>>>(device);
  return cudaGetLastError();
}

} // namespace gemm_rt
