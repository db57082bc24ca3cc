//===- gpu_check.h - Shared by the GPU checks and the benchmark -*- C++ -*-===//
//
// The device-side programs (test/gpu/runtime_check.cu, seeds_check.cu,
// sweep/sweep.cu and bench/bench.cu) check results the same way: fatal,
// located errors for every CUDA and cuBLAS call; random operands filled on
// the GPU; cuBLAS as the oracle of a strided gemm_rt::Problem; the
// element-wise GEMM bound
//   |C - C_oracle|_ij <= (K + 2) eps (|alpha| (|A||B|)_ij + |beta| |C0|_ij)
//                        + tiny
// with |A||B| computed by the oracle too; a guard check that nothing but C's
// elements changed; and event timing with a median. Each program includes
// this header once; everything in it is inline or a template.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_GPU_CHECK_H
#define GEMM_OPT_GPU_CHECK_H

#include "gemm_checks.h"
#include "gemm_tuning.h"

#include <cublas_v2.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace gpu_check {

using gemm_rt::DType;
using gemm_rt::Operand;
using gemm_rt::Problem;

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// The case being run, named in fatal errors; empty names none.
inline std::string currentCase;

/// "file.cu:line: call failed: what (case: ...)", then exit(1).
[[noreturn]] inline void fatal(const char *file, int line, const char *call,
                               const std::string &what) {
  const char *slash = std::strrchr(file, '/');
  std::fprintf(stderr, "%s:%d: %s failed: %s%s\n", slash ? slash + 1 : file,
               line, call, what.c_str(),
               currentCase.empty() ? ""
                                   : (" (case: " + currentCase + ")").c_str());
  std::exit(1);
}

inline void checkCuda(cudaError_t err, const char *call, const char *file,
                      int line) {
  if (err != cudaSuccess)
    fatal(file, line, call, cudaGetErrorString(err));
}

inline void checkCublas(cublasStatus_t status, const char *call,
                        const char *file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS)
    fatal(file, line, call, "cuBLAS status " + std::to_string(int(status)));
}

} // namespace gpu_check

#define CHECK_CUDA(call)                                                       \
  ::gpu_check::checkCuda((call), #call, __FILE__, __LINE__)
#define CHECK_CUBLAS(call)                                                     \
  ::gpu_check::checkCublas((call), #call, __FILE__, __LINE__)
/// Checks a launch's own answer and the last error after it.
#define CHECK_LAUNCH(call)                                                     \
  do {                                                                         \
    CHECK_CUDA(call);                                                          \
    CHECK_CUDA(cudaGetLastError());                                            \
  } while (0)

namespace gpu_check {

/// False, after saying why on stderr, when there is no usable GPU (the
/// programs then exit with 2).
inline bool haveGpu(const char *program) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err == cudaSuccess && count > 0)
    return true;
  std::fprintf(stderr, "%s: no usable GPU (%s); this check needs one\n",
               program,
               err != cudaSuccess ? cudaGetErrorString(err) : "0 devices");
  return false;
}

/// "NAME (sm_XY, N SMs), cuBLAS V": what a result was measured on.
inline std::string deviceSummary(cublasHandle_t handle) {
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  int version = 0;
  CHECK_CUBLAS(cublasGetVersion(handle, &version));
  char text[300];
  std::snprintf(text, sizeof text, "%s (sm_%d%d, %d SMs), cuBLAS %d", prop.name,
                prop.major, prop.minor, prop.multiProcessorCount, version);
  return text;
}

//===----------------------------------------------------------------------===//
// Device buffers and fills
//===----------------------------------------------------------------------===//

/// A device buffer that only grows.
struct Buffer {
  void *ptr = nullptr;
  size_t capacity = 0;
  void *get(size_t bytes) {
    if (bytes > capacity) {
      CHECK_CUDA(cudaFree(ptr));
      capacity = std::max(bytes, 2 * capacity);
      CHECK_CUDA(cudaMalloc(&ptr, capacity));
    }
    return ptr;
  }
};

/// Grid-stride helpers: enough blocks to fill the GPU, whatever the count.
constexpr unsigned helperBlock = 256;
constexpr unsigned helperGrid = 1024;

__device__ inline uint64_t splitMix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// Uniform in [-1, 1), or NaN everywhere when `nan`.
template <class T>
__global__ void fillKernel(T *out, size_t count, uint64_t seed, bool nan) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x) {
    double u =
        double(splitMix(seed ^ (i * 0xd1342543de82ef95ull)) >> 11) * 0x1.0p-53;
    out[i] = nan ? T(NAN) : T(2 * u - 1);
  }
}

template <class T>
__global__ void absKernel(const T *in, T *out, size_t count) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x)
    out[i] = in[i] < T(0) ? -in[i] : in[i];
}

template <class T>
void fill(void *buffer, size_t count, uint64_t seed, bool nan) {
  fillKernel<T>
      <<<helperGrid, helperBlock>>>(static_cast<T *>(buffer), count, seed, nan);
  CHECK_CUDA(cudaGetLastError());
}

template <class T> void absOf(const void *in, void *out, size_t count) {
  absKernel<T><<<helperGrid, helperBlock>>>(static_cast<const T *>(in),
                                            static_cast<T *>(out), count);
  CHECK_CUDA(cudaGetLastError());
}

template <class T> T readElement(const void *base, int64_t index) {
  T x;
  CHECK_CUDA(cudaMemcpy(&x, static_cast<const T *>(base) + index, sizeof(T),
                        cudaMemcpyDeviceToHost));
  return x;
}

inline std::vector<unsigned char> toHost(const void *device, size_t bytes) {
  std::vector<unsigned char> host(bytes);
  CHECK_CUDA(cudaMemcpy(host.data(), device, bytes, cudaMemcpyDeviceToHost));
  return host;
}

/// The buffers of one checked case, reused from case to case.
struct Scratch {
  Buffer a, b, c, c0, ref, absA, absB, bound;
};

/// One case's device data: random A and B; random C (NaN where `nanC`, for
/// beta == 0, whose result must not depend on C); C0 and `ref`, copies of C
/// for the guard check and the oracle; |A|, |B|, and |C0| in `bound`, where
/// the bound term is computed.
struct CaseData {
  void *a, *b, *c, *c0, *ref, *absA, *absB, *bound;
};

template <class T>
CaseData prepareCase(Scratch &s, size_t aCount, size_t bCount, size_t cCount,
                     bool nanC, std::mt19937_64 &rng) {
  const size_t size = sizeof(T);
  CaseData d{s.a.get(aCount * size),    s.b.get(bCount * size),
             s.c.get(cCount * size),    s.c0.get(cCount * size),
             s.ref.get(cCount * size),  s.absA.get(aCount * size),
             s.absB.get(bCount * size), s.bound.get(cCount * size)};
  fill<T>(d.a, aCount, rng(), false);
  fill<T>(d.b, bCount, rng(), false);
  fill<T>(d.c, cCount, rng(), nanC);
  CHECK_CUDA(cudaMemcpy(d.c0, d.c, cCount * size, cudaMemcpyDeviceToDevice));
  CHECK_CUDA(cudaMemcpy(d.ref, d.c, cCount * size, cudaMemcpyDeviceToDevice));
  absOf<T>(d.a, d.absA, aCount);
  absOf<T>(d.b, d.absB, bCount);
  absOf<T>(d.c, d.bound, cCount);
  return d;
}

//===----------------------------------------------------------------------===//
// cuBLAS as the oracle
//===----------------------------------------------------------------------===//

/// Transposes an operand's view: swaps rows and columns.
inline Operand transposed(Operand op) {
  std::swap(op.sr, op.sc);
  return op;
}

/// A rows x cols operand as cuBLAS takes it: column-major (N) when its
/// columns are unit-stride lines at least `rows` apart, else the transpose of
/// a column-major cols x rows matrix (T). Negative strides have no cuBLAS
/// form; the callers check those against launchReference instead.
inline void blasOperand(const Operand &op, int64_t rows,
                        cublasOperation_t &trans, int &ld) {
  if (op.sr == 1 && op.sc >= std::max<int64_t>(1, rows)) {
    trans = CUBLAS_OP_N;
    ld = int(op.sc);
  } else {
    trans = CUBLAS_OP_T;
    ld = int(op.sr);
  }
}

/// Runs C = alpha*A*B + beta*C of `p` (device pointers, non-negative
/// strides) with cuBLAS: S/DGEMM for one matrix, the strided-batched call for
/// more. cuBLAS is column-major, so a row-major C is computed as
/// C^T = B^T A^T.
///
/// `pedantic` (checks): IEEE math throughout, no TF32 and no emulation.
/// Otherwise (timings) f32 stays pedantic, since the kernels compute in IEEE
/// FP32, and f64 keeps cuBLAS's default, as users get it.
inline void blasGemm(cublasHandle_t handle, const Problem &p,
                     bool pedantic = true) {
  Problem q = p;
  if (!(p.c.sr == 1 && p.c.sc >= std::max<int64_t>(1, p.m))) {
    q.m = p.n;
    q.n = p.m;
    q.a = transposed(p.b);
    q.b = transposed(p.a);
    q.c = transposed(p.c);
  }
  cublasOperation_t ta, tb;
  int lda, ldb;
  blasOperand(q.a, q.m, ta, lda);
  blasOperand(q.b, q.k, tb, ldb);
  const int ldc = int(q.c.sc);
  const int m = int(q.m), n = int(q.n), k = int(q.k);
  void *c = const_cast<void *>(q.c.ptr);
  CHECK_CUBLAS(cublasSetMathMode(handle, pedantic || p.dtype == DType::F32
                                             ? CUBLAS_PEDANTIC_MATH
                                             : CUBLAS_DEFAULT_MATH));
  // One matrix goes through the plain call, as a user of SGEMM/DGEMM makes it.
  if (p.dtype == DType::F64) {
    auto *a = static_cast<const double *>(q.a.ptr);
    auto *b = static_cast<const double *>(q.b.ptr);
    auto *cd = static_cast<double *>(c);
    if (q.batch == 1)
      CHECK_CUBLAS(cublasDgemm(handle, ta, tb, m, n, k, &q.alpha, a, lda, b,
                               ldb, &q.beta, cd, ldc));
    else
      CHECK_CUBLAS(cublasDgemmStridedBatched(
          handle, ta, tb, m, n, k, &q.alpha, a, lda, q.a.sb, b, ldb, q.b.sb,
          &q.beta, cd, ldc, q.c.sb, int(q.batch)));
  } else {
    const float alpha = float(q.alpha), beta = float(q.beta);
    auto *a = static_cast<const float *>(q.a.ptr);
    auto *b = static_cast<const float *>(q.b.ptr);
    auto *cf = static_cast<float *>(c);
    if (q.batch == 1)
      CHECK_CUBLAS(cublasSgemm(handle, ta, tb, m, n, k, &alpha, a, lda, b, ldb,
                               &beta, cf, ldc));
    else
      CHECK_CUBLAS(cublasSgemmStridedBatched(handle, ta, tb, m, n, k, &alpha, a,
                                             lda, q.a.sb, b, ldb, q.b.sb, &beta,
                                             cf, ldc, q.c.sb, int(q.batch)));
  }
  CHECK_CUDA(cudaGetLastError());
}

/// Writes the oracle's result of `p` into `ref` (which holds C0) and the
/// bound term |alpha| |A||B| + |beta| |C0| into `bound` (which holds |C0|),
/// with cuBLAS, or with launchReference (fp64 accumulation, one rounding:
/// well inside the bound) where `useReference`.
inline void oracleAndBound(cublasHandle_t handle, const Problem &p,
                           const Operand &ref, const Operand &absA,
                           const Operand &absB, const Operand &bound,
                           bool useReference) {
  Problem oracle = p;
  oracle.c = ref;
  Problem bounds = p;
  bounds.a = absA;
  bounds.b = absB;
  bounds.c = bound;
  bounds.alpha = std::fabs(p.alpha);
  bounds.beta = std::fabs(p.beta);
  if (useReference) {
    CHECK_LAUNCH(gemm_rt::launchReference(oracle, 0));
    CHECK_LAUNCH(gemm_rt::launchReference(bounds, 0));
  } else {
    blasGemm(handle, oracle);
    blasGemm(handle, bounds);
  }
}

//===----------------------------------------------------------------------===//
// The element-wise comparison and the guard check
//===----------------------------------------------------------------------===//

/// (K + 2) eps of the element type: the bound's factor.
template <class T> double boundScale(int64_t k) {
  return double(k + 2) * double(std::numeric_limits<T>::epsilon());
}

/// What the comparison kernel accumulates.
struct Found {
  unsigned maxRatioBits; ///< The largest err/bound, as float bits (>= 0).
  unsigned failures;     ///< Elements over their bound.
  unsigned long long firstFailure; ///< Linear (b, i, j) index of one, or ~0.
  double diff2;                    ///< Sum of squared differences.
};

__device__ inline double warpSum(double x) {
  for (int lane = 16; lane > 0; lane /= 2)
    x += __shfl_xor_sync(~0u, x, lane);
  return x;
}

/// Element-wise err/bound of `got` against `ref`; `bound` holds
/// |alpha| |A||B| + |beta| |C0|; all three are laid out like `c` (pointers
/// at element (0, 0, 0)). A NaN or an infinite difference fails.
template <class T>
__global__ void compareKernel(const T *got, const T *ref, const T *bound,
                              Operand c, int64_t batch, int64_t m, int64_t n,
                              double scale, double tiny, Found *found) {
  const size_t count = size_t(batch * m * n);
  unsigned maxBits = 0, failures = 0;
  double diff2 = 0;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < count;
       e += size_t(gridDim.x) * blockDim.x) {
    int64_t b = int64_t(e) / (m * n), i = int64_t(e) / n % m,
            j = int64_t(e) % n;
    int64_t off = b * c.sb + i * c.sr + j * c.sc;
    double diff = fabs(double(got[off]) - double(ref[off]));
    double limit = scale * double(bound[off]) + tiny;
    float ratio;
    if (diff <= limit)
      ratio = limit > 0 ? float(diff / limit) : 0.0f;
    else
      ratio = limit > 0 && isfinite(diff) ? float(diff / limit) : INFINITY;
    if (isnan(ratio))
      ratio = INFINITY;
    diff2 += isfinite(diff) ? diff * diff : INFINITY;
    // Non-negative floats order like their bits.
    maxBits = max(maxBits, __float_as_uint(ratio));
    if (!(ratio <= 1.0f)) {
      ++failures;
      atomicCAS(&found->firstFailure, ~0ull, (unsigned long long)e);
    }
  }
  // One atomic per warp rather than per element.
  for (int lane = 16; lane > 0; lane /= 2) {
    maxBits = max(maxBits, __shfl_xor_sync(~0u, maxBits, lane));
    failures += __shfl_xor_sync(~0u, failures, lane);
  }
  diff2 = warpSum(diff2);
  if (threadIdx.x % 32 == 0) {
    atomicMax(&found->maxRatioBits, maxBits);
    if (failures)
      atomicAdd(&found->failures, failures);
    if (diff2 != 0)
      atomicAdd(&found->diff2, diff2);
  }
}

/// What compare() found, on the host.
struct Comparison {
  float maxRatio;                  ///< The largest err/bound.
  unsigned failures;               ///< Elements over their bound.
  unsigned long long firstFailure; ///< Linear (b, i, j) index of one.
  double diff2;                    ///< Sum of squared differences.
};

/// A device scratch object of type X, allocated on first use and kept.
template <class X> X *deviceScratch() {
  static X *ptr = [] {
    X *p = nullptr;
    CHECK_CUDA(cudaMalloc(&p, sizeof(X)));
    return p;
  }();
  return ptr;
}

/// Compares `got` with `ref` under scale * `bound` + tiny, element by
/// element; `ref` and `bound` lie with got's strides.
template <class T>
Comparison compare(const Operand &got, const void *ref, const void *bound,
                   int64_t batch, int64_t m, int64_t n, double scale,
                   double tiny = 0) {
  Found *found = deviceScratch<Found>();
  CHECK_CUDA(cudaMemset(found, 0, sizeof(Found)));
  CHECK_CUDA(
      cudaMemset(&found->firstFailure, 0xff, sizeof(unsigned long long)));
  compareKernel<T><<<helperGrid, helperBlock>>>(
      static_cast<const T *>(got.ptr), static_cast<const T *>(ref),
      static_cast<const T *>(bound), got, batch, m, n, scale, tiny, found);
  CHECK_CUDA(cudaGetLastError());
  Found f;
  CHECK_CUDA(cudaMemcpy(&f, found, sizeof f, cudaMemcpyDeviceToHost));
  Comparison result{0, f.failures, f.firstFailure, f.diff2};
  std::memcpy(&result.maxRatio, &f.maxRatioBits, sizeof result.maxRatio);
  return result;
}

/// "(b,i,j) = <got>, <oracle> <ref>, <term> <bound>" at the first element
/// over its bound that `r` found; got, ref and bound lie with got's strides
/// (pointers at element (0, 0, 0)).
template <class T>
std::string describeFailure(const Comparison &r, const Operand &got,
                            const void *ref, const void *bound, int64_t m,
                            int64_t n, const char *oracle, const char *term) {
  const int64_t e = int64_t(r.firstFailure);
  const int64_t b = e / (m * n), i = e / n % m, j = e % n;
  const int64_t off = b * got.sb + i * got.sr + j * got.sc;
  char text[200];
  std::snprintf(text, sizeof text,
                "(%lld,%lld,%lld) = %.10g, %s %.10g, %s %.4g", (long long)b,
                (long long)i, (long long)j,
                double(readElement<T>(got.ptr, off)), oracle,
                double(readElement<T>(ref, off)), term,
                double(readElement<T>(bound, off)));
  return text;
}

/// Where an operand lies in its buffer (elements): `offset` elements of
/// guard, then batches `sb` apart, each `outer` lines `ld` apart of `inner`
/// elements, then more guard.
struct Geometry {
  int64_t offset, sb, ld, inner, outer, batch;
};

/// Counts elements of the buffer outside the operand that changed (bit-wise,
/// so NaN poison must stay the same NaN).
template <class T>
__global__ void guardKernel(const T *now, const T *before, size_t count,
                            Geometry g, unsigned *changed) {
  using Bits = std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned>;
  unsigned hits = 0;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < count;
       e += size_t(gridDim.x) * blockDim.x) {
    bool element = false;
    if (int64_t(e) >= g.offset) {
      int64_t x = int64_t(e) - g.offset;
      int64_t b = x / g.sb, r = x % g.sb;
      element = b < g.batch && r / g.ld < g.outer && r % g.ld < g.inner;
    }
    if (!element && reinterpret_cast<const Bits *>(now)[e] !=
                        reinterpret_cast<const Bits *>(before)[e])
      ++hits;
  }
  if (hits)
    atomicAdd(changed, hits);
}

/// How many of the `count` elements of `now` outside the operand `g`
/// differ from `before`. g.batch = 0 checks every element.
template <class T>
unsigned countChanged(const void *now, const void *before, size_t count,
                      const Geometry &g) {
  unsigned *changed = deviceScratch<unsigned>();
  CHECK_CUDA(cudaMemset(changed, 0, sizeof(unsigned)));
  guardKernel<T><<<helperGrid, helperBlock>>>(static_cast<const T *>(now),
                                              static_cast<const T *>(before),
                                              count, g, changed);
  CHECK_CUDA(cudaGetLastError());
  unsigned hits;
  CHECK_CUDA(cudaMemcpy(&hits, changed, sizeof hits, cudaMemcpyDeviceToHost));
  return hits;
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

constexpr int defaultWarmups = 3;
constexpr int defaultRuns = 25;

/// Median milliseconds of `runs` runs of each of `fs` after `warmups`, each
/// run between two events on the default stream. The functions take turns,
/// so that a drift of the clocks reaches them alike, in an order that lets
/// each follow every other as often (f0 f1 f2 f0 f2 f1 ...): a call leaves
/// the GPU in a state (its shared-memory carveout, say) that can cost the
/// next one, which shows on calls of tens of microseconds.
template <class... F>
std::array<double, sizeof...(F)> mediansMs(int warmups, int runs, F... fs) {
  constexpr size_t n = sizeof...(F);
  static_assert(n <= 3, "the order below is balanced for 1 to 3 functions");
  for (int i = 0; i < warmups; ++i)
    (fs(), ...);
  CHECK_CUDA(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  auto time = [&](auto &f) {
    CHECK_CUDA(cudaEventRecord(start));
    f();
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    return ms;
  };
  const std::array<std::function<void()>, n> calls{fs...};
  std::array<std::vector<float>, n> ms;
  for (int r = 0; r < runs; ++r) {
    // Round r calls f(k * d % n) for k = 0, 1, ..., with d = 1, ..., n - 1
    // in turn: n - 1 rounds hold every ordered pair once.
    const size_t d = n > 1 ? 1 + r % (n - 1) : 0;
    for (size_t k = 0; k < n; ++k) {
      const size_t i = k * d % n;
      ms[i].push_back(time(calls[i]));
    }
  }
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
  std::array<double, sizeof...(F)> medians;
  for (size_t i = 0; i < ms.size(); ++i) {
    std::sort(ms[i].begin(), ms[i].end());
    medians[i] = ms[i][runs / 2];
  }
  return medians;
}

/// Median milliseconds of `runs` runs of f after `warmups`.
template <class F>
double medianMs(F f, int warmups = defaultWarmups, int runs = defaultRuns) {
  return mediansMs(warmups, runs, f)[0];
}

} // namespace gpu_check

#endif // GEMM_OPT_GPU_CHECK_H
