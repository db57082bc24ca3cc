//===- choose.cu - A nest's kernel variant and split-K per problem --------===//
#include "launch/choose.h"

#include "tuning/tune_at_run_time.h"

#include "core/check.h"
#include "core/device.h"
#include "gemm-opt-abi/RunTimeTerms.h"
#include "launch/layout.h"
#include "launch/split.h"
#include "launch/streamk.h"
#include "core/switches.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <tuple>
#include <utility>

namespace gemm_rt::detail {

namespace {
/// What a split costs beyond its traffic: the sum's launch, and its pass
/// after the product's last wave. Measured on an H200 with
/// `bench/run.sh --choices`: the product at its full rate and the traffic at
/// DRAM speed account for 49.7 of the 60.4 us that DGEMM 1024^3 split in two
/// took, and 2048^3 ran 6 us over them.
constexpr double kSplitSeconds = 5e-6;
/// What a tail costs beyond its tiles: its launch after the first one's
/// last block.
constexpr double kTailSeconds = 3e-6;
/// The searches each thread keeps (choose()).
constexpr size_t kKept = 16;

/// GEMM_OPT_CHOICE="v,s" where the plan has variant v and K splits s ways
/// for p. Read per call: an experiment changes it between calls.
bool forced(const Problem &p, const Plan &plan, Choice &choice) {
  const std::optional<std::pair<int, int64_t>> chosen = choiceSwitch();
  if (!chosen)
    return false;
  const auto [variant, splits] = *chosen;
  if (variant < 0 || variant >= plan.count || splits < 1 ||
      (splits > 1 && !canSplit(p, splits)) ||
      !runnable(p, plan, variant, splits))
    return false;
  choice = {variant, splits};
  return true;
}

/// `choice` as its variant's stream-K form planned for N slots, with
/// GEMM_OPT_STREAM=N set, where it is unsplit and that form runs p: for
/// checks that split tiles between blocks on small problems. Read per call,
/// as GEMM_OPT_CHOICE is.
Choice forcedStream(const Problem &p, const Plan &plan, Choice choice) {
  const int64_t slots = integerSwitch(Switch::Stream).value_or(0);
  const Variant &var = plan.variants[choice.variant];
  if (slots > 0 &&
      choice.splits == 1 && streamKFits(p, var, slots)) {
    choice.tail = {};
    choice.streamed = slots;
  }
  return choice;
}

/// The model's seconds for p with variant v split `splits` ways.
double predictedSeconds(const Problem &p, const Plan &plan, int v,
                        int64_t splits, int sms) {
  const Variant &var = plan.variants[v];
  const int64_t element = int64_t(elementSize(p.dtype));
  const double rate =
      std::min(var.gflops, streamGFlops(p.m, p.n, element, var.streamA,
                                        var.streamB, plan.dramGBs));
  const double fill = waveFill(p.batch * splits, p.m, p.n, var.blockM,
                               var.blockN, sms * var.blocksPerSM);
  double seconds = 2.0 * p.batch * p.m * p.n * p.k / (rate * 1e9 * fill);
  if (splits > 1) {
    // Each chunk is written to the workspace and read back once, and the
    // sum writes C (reading it too unless beta is 0).
    const double bytes = (2.0 * splits + (p.beta == 0 ? 1 : 2)) *
                         double(p.m * p.n * element);
    seconds += bytes / (plan.dramGBs * 1e9) + kSplitSeconds;
  }
  return seconds;
}

/// The first row of p's last partial wave of variant v's tiles, as whole
/// rows of tiles: 0 where the tiles fill whole waves, or the rows before
/// that wave are none or all of p's.
int64_t tailFrom(const Problem &p, const Variant &var, int sms) {
  const int64_t slots = int64_t(sms) * var.blocksPerSM;
  const int64_t tilesM = (p.m + var.blockM - 1) / var.blockM;
  const int64_t tilesN = (p.n + var.blockN - 1) / var.blockN;
  const int64_t rows = p.batch == 1 && slots > 0 && tilesM * tilesN % slots
                           ? tilesM * tilesN / slots * slots / tilesN
                           : 0;
  return rows < tilesM ? rows * var.blockM : 0;
}

} // namespace

Choice predicted(const Problem &p, const Plan &plan, int v, int64_t splits,
                 int sms) {
  Choice best{v, splits, predictedSeconds(p, plan, v, splits, sms)};
  const int64_t from = splits == 1 ? tailFrom(p, plan.variants[v], sms) : 0;
  if (from == 0)
    return best;
  const Problem head = rowSlice(p, 0, from),
                rest = rowSlice(p, from, p.m - from);
  if (!runnable(head, plan, v, 1))
    return best;
  const double headSeconds =
      predictedSeconds(head, plan, v, 1, sms) + kTailSeconds;
  for (int t = 0; t < plan.count; ++t)
    forEachSplit(rest, [&](int64_t restSplits) {
      if (!runnable(rest, plan, t, restSplits))
        return;
      const double seconds =
          headSeconds + predictedSeconds(rest, plan, t, restSplits, sms);
      if (seconds < best.seconds)
        best = {v, 1, seconds, {from, t, restSplits}};
    });
  return best;
}

int64_t streamSlots(const Problem &p, const Variant &var, int sms) {
  const int64_t slots = int64_t(sms) * var.blocksPerSM;
  const int64_t tiles = tilesOf(p, var);
  return slots > 0 && tiles > slots && tiles % slots != 0 &&
                 streamKFits(p, var, slots)
             ? slots
             : 0;
}

bool runnable(const Problem &p, const Plan &plan, int v, int64_t splits) {
  const Variant &var = plan.variants[v];
  // A split's workspace is cudaMalloc'd, aligned for any pack, as null is.
  return !var.runs || var.runs(splits > 1 ? splitParts(p, splits, nullptr) : p);
}

bool someVariantRuns(const Problem &p, const Plan &plan) {
  for (int v = 0; v < plan.count; ++v)
    if (runnable(p, plan, v, 1))
      return true;
  return false;
}

const Measured *nearestMeasured(const Problem &p, const Measured *measured,
                                int count) {
  const Measured *nearest = nullptr;
  double best = 0;
  for (int i = 0; i < count; ++i) {
    const Measured &m = measured[i];
    // A choice the call cannot take says nothing of it: unsplit, a kernel
    // timed split runs with a fill it was not timed at.
    if (m.splits > 1 && !canSplit(p, m.splits))
      continue;
    double distance = 0;
    bool near = true;
    for (auto [call, timed] : {std::pair{p.batch, m.batch}, {p.m, m.m},
                               {p.n, m.n}, {p.k, m.k}}) {
      const double ratio = std::fabs(std::log(double(call) / double(timed)));
      near = near && ratio <= std::log(1.25);
      distance += ratio;
    }
    if (near && (!nearest || distance < best)) {
      nearest = &m;
      best = distance;
    }
  }
  return nearest;
}

namespace {
/// choose() without GEMM_OPT_STREAM.
Choice chooseAsModelled(const Problem &p, const Plan &plan, int sms) {
  Choice best{0, 1};
  if (forced(p, plan, best))
    return best;
  std::optional<Measured> m;
  if (const Measured *compiled =
          nearestMeasured(p, plan.measured, plan.measuredCount))
    m = *compiled;
  else
    m = tunedAtRunTime(p, plan);
  if (m && !runnable(p, plan, m->variant, m->splits))
    m.reset();
  if (!m && plan.count == 1 && plan.variants[0].gflops <= 0)
    return best;
  // Calls in a loop repeat their problems, and the search for a tail takes
  // microseconds, which a call's kernel waits for: the calling thread's last
  // kKept choices are kept, keyed by everything their search reads (the
  // packs' fit reads the operands' alignment, not their addresses; a
  // measured choice is searched for its tail alone), so that the nests of a
  // loop's body (a network's layers) each find theirs.
  const auto operand = [](const Operand &o) {
    return std::array<int64_t, 4>{
        o.sb, o.sr, o.sc, int64_t(reinterpret_cast<uintptr_t>(o.ptr) % 16)};
  };
  const auto key = std::make_tuple(
      plan.variants, plan.count, plan.dramGBs, sms, p.dtype, p.batch, p.m, p.n,
      p.k, operand(p.a), operand(p.b), operand(p.c), p.beta == 0,
      m ? m->variant : -1, m ? m->splits : 0);
  thread_local std::array<std::optional<std::pair<decltype(key), Choice>>,
                          kKept>
      kept;
  thread_local size_t next = 0;
  for (const auto &entry : kept)
    if (entry && entry->first == key)
      return entry->second;
  // A measured stream-K launch runs as such where the call's tiles still
  // end in a partial wave; else as the variant unsplit.
  if (m && m->splits == 0)
    best = {m->variant, 1, 0, {},
            streamSlots(p, plan.variants[m->variant], sms)};
  if (m && !best.streamed)
    best = predicted(p, plan, m->variant, std::max<int64_t>(m->splits, 1),
                     sms);
  else if (!m)
    for (int v = 0; v < plan.count; ++v)
      forEachSplit(p, [&](int64_t splits) {
        if (!runnable(p, plan, v, splits))
          return;
        const Choice choice = predicted(p, plan, v, splits, sms);
        if (best.seconds == 0 || choice.seconds < best.seconds)
          best = choice;
      });
  kept[next++ % kKept].emplace(key, best);
  return best;
}
} // namespace

Choice choose(const Problem &p, const Plan &plan, int sms) {
  return forcedStream(p, plan, chooseAsModelled(p, plan, sms));
}

void *splitWorkspace(const Problem &p, int64_t splits) {
  return poolBuffer(Role::Chunks, splitWorkspaceBytes(p, splits), p.nest);
}

namespace {
/// Launches p as variant v of `plan` split `splits` ways.
void launchVariant(const Problem &p, const Plan &plan, int v, int64_t splits,
                   cudaStream_t stream) {
  const LaunchFn launch = plan.variants[v].launch;
  if (splits > 1)
    checkCuda(launchSplit(p, launch, splits, splitWorkspace(p, splits), stream),
              p.nest, "kernel launch");
  else
    checkCuda(launch(p, stream), p.nest, "kernel launch");
}
} // namespace

void launchChoice(const Problem &p, const Plan &plan, const Choice &choice,
                  cudaStream_t stream) {
  const Tail &tail = choice.tail;
  if (choice.streamed > 0) {
    const Variant &var = plan.variants[choice.variant];
    checkCuda(var.streamed(p, streamKLaunch(p, var, choice.streamed), stream),
              p.nest, "kernel launch");
    return;
  }
  if (tail.from == 0) {
    launchVariant(p, plan, choice.variant, choice.splits, stream);
    return;
  }
  launchVariant(rowSlice(p, 0, tail.from), plan, choice.variant, 1, stream);
  launchVariant(rowSlice(p, tail.from, p.m - tail.from), plan, tail.variant,
                tail.splits, stream);
}

Choice launchChosen(const Problem &p, const Plan &plan, int sms,
                    cudaStream_t stream) {
  const Choice choice = choose(p, plan, sms);
  launchChoice(p, plan, choice, stream);
  return choice;
}

} // namespace gemm_rt::detail
