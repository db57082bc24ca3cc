//===- profit.h - Whether a call with host operands runs on the GPU -*- C++ -*-===//
//
// A nest whose operands live in host memory pays, on the GPU, for moving
// them over the link, for launches and for synchronisation; on the CPU its
// original loop pays for the arithmetic alone. Per call the runtime predicts
// both and takes the faster, so that a rewrite is never slower than the loop
// it replaced (tiny problems, host matrix-vector products). The staged
// path's time model lives here too: the planner (staging.h) picks its panel
// size with the same terms that the rule compares.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_PROFIT_H
#define GEMM_RUNTIME_PROFIT_H

#include "gemm_runtime.h"
#include "host/staging.h"

#include <string>

namespace gemm_rt::detail {

/// What one panel of a staged call moves and computes.
struct PanelCost {
  double inBytes, outBytes, kernelSeconds;
};

/// The predicted seconds of sending `bytes` of an operand whole, in chunks
/// that the copy threads gather while the link sends the one before.
double wholeSeconds(double bytes, const Rates &rates);

/// The predicted seconds of a staged call: `wholeBytes` of the operand that
/// every panel reads, gathered and sent in chunks, then `panels` panels of
/// `panel`'s cost through a pipeline of four stages (the host's gather and
/// scatter, the copy in, the kernel, the copy out), so that the slowest
/// stage sets the pace and the others add one panel's worth, plus a fixed
/// cost per call and per panel.
double stagedSeconds(double wholeBytes, const PanelCost &panel,
                     int64_t panels, const Rates &rates);

/// The kernel's predicted seconds for the device problem `p` given the
/// model's prediction for its choice (0: none, as for a plan without rates).
double kernelSeconds(const Problem &p, double predicted);

/// The original loop's predicted seconds: at a rate that a vectorised loop
/// on one core can reach, so that the GPU is taken only where it wins.
double loopSeconds(const Problem &p);

/// GEMM_OPT_PROFITABILITY: unset or "model" applies the rule; "off" or
/// "always-gpu" takes the GPU whenever it can run the call; "always-loop"
/// runs every call with host operands in its original loop.
enum class Profitability { Model, Gpu, Loop };
Profitability profitability();

/// Where a call with host operands runs, why (for GEMM_OPT_TRACE), and, on
/// the GPU, how it is staged.
struct Route {
  bool gpu;
  std::string why;
  StagePlan stage;
};

/// Why `mode` keeps a call of `p` with host operands in its loop before any
/// staging is planned or copy made, or null: always-loop, or (the model's
/// rule) a loop that takes less than a staged call's fixed cost.
const char *loopBeforeStaging(const Problem &p, Profitability mode);

/// The rule for `p` (A, B or C in host memory as `hosted` says): first
/// loopBeforeStaging, which needs no `machine` (it measures the copy rates
/// once). `held` as planStaging's.
Route route(const Problem &p, const Plan &plan, Hosted hosted,
            Profitability mode, Machine (*machine)(const char *nest),
            size_t held = 0);

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_PROFIT_H
