//===- choose.cu - A nest's kernel variant and split-K per problem --------===//
#include "choose.h"

#include "check.h"
#include "device.h"
#include "gemm-opt/Target/RunTimeTerms.h"
#include "layout.h"
#include "split.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace gemm_rt::detail {

namespace {
/// The most ways K is split; beyond it the chunks' sum costs more than the
/// blocks it fills gain on any problem in the benchmark.
constexpr int64_t kMaxSplits = 16;
/// The fewest K per chunk: a block's prologue (the pipeline's first tiles)
/// and epilogue (C) should stay a small share of its work.
constexpr int64_t kMinChunk = 256;
/// What a split costs beyond its traffic: the sum's launch, and its pass
/// after the product's last wave. Measured on an H200 with
/// `bench/run.sh --choices`: the product at its full rate and the traffic at
/// DRAM speed account for 49.7 of the 60.4 us that DGEMM 1024^3 split in two
/// took, and 2048^3 ran 6 us over them.
constexpr double kSplitSeconds = 5e-6;

/// GEMM_OPT_CHOICE="v,s" where the plan has variant v and K splits s ways
/// for p. Read per call: an experiment changes it between calls.
bool forced(const Problem &p, const Plan &plan, Choice &choice) {
  const char *value = std::getenv("GEMM_OPT_CHOICE");
  int variant = 0;
  long long splits = 0;
  if (!value || std::sscanf(value, "%d,%lld", &variant, &splits) != 2)
    return false;
  if (variant < 0 || variant >= plan.count || splits < 1 ||
      (splits > 1 && !canSplit(p, splits)))
    return false;
  choice = {variant, splits};
  return true;
}
} // namespace

Choice choose(const Problem &p, const Plan &plan, int sms) {
  Choice best{0, 1};
  if (forced(p, plan, best))
    return best;
  if (plan.count == 1 && plan.variants[0].gflops <= 0)
    return best;
  const double flops = 2.0 * p.batch * p.m * p.n * p.k;
  const int64_t element = int64_t(elementSize(p.dtype));
  double bestSeconds = 0;
  for (int v = 0; v < plan.count; ++v) {
    const Variant &var = plan.variants[v];
    const double rate =
        std::min(var.gflops, streamGFlops(p.m, p.n, element, var.streamA,
                                          var.streamB, plan.dramGBs));
    for (int64_t splits = 1; splits <= kMaxSplits; splits *= 2) {
      if (splits > 1 && (p.k / splits < kMinChunk || !canSplit(p, splits)))
        break;
      const double fill = waveFill(p.batch * splits, p.m, p.n, var.blockM,
                                   var.blockN, sms * var.blocksPerSM);
      double seconds = flops / (rate * 1e9 * fill);
      if (splits > 1) {
        // Each chunk is written to the workspace and read back once, and
        // the sum writes C (reading it too unless beta is 0).
        const double bytes = (2.0 * splits + (p.beta == 0 ? 1 : 2)) *
                             double(p.m * p.n * element);
        seconds += bytes / (plan.dramGBs * 1e9) + kSplitSeconds;
      }
      if (bestSeconds == 0 || seconds < bestSeconds) {
        bestSeconds = seconds;
        best = {v, splits, seconds};
      }
    }
  }
  return best;
}

Choice launchChosen(const Problem &p, const Plan &plan, int sms,
                    cudaStream_t stream) {
  const Choice choice = choose(p, plan, sms);
  const LaunchFn launch = plan.variants[choice.variant].launch;
  if (choice.splits > 1)
    checkCuda(launchSplit(p, launch, choice.splits,
                          poolBuffer(Role::Chunks,
                                     splitWorkspaceBytes(p, choice.splits),
                                     p.nest),
                          stream),
              p.nest, "kernel launch");
  else
    checkCuda(launch(p, stream), p.nest, "kernel launch");
  return choice;
}

} // namespace gemm_rt::detail
