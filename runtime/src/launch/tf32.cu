//===- tf32.cu - Float products on Hopper's tensor cores ------------------===//
//
// gemm_tf32.h's launches. The kernel takes A (M x K) and B^T (N x K)
// K-major, C row-major: a problem whose C has unit rows is run transposed,
// and an operand that is not K-major with 16-byte rows (or any operand, for
// 3xTF32's split) is first gathered into a K-major copy, K padded with
// zeros to a multiple of 4, in memory taken and given back on the stream;
// so is split-K's workspace where the kernel cuts K into slices (fewer
// output tiles than SMs). Compiled for sm_90a alone (runtime/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//
#include "gemm_tf32.h"

#include "gemm_tensor/wgmma_tf32.cuh"

#include <climits>

namespace gemm_rt {

namespace {

/// Whether the current device runs sm_90a code.
bool onHopper() {
  int device = 0, major = 0, minor = 0;
  return cudaGetDevice(&device) == cudaSuccess &&
         cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
                                device) == cudaSuccess &&
         cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor,
                                device) == cudaSuccess &&
         major == 9 && minor == 0;
}

/// Whether `p`'s C is stored by rows as the kernel writes it (unit columns,
/// the rows' stride its leading dimension); else it runs transposed.
bool byRows(const Problem &p) { return p.c.sc == 1 && p.c.sr >= p.n; }

/// An operand of `rows` x K as the kernel reads it: element (r, k) at
/// ptr[r * sRow + k * sK].
struct KMajor {
  const float *ptr;
  int64_t sRow, sK;

  /// Whether the kernel reads it in place: K-major rows of whole 16-byte
  /// packs from a 16-byte boundary.
  bool inPlace(int64_t k) const {
    return sK == 1 && sRow >= k && sRow < INT_MAX && sRow % 4 == 0 &&
           k % 4 == 0 &&
           reinterpret_cast<uintptr_t>(ptr) % 16 == 0;
  }
};

template <bool Split3>
cudaError_t launchTensor(const Problem &given, cudaStream_t stream) {
  if (!runsTf32(given))
    return cudaErrorInvalidValue;
  const Problem p = byRows(given) ? given : transposed(given);
  const int m = int(p.m), n = int(p.n);
  const KMajor a{static_cast<const float *>(p.a.ptr), p.a.sr, p.a.sc};
  const KMajor bt{static_cast<const float *>(p.b.ptr), p.b.sc, p.b.sr};
  const bool aInPlace = !Split3 && a.inPlace(p.k);
  const bool bInPlace = !Split3 && bt.inPlace(p.k);
  const int64_t k4 = (p.k + 3) / 4 * 4;
  const int parts = Split3 ? 2 : 1;
  const size_t aCopy = aInPlace ? 0 : size_t(m) * k4 * parts;
  const size_t bCopy = bInPlace ? 0 : size_t(n) * k4 * parts;
  float *scratch = nullptr;
  if (aCopy + bCopy > 0)
    if (const cudaError_t err = cudaMallocAsync(
            &scratch, (aCopy + bCopy) * sizeof(float), stream);
        err != cudaSuccess)
      return err;
  // Split-K's partial sums, slices x m x n floats: where they cannot be had,
  // the product runs unsplit rather than not at all.
  int slices = tf32k::splitk_slices(m, n, int(k4),
                                    Split3 ? tf32k::X3_BN : tf32k::TF32_BN);
  float *partials = nullptr;
  if (slices > 1 &&
      cudaMallocAsync(&partials, size_t(slices) * m * n * sizeof(float),
                      stream) != cudaSuccess) {
    // Taken before the gathers are queued, so that this clears no error
    // of theirs: the allocation's failure is not the launch's.
    (void)cudaGetLastError();
    partials = nullptr, slices = 1;
  }
  // Each operand as the kernel reads it: its hi part (or itself), its lo
  // part, its row stride.
  auto place = [&](const KMajor &x, int rows, bool inPlace, float *copy,
                   const float *(&hi), const float *(&lo), int &ld) {
    if (inPlace) {
      hi = x.ptr, lo = x.ptr, ld = int(x.sRow);
      return;
    }
    float *h = copy, *l = Split3 ? copy + size_t(rows) * k4 : nullptr;
    tf32k::gather(x.ptr, rows, int(p.k), x.sRow, x.sK, h, l, int(k4), stream);
    hi = h, lo = l ? l : h, ld = int(k4);
  };
  const float *aHi, *aLo, *bHi, *bLo;
  int lda, ldb;
  place(a, m, aInPlace, scratch, aHi, aLo, lda);
  place(bt, n, bInPlace, scratch + aCopy, bHi, bLo, ldb);
  const bool launched =
      Split3 ? tf32k::launch_kmajor<tf32k::X3_BN, tf32k::X3_STAGES, true>(
                   aHi, aLo, lda, bHi, bLo, ldb,
                   static_cast<float *>(const_cast<void *>(p.c.ptr)),
                   int(p.c.sr), m, n, int(k4), float(p.alpha), float(p.beta),
                   slices, partials, stream)
             : tf32k::launch_kmajor<tf32k::TF32_BN, tf32k::TF32_STAGES,
                                    false>(
                   aHi, nullptr, lda, bHi, nullptr, ldb,
                   static_cast<float *>(const_cast<void *>(p.c.ptr)),
                   int(p.c.sr), m, n, int(k4), float(p.alpha), float(p.beta),
                   slices, partials, stream);
  cudaError_t err =
      launched ? cudaGetLastError() : cudaErrorInvalidConfiguration;
  for (float *taken : {scratch, partials})
    if (taken)
      if (const cudaError_t freed = cudaFreeAsync(taken, stream);
          err == cudaSuccess)
        err = freed;
  return err;
}

} // namespace

bool runsTf32(const Problem &p) {
  // C by rows, or by columns (run transposed), its leading dimension
  // positive.
  const bool unitColumns = byRows(p);
  const bool unitRows = byRows(transposed(p));
  const int64_t rows = unitColumns ? p.m : p.n;
  return p.dtype == DType::F32 && p.batch == 1 && !hasEpilogue(p.epilogue) &&
         (unitColumns || unitRows) && p.m > 0 && p.n > 0 && p.k > 0 &&
         p.m < INT_MAX && p.n < INT_MAX && p.k < INT_MAX - 3 &&
         p.c.sr < INT_MAX && p.c.sc < INT_MAX &&
         (rows + tf32k::BM - 1) / tf32k::BM <= 65535 && onHopper();
}

cudaError_t launchTf32(const Problem &p, cudaStream_t stream) {
  return launchTensor<false>(p, stream);
}

cudaError_t launchTf32x3(const Problem &p, cudaStream_t stream) {
  return launchTensor<true>(p, stream);
}

} // namespace gemm_rt
