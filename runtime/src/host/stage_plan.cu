//===- stage_plan.cu - Planning a staged call -----------------------------===//
//
// Implements planStaging and currentMachine (staging.h): the panel heights
// and blocks of B that fit the device, ranked by profit.h's time model on the
// machine's measured copy rates.
//
//===----------------------------------------------------------------------===//
#include "host/panels.h"

#include "core/check.h"
#include "core/device.h"
#include "core/switches.h"
#include "host/profit.h"

#include <algorithm>
#include <array>
#include <optional>
#include <tuple>
#include <vector>

namespace gemm_rt::detail {

namespace {
/// The device memory that staging leaves free for split-K's workspace and
/// the program: the larger of this and a sixteenth of the GPU.
constexpr size_t kReserveBytes = size_t(256) << 20;
/// Panels run across C's contiguous axis only where predicted this much
/// faster: the model does not count the shorter runs their gathers copy.
constexpr double kOtherAxisGain = 0.9;

int64_t panelCount(int64_t batch, int64_t m, int64_t rows) {
  return rows >= m ? (batch + rows / m - 1) / (rows / m)
                   : batch * ((m + rows - 1) / rows);
}

/// Staging of the oriented problem q in panels of `rows` rows and blocks
/// of `cols` columns.
std::optional<StagePlan> planPanels(const Problem &q, const Plan &plan,
                                    Hosted h, const Machine &machine,
                                    int64_t rows, int64_t cols,
                                    bool alongN) {
  const size_t element = elementSize(q.dtype);
  const int64_t batch = rows >= q.m ? std::min(rows / q.m, q.batch) : 1;
  const int64_t m = std::min(rows, q.m);
  const Source a{q.a, h.ta}, b{q.b, h.tb}, c{q.c, h.tc};
  const size_t aBytes = h.a ? a.packing({batch, m, q.k}, element).bytes() : 0;
  const size_t cBytes = h.c ? c.packing({batch, m, cols}, element).bytes() : 0;
  const HostGather block = b.packing({q.batch, q.k, cols}, element);
  const size_t blockBytes = h.b ? block.bytes() : 0;
  const int64_t blocks = (q.n + cols - 1) / cols;
  StagePlan stage;
  stage.alongN = alongN;
  stage.rows = rows;
  stage.cols = cols;
  stage.panels = blocks * panelCount(q.batch, q.m, rows);
  stage.deviceBytes = blockBytes + kSlots * (aBytes + cBytes);
  stage.pinnedSlot = std::max(aBytes + cBytes, std::min(blockBytes, kChunkBytes));
  if (h.b)
    stage.pinnedSlot = std::max(stage.pinnedSlot, block.runBytes());
  if (stage.deviceBytes > machine.deviceBudget)
    return std::nullopt;
  Problem panel = q;
  panel.batch = batch;
  panel.m = m;
  panel.n = cols;
  // The hosted operands as the kernels see them: dense copies, whose
  // layout may differ from the host's where two strides tie.
  if (h.a)
    panel.a = a.packing({batch, m, q.k}, element).dense(nullptr);
  if (h.b)
    panel.b = block.dense(nullptr);
  if (h.c)
    panel.c = c.packing({batch, m, cols}, element).dense(nullptr);
  const Problem launched = oriented(panel, alongN);
  if (!someVariantRuns(launched, plan))
    return std::nullopt;
  const double kernel = kernelSeconds(
      launched, choose(launched, plan, machine.sms).seconds);
  const PanelCost cost{double(aBytes) + (q.beta != 0 ? double(cBytes) : 0),
                       double(cBytes), kernel};
  stage.seconds = stagedSeconds(double(blockBytes) * double(blocks), cost,
                                stage.panels, machine.rates);
  return stage;
}

/// Panels along N where C's rows are not contiguous but its columns are.
bool prefersN(const Problem &p) {
  return p.m > 1 && (p.c.sr == 1 || p.c.sr == -1) && p.c.sc != 1 &&
         p.c.sc != -1;
}

/// The fastest staging along one axis with B in `blocks` blocks of columns
/// (whole tiles of them where there are several).
std::optional<StagePlan> planAxis(const Problem &p, const Plan &plan,
                                  Hosted hosted, const Machine &machine,
                                  bool alongN, int64_t blocks) {
  const Problem q = oriented(p, alongN);
  const Hosted h = oriented(hosted, alongN);
  if (blocks > q.n)
    return std::nullopt;
  int64_t cols = (q.n + blocks - 1) / blocks;
  if (blocks > 1 && cols > 128)
    cols = (cols + 127) / 128 * 128;
  const size_t element = elementSize(q.dtype);
  // Panel heights: the whole problem, even splits of it, and the largest
  // that fits the budget and a slot's cap.
  std::vector<int64_t> heights;
  const int64_t total = q.batch * q.m;
  for (int64_t panels : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128})
    heights.push_back((total + panels - 1) / panels);
  const double perRow =
      double(element) * double((h.a ? q.k : 0) + (h.c ? cols : 0)) + 1;
  const Source b{q.b, h.tb};
  const double block =
      h.b ? double(b.packing({q.batch, q.k, cols}, element).bytes()) : 0;
  const double room = double(machine.deviceBudget) - block;
  if (room <= 0)
    return std::nullopt;
  heights.push_back(int64_t(room / (kSlots * perRow)));
  heights.push_back(int64_t(double(kMaxSlotBytes) / perRow));
  std::optional<StagePlan> best, smallest;
  for (int64_t rows : heights) {
    // Whole matrices, or whole tiles of rows of one.
    if (rows >= q.m)
      rows = std::min(rows, total) / q.m * q.m;
    else if (rows > 128)
      rows = rows / 128 * 128;
    if (rows < 1)
      continue;
    std::optional<StagePlan> stage =
        planPanels(q, plan, h, machine, rows, cols, alongN);
    if (!stage)
      continue;
    if (!smallest || stage->pinnedSlot < smallest->pinnedSlot)
      smallest = stage;
    if (stage->pinnedSlot > kMaxSlotBytes && stage->panels > 1)
      continue;
    if (!best || stage->seconds < best->seconds)
      best = stage;
  }
  if (!best)
    best = smallest;
  // Even one row per panel may fit where the heights above do not.
  if (!best)
    best = planPanels(q, plan, h, machine, 1, cols, alongN);
  return best;
}
} // namespace

StagePlan planStaging(const Problem &p, const Plan &plan, Hosted hosted,
                      Machine (*machine)(const char *nest), size_t held) {
  // Calls in a loop repeat their problem: the last one's plan is kept,
  // keyed by everything the plan reads (layouts, not addresses) but the
  // machine, which is queried only where staging does not hold the plan's
  // device memory already: the free-memory query costs 10-30 us a call.
  const auto operand = [](const Operand &o) {
    return std::array<int64_t, 3>{o.sb, o.sr, o.sc};
  };
  const auto table = [](const Table &t) {
    return t.start ? 1 + int(t.columns) : 0;
  };
  const auto key = std::make_tuple(
      currentDevice(), plan.variants, plan.count, p.dtype, p.batch, p.m, p.n, p.k,
      operand(p.a), operand(p.b), operand(p.c), p.beta == 0, hosted.a,
      hosted.b, hosted.c, table(hosted.ta), table(hosted.tb),
      table(hosted.tc), held);
  struct Kept {
    decltype(key) problem;
    int sms;
    StagePlan stage;
  };
  // Each GPU's own: the GPUs of a split call plan on threads of their own.
  static std::optional<Kept> kept[kMaxDevices];
  std::optional<Kept> &last = kept[currentDevice()];
  const bool same = last && last->problem == key;
  if (same && last->stage.panels &&
      last->stage.deviceBytes <= poolCapacity(Role::Staging))
    return last->stage;
  Machine m = machine(p.nest);
  m.deviceBudget -= std::min(held, m.deviceBudget);
  if (same && last->stage.deviceBudget == m.deviceBudget && last->sms == m.sms)
    return last->stage;
  // B in as few blocks as fit, on the axis C prefers unless the other is
  // predicted clearly faster: its whole operand is the smaller one (a
  // short, wide product's A), which every panel waits for.
  StagePlan best;
  const bool n = prefersN(p);
  for (int64_t blocks : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64, 128, 256}) {
    std::optional<StagePlan> preferred = planAxis(p, plan, hosted, m, n, blocks);
    std::optional<StagePlan> other = planAxis(p, plan, hosted, m, !n, blocks);
    if (other && (!preferred ||
                  other->seconds < kOtherAxisGain * preferred->seconds))
      preferred = other;
    if (preferred) {
      best = *preferred;
      break;
    }
  }
  best.deviceBudget = m.deviceBudget;
  last.emplace(Kept{key, m.sms, best});
  return best;
}

Machine currentMachine(const char *nest) {
  // Each GPU's link is its own (another socket, another switch).
  static std::optional<Rates> rates[kMaxDevices];
  std::optional<Rates> &measured = rates[currentDevice()];
  if (!measured)
    measured = measureRates(nest);
  Machine machine{*measured, smCount(), 0};
  // A split call's whole operand counts against the switch's bytes as
  // against the free memory.
  if (const std::optional<int64_t> limit = integerSwitch(Switch::DeviceMemory)) {
    machine.deviceBudget =
        size_t(*limit) - std::min(size_t(*limit), poolCapacity(Role::Whole));
    return machine;
  }
  size_t free = 0, total = 0;
  checkCuda(cudaMemGetInfo(&free, &total), nest, "cudaMemGetInfo");
  const size_t usable = free + poolCapacity(Role::Staging);
  const size_t reserve = std::max(kReserveBytes, total / 16);
  machine.deviceBudget = usable > reserve ? usable - reserve : 0;
  return machine;
}

} // namespace gemm_rt::detail
