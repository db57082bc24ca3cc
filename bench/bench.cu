//===- bench.cu - gemm-opt's GEMMs side by side with cuBLAS ---------------===//
//
// The benchmark of docs/performance.md, by the protocol it describes. For
// each shape it fills A, B and C with random numbers in [-1, 1) (never
// zeros) in device memory, then in one process and on the same buffers:
//   - calls the function that gemm-opt rewrote (bench/inputs, declared in
//     gemms.h) with the device pointers and checks its result element by
//     element against cuBLAS in pedantic math under the sweep's bound
//       |C - C_cublas|_ij <= (K + 2) eps (|A||B|)_ij + tiny   (beta = 0);
//   - times that function and cuBLAS in turn (ours, cuBLAS, ours, ...), so
//     that clock drift reaches both alike. Our time is what a user's call
//     costs: the launcher's pointer checks and the kernel (with device
//     operands the call returns once the kernel is queued, as cuBLAS's
//     does). cuBLAS: SGEMM in pedantic FP32 (no TF32, as our kernels
//     compute), DGEMM in its default math, strided-batched for batches.
// Each time is the median of 25 runs after 3 warm-ups between CUDA events,
// with alpha = 1 and beta = 0. Last come the runtime's seed kernels at
// 4096^3, through gemm_rt::run like the rewritten functions, checked and
// timed the same way.
//
// Prints markdown tables (one per element type, with the geometric mean of
// the ratios to cuBLAS, then the seed kernels) to stdout. Exits 1 if a check
// failed, 2 without a GPU.
//
// Usage: bench [seed]              (the default seed is 1)
//        bench --choices [seed]    every kernel variant and K split of each
//                                  plan instead (GEMM_OPT_CHOICE)
//        bench --ab [seed]         this build's functions against a base
//                                  set's, in turn (bench/run.sh BENCH_BASE)
//
//===----------------------------------------------------------------------===//
#include "gemms.h"

#include "gpu_check.h"
#include "seeds/seeds.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace {

using namespace gpu_check;
using gemm_seeds::SeedKernel;
using gemm_seeds::seedKernels;

/// One benchmarked problem: `batch` products of M x N x K. `layout` says
/// which of A and B are transposed ('t'): stored the other way round.
struct Shape {
  const char *layout;
  int64_t batch, m, n, k;
};

/// The benchmark's shapes: squares, odd sizes, short K, skinny M or N, the
/// four layouts and two batches. The batch counts give the two batched shapes 0.5 and
/// 2.1 GFLOP of work per call, well above one small matrix's launch cost.
const Shape shapes[] = {
    {"nn", 1, 1024, 1024, 1024}, {"nn", 1, 2048, 2048, 2048},
    {"nn", 1, 4096, 4096, 4096}, {"nn", 1, 8192, 8192, 8192},
    {"nn", 1, 1000, 1000, 1000}, {"nn", 1, 3000, 3000, 3000},
    {"nn", 1, 4096, 4096, 64},   {"nn", 1, 4096, 4096, 256},
    {"nn", 1, 16384, 64, 16384}, {"nn", 1, 64, 16384, 16384},
    {"nt", 1, 4096, 4096, 4096}, {"tn", 1, 4096, 4096, 4096},
    {"tt", 1, 4096, 4096, 4096}, {"nn", 1024, 64, 64, 64},
    {"nn", 64, 256, 256, 256},
};

/// The rewritten functions of one element type.
template <class T> struct Functions {
  Gemm<T> nn, nt, tn, tt;
  BatchedGemm<T> batched;
};
const Functions<float> sgemm{sgemm_nn, sgemm_nt, sgemm_tn, sgemm_tt,
                             sgemm_batched};
const Functions<double> dgemm{dgemm_nn, dgemm_nt, dgemm_tn, dgemm_tt,
                              dgemm_batched};

std::mt19937_64 rng;
Scratch scratch;
int failures = 0;

bool transposesA(const Shape &s) { return s.layout[0] == 't'; }
bool transposesB(const Shape &s) { return s.layout[1] == 't'; }

/// The problem of `s` on d's buffers: every matrix packed (its leading
/// dimension is its stored row's length), batches back to back.
Problem problemOf(const Shape &s, DType dtype, const CaseData &d) {
  const Operand a = transposesA(s) ? Operand{d.a, s.m * s.k, 1, s.m}
                                   : Operand{d.a, s.m * s.k, s.k, 1};
  const Operand b = transposesB(s) ? Operand{d.b, s.k * s.n, 1, s.k}
                                   : Operand{d.b, s.k * s.n, s.n, 1};
  const Operand c{d.c, s.m * s.n, s.n, 1};
  return {"bench", dtype, s.batch, s.m, s.n, s.k, a, b, c, 1.0, 0.0, {}, {}};
}

/// `op`'s layout in another buffer.
Operand at(Operand op, const void *ptr) {
  op.ptr = ptr;
  return op;
}

/// Calls the rewritten function of `s` on p's device buffers.
template <class T>
void callRewritten(const Functions<T> &f, const Shape &s, const Problem &p) {
  const T *a = static_cast<const T *>(p.a.ptr);
  const T *b = static_cast<const T *>(p.b.ptr);
  T *c = static_cast<T *>(const_cast<void *>(p.c.ptr));
  const long lda = transposesA(s) ? p.a.sc : p.a.sr;
  const long ldb = transposesB(s) ? p.b.sc : p.b.sr;
  const T alpha = T(p.alpha), beta = T(p.beta);
  if (s.batch > 1)
    f.batched(s.batch, s.m, s.n, s.k, alpha, a, lda, p.a.sb, b, ldb, p.b.sb,
              beta, c, p.c.sr, p.c.sb);
  else
    (transposesA(s) ? (transposesB(s) ? f.tt : f.tn)
                    : (transposesB(s) ? f.nt : f.nn))(
        s.m, s.n, s.k, alpha, a, lda, b, ldb, beta, c, p.c.sr);
  // The launcher has queued the kernel (device operands: it does not wait,
  // like cuBLAS); a fallback to the original loop would have crashed on the
  // device pointers.
  CHECK_CUDA(cudaGetLastError());
}

/// One row of a table: our time, cuBLAS's, and the check of our result.
struct Row {
  double oursMs, blasMs;
  Comparison check;
};

/// Runs `f` into p.c, poisoned with NaN first so that an element it does
/// not write fails, and checks the result element by element against
/// cuBLAS, counting a failure.
template <class T, class F>
Comparison checked(cublasHandle_t handle, const Shape &s, const Problem &p,
                   const CaseData &d, F f) {
  CHECK_CUDA(cudaMemset(const_cast<void *>(p.c.ptr), 0xff,
                        size_t(s.batch * s.m * s.n) * sizeof(T)));
  f(p);
  CHECK_CUDA(cudaDeviceSynchronize());
  oracleAndBound(handle, p, at(p.c, d.ref), at(p.a, d.absA), at(p.b, d.absB),
                 at(p.c, d.bound), /*useReference=*/false);
  const Comparison check =
      compare<T>(p.c, d.ref, d.bound, s.batch, s.m, s.n, boundScale<T>(s.k),
                 double(std::numeric_limits<T>::min()));
  if (check.failures) {
    ++failures;
    std::fprintf(stderr, "FAIL: %s: %u elements over the bound; first %s\n",
                 currentCase.c_str(), check.failures,
                 describeFailure<T>(check, p.c, d.ref, d.bound, s.m, s.n,
                                    "cuBLAS", "bound term")
                     .c_str());
  }
  return check;
}

/// Fills s's operands with random numbers (never zeros) on the device.
template <class T> CaseData prepare(const Shape &s) {
  return prepareCase<T>(scratch, s.batch * s.m * s.k, s.batch * s.k * s.n,
                        s.batch * s.m * s.n, /*nanC=*/false, rng);
}

/// Fills s's operands; checks what `ours` computes into p.c against
/// cuBLAS, then times `ours` and cuBLAS in turn on the same buffers.
template <class T, class F>
Row measure(cublasHandle_t handle, const Shape &s, DType dtype, F ours) {
  const CaseData d = prepare<T>(s);
  const Problem p = problemOf(s, dtype, d);
  Row row;
  row.check = checked<T>(handle, s, p, d, ours);
  const std::array<double, 2> ms =
      mediansMs(defaultWarmups, defaultRuns, [&] { ours(p); },
                [&] { blasGemm(handle, p, /*pedantic=*/false); });
  row.oursMs = ms[0];
  row.blasMs = ms[1];
  return row;
}

double tflops(const Shape &s, double ms) {
  return 2.0 * s.batch * s.m * s.n * s.k / ms / 1e9;
}

/// "| ... | TFLOP/s | cuBLAS TFLOP/s | ratio | max err/bound | check |";
/// returns the ratio.
double printRow(const char *first, const Shape &s, const Row &row) {
  const double ours = tflops(s, row.oursMs), blas = tflops(s, row.blasMs);
  std::printf("| %s | %lld x %lld x %lld | %s | %lld | %.2f | %.2f | %.3f | "
              "%.2e | %s |\n",
              first, (long long)s.m, (long long)s.n, (long long)s.k, s.layout,
              (long long)s.batch, ours, blas, ours / blas,
              double(row.check.maxRatio), row.check.failures ? "FAIL" : "PASS");
  return ours / blas;
}

void printHeader(const char *first) {
  std::printf("| %s | M x N x K | layout | batch | TFLOP/s | cuBLAS TFLOP/s "
              "| ratio | max err/bound | check |\n",
              first);
  std::printf("|---|---|---|---:|---:|---:|---:|---:|---|\n");
}

/// The bench input that computes s: sgemm_nn, ..., dgemm_batched.
std::string functionName(DType dtype, const Shape &s) {
  return std::string(dtype == DType::F64 ? "dgemm_" : "sgemm_") +
         (s.batch > 1 ? "batched" : s.layout);
}

/// The case that a failed check names.
std::string caseName(DType dtype, const Shape &s) {
  return std::string(dtype == DType::F64 ? "dgemm_" : "sgemm_") + s.layout +
         " " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
         std::to_string(s.k) + " batch " + std::to_string(s.batch);
}

/// The table of the rewritten functions of one element type.
template <class T>
void benchRewritten(cublasHandle_t handle, const Functions<T> &f, DType dtype,
                    const char *name, const char *blas) {
  std::printf("\n## %s: gemm-opt's kernels vs %s\n\n", name, blas);
  printHeader("function");
  double logSum = 0;
  for (const Shape &s : shapes) {
    currentCase = caseName(dtype, s);
    const Row row = measure<T>(
        handle, s, dtype, [&](const Problem &p) { callRewritten(f, s, p); });
    logSum += std::log(printRow(functionName(dtype, s).c_str(), s, row));
  }
  const int count = sizeof(shapes) / sizeof(shapes[0]);
  std::printf("\nGeometric mean of the ratios (%s, %d shapes): %.3f\n", name,
              count, std::exp(logSum / count));
}

#ifdef BENCH_BASE
const Functions<float> sgemmBase{base_sgemm_nn, base_sgemm_nt, base_sgemm_tn,
                                 base_sgemm_tt, base_sgemm_batched};
const Functions<double> dgemmBase{base_dgemm_nn, base_dgemm_nt, base_dgemm_tn,
                                  base_dgemm_tt, base_dgemm_batched};

/// The A/B table of one element type: this build's functions and the
/// base's (bench/run.sh BENCH_BASE=DIR), each checked, then timed in turn
/// with cuBLAS in one loop, each after each of the others as often
/// (mediansMs), so that clock and power drift and the call before reach
/// all three alike and ours / base compares the kernels alone.
template <class T>
void benchAB(cublasHandle_t handle, const Functions<T> &f,
             const Functions<T> &base, DType dtype, const char *name) {
  std::printf("\n## %s: A/B, this build's kernels and the base's, timed in "
              "turn with cuBLAS\n\n",
              name);
  std::printf("| function | M x N x K | layout | batch | TFLOP/s | base "
              "TFLOP/s | cuBLAS TFLOP/s | ratio | base ratio | ours / base | "
              "check |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
  double logs[3] = {0, 0, 0}, worst = 1;
  for (const Shape &s : shapes) {
    currentCase = caseName(dtype, s);
    const CaseData d = prepare<T>(s);
    const Problem p = problemOf(s, dtype, d);
    auto ours = [&](const Problem &q) { callRewritten(f, s, q); };
    auto theirs = [&](const Problem &q) { callRewritten(base, s, q); };
    const bool passed = checked<T>(handle, s, p, d, ours).failures == 0 &&
                        checked<T>(handle, s, p, d, theirs).failures == 0;
    const std::array<double, 3> ms = mediansMs(
        defaultWarmups, defaultRuns, [&] { ours(p); }, [&] { theirs(p); },
        [&] { blasGemm(handle, p, /*pedantic=*/false); });
    const double ratios[3] = {ms[2] / ms[0], ms[2] / ms[1], ms[1] / ms[0]};
    for (int i = 0; i < 3; ++i)
      logs[i] += std::log(ratios[i]);
    if (std::fabs(ratios[2] - 1) > std::fabs(worst - 1))
      worst = ratios[2];
    std::printf("| %s | %lld x %lld x %lld | %s | %lld | %.2f | %.2f | %.2f | "
                "%.3f | %.3f | %.3f | %s |\n",
                functionName(dtype, s).c_str(), (long long)s.m,
                (long long)s.n, (long long)s.k, s.layout, (long long)s.batch,
                tflops(s, ms[0]), tflops(s, ms[1]), tflops(s, ms[2]),
                ratios[0], ratios[1], ratios[2], passed ? "PASS" : "FAIL");
  }
  const int count = sizeof(shapes) / sizeof(shapes[0]);
  std::printf("\nGeometric means (%s, %d shapes): ratio %.3f, base ratio "
              "%.3f, ours / base %.3f; farthest ours / base %.3f\n",
              name, count, std::exp(logs[0] / count),
              std::exp(logs[1] / count), std::exp(logs[2] / count), worst);
}
#endif

/// Every variant and K split of the rewritten functions on the shapes up to
/// 4096^3, forced through GEMM_OPT_CHOICE, with the one that run() picks
/// first: whether the runtime's choice (runtime/src/launch/choose.cu) is the
/// fastest that the plan offers.
template <class T>
void benchChoices(cublasHandle_t handle, const Functions<T> &f, DType dtype,
                  const char *name) {
  std::printf("\n## %s: each choice of the plans (GEMM_OPT_CHOICE)\n\n", name);
  printHeader("function, variant (tile) / split");
  for (const Shape &s : shapes) {
    if (s.batch * s.m * s.n * s.k > 4096LL * 4096 * 4096)
      continue;
    const std::string fn = functionName(dtype, s);
    currentCase = caseName(dtype, s);
    auto ours = [&](const Problem &p) { callRewritten(f, s, p); };
    auto label = [&](const char *how) {
      const gemm_rt::LastRun r = gemm_rt::lastRun();
      const std::string tail =
          r.tailFrom ? ", rows from " + std::to_string(r.tailFrom) + ": " +
                           std::to_string(r.tailVariant) + " / " +
                           std::to_string(r.tailSplits)
          : r.streamed ? ", stream-K for " + std::to_string(r.streamed)
                     : "";
      return fn + ", " + std::to_string(r.variant) + " (" +
             std::to_string(r.blockM) + "x" + std::to_string(r.blockN) +
             ") / " + std::to_string(r.splits) + tail + how;
    };
    unsetenv("GEMM_OPT_CHOICE");
    Row row = measure<T>(handle, s, dtype, ours);
    printRow(label(" picked").c_str(), s, row);
    const int variants = gemm_rt::lastRun().count;
    for (int v = 0; v < variants; ++v)
      for (int splits = 1; splits <= 16; splits *= 2) {
        const std::string choice =
            std::to_string(v) + "," + std::to_string(splits);
        setenv("GEMM_OPT_CHOICE", choice.c_str(), 1);
        row = measure<T>(handle, s, dtype, ours);
        const gemm_rt::LastRun r = gemm_rt::lastRun();
        // A split that the problem does not allow runs the model's choice.
        if (r.variant == v && r.splits == splits)
          printRow(label("").c_str(), s, row);
      }
    unsetenv("GEMM_OPT_CHOICE");
  }
}

/// The runtime's seed kernels at 4096^3 NN, through gemm_rt::run.
void benchSeeds(cublasHandle_t handle) {
  const Shape s{"nn", 1, 4096, 4096, 4096};
  std::printf("\n## The runtime's seed kernels (gemm_rt::run)\n\n");
  printHeader("kernel");
  for (const SeedKernel &seed : seedKernels) {
    currentCase = std::string(seed.name) + " 4096^3";
    auto ours = [&](const Problem &p) {
      if (!gemm_rt::run(p, seed.launch)) {
        std::fprintf(stderr, "bench: run() refused %s\n", seed.name);
        std::exit(1);
      }
    };
    const Row row = seed.dtype == DType::F64
                        ? measure<double>(handle, s, seed.dtype, ours)
                        : measure<float>(handle, s, seed.dtype, ours);
    printRow(seed.name, s, row);
  }
}

} // namespace

int main(int argc, char **argv) {
  // Keep the tables in order and complete even if the run is cut short.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  // The runtime's own check would be timed with the kernels.
  unsetenv("GEMM_OPT_VERIFY");
  if (!haveGpu("bench"))
    return 2;
  // --choices times every variant and split of the plans instead, --ab
  // this build's functions against the base's.
  const bool choices = argc > 1 && std::strcmp(argv[1], "--choices") == 0;
  const bool ab = argc > 1 && std::strcmp(argv[1], "--ab") == 0;
#ifndef BENCH_BASE
  if (ab) {
    std::fprintf(stderr, "bench: --ab needs a base set: bench/run.sh with "
                         "BENCH_BASE=DIR\n");
    return 2;
  }
#endif
  const int seedArg = choices || ab ? 2 : 1;
  const unsigned long long seed =
      argc > seedArg ? std::strtoull(argv[seedArg], nullptr, 0) : 1;
  rng.seed(seed);
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  std::printf("Device: %s. Each time is the median of %d runs after %d "
              "warm-ups (CUDA events), alpha = 1, beta = 0, random data in "
              "device memory (seed %llu). TFLOP/s counts 2 x batch x M x N x "
              "K. Ratio: ours / cuBLAS.\n",
              deviceSummary(handle).c_str(), defaultRuns, defaultWarmups, seed);
  if (choices) {
    benchChoices<float>(handle, sgemm, DType::F32, "f32");
    benchChoices<double>(handle, dgemm, DType::F64, "f64");
  } else if (ab) {
#ifdef BENCH_BASE
    benchAB<float>(handle, sgemm, sgemmBase, DType::F32, "f32");
    benchAB<double>(handle, dgemm, dgemmBase, DType::F64, "f64");
#endif
  } else {
    benchRewritten<float>(handle, sgemm, DType::F32, "f32",
                          "cuBLAS SGEMM (pedantic FP32, no TF32)");
    benchRewritten<double>(handle, dgemm, DType::F64, "f64",
                           "cuBLAS DGEMM (default math)");
    benchSeeds(handle);
  }
  CHECK_CUBLAS(cublasDestroy(handle));
  if (failures) {
    std::printf("\n%d checks FAILED\n", failures);
    return 1;
  }
  return 0;
}
