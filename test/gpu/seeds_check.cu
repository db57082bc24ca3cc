//===- seeds_check.cu - Checks the seed kernels against cuBLAS ------------===//
//
// Runs each hand-tuned kernel of the runtime (launchMagmaDgemm,
// launchTanDgemm, launchMagmaSgemm, launchVolkovSgemm) on fresh random data
// and compares every element of C with cuBLAS (pedantic math: IEEE FP32 and
// FP64, no TF32) under the element-wise GEMM bound
//   |C - C_cublas|_ij <= (K + 2) eps (|alpha| (|A||B|)_ij + |beta| |C0|_ij),
// with |A||B| computed by cuBLAS too. The cases cover sizes 1 to 1031 (odd,
// tile multiples and not), all four transposes, row- and column-major C,
// leading dimensions and base pointers that break 16-byte alignment, batches
// (also past the grid limit), tiles past the grid limit, K = 0, and
// beta == 0 over a C full of NaN. Negative strides, which cuBLAS cannot
// take, are checked the same way against launchReference. It also checks that
// nothing outside C's elements is written, that small cases pass
// gemm_rt::verify (the CPU fp64 reference), that a kernel refuses the wrong
// element type, and that GEMM_OPT_VERIFY makes run() report PASS for the seed
// kernels and FAIL for a broken one. Last it times each kernel and cuBLAS at
// 4096^3.
//
// Usage: seeds_check [--quick] [seed]   (the default seed is the time).
// --quick runs a few small cases of each kernel against launchReference and
// nothing else, for compute-sanitizer. Prints ALL PASS and exits 0 when
// everything passed.
//
//===----------------------------------------------------------------------===//
#include "gpu_check.h"
#include "seeds/seeds.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace gpu_check;
using gemm_seeds::SeedKernel;
using gemm_seeds::seedKernels;

constexpr int seedCount = sizeof(seedKernels) / sizeof(seedKernels[0]);

size_t sizeOf(DType dtype) {
  return dtype == DType::F64 ? sizeof(double) : sizeof(float);
}

enum class Align {
  Aligned, ///< Leading dimension a multiple of 4, base 256-byte aligned.
  OddLd,   ///< Odd leading and batch dimensions.
  OddBase, ///< Aligned dimensions, base one element past 16-byte alignment.
};
const char *alignName(Align align) {
  static const char *const names[] = {"aligned", "odd-ld", "odd-base"};
  return names[int(align)];
}

/// A batch x rows x cols operand, row- or column-major, its rows or columns
/// possibly in reverse order (a negative stride).
struct Layout {
  int64_t batch, rows, cols;
  bool colMajor;
  Geometry g;
  int64_t elements;
  int64_t sr, sc;
  int64_t origin; ///< Element (0, 0, 0), counted from the buffer's start.

  Layout(int64_t batch, int64_t rows, int64_t cols, bool colMajor, Align align,
         bool reverseRows = false, bool reverseCols = false)
      : batch(batch), rows(rows), cols(cols), colMajor(colMajor) {
    int64_t inner = colMajor ? rows : cols, outer = colMajor ? cols : rows;
    // cuBLAS wants a leading dimension of at least 1, even for K = 0.
    const int64_t extent = std::max<int64_t>(inner, 1);
    int64_t ld = (extent + 3) / 4 * 4;
    int64_t sb = ld * outer, offset = 0;
    if (align == Align::OddLd) {
      ld = (extent + 1) / 2 * 2 + 1;
      sb = ld * outer + 1;
      if (sb % 2 == 0)
        ++sb;
    } else if (align == Align::OddBase) {
      offset = 1;
    }
    g = {offset, sb, ld, inner, outer, batch};
    elements = offset + batch * sb;
    sr = colMajor ? 1 : ld;
    sc = colMajor ? ld : 1;
    origin = offset;
    if (reverseRows && rows > 0) {
      origin += (rows - 1) * sr;
      sr = -sr;
    }
    if (reverseCols && cols > 0) {
      origin += (cols - 1) * sc;
      sc = -sc;
    }
  }

  Operand operand(const void *buffer, size_t elementSize) const {
    return {static_cast<const char *>(buffer) + origin * elementSize, g.sb, sr,
            sc};
  }
};

std::mt19937_64 rng;
Scratch scratch;

struct Shape {
  int64_t batch, m, n, k;
};

struct Variant {
  bool aColMajor, bColMajor, cColMajor;
  Align align;
  double alpha, beta;
  /// Negative strides: 1 reverses A's rows, 2 B's columns, 4 C's rows. cuBLAS
  /// cannot take them, so such cases are checked against launchReference.
  unsigned reversed = 0;
};

/// What the cases of one kernel found.
struct Tally {
  double seconds = 0;
  int cases = 0, passed = 0, verified = 0;
  double maxRatio = 0, maxVerify = 0;
  unsigned guardHits = 0;
};

std::string describe(const SeedKernel &seed, const Shape &s, const Variant &v) {
  char text[200];
  std::snprintf(
      text, sizeof text,
      "%s batch=%lld m=%lld n=%lld k=%lld A%s B%s C%s %s "
      "alpha=%g beta=%g%s%s%s%s",
      seed.name, (long long)s.batch, (long long)s.m, (long long)s.n,
      (long long)s.k, v.aColMajor ? "col" : "row", v.bColMajor ? "col" : "row",
      v.cColMajor ? "col" : "row", alignName(v.align), v.alpha, v.beta,
      v.beta == 0 ? " (C=NaN)" : "", v.reversed & 1 ? " A-rows-reversed" : "",
      v.reversed & 2 ? " B-cols-reversed" : "",
      v.reversed & 4 ? " C-rows-reversed" : "");
  return text;
}

int failures = 0;
int failureLines = 0;
/// Check every case against launchReference rather than cuBLAS (--quick:
/// keeps cuBLAS's kernels out of compute-sanitizer's way).
bool referenceOracle = false;

void fail(const std::string &what) {
  ++failures;
  if (++failureLines <= 40)
    std::printf("FAIL: %s\n", what.c_str());
}

template <class T>
void runCase(cublasHandle_t handle, const SeedKernel &seed, const Shape &s,
             const Variant &v, Tally &tally) {
  const size_t size = sizeof(T);
  const Layout la(s.batch, s.m, s.k, v.aColMajor, v.align, v.reversed & 1);
  const Layout lb(s.batch, s.k, s.n, v.bColMajor, v.align, false,
                  v.reversed & 2);
  const Layout lc(s.batch, s.m, s.n, v.cColMajor, v.align, v.reversed & 4);
  const CaseData d = prepareCase<T>(scratch, la.elements, lb.elements,
                                    lc.elements, v.beta == 0, rng);
  const std::string name = describe(seed, s, v);
  currentCase = name;
  const Operand a = la.operand(d.a, size), b = lb.operand(d.b, size),
                c = lc.operand(d.c, size);
  const Problem p{name.c_str(), seed.dtype, s.batch, s.m, s.n, s.k, a, b, c,
                  v.alpha,      v.beta};
  CHECK_LAUNCH(seed.launch(p, 0));
  CHECK_CUDA(cudaDeviceSynchronize());

  const Operand ref = lc.operand(d.ref, size),
                bound = lc.operand(d.bound, size);
  oracleAndBound(handle, p, ref, la.operand(d.absA, size),
                 lb.operand(d.absB, size), bound,
                 v.reversed || referenceOracle);
  const Comparison result = compare<T>(p.c, ref.ptr, bound.ptr, s.batch, s.m,
                                       s.n, boundScale<T>(s.k));
  const float maxRatio = result.maxRatio;
  const unsigned guardHits = countChanged<T>(d.c, d.c0, lc.elements, lc.g);

  bool pass = result.failures == 0 && guardHits == 0;
  ++tally.cases;
  tally.maxRatio = std::max(tally.maxRatio, double(maxRatio));
  tally.guardHits += guardHits;
  if (result.failures) {
    char text[200];
    std::snprintf(text, sizeof text,
                  ": %u elements over the bound (max err/bound %.3g); ",
                  result.failures, maxRatio);
    fail(name + text +
         describeFailure<T>(result, p.c, ref.ptr, bound.ptr, s.m, s.n, "cuBLAS",
                            "|A||B| term"));
  }
  if (guardHits)
    fail(name + ": " + std::to_string(guardHits) +
         " elements outside C changed");

  // gemm_rt::verify, the CPU fp64 reference, on the small cases.
  if (s.batch * s.m * s.n * s.k <= 300000) {
    auto hostA = toHost(d.a, la.elements * size);
    auto hostB = toHost(d.b, lb.elements * size);
    auto hostC0 = toHost(d.c0, lc.elements * size);
    auto hostC = toHost(d.c, lc.elements * size);
    Problem host = p;
    host.a = la.operand(hostA.data(), size);
    host.b = lb.operand(hostB.data(), size);
    host.c.ptr = nullptr; // verify() reads C through its arguments.
    double r = gemm_rt::verify(host, hostC0.data() + lc.origin * size,
                               hostC.data() + lc.origin * size);
    ++tally.verified;
    tally.maxVerify = std::max(tally.maxVerify, r);
    if (!(r <= 1)) {
      pass = false;
      fail(name + ": gemm_rt::verify err/bound = " + std::to_string(r));
    }
  }
  if (pass)
    ++tally.passed;
  currentCase = "between cases";
}

struct Case {
  Shape shape;
  Variant variant;
};

std::vector<Shape> makeShapes() {
  std::vector<Shape> shapes;
  for (int64_t s : {1, 7, 31, 64, 65, 127, 500, 1000, 1031})
    shapes.push_back({1, s, s, s});
  const Shape more[] = {
      {1, 7, 1031, 31},   {1, 1000, 1, 65}, {1, 127, 500, 7}, {1, 1031, 64, 1},
      {1, 192, 96, 48},   {1, 96, 192, 17}, {1, 31, 7, 0},    {3, 65, 31, 127},
      {2, 7, 1, 1000},    {70000, 2, 3, 5}, // batch past the grid's z limit
      {1, 3, 4200000, 2}, // tiles of N past the grid's y limit
  };
  shapes.insert(shapes.end(), std::begin(more), std::end(more));
  return shapes;
}

std::vector<Variant> makeVariants() {
  std::vector<Variant> variants;
  for (bool aCol : {false, true})
    for (bool bCol : {false, true})
      for (bool cCol : {false, true})
        for (Align align : {Align::Aligned, Align::OddLd, Align::OddBase})
          for (int scaling = 0; scaling < 2; ++scaling)
            variants.push_back({aCol, bCol, cCol, align, scaling ? -1.5 : 1.0,
                                scaling ? 0.75 : 0.0});
  return variants;
}

/// Every shape with every variant, then negative strides on a few shapes.
/// `quick`: a few small cases that still cross tile edges in M, N and K,
/// with an odd number of Tan's half-steps.
std::vector<Case> makeCases(bool quick) {
  std::vector<Case> cases;
  if (quick) {
    const Shape s{2, 130, 97, 40};
    cases.push_back({s, {true, true, true, Align::Aligned, 1.0, 0.0}});
    cases.push_back({s, {false, false, false, Align::Aligned, -1.5, 0.75}});
    cases.push_back({s, {true, false, true, Align::OddLd, 1.0, 0.0}});
    cases.push_back({s, {false, true, false, Align::OddBase, -1.5, 0.75}});
    Variant reversed{false, true, true, Align::Aligned, -1.5, 0.75};
    reversed.reversed = 7;
    cases.push_back({s, reversed});
    return cases;
  }
  for (const Shape &s : makeShapes())
    for (const Variant &v : makeVariants())
      cases.push_back({s, v});
  const Shape reversedShapes[] = {
      {1, 65, 31, 127}, {2, 127, 64, 65}, {1, 1031, 7, 64}};
  for (const Shape &s : reversedShapes)
    for (unsigned reversed : {1u, 2u, 4u, 7u})
      for (bool colMajor : {false, true})
        for (Align align : {Align::Aligned, Align::OddLd})
          for (int scaling = 0; scaling < 2; ++scaling) {
            Variant v{colMajor,
                      colMajor,
                      !colMajor,
                      align,
                      scaling ? -1.5 : 1.0,
                      scaling ? 0.75 : 0.0};
            v.reversed = reversed;
            cases.push_back({s, v});
          }
  return cases;
}

/// Each kernel must refuse the other element type without launching.
void checkWrongType() {
  for (const SeedKernel &seed : seedKernels) {
    Problem p{"seeds_check:wrong-type",
              seed.dtype == DType::F64 ? DType::F32 : DType::F64,
              1,
              4,
              4,
              4,
              {nullptr, 0, 4, 1},
              {nullptr, 0, 4, 1},
              {nullptr, 0, 4, 1},
              1.0,
              0.0};
    cudaError_t err = seed.launch(p, 0);
    cudaError_t last = cudaGetLastError();
    if (err != cudaErrorInvalidValue || last != cudaSuccess)
      fail(std::string(seed.name) + " did not refuse the wrong element type");
  }
}

//===----------------------------------------------------------------------===//
// GEMM_OPT_VERIFY through run()
//===----------------------------------------------------------------------===//

/// Runs f with stderr captured; returns what it printed (and echoes it).
template <class F> std::string captureStderr(F f) {
  std::fflush(stderr);
  int saved = dup(2);
  FILE *tmp = std::tmpfile();
  if (saved < 0 || !tmp) {
    std::perror("seeds_check: capturing stderr");
    std::exit(1);
  }
  dup2(fileno(tmp), 2);
  f();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::rewind(tmp);
  std::string text;
  char chunk[4096];
  size_t got;
  while ((got = std::fread(chunk, 1, sizeof chunk, tmp)) > 0)
    text.append(chunk, got);
  std::fclose(tmp);
  std::printf("%s", text.c_str());
  return text;
}

/// A broken kernel: the reference without the last K term.
cudaError_t launchDropLastK(const Problem &device, cudaStream_t stream) {
  Problem p = device;
  p.k -= 1;
  return gemm_rt::launchReference(p, stream);
}

template <class T>
void checkVerifyHook(const char *name, gemm_rt::LaunchFn launch, bool onDevice,
                     bool expectPass) {
  const int64_t batch = 2, m = 65, n = 127, k = 64;
  std::uniform_real_distribution<double> dist(-1, 1);
  // Row-major A and C, column-major B, packed.
  std::vector<T> a(batch * m * k), b(batch * k * n), c(batch * m * n);
  for (T &x : a)
    x = T(dist(rng));
  for (T &x : b)
    x = T(dist(rng));
  for (T &x : c)
    x = T(dist(rng));
  const std::vector<T> c0 = c;
  T *dA = nullptr, *dB = nullptr, *dC = nullptr;
  if (onDevice) {
    CHECK_CUDA(cudaMalloc(&dA, a.size() * sizeof(T)));
    CHECK_CUDA(cudaMalloc(&dB, b.size() * sizeof(T)));
    CHECK_CUDA(cudaMalloc(&dC, c.size() * sizeof(T)));
    CHECK_CUDA(
        cudaMemcpy(dA, a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice));
    CHECK_CUDA(
        cudaMemcpy(dB, b.data(), b.size() * sizeof(T), cudaMemcpyHostToDevice));
    CHECK_CUDA(
        cudaMemcpy(dC, c.data(), c.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  const std::string nest = std::string("seeds_check:verify:") + name +
                           (onDevice ? ":device" : ":host");
  const Operand opA{onDevice ? dA : a.data(), m * k, k, 1};
  const Operand opB{onDevice ? dB : b.data(), k * n, 1, k};
  const Operand opC{onDevice ? dC : c.data(), m * n, n, 1};
  Problem p{nest.c_str(),
            sizeof(T) == 8 ? DType::F64 : DType::F32,
            batch,
            m,
            n,
            k,
            opA,
            opB,
            opC,
            0.5,
            -1.25};
  bool ran = false;
  std::string text = captureStderr([&] { ran = gemm_rt::run(p, launch); });
  if (onDevice) {
    CHECK_CUDA(
        cudaMemcpy(c.data(), dC, c.size() * sizeof(T), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaFree(dA));
    CHECK_CUDA(cudaFree(dB));
    CHECK_CUDA(cudaFree(dC));
  }
  const std::string expected =
      "gemm-opt verify: nest " + nest + ": err/bound = ";
  size_t at = text.find(expected);
  bool reported =
      at != std::string::npos &&
      text.find(expectPass ? " PASS" : " FAIL", at) != std::string::npos;
  if (!ran || !reported)
    fail(nest + ": GEMM_OPT_VERIFY did not report " +
         (expectPass ? "PASS" : "FAIL"));
  // The hook must not disturb the result: check it on the CPU too.
  Problem host = p;
  host.a.ptr = a.data();
  host.b.ptr = b.data();
  double r = gemm_rt::verify(host, c0.data(), c.data());
  if (expectPass != (r <= 1))
    fail(nest + ": gemm_rt::verify err/bound = " + std::to_string(r));
  // And a planted error must fail gemm_rt::verify.
  if (expectPass) {
    c[c.size() / 2] += T(1);
    if (gemm_rt::verify(host, c0.data(), c.data()) <= 1)
      fail(nest + ": gemm_rt::verify missed a planted error");
  }
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

void timeSeeds(cublasHandle_t handle) {
  const int64_t s = 4096;
  const double flops = 2.0 * s * s * s;
  std::printf("\n== timings at %lld^3 (median of %d after %d warm-ups, "
              "alpha=1 beta=0, random data)\n",
              (long long)s, defaultRuns, defaultWarmups);
  std::printf("%-14s %-9s %12s %14s %8s\n", "kernel", "layout", "TFLOP/s",
              "cuBLAS TFLOP/s", "ratio");
  for (const SeedKernel &seed : seedKernels) {
    const size_t size = sizeOf(seed.dtype);
    for (bool colMajor : {true, false}) {
      const Layout l(1, s, s, colMajor, Align::Aligned);
      void *a = scratch.a.get(l.elements * size);
      void *b = scratch.b.get(l.elements * size);
      void *c = scratch.c.get(l.elements * size);
      if (seed.dtype == DType::F64) {
        fill<double>(a, l.elements, rng(), false);
        fill<double>(b, l.elements, rng(), false);
      } else {
        fill<float>(a, l.elements, rng(), false);
        fill<float>(b, l.elements, rng(), false);
      }
      Problem p{"seeds_check:timing",
                seed.dtype,
                1,
                s,
                s,
                s,
                l.operand(a, size),
                l.operand(b, size),
                l.operand(c, size),
                1.0,
                0.0};
      double ours = medianMs([&] { CHECK_LAUNCH(seed.launch(p, 0)); });
      double blas = medianMs([&] { blasGemm(handle, p, /*pedantic=*/false); });
      double tOurs = flops / ours / 1e9, tBlas = flops / blas / 1e9;
      std::printf("%-14s %-9s %12.2f %14.2f %7.1f%%\n", seed.name,
                  colMajor ? "NN col" : "NN row", tOurs, tBlas,
                  100 * tOurs / tBlas);
    }
  }
}

/// Prints the verdict; returns main's exit status.
int finish(cublasHandle_t handle, unsigned long long seed) {
  CHECK_CUBLAS(cublasDestroy(handle));
  if (failures) {
    std::printf("\n%d FAILED (seed %llu)\n", failures, seed);
    return 1;
  }
  std::printf("\nALL PASS\n");
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  // Keep the log in order and complete even if the run is cut short.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  // Must be set before run() first reads it.
  setenv("GEMM_OPT_VERIFY", "1", 1);
  if (!haveGpu("seeds_check"))
    return 2;
  currentCase = "setup";
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  if (quick) {
    --argc;
    ++argv;
    referenceOracle = true;
  }
  unsigned long long seed =
      argc > 1 ? std::strtoull(argv[1], nullptr, 0) : std::time(nullptr);
  rng.seed(seed);
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  std::printf("seeds_check on %s, seed %llu\n", deviceSummary(handle).c_str(),
              seed);

  const std::vector<Case> cases = makeCases(quick);
  Tally tallies[seedCount];
  for (int i = 0; i < seedCount; ++i) {
    auto start = std::chrono::steady_clock::now();
    for (const Case &c : cases) {
      if (seedKernels[i].dtype == DType::F64)
        runCase<double>(handle, seedKernels[i], c.shape, c.variant, tallies[i]);
      else
        runCase<float>(handle, seedKernels[i], c.shape, c.variant, tallies[i]);
    }
    tallies[i].seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  }
  checkWrongType();

  if (quick)
    std::printf("\n== correctness, quick: %zu cases\n", cases.size());
  else
    std::printf("\n== correctness: %zu shapes x %zu layouts and scalings "
                "against cuBLAS, and %zu cases with negative strides against "
                "launchReference\n",
                makeShapes().size(), makeVariants().size(),
                cases.size() - makeShapes().size() * makeVariants().size());
  std::printf("%-14s %-4s %6s %6s %15s %9s %15s %6s %6s  %s\n", "kernel",
              "type", "cases", "pass", "max err/bound", "verified",
              "max verify()", "guard", "secs", "result");
  for (int i = 0; i < seedCount; ++i) {
    const Tally &t = tallies[i];
    std::printf("%-14s %-4s %6d %6d %15.3e %9d %15.3e %6u %6.1f  %s\n",
                seedKernels[i].name,
                seedKernels[i].dtype == DType::F64 ? "f64" : "f32", t.cases,
                t.passed, t.maxRatio, t.verified, t.maxVerify, t.guardHits,
                t.seconds, t.passed == t.cases ? "PASS" : "FAIL");
  }

  if (quick)
    return finish(handle, seed);

  std::printf("\n== GEMM_OPT_VERIFY through run()\n");
  checkVerifyHook<double>("magma-dgemm", gemm_seeds::launchMagmaDgemm, false,
                          true);
  checkVerifyHook<double>("tan-dgemm", gemm_seeds::launchTanDgemm, true, true);
  checkVerifyHook<float>("magma-sgemm", gemm_seeds::launchMagmaSgemm, true, true);
  checkVerifyHook<float>("volkov-sgemm", gemm_seeds::launchVolkovSgemm, false,
                         true);
  checkVerifyHook<double>("broken-f64", launchDropLastK, false, false);
  checkVerifyHook<float>("broken-f32", launchDropLastK, true, false);

  timeSeeds(handle);
  return finish(handle, seed);
}
