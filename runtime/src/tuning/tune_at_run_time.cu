//===- autotune.cu - GEMM_OPT_TUNE: choices measured at run time ----------===//
#include "tuning/tune_at_run_time.h"

#include "core/check.h"
#include "launch/choose.h"
#include "core/device.h"
#include "gemm-opt-abi/TuningFormat.h"
#include "core/switches.h"
#include "tuning/measure.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <numeric>
#include <utility>

namespace gemm_rt::detail {

namespace {
/// Timed runs per choice: the first call of a shape pays for them all.
constexpr int kRuns = 10;

bool tuningOn() {
  static const bool on = flagOn(Switch::Tune);
  return on;
}

/// The operand's letter in its call's layout class.
char unitOf(const Operand &o) {
  return gemm_tuning::unitClass(o.sc == 1, o.sr == 1);
}

/// What this process knows of one plan's kernels in one layout class.
struct Known {
  std::vector<Measured> measured;
  /// Problems that could not be timed, so that they are not tried again.
  std::vector<Measured> untimed;
};

std::mutex mutex;
/// Keyed by the plan's (static) variant table and the layout class.
std::map<std::pair<const Variant *, std::string>, Known> known;

/// The database's rows for the plan, read once per plan and layout.
Known load(const Plan &plan, DType dtype, const std::string &layout) {
  Known k;
  const std::string path = gemm_tuning::defaultPath();
  std::ifstream in(path);
  if (!path.empty() && in)
    k.measured = readMeasured(in, gpuName(), plan, dtype, layout);
  return k;
}

/// Times every choice of `plan` on p's extents; the fastest that passed,
/// with the timings appended to the database, or nullopt.
std::optional<Measured> measure(const Problem &p, const Plan &plan,
                                const std::string &layout) {
  std::vector<int> variants(size_t(plan.count));
  std::iota(variants.begin(), variants.end(), 0);
  const TuneCase c{p.batch, p.m, p.n, p.k, variants.data(), plan.count};
  size_t free = 0, total = 0;
  // The scratch operands must fit beside the caller's, with room to spare.
  if (cudaMemGetInfo(&free, &total) != cudaSuccess ||
      timeCaseBytes(p.dtype, c) > free / 2)
    return std::nullopt;
  // Earlier panels of this call may still run on the staging streams, with
  // split-K's workspace, which the timings poison and may grow.
  checkCuda(cudaDeviceSynchronize(), p.nest, "waiting before tuning");
  const TuneNest nest{p.nest, p.dtype, layout.c_str(), plan, &c, 1};
  const std::vector<Timed> rows = timeCase(nest, c, kRuns);
  const Timed *fastest = nullptr;
  for (const Timed &row : rows)
    if (row.passed() && (!fastest || row.seconds < fastest->seconds))
      fastest = &row;
  const std::string path = gemm_tuning::defaultPath();
  if (std::FILE *db = path.empty() ? nullptr : openDatabase(path)) {
    writeRecords(db, nest, c, rows);
    std::fclose(db);
  }
  if (!fastest)
    return std::nullopt;
  return Measured{p.batch, p.m, p.n, p.k, fastest->choice.variant,
                  measuredSplits(fastest->choice)};
}
} // namespace

std::vector<Measured> readMeasured(std::istream &in, const std::string &device,
                                   const Plan &plan, DType dtype,
                                   const std::string &layout) {
  namespace col = gemm_tuning::column;
  std::vector<Measured> measured;
  std::vector<double> rates;
  std::string line;
  while (std::getline(in, line)) {
    const auto f = gemm_tuning::splitFields(line);
    if (!f || f->size() != col::Count || (*f)[col::Device] != device ||
        (*f)[col::GemmOpt] != plan.version ||
        (*f)[col::Templates] != plan.templates ||
        (*f)[col::Dtype] != dtypeName(dtype) || (*f)[col::Layout] != layout ||
        (*f)[col::Check] != "pass")
      continue;
    int variant = 0;
    while (variant < plan.count &&
           (!plan.variants[variant].schedule ||
            (*f)[col::Schedule] != plan.variants[variant].schedule))
      ++variant;
    Measured m{std::atoll((*f)[col::Batch].c_str()),
               std::atoll((*f)[col::M].c_str()),
               std::atoll((*f)[col::N].c_str()),
               std::atoll((*f)[col::K].c_str()), variant,
               std::atoll((*f)[col::Splits].c_str())};
    const double rate = std::atof((*f)[col::Gflops].c_str());
    if (variant == plan.count || m.batch < 1 || m.m < 1 || m.n < 1 ||
        m.k < 1 || m.splits < 0 || !(rate > 0))
      continue;
    size_t i = 0;
    while (i < measured.size() &&
           !(measured[i].batch == m.batch && measured[i].m == m.m &&
             measured[i].n == m.n && measured[i].k == m.k))
      ++i;
    if (i == measured.size()) {
      measured.push_back(m);
      rates.push_back(rate);
    } else if (rate > rates[i]) {
      measured[i] = m;
      rates[i] = rate;
    }
  }
  return measured;
}

std::optional<Measured> tunedAtRunTime(const Problem &p, const Plan &plan) {
  if (!tuningOn() || !plan.version || !plan.templates || !gpuName())
    return std::nullopt;
  const std::string layout = {unitOf(p.a), unitOf(p.b), unitOf(p.c)};
  // The database's rows name no class of a general stride.
  if (layout.find('g') != std::string::npos)
    return std::nullopt;
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, fresh] = known.try_emplace({plan.variants, layout});
  Known &k = it->second;
  if (fresh)
    k = load(plan, p.dtype, layout);
  if (const Measured *m =
          nearestMeasured(p, k.measured.data(), int(k.measured.size())))
    return *m;
  if (nearestMeasured(p, k.untimed.data(), int(k.untimed.size())))
    return std::nullopt;
  const std::optional<Measured> timed = measure(p, plan, layout);
  if (timed)
    k.measured.push_back(*timed);
  else
    k.untimed.push_back({p.batch, p.m, p.n, p.k, 0, 1});
  return timed;
}

} // namespace gemm_rt::detail
