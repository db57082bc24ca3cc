//===- correlate.cu - The cost model's ranking against the device's ------===//
//
// Times every variant that utils/calibrate/correlate/gen.py generated (one
// schedule each, row-major A and C, B row-major or, with --layout nt,
// transposed) on its problem (4096^3 unless --shape), alpha = 1, beta = 0,
// on random data: the median of 25 event-timed launches after 3 warm-ups
// (gpu_check's medianMs). Each variant's C is checked once against cuBLAS
// (pedantic IEEE math) under the element-wise bound (K + 2) eps |A||B|.
// Prints, per element type, the model's prediction next to the measured
// rate with both ranks, Spearman's rank correlation (average ranks for ties)
// and the error of the model's rank-1 schedule's prediction; writes the rows
// to the file CORRELATE_CSV names, when set (correlate.sh sets it to
// correlate.csv in $GEMM_OPT_LOG_DIR). Exits 1 if a check fails.
//
//===----------------------------------------------------------------------===//
#include "gpu_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

struct CorrelateVariant {
  const char *name;
  gemm_rt::DType dtype;
  const char *schedule;
  const char *how;   ///< Why it was picked: "dmma #3" or "hand".
  int modelRank;     ///< Its rank in the model's full list (0: not listed).
  double predicted;  ///< The model's GFLOP/s.
  const char *bound; ///< The model's limiter.
  gemm_rt::LaunchFn launch;
};

#include "variants.inc"

namespace {

using namespace gpu_check;

/// 1-based ranks of `x`, largest first; ties share their average rank.
std::vector<double> ranks(const std::vector<double> &x) {
  std::vector<int> order(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    order[i] = int(i);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return x[a] > x[b]; });
  std::vector<double> r(x.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && x[order[j + 1]] == x[order[i]])
      ++j;
    for (size_t k = i; k <= j; ++k)
      r[order[k]] = (double(i) + double(j)) / 2 + 1;
    i = j + 1;
  }
  return r;
}

/// Pearson's correlation of the ranks: Spearman's rho.
double spearman(const std::vector<double> &ra, const std::vector<double> &rb) {
  const double n = double(ra.size());
  double ma = 0, mb = 0;
  for (size_t i = 0; i < ra.size(); ++i)
    ma += ra[i] / n, mb += rb[i] / n;
  double sab = 0, saa = 0, sbb = 0;
  for (size_t i = 0; i < ra.size(); ++i) {
    sab += (ra[i] - ma) * (rb[i] - mb);
    saa += (ra[i] - ma) * (ra[i] - ma);
    sbb += (rb[i] - mb) * (rb[i] - mb);
  }
  return sab / std::sqrt(saa * sbb);
}

} // namespace

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  if (!haveGpu("correlate"))
    return 2;
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  std::printf("correlate on %s\n", deviceSummary(handle).c_str());
  const int64_t m = correlateShape[0], n = correlateShape[1],
                k = correlateShape[2];
  const double flops = 2.0 * m * n * k;
  std::mt19937_64 rng(20240611);
  Scratch scratch;
  FILE *csv = nullptr;
  if (const char *path = std::getenv("CORRELATE_CSV")) {
    csv = std::fopen(path, "w");
    if (csv)
      std::fprintf(csv, "dtype,name,schedule,picked,model_rank,bound,"
                        "predicted_gflops,measured_gflops,max_err_bound\n");
  }
  int failures = 0;
  const int variants = sizeof(correlateVariants) / sizeof(correlateVariants[0]);
  for (DType dtype : {DType::F32, DType::F64}) {
    const bool f64 = dtype == DType::F64;
    // gen.py --only may list one element type alone.
    if (std::none_of(correlateVariants, correlateVariants + variants,
                     [&](const CorrelateVariant &v) { return v.dtype == dtype; }))
      continue;
    const size_t aCount = size_t(m * k), bCount = size_t(k * n),
                 cCount = size_t(m * n);
    CaseData d = f64 ? prepareCase<double>(scratch, aCount, bCount, cCount,
                                           false, rng)
                     : prepareCase<float>(scratch, aCount, bCount, cCount,
                                          false, rng);
    const size_t size = f64 ? 8 : 4;
    // Row-major operands of `columns` columns.
    auto rows = [&](void *p, int64_t columns) {
      return Operand{p, 0, columns, 1};
    };
    // gen.py --layout nt stores B (and so |B|) transposed, K contiguous.
    auto opB = [&](void *p) {
      return correlateBTransposed ? Operand{p, 0, 1, k} : rows(p, n);
    };
    const Problem p{"correlate", dtype,        1,   m,  n, k, rows(d.a, k),
                    opB(d.b),    rows(d.c, n), 1.0, 0.0};
    oracleAndBound(handle, p, rows(d.ref, n), rows(d.absA, k), opB(d.absB),
                   rows(d.bound, n), /*useReference=*/false);
    currentCase = "cuBLAS";
    const double blas = flops / medianMs([&] {
                          blasGemm(handle, p, /*pedantic=*/!f64);
                        }) / 1e9;
    std::vector<int> idx;
    std::vector<double> predicted, measured, errs;
    for (int i = 0; i < variants; ++i) {
      const CorrelateVariant &v = correlateVariants[i];
      if (v.dtype != dtype)
        continue;
      currentCase = v.name;
      CHECK_CUDA(cudaMemset(d.c, 0xff, cCount * size)); // NaN
      CHECK_CUDA(v.launch(p, 0));
      CHECK_CUDA(cudaDeviceSynchronize());
      const Comparison r =
          f64 ? compare<double>(p.c, d.ref, d.bound, 1, m, n,
                                boundScale<double>(k))
              : compare<float>(p.c, d.ref, d.bound, 1, m, n,
                               boundScale<float>(k));
      if (r.failures) {
        std::printf("FAIL: %s (%s): %u elements over the bound\n", v.name,
                    v.schedule, r.failures);
        ++failures;
      }
      const double ms = medianMs([&] { CHECK_CUDA(v.launch(p, 0)); });
      idx.push_back(i);
      predicted.push_back(v.predicted);
      measured.push_back(flops / ms / 1e6);
      errs.push_back(r.maxRatio);
    }
    const std::vector<double> rp = ranks(predicted), rm = ranks(measured);
    std::printf("\n== %s at %lldx%lldx%lld, row-major A and C, %s B; median "
                "of %d after %d warm-ups; cuBLAS (%s) %.1f GFLOP/s\n",
                f64 ? "f64" : "f32", (long long)m, (long long)n, (long long)k,
                correlateBTransposed ? "transposed" : "row-major", defaultRuns,
                defaultWarmups,
                f64 ? "default math" : "pedantic", blas);
    std::printf("%-34s %-10s %6s %-8s %10s %10s %6s %6s %8s %9s\n", "schedule",
                "picked", "model#", "bound", "predicted", "measured", "rank-p",
                "rank-m", "error", "err/bnd");
    int chosen = 0;
    for (size_t j = 0; j < idx.size(); ++j) {
      const CorrelateVariant &v = correlateVariants[idx[j]];
      if (rp[j] < rp[chosen])
        chosen = int(j);
      std::printf("%-34s %-10s %6d %-8s %10.1f %10.1f %6.1f %6.1f %+7.0f%% "
                  "%9.3f\n",
                  v.schedule, v.how, v.modelRank, v.bound, predicted[j],
                  measured[j], rp[j], rm[j],
                  100 * (predicted[j] - measured[j]) / measured[j], errs[j]);
      if (csv)
        std::fprintf(csv, "%s,%s,%s,%s,%d,%s,%.1f,%.1f,%.4f\n",
                     f64 ? "f64" : "f32", v.name, v.schedule, v.how,
                     v.modelRank, v.bound, predicted[j], measured[j], errs[j]);
    }
    std::printf("%s: %zu schedules, Spearman rho = %.3f; the model's rank-1 "
                "%s: predicted %.1f, measured %.1f GFLOP/s (%+.0f%%)\n",
                f64 ? "f64" : "f32", idx.size(), spearman(rp, rm),
                correlateVariants[idx[chosen]].schedule, predicted[chosen],
                measured[chosen],
                100 * (predicted[chosen] - measured[chosen]) /
                    measured[chosen]);
  }
  if (csv)
    std::fclose(csv);
  CHECK_CUBLAS(cublasDestroy(handle));
  std::printf(failures ? "\n%d FAILED\n" : "\nALL PASS\n", failures);
  return failures ? 1 : 0;
}
