//===- sweep.cu - Checks gemm-opt's generated kernels against cuBLAS -----===//
//
// Runs every variant that test/gpu/sweep/gen.py generated (element type x
// #gemm.schedule x operand layout, see .gpu/sweep/variants.inc) through its
// generated launcher, on fresh random data, and compares every element of C
// with cuBLAS (pedantic math: IEEE FP32 and FP64, no TF32) under the
// element-wise GEMM bound
//   |C - C_cublas|_ij <= (K + 2) eps (|alpha| (|A||B|)_ij + |beta| |C0|_ij) +
//   tiny
// (|A||B| computed by cuBLAS too) and the norm-wise one
//   ||C - C_cublas||_F <= (K + 2) eps (|alpha| ||A||_F ||B||_F + |beta|
//   ||C0||_F).
// The cases: sizes 1 to 1031 (equal and mixed), 2048^3, 4096x4096x256 for the
// default schedules' NN variant, N = 4.2e6 (past the grid's y limit in
// tiles) for the default schedules, batches (also past the grid's z limit),
// 8 random shapes per variant, fresh with each seed, and negative leading
// strides (checked against gemm_rt::launchReference, as cuBLAS cannot);
// alpha, beta = (1, 0) over a C full of NaN and (1.5, -0.75); leading
// dimensions equal to the extent (16-byte aligned where the extent allows:
// the packed path) or the extent + 1 (the scalar fallback), and a base
// pointer one element off alignment. Every launch must return true, leave
// C's padding and the guard elements around it untouched, and raise no CUDA
// error. Per variant one case goes through host pointers (run() stages them)
// and one with K = 0 must be refused (false, C untouched). Variants with
// 'g' layouts (fully dynamic strides) cycle through row- and column-major
// operands case by case. Last it times the variants with a row-major C at
// 4096^3 in turn with cuBLAS in the same layout (informational) and prints
// one summary line per variant.
//
// Usage: sweep [--quick | --tall] [--filter SUBSTRING] [seed]  (the default
// seed is the time). --quick runs four small cases per variant against
// gemm_rt::launchReference and nothing else, for compute-sanitizer. --tall
// runs one case per variant with M = 65535 * BM + 1, one row tile more than
// the grid's y dimension takes (a failed launch aborts in run(), so sweep.sh
// runs it in a process of its own). Prints ALL PASS and exits 0 when
// everything passed; exits 2 without a GPU.
//
//===----------------------------------------------------------------------===//
#include "sweep.h"

#include "gpu_check.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "variants.inc"

namespace {

using namespace gpu_check;

constexpr int variantCount = sizeof(sweepVariants) / sizeof(sweepVariants[0]);

//===----------------------------------------------------------------------===//
// Device helpers
//===----------------------------------------------------------------------===//

/// Sum of squares of a batch x rows x cols operand (pointer at (0, 0, 0)).
template <class T>
__global__ void sumSquaresKernel(const T *x, Operand op, int64_t batch,
                                 int64_t rows, int64_t cols, double *sum) {
  const size_t count = size_t(batch * rows * cols);
  double s = 0;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < count;
       e += size_t(gridDim.x) * blockDim.x) {
    int64_t b = int64_t(e) / (rows * cols), i = int64_t(e) / cols % rows,
            j = int64_t(e) % cols;
    double v = double(x[b * op.sb + i * op.sr + j * op.sc]);
    s += v * v;
  }
  s = warpSum(s);
  if (threadIdx.x % 32 == 0 && s != 0)
    atomicAdd(sum, s);
}

//===----------------------------------------------------------------------===//
// Host helpers
//===----------------------------------------------------------------------===//

/// How leading dimensions are chosen.
enum class Ld {
  Exact,   ///< ld = the extent; 16-byte aligned where the extent allows.
  Plus1,   ///< ld = the extent + 1 and an odd batch stride: the scalar path.
  OddBase, ///< ld a multiple of 4, the base one element off alignment.
  /// ld the extent rounded up to a multiple of 4, aligned, and the buffer
  /// ending at the last element (no guard after it): packs that run past a
  /// row's end read its padding, and none may read past the last row's.
  Padded,
};
const char *ldName(Ld ld) {
  static const char *const names[] = {"ld=extent", "ld=extent+1", "odd-base",
                                      "padded"};
  return names[int(ld)];
}

/// Guard elements before and after each operand (8 keeps 32-byte alignment).
constexpr int64_t guard = 8;

/// A batch x rows x cols operand, row- or column-major, in a buffer with
/// guard elements around it; `reverse` walks its rows (row-major) or columns
/// (column-major) backwards: a negative leading stride.
struct Layout {
  int64_t batch, rows, cols;
  bool colMajor;
  Geometry g;
  int64_t elements; ///< Buffer size, guards included.
  int64_t ld, sr, sc;
  int64_t origin; ///< Element (0, 0, 0), counted from the buffer's start.

  Layout(int64_t batch, int64_t rows, int64_t cols, bool colMajor, Ld mode,
         bool reverse = false)
      : batch(batch), rows(rows), cols(cols), colMajor(colMajor) {
    const int64_t inner = colMajor ? rows : cols,
                  outer = colMajor ? cols : rows;
    // cuBLAS wants a leading dimension of at least 1, even for K = 0.
    const int64_t extent = std::max<int64_t>(inner, 1);
    int64_t offset = guard;
    ld = extent;
    if (mode == Ld::Plus1)
      ld = extent + 1;
    else if (mode == Ld::OddBase)
      ld = (extent + 3) / 4 * 4, offset = guard + 1;
    else if (mode == Ld::Padded)
      ld = (extent + 3) / 4 * 4;
    int64_t sb = ld * outer;
    if (mode == Ld::Plus1)
      sb = ld * outer + 1;
    sb = std::max<int64_t>(sb, 1);
    g = {offset, sb, ld, inner, outer, batch};
    elements = offset + batch * sb + guard;
    if (mode == Ld::Padded && batch > 0 && outer > 0)
      elements = offset + batch * sb - (ld - inner);
    const int64_t lead = reverse ? -ld : ld;
    sr = colMajor ? 1 : lead;
    sc = colMajor ? lead : 1;
    origin = offset + (reverse && outer > 0 ? (outer - 1) * ld : 0);
  }

  Operand operand(const void *buffer, size_t elementSize) const {
    return {static_cast<const char *>(buffer) + origin * elementSize, g.sb, sr,
            sc};
  }
};

/// ||X||_F of an operand, over the whole batch.
template <class T>
double frobenius(const Layout &l, const void *buffer, int64_t batch) {
  double *sumDevice = deviceScratch<double>();
  CHECK_CUDA(cudaMemset(sumDevice, 0, sizeof(double)));
  const Operand op = l.operand(buffer, sizeof(T));
  sumSquaresKernel<T><<<helperGrid, helperBlock>>>(
      static_cast<const T *>(op.ptr), op, batch, l.rows, l.cols, sumDevice);
  CHECK_CUDA(cudaGetLastError());
  double s;
  CHECK_CUDA(cudaMemcpy(&s, sumDevice, sizeof s, cudaMemcpyDeviceToHost));
  return std::sqrt(s);
}

std::mt19937_64 rng;
Scratch scratch;

/// Check against launchReference rather than cuBLAS (--quick: keeps cuBLAS's
/// kernels out of compute-sanitizer's way).
bool referenceOracle = false;

int failures = 0;
int failureLines = 0;

void fail(const std::string &what) {
  ++failures;
  if (++failureLines <= 60)
    std::printf("FAIL: %s\n", what.c_str());
}

struct Shape {
  int64_t batch, m, n, k;
};

/// One case of one variant.
struct Case {
  Shape shape;
  Ld ld;
  double alpha, beta;
  bool host = false; ///< Call the launcher with host pointers.
  /// Negative leading strides for A, B and C; cuBLAS cannot take them, so
  /// launchReference is the oracle.
  bool reversed = false;
};

/// What the cases of one variant found.
struct Tally {
  double seconds = 0;
  int cases = 0, passed = 0;
  int packed = 0; ///< Cases whose operands all allow the vector path.
  double maxRatio = 0, maxNorm = 0;
  unsigned guardHits = 0;
};

/// The schedule's vector width ("BMxBNxBK/TMxTN/vV/...").
int vectorOf(const SweepVariant &v) {
  const char *at = std::strstr(v.schedule, "/v");
  return at ? std::atoi(at + 2) : 1;
}

/// Whether every operand allows the kernel's packed path: leading dimension,
/// batch stride and base offset multiples of the vector width.
bool packable(const SweepVariant &v, const Layout &l) {
  const int64_t n = vectorOf(v);
  return l.ld % n == 0 && l.g.offset % n == 0 &&
         (!v.batched || l.g.sb % n == 0);
}

/// Layout of operand `which` (0: A, 1: B, 2: C): the variant's, or for 'g'
/// one of the eight row-/column-major combinations, picked by `cycle`.
bool colMajorOf(const SweepVariant &v, int which, unsigned cycle) {
  char l = v.layout[which];
  if (l == 'g')
    return (cycle >> which) & 1;
  return l == 'c';
}

std::string describe(const SweepVariant &v, const Case &c, bool aCol, bool bCol,
                     bool cCol) {
  char text[300];
  std::snprintf(
      text, sizeof text,
      "%s [%s] batch=%lld m=%lld n=%lld k=%lld A%s B%s C%s %s "
      "alpha=%g beta=%g%s%s%s",
      v.name, v.schedule, (long long)c.shape.batch, (long long)c.shape.m,
      (long long)c.shape.n, (long long)c.shape.k, aCol ? "col" : "row",
      bCol ? "col" : "row", cCol ? "col" : "row", ldName(c.ld), c.alpha, c.beta,
      c.beta == 0 ? " (C=NaN)" : "", c.host ? " host-pointers" : "",
      c.reversed ? " negative-ld" : "");
  return text;
}

/// Runs one case through the variant's launcher and checks it.
template <class T>
void runCase(cublasHandle_t handle, const SweepVariant &v, const Case &cs,
             unsigned cycle, Tally &tally) {
  const size_t size = sizeof(T);
  const Shape &s = cs.shape;
  const bool aCol = colMajorOf(v, 0, cycle), bCol = colMajorOf(v, 1, cycle),
             cCol = colMajorOf(v, 2, cycle);
  const Layout la(s.batch, s.m, s.k, aCol, cs.ld, cs.reversed);
  const Layout lb(s.batch, s.k, s.n, bCol, cs.ld, cs.reversed);
  const Layout lc(s.batch, s.m, s.n, cCol, cs.ld, cs.reversed);
  // With beta == 0 the result must not depend on C at all, NaN included;
  // the padding and guards of C are poisoned the same way.
  const CaseData d = prepareCase<T>(scratch, la.elements, lb.elements,
                                    lc.elements, cs.beta == 0, rng);

  const std::string name = describe(v, cs, aCol, bCol, cCol);
  currentCase = name;
  const Operand a = la.operand(d.a, size), b = lb.operand(d.b, size),
                c = lc.operand(d.c, size);
  const SweepArgs args{s.batch, s.m, s.n, s.k, a, b, c, cs.alpha, cs.beta};
  bool ran;
  if (cs.host) {
    // Whole buffers on the host; run() stages the operands' spans.
    auto hostA = toHost(d.a, la.elements * size);
    auto hostB = toHost(d.b, lb.elements * size);
    auto hostC = toHost(d.c, lc.elements * size);
    SweepArgs hostArgs = args;
    hostArgs.a = la.operand(hostA.data(), size);
    hostArgs.b = lb.operand(hostB.data(), size);
    hostArgs.c = lc.operand(hostC.data(), size);
    ran = v.call(hostArgs);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(d.c, hostC.data(), lc.elements * size,
                          cudaMemcpyHostToDevice));
  } else {
    ran = v.call(args);
    CHECK_CUDA(cudaGetLastError());
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  bool pass = ran;
  if (!ran)
    fail(name + ": the launcher returned false (the runtime refused)");

  const Problem p{name.c_str(), v.dtype, s.batch, s.m,      s.n,    s.k,
                  args.a,       args.b,  args.c,  cs.alpha, cs.beta};
  const Operand ref = lc.operand(d.ref, size),
                bound = lc.operand(d.bound, size);
  oracleAndBound(handle, p, ref, la.operand(d.absA, size),
                 lb.operand(d.absB, size), bound,
                 referenceOracle || cs.reversed);
  const double scale = boundScale<T>(s.k);
  const Comparison result =
      compare<T>(args.c, ref.ptr, bound.ptr, s.batch, s.m, s.n, scale,
                 double(std::numeric_limits<T>::min()));
  const float maxRatio = result.maxRatio;
  const unsigned guardHits = countChanged<T>(d.c, d.c0, lc.elements, lc.g);

  // Norm-wise: over the whole batch, ||A|| ||B|| bounds the sum over batches.
  const double normA = frobenius<T>(la, d.a, s.batch),
               normB = frobenius<T>(lb, d.b, s.batch);
  const double normC0 = cs.beta != 0 ? frobenius<T>(lc, d.c0, s.batch) : 0;
  const double normBound = scale * (std::fabs(cs.alpha) * normA * normB +
                                    std::fabs(cs.beta) * normC0);
  double normRatio = std::sqrt(result.diff2) / normBound;
  if (!(normRatio <= 1e300))
    normRatio = INFINITY;

  pass = pass && result.failures == 0 && guardHits == 0 && normRatio <= 1;
  ++tally.cases;
  tally.maxRatio = std::max(tally.maxRatio, double(maxRatio));
  tally.maxNorm = std::max(tally.maxNorm, normRatio);
  tally.guardHits += guardHits;
  if (result.failures) {
    char text[200];
    std::snprintf(text, sizeof text,
                  ": %u of %lld elements over the bound (max err/bound %.3g, "
                  "norm-wise %.3g); first ",
                  result.failures, (long long)(s.batch * s.m * s.n), maxRatio,
                  normRatio);
    fail(name + text +
         describeFailure<T>(result, args.c, ref.ptr, bound.ptr, s.m, s.n,
                            "oracle", "bound term"));
  } else if (!(normRatio <= 1)) {
    fail(name + ": norm-wise err/bound = " + std::to_string(normRatio));
  }
  if (guardHits)
    fail(name + ": " + std::to_string(guardHits) +
         " elements outside C (padding or guard) changed");
  if (pass)
    ++tally.passed;
  if (packable(v, la) && packable(v, lb) && packable(v, lc))
    ++tally.packed;
  currentCase = "between cases";
}

/// K = 0 must be refused (run() returns false, C untouched): the caller's
/// loop computes C = beta * C then.
template <class T> void checkEmptyK(const SweepVariant &v, Tally &tally) {
  const size_t size = sizeof(T);
  const Shape s{v.batched ? 2 : 1, 31, 7, 0};
  const Layout la(s.batch, s.m, s.k, false, Ld::Exact);
  const Layout lb(s.batch, s.k, s.n, false, Ld::Exact);
  const Layout lc(s.batch, s.m, s.n, false, Ld::Exact);
  const CaseData d = prepareCase<T>(scratch, la.elements, lb.elements,
                                    lc.elements, false, rng);
  currentCase = std::string(v.name) + " k=0";
  const Operand a = la.operand(d.a, size), b = lb.operand(d.b, size),
                c = lc.operand(d.c, size);
  const SweepArgs args{s.batch, s.m, s.n, s.k, a, b, c, 1.5, -0.75};
  const bool ran = v.call(args);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  Geometry all = lc.g;
  all.batch = 0; // every element of the buffer must keep its bits
  const unsigned hits = countChanged<T>(d.c, d.c0, lc.elements, all);
  ++tally.cases;
  if (ran || hits)
    fail(currentCase + ": K = 0 " + (ran ? "was not refused" : "changed C") +
         " (" + std::to_string(hits) + " elements changed)");
  else
    ++tally.passed;
  currentCase = "between cases";
}

enum class Mode { Full, Quick, Tall };

/// The cases of one variant.
std::vector<Case> makeCases(const SweepVariant &v, Mode mode) {
  std::vector<Case> cases;
  auto batchOf = [&](int64_t m, int64_t n, int64_t k) -> int64_t {
    if (!v.batched)
      return 1;
    return std::max({m, n, k}) <= 500 ? 3 : 2;
  };
  auto add = [&](int64_t m, int64_t n, int64_t k, Ld ld, int scaling,
                 bool host = false) {
    Case c{{batchOf(m, n, k), m, n, k},
           ld,
           scaling ? 1.5 : 1.0,
           scaling ? -0.75 : 0.0,
           host};
    cases.push_back(c);
  };
  if (mode == Mode::Quick) {
    add(130, 97, 40, Ld::Exact, 0);
    add(130, 97, 40, Ld::Plus1, 1);
    add(130, 97, 40, Ld::OddBase, 1);
    cases.back().reversed = true;
    add(130, 97, 40, Ld::Padded, 1);
    add(64, 96, 40, Ld::Exact, 0);
    cases.back().reversed = true;
    return cases;
  }
  if (mode == Mode::Tall) {
    const int64_t bm = std::atoi(v.schedule);
    add(65535 * bm + 1, 2, 3, Ld::Exact, 1);
    return cases;
  }
  std::vector<Shape> shapes;
  for (int64_t s : {1, 7, 31, 64, 65, 127, 500, 1000, 1031})
    shapes.push_back({1, s, s, s});
  const Shape mixed[] = {{1, 65, 1, 127}, {1, 1031, 7, 500}, {1, 127, 1000, 31},
                         {1, 1000, 1, 1}, {1, 7, 1031, 65},  {1, 96, 256, 40}};
  shapes.insert(shapes.end(), std::begin(mixed), std::end(mixed));
  for (const Shape &s : shapes)
    for (Ld ld : {Ld::Exact, Ld::Plus1})
      for (int scaling = 0; scaling < 2; ++scaling)
        add(s.m, s.n, s.k, ld, scaling);
  for (int scaling = 0; scaling < 2; ++scaling) {
    add(127, 127, 127, Ld::OddBase, scaling);
    add(65, 1, 127, Ld::OddBase, scaling);
    add(256, 128, 64, Ld::OddBase, scaling);
    for (const Shape &s : {Shape{1, 127, 127, 127}, Shape{1, 65, 1, 127},
                           Shape{1, 1031, 7, 500}, Shape{1, 7, 1031, 65},
                           Shape{1, 1031, 1031, 1031}})
      add(s.m, s.n, s.k, Ld::Padded, scaling);
  }
  add(2048, 2048, 2048, Ld::Exact, 0);
  add(2048, 2048, 2048, Ld::Plus1, 1);
  if (v.isDefault && std::strcmp(v.layout, "rrr") == 0 && !v.batched) {
    add(4096, 4096, 256, Ld::Exact, 0);
    add(4096, 4096, 256, Ld::Exact, 1);
  }
  if (v.isDefault) // more column tiles than the grid's y dimension takes
    add(3, 4200000, 2, Ld::Exact, 1);
  // Random shapes, log-uniform extents in [1, 1100].
  std::uniform_real_distribution<double> logExtent(0, std::log(1100.0));
  auto extent = [&] { return int64_t(std::exp(logExtent(rng))); };
  for (int i = 0; i < 8; ++i) {
    const int64_t m = extent(), n = extent(), k = extent();
    const Ld ld = Ld(rng() % 4);
    const int scaling = int(rng() % 2);
    add(m, n, k, ld, scaling);
    if (v.batched)
      cases.back().shape.batch = int64_t(1 + rng() % 4);
  }
  if (v.batched) {
    // Batches past the grid's z limit (65535) loop inside the kernel.
    cases.push_back({{70000, 2, 3, 5}, Ld::Exact, 1.5, -0.75});
    cases.push_back({{70000, 7, 5, 3}, Ld::Plus1, 1.0, 0.0});
  }
  // Negative leading strides (the unit stride stays 1, as the types say).
  for (Ld ld : {Ld::Exact, Ld::Plus1, Ld::OddBase}) {
    add(64, 96, 40, ld, ld != Ld::Plus1);
    cases.back().reversed = true;
  }
  add(65, 31, 127, Ld::Exact, 0);
  cases.back().reversed = true;
  // run() stages host operands through its device pool.
  add(64, 96, 40, Ld::Exact, 1, true);
  add(65, 31, 127, Ld::Plus1, 0, true);
  return cases;
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

/// Times the variants with a row-major C (all four layouts of A and B) at
/// 4096^3, each in turn with cuBLAS on the same operands.
void timeVariants(cublasHandle_t handle, const std::vector<int> &selected) {
  const int64_t s = 4096;
  const double flops = 2.0 * s * s * s;
  std::printf("\n== timings at %lld^3, row-major C, alpha=1 beta=0, random "
              "data; median of %d after %d warm-ups\n",
              (long long)s, defaultRuns, defaultWarmups);
  std::printf("   kernel: launch() alone; launcher: through gemm_rt::run; "
              "cuBLAS: pedantic FP32, default FP64, same layout\n");
  std::printf("%-18s %-4s %-26s %-6s %8s %9s %8s %7s\n", "variant", "type",
              "schedule", "layout", "kernel", "launcher", "cuBLAS", "ratio");
  const Layout rows(1, s, s, false, Ld::Exact), cols(1, s, s, true, Ld::Exact);
  for (DType dtype : {DType::F32, DType::F64}) {
    // The four layouts read the same square operands, filled once.
    const size_t size = dtype == DType::F64 ? 8 : 4;
    void *a = scratch.a.get(rows.elements * size);
    void *b = scratch.b.get(rows.elements * size);
    void *c = scratch.c.get(rows.elements * size);
    for (void *x : {a, b, c}) {
      if (dtype == DType::F64)
        fill<double>(x, rows.elements, rng(), false);
      else
        fill<float>(x, rows.elements, rng(), false);
    }
    for (const char *layout : {"rrr", "crr", "rcr", "ccr"}) {
      const auto operand = [&](char l, void *x) {
        return (l == 'c' ? cols : rows).operand(x, size);
      };
      const Operand oa = operand(layout[0], a), ob = operand(layout[1], b),
                    oc = rows.operand(c, size);
      const Problem blasProblem{
          "sweep:timing", dtype, 1, s, s, s, oa, ob, oc, 1.0, 0.0};
      for (int i : selected) {
        const SweepVariant &v = sweepVariants[i];
        if (v.dtype != dtype || v.batched || std::strcmp(v.layout, layout))
          continue;
        currentCase = std::string("timing ") + v.name;
        const Problem p{v.name, dtype, 1, s, s, s, oa, ob, oc, 1.0, 0.0};
        // In turn with cuBLAS, as the bench times (docs/performance.md).
        const std::array<double, 2> ms = mediansMs(
            defaultWarmups, defaultRuns,
            [&] {
              CHECK_CUDA(v.launch(p, 0));
              CHECK_CUDA(cudaGetLastError());
            },
            [&] { blasGemm(handle, blasProblem, /*pedantic=*/false); });
        const double tOurs = flops / ms[0] / 1e9, tBlas = flops / ms[1] / 1e9;
        char launcher[16] = "-";
        if (v.isDefault) {
          const SweepArgs args{1, s, s, s, oa, ob, oc, 1.0, 0.0};
          const double launcherMs = medianMs([&] {
            if (!v.call(args))
              fail(currentCase + ": the launcher returned false");
          });
          std::snprintf(launcher, sizeof launcher, "%.2f",
                        flops / launcherMs / 1e9);
        }
        std::printf("%-18s %-4s %-26s %-6s %8.2f %9s %8.2f %6.1f%%\n", v.name,
                    dtype == DType::F64 ? "f64" : "f32", v.schedule, layout,
                    tOurs, launcher, tBlas, 100 * tOurs / tBlas);
      }
    }
  }
  currentCase = "between cases";
}

} // namespace

int main(int argc, char **argv) {
  // Keep the log in order and complete even if the run is cut short.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  // The runtime's own check would double the work; this harness is the check.
  unsetenv("GEMM_OPT_VERIFY");
  Mode mode = Mode::Full;
  const char *filter = nullptr;
  unsigned long long seed = std::time(nullptr);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0)
      mode = Mode::Quick;
    else if (std::strcmp(argv[i], "--tall") == 0)
      mode = Mode::Tall;
    else if (std::strcmp(argv[i], "--filter") == 0 && i + 1 < argc)
      filter = argv[++i];
    else
      seed = std::strtoull(argv[i], nullptr, 0);
  }
  if (!haveGpu("sweep"))
    return 2;
  currentCase = "setup";
  const bool quick = mode == Mode::Quick;
  referenceOracle = quick;
  rng.seed(seed);
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  std::printf("sweep on %s, seed %llu%s\n", deviceSummary(handle).c_str(), seed,
              quick                ? ", --quick"
              : mode == Mode::Tall ? ", --tall"
                                   : "");

  std::vector<int> selected;
  for (int i = 0; i < variantCount; ++i)
    if (!filter || std::strstr(sweepVariants[i].name, filter))
      selected.push_back(i);

  std::vector<Tally> tallies(variantCount);
  int totalCases = 0;
  for (int i : selected) {
    const SweepVariant &v = sweepVariants[i];
    auto start = std::chrono::steady_clock::now();
    unsigned cycle = 0;
    for (const Case &c : makeCases(v, mode)) {
      if (v.dtype == DType::F64)
        runCase<double>(handle, v, c, cycle++, tallies[i]);
      else
        runCase<float>(handle, v, c, cycle++, tallies[i]);
    }
    if (mode == Mode::Full) {
      if (v.dtype == DType::F64)
        checkEmptyK<double>(v, tallies[i]);
      else
        checkEmptyK<float>(v, tallies[i]);
    }
    tallies[i].seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    totalCases += tallies[i].cases;
  }

  if (mode == Mode::Full)
    timeVariants(handle, selected);

  std::printf("\n== correctness%s: %zu variants, %d cases against %s "
              "(bound (K+2) eps, element-wise and norm-wise)\n",
              mode == Mode::Tall ? " (--tall)" : "", selected.size(),
              totalCases,
              quick ? "launchReference"
                    : "cuBLAS (negative-ld cases: launchReference)");
  std::printf("   vec: cases whose operands all allow the packed (vector) "
              "path; the others take the scalar one\n");
  std::printf("%-18s %-4s %-26s %-6s %5s %5s %4s %13s %11s %5s %6s  %s\n",
              "variant", "type", "schedule", "layout", "cases", "pass", "vec",
              "max err/bound", "max norm", "guard", "secs", "result");
  for (int i : selected) {
    const SweepVariant &v = sweepVariants[i];
    const Tally &t = tallies[i];
    char layout[8];
    std::snprintf(layout, sizeof layout, "%s%s", v.layout,
                  v.batched ? "+b" : "");
    char vec[8] = "-";
    if (vectorOf(v) > 1 && !std::strchr(v.layout, 'g'))
      std::snprintf(vec, sizeof vec, "%d", t.packed);
    std::printf(
        "%-18s %-4s %-26s %-6s %5d %5d %4s %13.3e %11.3e %5u %6.2f  %s\n",
        v.name, v.dtype == DType::F64 ? "f64" : "f32", v.schedule, layout,
        t.cases, t.passed, vec, t.maxRatio, t.maxNorm, t.guardHits, t.seconds,
        t.passed == t.cases ? "PASS" : "FAIL");
  }
  CHECK_CUBLAS(cublasDestroy(handle));
  if (failures) {
    std::printf("\n%d FAILED (seed %llu)\n", failures, seed);
    return 1;
  }
  std::printf("\nALL PASS (seed %llu)\n", seed);
  return 0;
}
