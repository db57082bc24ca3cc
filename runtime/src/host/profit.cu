//===- profit.cu - Whether a call with host operands runs on the GPU ------===//
//
// Implements the time model and the rule declared in profit.h.
//
//===----------------------------------------------------------------------===//
#include "host/profit.h"

#include "core/switches.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gemm_rt::detail {

namespace {
/// A staged call's fixed cost beyond its panels: the round trip of its
/// first copy, the final synchronisation and the event bookkeeping.
constexpr double kCallSeconds = 25e-6;
/// Each panel's launch, its two or three queued copies and their events,
/// about 4 us of host time apiece.
constexpr double kPanelSeconds = 20e-6;
/// The rate of a plan's kernel whose rate the model does not know (the
/// reference kernel, one thread per element of C): a low bound.
constexpr double kUnratedKernelGFlops = 200;
/// GFLOP/s of an original loop on one core, f32 and f64: what an i-k-j loop
/// vectorised with AVX2 FMA reaches on operands in cache. Naive loops are
/// usually slower, so the GPU wins later than it could, never the reverse.
constexpr double kLoopGFlops[] = {16, 8};

std::string duration(double seconds) {
  char text[32];
  if (seconds < 1e-3)
    std::snprintf(text, sizeof text, "%.3g us", seconds * 1e6);
  else if (seconds < 1)
    std::snprintf(text, sizeof text, "%.3g ms", seconds * 1e3);
  else
    std::snprintf(text, sizeof text, "%.3g s", seconds);
  return text;
}

std::string versus(double loop, double gpu) {
  return "predicted " + duration(loop) + " in the loop, " + duration(gpu) +
         " on the GPU";
}
} // namespace

double wholeSeconds(double bytes, const Rates &rates) {
  const double gb = 1e9;
  return std::max(bytes / (rates.hostGBs * gb), bytes / (rates.h2dGBs * gb));
}

double stagedSeconds(double wholeBytes, const PanelCost &panel,
                     int64_t panels, const Rates &rates) {
  const double gb = 1e9;
  const double whole = wholeSeconds(wholeBytes, rates);
  const double stages[] = {
      (panel.inBytes + panel.outBytes) / (rates.hostGBs * gb),
      panel.inBytes / (rates.h2dGBs * gb),
      panel.kernelSeconds,
      panel.outBytes / (rates.d2hGBs * gb),
  };
  double sum = 0, slowest = 0;
  for (double s : stages) {
    sum += s;
    slowest = std::max(slowest, s);
  }
  return kCallSeconds + whole + sum + double(panels - 1) * slowest +
         double(panels) * kPanelSeconds;
}

double kernelSeconds(const Problem &p, double predicted) {
  if (predicted > 0)
    return predicted;
  return 2.0 * p.batch * p.m * p.n * p.k / (kUnratedKernelGFlops * 1e9);
}

double loopSeconds(const Problem &p) {
  return 2.0 * p.batch * p.m * p.n * p.k /
         (kLoopGFlops[p.dtype == DType::F32 ? 0 : 1] * 1e9);
}

Profitability profitability() {
  static const Profitability mode = [] {
    const char *value = switchValue(Switch::Profitability);
    if (!value)
      return Profitability::Model;
    if (!std::strcmp(value, "off") || !std::strcmp(value, "always-gpu"))
      return Profitability::Gpu;
    if (!std::strcmp(value, "always-loop"))
      return Profitability::Loop;
    return Profitability::Model;
  }();
  return mode;
}

const char *loopBeforeStaging(const Problem &p, Profitability mode) {
  if (mode == Profitability::Loop)
    return "GEMM_OPT_PROFITABILITY=always-loop";
  // Tiny problems take this exit on every call: no formatting.
  if (mode == Profitability::Model && loopSeconds(p) < kCallSeconds)
    return "the loop is faster (under a staged call's fixed cost)";
  return nullptr;
}

Route route(const Problem &p, const Plan &plan, Hosted hosted,
            Profitability mode, Machine (*machine)(const char *nest),
            size_t held) {
  if (const char *why = loopBeforeStaging(p, mode))
    return {false, why, {}};
  const double loop = loopSeconds(p);
  const StagePlan stage = planStaging(p, plan, hosted, machine, held);
  if (stage.panels == 0)
    return {false,
            "no panels both fit the GPU's memory (" +
                std::to_string(stage.deviceBudget) +
                " bytes for staging) and are laid out as a kernel needs",
            {}};
  if (mode == Profitability::Model && stage.seconds >= loop)
    return {false, "the loop is faster (" + versus(loop, stage.seconds) + ")",
            {}};
  return {true,
          mode == Profitability::Gpu ? "GEMM_OPT_PROFITABILITY=always-gpu"
                                     : versus(loop, stage.seconds),
          stage};
}

} // namespace gemm_rt::detail
