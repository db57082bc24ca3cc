//===- gemm_runtime.h - gemm-opt runtime interface ---------------*- C++ -*-===//
//
// The interface between code that gemm-opt writes and libgemm_runtime. Every
// rewritten nest calls a generated launcher, which fills a Problem and hands
// it to gemm_rt::run together with the kernel to launch. run() decides whether
// the GPU can take the nest; when it returns false the caller runs its original
// loop, so a program built from gemm-opt output is correct with or without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_H
#define GEMM_RUNTIME_H

#include <cmath>
#include <cstdint>
#include <cuda_runtime.h>
#include <initializer_list>
#include <vector>

namespace gemm_rt {

enum class DType { F32, F64 };

/// One strided operand: element (b, r, c) lives at ptr[b*sb + r*sr + c*sc]
/// (in elements). Strides may be any sign; sb is 0 for unbatched problems.
struct Operand {
  const void *ptr;
  int64_t sb, sr, sc;
};

/// One step of an activation, applied to x in order. A clamp is x =
/// max(x, bound) (Lower) or min(x, bound) (Upper); a NaN x becomes the
/// bound where the source's form says so (fmaxf(x, 0), `x > 0 ? x : 0`) and
/// stays NaN where it does not (std::max(x, 0.0f), which is `x < 0 ? 0 :
/// x`). The functions are the source's formulas with its constants:
/// Tanh is tanh(x); Sigmoid 1 / (1 + exp(-x)); GeluTanh 0.5 * x * (1 +
/// tanh(param[0] * (x + param[1] * x*x*x))); GeluErf 0.5 * x * (1 + erf(x *
/// param[0])), each through the libm call of the type it computes in
/// (tanhf, expf, erff for float).
struct Step {
  enum Kind : int { Lower, Upper, Tanh, Sigmoid, GeluTanh, GeluErf };
  Kind kind;
  bool nanToBound; ///< Clamps only.
  double param[2]; ///< A clamp's bound; a GELU's constants.
};

/// The most steps an activation has: two clamps and a function.
constexpr int kMaxSteps = 3;

/// What a nest does to each element of C after the product:
/// C = act(alpha * A * B + beta * C + bias). The bias is laid out like C,
/// with a stride of 0 along the dimensions it is broadcast over (a vector
/// indexed by the row or the column); a null ptr means no bias. act is
/// `steps` steps applied in order. Value-initialised: no epilogue.
struct Epilogue {
  Operand bias;
  int steps;
  Step step[kMaxSteps];
};

/// True if `e` changes the product.
__host__ __device__ inline bool hasEpilogue(const Epilogue &e) {
  return e.bias.ptr || e.steps > 0;
}

/// True if `e` applies a function (not only clamps): the result then
/// differs from one computed with another libm by a few ulps.
__host__ __device__ inline bool hasFunction(const Epilogue &e) {
  for (int s = 0; s < e.steps; ++s)
    if (e.step[s].kind != Step::Lower && e.step[s].kind != Step::Upper)
      return true;
  return false;
}

// The libm call of each type, as the source makes it (tanhf for float).
__host__ __device__ inline float tanhOf(float x) { return tanhf(x); }
__host__ __device__ inline double tanhOf(double x) { return tanh(x); }
__host__ __device__ inline float expOf(float x) { return expf(x); }
__host__ __device__ inline double expOf(double x) { return exp(x); }
__host__ __device__ inline float erfOf(float x) { return erff(x); }
__host__ __device__ inline double erfOf(double x) { return erf(x); }

/// One step of an activation on v, computed in V.
template <class V>
__host__ __device__ inline V applyStep(const Step &s, V v) {
  const V p0 = V(s.param[0]), p1 = V(s.param[1]);
  switch (s.kind) {
  case Step::Lower:
  case Step::Upper: {
    // False for a NaN v.
    const bool inside = s.kind == Step::Upper ? v < p0 : v > p0;
    return !inside && (s.nanToBound || v == v) ? p0 : v;
  }
  case Step::Tanh:
    return tanhOf(v);
  case Step::Sigmoid:
    return V(1) / (V(1) + expOf(-v));
  case Step::GeluTanh:
    return V(0.5) * v * (V(1) + tanhOf(p0 * (v + p1 * v * v * v)));
  case Step::GeluErf:
    return V(0.5) * v * (V(1) + erfOf(v * p0));
  }
  return v;
}

/// The epilogue on element (b, i, j), whose product term (alpha * A * B +
/// beta * C) is v, computed in V; the bias holds T. Every path that runs a
/// problem (kernels, split-K's sum, the references) finishes elements here,
/// once each and after the whole sum over K.
template <class T, class V>
__host__ __device__ inline V finishElement(const Epilogue &e, V v, int64_t b,
                                           int64_t i, int64_t j) {
  if (e.bias.ptr)
    v += V(static_cast<const T *>(
        e.bias.ptr)[b * e.bias.sb + i * e.bias.sr + j * e.bias.sc]);
  for (int s = 0; s < e.steps; ++s)
    v = applyStep(e.step[s], v);
  return v;
}

/// The floating-point scalars that the nest reads through pointers (f2c's
/// `*alpha`): the launcher passes their values, read before the nest, and
/// their addresses, so that run() can refuse a problem whose C holds one
/// (the loop would then read it as it rewrites it). Value-initialised: none.
struct ScalarReads {
  int count;
  struct {
    const void *ptr;
    int64_t bytes;
  } read[4];
};

/// C[b] = act(alpha * A[b] * B[b] + beta * C[b] + bias[b]) for b < batch,
/// with A[b] m x k, B[b] k x n and C[b] m x n. BLAS semantics: beta == 0
/// never reads C.
struct Problem {
  const char *nest; ///< "file.cpp:line:col" of the nest, used in messages.
  DType dtype;
  int64_t batch, m, n, k;
  Operand a, b, c;
  double alpha, beta;
  Epilogue epilogue;
  ScalarReads reads;
};

/// A launcher's problem, with no epilogue and no scalar reads until the
/// launcher sets them. Their arrays stay unset, as each is read only below
/// its count: value-initialising the whole aggregate (a 344-byte `rep
/// stos`) took most of a tiny call's time in its launcher.
inline Problem launcherProblem(const char *nest, DType dtype, int64_t batch,
                               int64_t m, int64_t n, int64_t k,
                               const Operand &a, const Operand &b,
                               const Operand &c, double alpha, double beta) {
  Problem p;
  p.nest = nest;
  p.dtype = dtype;
  p.batch = batch;
  p.m = m;
  p.n = n;
  p.k = k;
  p.a = a;
  p.b = b;
  p.c = c;
  p.alpha = alpha;
  p.beta = beta;
  p.epilogue.bias = {nullptr, 0, 0, 0};
  p.epilogue.steps = 0;
  p.reads.count = 0;
  return p;
}

/// The epilogue of the transposed product: the bias's strides swapped.
inline Epilogue transposedEpilogue(const Epilogue &e) {
  Epilogue t = e;
  t.bias.sr = e.bias.sc;
  t.bias.sc = e.bias.sr;
  return t;
}

/// The same product transposed, C^T = B^T A^T: n x m, B^T times A^T.
inline Problem transposed(const Problem &p) {
  return {p.nest,
          p.dtype,
          p.batch,
          p.n,
          p.m,
          p.k,
          {p.b.ptr, p.b.sb, p.b.sc, p.b.sr},
          {p.a.ptr, p.a.sb, p.a.sc, p.a.sr},
          {p.c.ptr, p.c.sb, p.c.sc, p.c.sr},
          p.alpha,
          p.beta,
          transposedEpilogue(p.epilogue),
          p.reads};
}

/// Launches a kernel for a problem whose operand pointers are device pointers,
/// epilogue included. Returns the launch's error (cudaGetLastError() after
/// the launch).
using LaunchFn = cudaError_t (*)(const Problem &device, cudaStream_t stream);

/// One block's share of a stream-K launch past its whole tiles
/// (docs/codegen.md, "Stream-K"): elements [first, last) of K for tile
/// `tile` (tiles numbered along N first). A piece short of the whole K is
/// one of the tile's two parts, whose partial sums meet in pair `pair` of
/// the workspace; -1: a whole tile.
struct StreamPiece {
  int32_t tile, first, last, pair;
};

/// The most pieces a stream-K launch has: its table travels in the
/// kernel's parameters (constant memory, up to 32 KB from CUDA 12.1 on),
/// where a block's piece is the same for every thread, and so a uniform
/// value to ptxas.
constexpr int kMaxStreamPieces = 1024;

/// A stream-K launch: one block per tile for the first `whole` tiles, then
/// one per piece of `piece` (the first `count`), in that order; the pairs of
/// partial sums at `partials` (two tiles of sums per pair) and an arrival
/// counter per pair at `arrivals`, which every launch leaves at 0 as it
/// found it.
struct StreamK {
  int32_t whole, count;
  void *partials;
  unsigned *arrivals;
  StreamPiece piece[kMaxStreamPieces];
};

/// Launches a kernel's stream-K form for a device problem of one product
/// through `sk`. Returns the launch's error.
using StreamFn = cudaError_t (*)(const Problem &device, const StreamK &sk,
                                 cudaStream_t stream);

/// One generated kernel of a nest, with what the cost model predicts of it.
struct Variant {
  LaunchFn launch;
  /// The tile of C that one block computes.
  int64_t blockM, blockN;
  /// Resident blocks per SM that the model counted (the launch bounds').
  int64_t blocksPerSM;
  /// The model's GFLOP/s on a problem that fills every block slot.
  double gflops;
  /// The shares of DRAM bandwidth at which its tiles' rows of A and B
  /// stream (RunTimeTerms.h's streamShare), for problems that read an operand
  /// from DRAM at the pace of the product: one side of C short.
  double streamA = 1, streamB = 1;
  /// The kernel's schedule as gemm-opt's --schedule options, for tuning
  /// records (docs/tuning.md); null for the runtime's own kernels.
  const char *schedule = nullptr;
  /// Whether `launch` runs a problem (gemm_kernels::runs: a kernel without a
  /// scalar twin needs aligned packs); null: every problem.
  bool (*runs)(const Problem &) = nullptr;
  /// The kernel's stream-K form, and which problems it runs (aligned packs
  /// only); null for the runtime's own kernels, which have none.
  StreamFn streamed = nullptr;
  bool (*streams)(const Problem &) = nullptr;
  /// The K step of a block's tile: a stream-K piece's K range starts at a
  /// multiple of it.
  int64_t blockK = 0;
};

/// A problem that a tuning database (docs/tuning.md) timed, and the variant
/// and K split that ran it fastest; splits 0: the variant's stream-K form.
struct Measured {
  int64_t batch, m, n, k;
  int variant;
  int64_t splits;
};

/// The kernel variants of one nest and the target's DRAM bandwidth, from
/// which run() picks a variant and a split of K for each problem.
struct Plan {
  const Variant *variants;
  int count;
  double dramGBs;
  /// The gemm-opt version and kernel-template hash that printed the
  /// variants (`gemm-opt --version`), for tuning records.
  const char *version = nullptr, *templates = nullptr;
  /// Measured choices: a call within a quarter of one of these problems'
  /// extents, whose K can be split as its was, takes its variant and split
  /// instead of the model's.
  const Measured *measured = nullptr;
  int measuredCount = 0;
};

namespace detail {
/// Whether loopFirst may send calls to their loops unseen: the profitability
/// rule is the model's or always-loop, and neither GEMM_OPT_TRACE (every call
/// reported) nor GEMM_OPT_DEVICE=cpu (the rewrite checked on the CPU) is
/// set. Read from the environment while the runtime loads; false before.
extern const bool loopFirstOn;

/// True if `ptr` is surely host memory, known without a CUDA call: it lies
/// in the calling thread's stack above the caller's frame, in the heap
/// between the initial and the current program break, or in a segment of
/// the program or of a library loaded before the runtime's first call
/// (static data), where no device or managed allocation can be. False means
/// only "ask cudaPointerGetAttributes".
bool surelyHost(const void *ptr);
} // namespace detail

/// Multiply-adds up to which a call runs its original loop before any other
/// check (16^3): the loop then takes a few microseconds at most, and the
/// checks that could send it to the GPU would cost a 4^3 call half its time
/// again.
constexpr double kLoopFirstWork = 4096;

/// Whether a launcher returns false at once, so that its caller runs the
/// original loop: a batch x m x n x k product of at most kLoopFirstWork
/// multiply-adds (a product of no work too) whose `operands` (A, B, C and
/// the bias; null for a table, whose rows are host memory by contract, or
/// for no bias) are all surely host memory. The loop is then a right answer,
/// as the program ran it, and no GPU call of such a size is faster; device
/// and managed operands, which the host loop must not dereference, always
/// go on to the pointer check.
inline bool loopFirst(int64_t batch, int64_t m, int64_t n, int64_t k,
                      std::initializer_list<const void *> operands) {
  if (!detail::loopFirstOn ||
      double(batch) * double(m) * double(n) * double(k) > kLoopFirstWork)
    return false;
  for (const void *operand : operands)
    if (operand && !detail::surelyHost(operand))
      return false;
  return true;
}

/// Runs p with the variant of `plan`, and the split of K, that the model's
/// run-time terms (RunTimeTerms.h) and the split's extra traffic make fastest
/// on this GPU, or that a tuning database measured fastest (Plan::measured;
/// with GEMM_OPT_TUNE=1, the runtime's own measurements: docs/tuning.md). Device and managed pointers are used in place. Where A, B or
/// C is host memory, the call runs in panels of C whose operands stream
/// through pinned memory, overlapped with the kernels, and only C's elements
/// are written back (C is read only if beta != 0); but the original loop runs
/// instead where the runtime predicts it to be faster (GEMM_OPT_PROFITABILITY
/// overrides: "always-gpu" or "off", "always-loop"). With A, B and C in
/// device memory and no managed bias, run() returns once the kernel is
/// queued on the default stream (like cuBLAS); otherwise, and under
/// GEMM_OPT_TRACE or GEMM_OPT_VERIFY, once it has finished.
/// Returns false, having touched nothing, when the caller must run its
/// original loop: no usable GPU, an empty extent, C overlapping A, B, the
/// bias or a scalar read through a pointer, a C layout that maps two
/// elements to one address, host operands that the loop multiplies faster,
/// or a problem whose panels cannot fit the GPU's memory
/// (GEMM_OPT_DEVICE_MEMORY=<bytes> sets a smaller budget). CUDA errors abort
/// the program with a message that names p.nest (a fault inside a queued
/// kernel surfaces at the caller's next synchronising CUDA call).
bool run(const Problem &p, const Plan &plan);

/// run() with one kernel and no split.
bool run(const Problem &p, LaunchFn launch);

/// An operand whose rows are separate allocations (`T **`, a vector of
/// vectors): start[r] points at the first element the nest reads of row r,
/// and each row holds the operand's extent along it, contiguously (as the
/// loop assumes). The table runs along the operand's rows, element (i, j)
/// at start[i][j], or where `columns` is set along its columns, element
/// (i, j) at start[j][i] (B read as B[j][k]). A null start: the operand is
/// the Problem's strided one.
struct Rows {
  const void *const *start;
  bool columns;
};

/// The tables among a problem's operands. Tables are unbatched; the
/// Problem's Operand of a table is not read.
struct RowOperands {
  Rows a, b, c;
};

/// The element the nest reads first of each of `count` rows of a table of
/// row pointers or of std::vectors, `offset` elements into the row.
template <class T> const T *rowData(const T *row) { return row; }
template <class T> const T *rowData(const std::vector<T> &row) {
  return row.data();
}
template <class Row>
std::vector<const void *> rowStarts(const Row *rows, int64_t count,
                                    int64_t offset) {
  std::vector<const void *> starts(static_cast<size_t>(count));
  for (int64_t r = 0; r < count; ++r)
    starts[static_cast<size_t>(r)] = rowData(rows[r]) + offset;
  return starts;
}

/// run() for a problem with tables of rows. The rows are read on the host,
/// where the loop reads them (so the table and its rows must be memory the
/// host can read, as for the loop), and run as host operands do, by the
/// same rules: their rows are gathered into the pinned ring (C's only if
/// beta != 0), and C's are scattered back: the n (or m) elements of each
/// row the loop writes, and no others. Returns false, having touched nothing, where run() would, and
/// where a row of C overlaps another row of C, any row or span of A, B or
/// the bias, or a scalar read through a pointer.
bool run(const Problem &p, const RowOperands &rows, const Plan &plan);
bool run(const Problem &p, const RowOperands &rows, LaunchFn launch);

/// The plain reference kernel: one thread per element of C, accumulating in
/// double. It is the launcher's kernel until tuned kernels exist, and an oracle.
cudaError_t launchReference(const Problem &device, cudaStream_t stream);

} // namespace gemm_rt

#endif // GEMM_RUNTIME_H
