//===- gpus.cu - One call's rows of C on several GPUs ---------------------===//
//
// Implements gpus.h.
//
//===----------------------------------------------------------------------===//
#include "host/gpus.h"

#include "core/device.h"
#include "core/switches.h"
#include "host/slices.h"
#include "launch/layout.h"

#include <algorithm>
#include <cstdint>
#include <cuda_runtime.h>
#include <string>
#include <thread>

namespace gemm_rt::detail {

namespace {
/// Rows of a share but the last: a multiple of the largest tiles, so that
/// no GPU runs a partial tile the other could have run whole.
constexpr int64_t kShareGrain = 256;
/// A split is taken where it is predicted this much faster than one GPU:
/// its threads, its second plan and the GPUs' contention for host memory
/// bandwidth beyond the copies' cost the model counts.
constexpr double kSplitGain = 0.85;
/// Calls predicted shorter than this on one GPU are not split: planning
/// each GPU's staging and starting its thread would cost a noticeable part.
constexpr double kMinSplitSeconds = 2e-3;

/// Each visible GPU's name, read once.
const std::vector<std::string> &gpuNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (int d = 0; d < visibleGpus(); ++d) {
      cudaDeviceProp prop;
      all.push_back(cudaGetDeviceProperties(&prop, d) == cudaSuccess
                        ? prop.name
                        : "");
    }
    (void)cudaGetLastError();
    return all;
  }();
  return names;
}

/// The bytes the host's copy threads move for p: the host operands' reads,
/// and C's write (and read, where beta reads it).
double hostBytes(const Problem &p, Hosted hosted) {
  const double rows = double(p.batch) * p.m;
  return double(elementSize(p.dtype)) *
         ((hosted.a ? rows * p.k : 0) +
          (hosted.b ? double(p.batch) * p.k * p.n : 0) +
          (hosted.c ? rows * p.n * (p.beta != 0 ? 2 : 1) : 0));
}

/// What each share stages: B not where it was copied to every GPU first.
Hosted sharesHosted(Hosted hosted, const Split &split) {
  hosted.b = hosted.b && !split.wholeB;
  return hosted;
}

/// `op` from its row `row` on.
Operand fromRow(const Operand &op, int64_t row, size_t element) {
  if (!op.ptr)
    return op;
  Operand moved = op;
  moved.ptr = static_cast<const char *>(op.ptr) + row * op.sr * int64_t(element);
  return moved;
}
} // namespace

std::vector<int> hostCallDevices() {
  const int first = hostCallDevice();
  const int count = visibleGpus();
  const std::optional<std::vector<int>> listed = gpusSwitch();
  std::vector<int> devices{first};
  if (count == 0)
    return devices;
  auto add = [&](int d) {
    if (std::find(devices.begin(), devices.end(), d) == devices.end())
      devices.push_back(d);
  };
  if (listed && !listed->empty()) {
    for (int d : *listed)
      add(d % count);
    return devices;
  }
  if (!listed && localRank())
    return devices;
  const std::vector<std::string> &names = gpuNames();
  for (int d = 0; d < count && d < int(names.size()); ++d)
    if (listed || names[d] == names[first])
      add(d);
  return devices;
}

std::vector<Share> shareRows(int64_t m, const std::vector<int> &devices,
                             const std::vector<double> &speeds,
                             int64_t grain) {
  double total = 0;
  for (double s : speeds)
    total += s;
  std::vector<Share> shares;
  int64_t begin = 0;
  double before = 0;
  for (size_t i = 0; i < devices.size() && begin < m; ++i) {
    before += speeds[i];
    // The rows up to the end of this share, rounded to the grain; the last
    // device takes the rest.
    int64_t end = i + 1 == devices.size()
                      ? m
                      : int64_t(double(m) * before / total / grain + 0.5) *
                            grain;
    end = std::min(end, m);
    if (end > begin)
      shares.push_back({devices[i], begin, end - begin});
    begin = std::max(begin, end);
  }
  return shares;
}

Problem rowsOf(const Problem &p, const Share &share) {
  const size_t element = elementSize(p.dtype);
  Problem rows = p;
  rows.m = share.rows;
  rows.a = fromRow(p.a, share.begin, element);
  rows.c = fromRow(p.c, share.begin, element);
  rows.epilogue.bias = fromRow(p.epilogue.bias, share.begin, element);
  return rows;
}

double splitSeconds(double wholeBytes, double slowest, double hostBytes,
                    const Rates &rates) {
  return std::max(wholeSeconds(wholeBytes, rates) + slowest,
                  hostBytes / (rates.hostGBs * 1e9));
}

namespace {
/// What the current GPU's buffer for B's copy lacks of `bytes`: the
/// shares' staging holds that out of its budget.
size_t lacking(size_t bytes) {
  return bytes - std::min(bytes, poolCapacity(Role::Whole));
}

/// C's rows among `devices` by each GPU's speed on the whole call (its
/// kernels' rates and its own link; `one` on the first where `asOne`: it
/// routed the same staging), staging `each` besides B's `wholeBytes`.
std::vector<Share> sharesBySpeed(const Problem &p, const Plan &plan,
                                 Hosted each, const Route &one,
                                 const std::vector<int> &devices,
                                 bool asOne, size_t wholeBytes) {
  std::vector<int> usable;
  std::vector<double> speeds;
  for (int d : devices) {
    const DeviceScope on(d, p.nest);
    const Route whole = d == devices.front() && asOne
                            ? one
                            : route(p, plan, each, Profitability::Gpu,
                                    currentMachine, lacking(wholeBytes));
    if (whole.gpu && whole.stage.seconds > 0) {
      usable.push_back(d);
      speeds.push_back(1 / whole.stage.seconds);
    }
  }
  return shareRows(p.m, usable, speeds, kShareGrain);
}

/// The split of p in slices of K (slices.h), or nullopt where some GPU
/// cannot hold its rows of C.
std::optional<Split> planSliced(const Problem &p, const Plan &plan,
                                Hosted hosted, const Route &one,
                                const std::vector<int> &devices) {
  Split split;
  split.shares = sharesBySpeed(p, plan, hosted, one, devices, true, 0);
  if (split.shares.size() < 2)
    return std::nullopt;
  std::vector<Machine> machines;
  size_t budget = SIZE_MAX;
  for (const Share &share : split.shares) {
    const DeviceScope on(share.device, p.nest);
    machines.push_back(currentMachine(p.nest));
    budget = std::min(budget, machines.back().deviceBudget);
  }
  split.slices = planSlices(p, split.shares, budget);
  const SlicePlan &sliced = split.slices;
  if (!sliced.depth)
    return std::nullopt;
  // Each GPU a staged pipeline of slices: its C whole in where beta reads
  // it, each slice's B and A in, its kernel, C back spread over the slices.
  const double element = double(elementSize(p.dtype));
  double slowest = 0;
  for (size_t i = 0; i < split.shares.size(); ++i) {
    const Share &share = split.shares[i];
    const Machine &machine = machines[i];
    const DeviceScope on(share.device, p.nest);
    Problem slice = rowsOf(p, share);
    slice.k = sliced.depth;
    const double cBytes = element * double(share.rows) * double(p.n);
    const PanelCost cost{
        element * double(sliced.depth) * double(p.n + share.rows),
        cBytes / double(sliced.slices),
        kernelSeconds(slice, choose(slice, plan, machine.sms).seconds)};
    slowest = std::max(slowest,
                       stagedSeconds(p.beta != 0 ? cBytes : 0, cost,
                                     sliced.slices, machine.rates));
  }
  split.seconds =
      splitSeconds(0, slowest, hostBytes(p, hosted), machines.front().rates);
  return split;
}

/// The split of p over `devices` with B's `wholeBytes` copied to every GPU
/// first, or with 0 staged by each GPU itself; nullopt where fewer than two
/// GPUs would get rows.
std::optional<Split> planShares(const Problem &p, const Plan &plan,
                                Hosted hosted, const Route &one,
                                const std::vector<int> &devices,
                                size_t wholeBytes) {
  const bool wholeB = wholeBytes > 0;
  Split split;
  split.wholeB = wholeB;
  const Hosted each = sharesHosted(hosted, split);
  split.shares =
      sharesBySpeed(p, plan, each, one, devices, !wholeB, wholeBytes);
  if (split.shares.size() < 2)
    return std::nullopt;
  double slowest = 0, copied = double(wholeBytes);
  for (const Share &share : split.shares) {
    const DeviceScope on(share.device, p.nest);
    const Problem rows = rowsOf(p, share);
    const Route part = route(rows, plan, each, Profitability::Gpu,
                             currentMachine, lacking(wholeBytes));
    if (!part.gpu)
      return std::nullopt;
    slowest = std::max(slowest, part.stage.seconds);
    copied += hostBytes(rows, each);
    split.stages.push_back(part.stage);
  }
  split.seconds = splitSeconds(double(wholeBytes), slowest, copied,
                               currentMachine(p.nest).rates);
  return split;
}
} // namespace

std::optional<Split> planSplit(const Problem &p, const Plan &plan,
                               Hosted hosted, const Route &one) {
  if (!hosted.a || !hosted.b || !hosted.c || hosted.ta.start ||
      hosted.tb.start || hosted.tc.start)
    return std::nullopt;
  const std::vector<int> devices = hostCallDevices();
  const std::optional<std::vector<int>> listed = gpusSwitch();
  const bool forced = listed && listed->size() != 1;
  if (devices.size() < 2 ||
      (!forced && one.stage.seconds < kMinSplitSeconds))
    return std::nullopt;
  // Slices of K wherever every GPU holds its rows of C: every element then
  // crosses the host once, and no GPU waits for a whole operand. Else B is
  // copied once to every GPU where its copy leaves each at least half of
  // its staging budget, or staged by each GPU itself.
  std::optional<Split> split = planSliced(p, plan, hosted, one, devices);
  if (!split) {
    const size_t wholeBytes =
        HostGather(p.b, {p.batch, p.k, p.n}, elementSize(p.dtype)).bytes();
    bool fits = true;
    for (int d : devices) {
      const DeviceScope on(d, p.nest);
      fits = fits &&
             2 * lacking(wholeBytes) <= currentMachine(p.nest).deviceBudget;
    }
    split = planShares(p, plan, hosted, one, devices, fits ? wholeBytes : 0);
  }
  if (!split || (!forced && split->seconds > kSplitGain * one.stage.seconds))
    return std::nullopt;
  return split;
}

std::vector<Choice> runSplit(const Problem &p, const Plan &plan,
                             Hosted hosted, bool biasHosted,
                             const Split &split) {
  if (split.slices.depth) {
    std::vector<Operand> biasOn;
    for (const Share &share : split.shares) {
      const DeviceScope on(share.device, p.nest);
      const Operand bias = rowsOf(p, share).epilogue.bias;
      biasOn.push_back(biasHosted ? stageBias(bias, {1, share.rows, p.n},
                                              elementSize(p.dtype), p.nest)
                                  : bias);
    }
    return runSlices(p, plan, split, biasOn);
  }
  std::vector<Choice> choices(split.shares.size());
  std::vector<Operand> bOn;
  if (split.wholeB) {
    std::vector<int> devices;
    for (const Share &share : split.shares)
      devices.push_back(share.device);
    bOn = broadcastWhole(p.b, {p.batch, p.k, p.n}, elementSize(p.dtype),
                         devices, p.nest);
  }
  const Hosted each = sharesHosted(hosted, split);
  auto run = [&](size_t i) {
    const Share &share = split.shares[i];
    const DeviceScope on(share.device, p.nest);
    Problem rows = rowsOf(p, share);
    if (split.wholeB)
      rows.b = bOn[i];
    if (biasHosted)
      rows.epilogue.bias =
          stageBias(rows.epilogue.bias, {p.batch, share.rows, p.n},
                    elementSize(p.dtype), p.nest);
    choices[i] = runStaged(rows, plan, each, split.stages[i]);
  };
  std::vector<std::thread> others;
  for (size_t i = 1; i < split.shares.size(); ++i)
    others.emplace_back(run, i);
  run(0);
  for (std::thread &t : others)
    t.join();
  return choices;
}

} // namespace gemm_rt::detail
