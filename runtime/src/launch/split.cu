//===- split.cu - Split-K through a workspace -----------------------------===//
//
// The chunks go to a workspace laid out like C (row- or column-major, the
// leading dimension rounded up to 4 elements so that 128-bit stores stay
// aligned), one product per chunk; a second kernel sums them in chunk order,
// so the result does not depend on scheduling.
//
//===----------------------------------------------------------------------===//
#include "launch/split.h"

#include "launch/layout.h"

#include <algorithm>

namespace gemm_rt::detail {

namespace {
/// The workspace's layout: one m x n slice per chunk.
struct Workspace {
  bool colMajor;
  int64_t lead, slice;

  explicit Workspace(const Problem &p)
      : colMajor(p.c.sr == 1 && p.c.sc != 1),
        lead(((colMajor ? p.m : p.n) + 3) / 4 * 4),
        slice(lead * (colMajor ? p.n : p.m)) {}
  __host__ __device__ int64_t rowStride() const {
    return colMajor ? 1 : lead;
  }
  __host__ __device__ int64_t colStride() const {
    return colMajor ? lead : 1;
  }
};

/// C = act(alpha * (sum of the chunks) + beta * C + bias) for the m x n C of
/// `p`, with
/// consecutive threads on consecutive elements of the workspace's leading
/// dimension.
template <class T>
__global__ void sumChunks(Problem p, const T *chunks, Workspace w,
                          int64_t splits) {
  T *c = static_cast<T *>(const_cast<void *>(p.c.ptr));
  const int64_t inner = w.colMajor ? p.m : p.n;
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
       e < p.m * p.n; e += int64_t(gridDim.x) * blockDim.x) {
    const int64_t fast = e % inner, slow = e / inner;
    const int64_t i = w.colMajor ? fast : slow, j = w.colMajor ? slow : fast;
    const T *chunk = chunks + i * w.rowStride() + j * w.colStride();
    T sum = 0;
    for (int64_t s = 0; s < splits; ++s)
      sum += chunk[s * w.slice];
    T &out = c[i * p.c.sr + j * p.c.sc];
    // BLAS semantics: beta == 0 never reads C. The epilogue goes here, after
    // the whole sum; the chunks' products ran without it.
    out = finishElement<T>(p.epilogue,
                           p.beta == 0 ? T(p.alpha) * sum
                                       : T(p.alpha) * sum + T(p.beta) * out,
                           0, i, j);
  }
}
} // namespace

bool canSplit(const Problem &p, int64_t splits) {
  const bool ambiguous = p.c.sr == 1 && p.c.sc == 1;
  // Chunks 16 bytes apart keep the kernel's 128-bit packs aligned; else it
  // would take its scalar path.
  const bool packed = p.k / splits * elementSize(p.dtype) % 16 == 0;
  return p.batch == 1 && p.k % splits == 0 && packed && !ambiguous;
}

size_t splitWorkspaceBytes(const Problem &p, int64_t splits) {
  return size_t(splits * Workspace(p).slice) * elementSize(p.dtype);
}

Problem splitParts(const Problem &p, int64_t splits, void *workspace) {
  const Workspace w(p);
  const int64_t chunk = p.k / splits;
  // Chunk s is the product of A's columns and B's rows [s*chunk, (s+1)*chunk),
  // a batch whose stride steps along K.
  Problem parts = p;
  parts.batch = splits;
  parts.k = chunk;
  parts.a.sb = chunk * p.a.sc;
  parts.b.sb = chunk * p.b.sr;
  parts.c = {workspace, w.slice, w.rowStride(), w.colStride()};
  parts.alpha = 1;
  parts.beta = 0;
  parts.epilogue = {};
  return parts;
}

cudaError_t launchSplit(const Problem &p, LaunchFn launch, int64_t splits,
                        void *workspace, cudaStream_t stream) {
  const Workspace w(p);
  const Problem parts = splitParts(p, splits, workspace);
  if (const cudaError_t err = launch(parts, stream); err != cudaSuccess)
    return err;
  constexpr int threads = 256;
  const unsigned blocks =
      unsigned(std::min<int64_t>((p.m * p.n + threads - 1) / threads, 65535));
  if (p.dtype == DType::F32)
    sumChunks<float><<<blocks, threads, 0, stream>>>(
        p, static_cast<const float *>(workspace), w, splits);
  else
    sumChunks<double><<<blocks, threads, 0, stream>>>(
        p, static_cast<const double *>(workspace), w, splits);
  return cudaGetLastError();
}

} // namespace gemm_rt::detail
