//===- staging.cu - Host operands streamed through pinned memory ----------===//
//
// Implements the planner, the measured machine and the panel pipeline
// declared in staging.h. The host thread gathers panel i into a slot of the
// pinned ring while the GPU copies and multiplies panel i-1, then scatters
// panel i-1's C; three slots keep a slot free for the next gather.
//
//===----------------------------------------------------------------------===//
#include "staging.h"

#include "check.h"
#include "device.h"
#include "layout.h"
#include "pack.h"
#include "profit.h"
#include "switches.h"
#include "verify.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

namespace gemm_rt::detail {

namespace {
/// Slots of the pinned ring, and of panel buffers on the device.
constexpr int kSlots = 3;
/// A slot's largest size where panels can be smaller: pinned memory is
/// slow to allocate and taken from the host for good.
constexpr size_t kMaxSlotBytes = size_t(64) << 20;
/// The whole operand moves in chunks of about this size where panels leave
/// their slots smaller.
constexpr size_t kChunkBytes = size_t(16) << 20;
/// The device memory that staging leaves free for split-K's workspace and
/// the program: the larger of this and a sixteenth of the GPU.
constexpr size_t kReserveBytes = size_t(256) << 20;

/// The problem whose rows the panels cut: p, or p transposed for panels
/// along N (transposed() is its own inverse).
Problem oriented(const Problem &p, bool alongN) {
  return alongN ? transposed(p) : p;
}

/// Transposing swaps A and B and turns every table's rows into columns.
Hosted oriented(Hosted h, bool alongN) {
  if (!alongN)
    return h;
  auto flip = [](Table t) {
    t.columns = !t.columns;
    return t;
  };
  return {h.b, h.a, h.c, flip(h.tb), flip(h.ta), flip(h.tc)};
}

/// An operand where a panel reads it: strided, or a table of host rows.
struct Source {
  Operand op;
  Table table;

  /// The operand from matrix b0, row r0 and column c0 on (a table is
  /// unbatched).
  Source from(int64_t b0, int64_t r0, int64_t c0, size_t element) const {
    Source s = *this;
    if (table.start) {
      s.table.start += table.columns ? c0 : r0;
      s.table.skip += table.columns ? r0 : c0;
    } else {
      s.op = operandAt(op, b0, r0, c0, element);
    }
    return s;
  }

  Packing packing(const Extents &e, size_t element) const {
    return Packing(op, e, element, table);
  }
};

/// One panel: matrices [batch0, batch0 + batch) of rows [row0, row0 + rows).
struct Panel {
  int64_t batch0, batch, row0, rows;
};

/// The panels of `rows` rows (StagePlan::rows) of a problem of `batch`
/// matrices of `m` rows.
std::vector<Panel> panelsOf(int64_t batch, int64_t m, int64_t rows) {
  std::vector<Panel> panels;
  if (rows >= m) {
    const int64_t whole = rows / m;
    for (int64_t b = 0; b < batch; b += whole)
      panels.push_back({b, std::min(whole, batch - b), 0, m});
  } else {
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t i = 0; i < m; i += rows)
        panels.push_back({b, 1, i, std::min(rows, m - i)});
  }
  return panels;
}

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
  const Packing block = b.packing({q.batch, q.k, cols}, element);
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

/// What the pipeline keeps between calls: streams, events and the ring.
struct Pipeline {
  cudaStream_t in, compute, out;
  /// Per slot: its copies in landed, its contents free; the kernels done
  /// with a block of B.
  cudaEvent_t ready[kSlots], done[kSlots], blockDone;
  unsigned char *pinned = nullptr;
  size_t pinnedBytes = 0;

  explicit Pipeline(const char *nest) {
    // Blocking streams: they wait for the program's work on the default
    // stream, which may have written an operand that is read in place.
    for (cudaStream_t *s : {&in, &compute, &out})
      checkCuda(cudaStreamCreate(s), nest, "creating a staging stream");
    for (int i = 0; i < kSlots; ++i) {
      checkCuda(cudaEventCreateWithFlags(&ready[i], cudaEventDisableTiming),
                nest, "creating a staging event");
      checkCuda(cudaEventCreateWithFlags(&done[i], cudaEventDisableTiming),
                nest, "creating a staging event");
    }
    checkCuda(cudaEventCreateWithFlags(&blockDone, cudaEventDisableTiming),
              nest, "creating a staging event");
  }

  /// The ring, grown to `bytes` (never shrunk: it is reused by every call).
  unsigned char *ring(size_t bytes, const char *nest) {
    if (bytes > pinnedBytes) {
      checkCuda(cudaFreeHost(pinned), nest, "freeing the pinned ring");
      pinned = nullptr;
      checkCuda(cudaHostAlloc(reinterpret_cast<void **>(&pinned), bytes,
                              cudaHostAllocDefault),
                nest, "allocating the pinned ring");
      pinnedBytes = bytes;
    }
    return pinned;
  }
};

/// The current device's pipeline: streams, events and pinned memory of
/// each GPU are its own.
Pipeline &pipeline(const char *nest) {
  static Pipeline *perDevice[kMaxDevices] = {};
  Pipeline *&shared = perDevice[currentDevice()];
  if (!shared)
    shared = new Pipeline(nest);
  return *shared;
}

/// Makes `later` wait, through `event`, for the work queued on `earlier`.
void order(cudaEvent_t event, cudaStream_t earlier, cudaStream_t later,
           const char *nest) {
  checkCuda(cudaEventRecord(event, earlier), nest,
            "recording a staging event");
  checkCuda(cudaStreamWaitEvent(later, event, 0), nest,
            "ordering the staging streams");
}

/// The ring's slots of `bytes` each, in turn: a slot is handed out once the
/// GPU is done with what it last held.
class Slots {
public:
  Slots(Pipeline &pipe, size_t bytes, const char *nest)
      : pipe(pipe), ring(pipe.ring(kSlots * bytes, nest)), bytes(bytes),
        nest(nest) {}

  int acquire() {
    const int slot = next;
    next = (next + 1) % kSlots;
    if (used[slot])
      checkCuda(cudaEventSynchronize(pipe.done[slot]), nest,
                "waiting for a staging slot");
    used[slot] = true;
    return slot;
  }

  unsigned char *at(int slot) const { return ring + slot * bytes; }
  size_t size() const { return bytes; }

private:
  Pipeline &pipe;
  unsigned char *ring;
  size_t bytes;
  const char *nest;
  bool used[kSlots] = {};
  int next = 0;
};

/// Queues `whole` to `device` on the `in` stream, in chunks of its runs
/// gathered through the ring.
void sendWhole(const Packing &whole, unsigned char *device, Slots &slots,
               const char *nest, const char *what) {
  Pipeline &pipe = pipeline(nest);
  const int64_t chunk =
      std::max<int64_t>(1, int64_t(slots.size() / whole.runBytes()));
  for (int64_t r = 0; r < whole.runCount(); r += chunk) {
    const int64_t last = std::min(whole.runCount(), r + chunk);
    const int slot = slots.acquire();
    whole.gather(slots.at(slot), r, last);
    checkCuda(cudaMemcpyAsync(device + r * whole.runBytes(), slots.at(slot),
                              (last - r) * whole.runBytes(),
                              cudaMemcpyHostToDevice, pipe.in),
              nest, what);
    checkCuda(cudaEventRecord(pipe.done[slot], pipe.in), nest,
              "recording a staging event");
  }
}

double gbPerSecond(size_t bytes, std::chrono::steady_clock::duration t) {
  return double(bytes) / std::chrono::duration<double>(t).count() / 1e9;
}

/// The copy rates, each the best of two runs of 32 MiB.
Rates measureRates(const char *nest) {
  constexpr size_t bytes = size_t(32) << 20;
  Pipeline &pipe = pipeline(nest);
  unsigned char *pinned = pipe.ring(bytes, nest);
  void *device = poolBuffer(Role::Staging, bytes, nest);
  std::vector<unsigned char> pageable(bytes, 1);
  const Operand flat{pageable.data(), 0, 0, 1};
  const Packing packing(flat, {1, 1, int64_t(bytes)}, 1);
  Rates rates{0, 0, 0};
  using clock = std::chrono::steady_clock;
  for (int run = 0; run < 2; ++run) {
    clock::time_point t0 = clock::now();
    packing.gather(pinned, 0, 1);
    clock::time_point t1 = clock::now();
    checkCuda(cudaMemcpyAsync(device, pinned, bytes, cudaMemcpyHostToDevice,
                              pipe.in),
              nest, "measuring the link");
    checkCuda(cudaStreamSynchronize(pipe.in), nest, "measuring the link");
    clock::time_point t2 = clock::now();
    checkCuda(cudaMemcpyAsync(pinned, device, bytes, cudaMemcpyDeviceToHost,
                              pipe.out),
              nest, "measuring the link");
    checkCuda(cudaStreamSynchronize(pipe.out), nest, "measuring the link");
    clock::time_point t3 = clock::now();
    rates.hostGBs = std::max(rates.hostGBs, gbPerSecond(bytes, t1 - t0));
    rates.h2dGBs = std::max(rates.h2dGBs, gbPerSecond(bytes, t2 - t1));
    rates.d2hGBs = std::max(rates.d2hGBs, gbPerSecond(bytes, t3 - t2));
  }
  return rates;
}

/// A panel's C on its way back: scattered once its copy has landed.
struct Pending {
  int slot;
  Packing c;
  const unsigned char *pinned;
};
} // namespace

StagePlan planStaging(const Problem &p, const Plan &plan, Hosted hosted,
                      Machine (*machine)(const char *nest)) {
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
      table(hosted.tc));
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
  const Machine m = machine(p.nest);
  if (same && last->stage.deviceBudget == m.deviceBudget && last->sms == m.sms)
    return last->stage;
  // B in as few blocks as fit, on the axis C prefers first.
  StagePlan best;
  const bool n = prefersN(p);
  for (int64_t blocks : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64, 128, 256}) {
    for (bool alongN : {n, !n})
      if (std::optional<StagePlan> stage =
              planAxis(p, plan, hosted, m, alongN, blocks)) {
        best = *stage;
        break;
      }
    if (best.panels)
      break;
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
  if (const std::optional<int64_t> limit = integerSwitch(Switch::DeviceMemory)) {
    machine.deviceBudget = size_t(*limit);
    return machine;
  }
  size_t free = 0, total = 0;
  checkCuda(cudaMemGetInfo(&free, &total), nest, "cudaMemGetInfo");
  const size_t usable = free + poolCapacity(Role::Staging);
  const size_t reserve = std::max(kReserveBytes, total / 16);
  machine.deviceBudget = usable > reserve ? usable - reserve : 0;
  return machine;
}

Choice runStaged(const Problem &p, const Plan &plan, Hosted hosted,
                 const StagePlan &stage) {
  const char *nest = p.nest;
  const Problem q = oriented(p, stage.alongN);
  const Hosted h = oriented(hosted, stage.alongN);
  const size_t element = elementSize(q.dtype);
  const Source a{q.a, h.ta}, b{q.b, h.tb}, c{q.c, h.tc},
      bias{q.epilogue.bias, {}};
  Pipeline &pipe = pipeline(nest);
  Slots slots(pipe, stage.pinnedSlot, nest);
  unsigned char *device = static_cast<unsigned char *>(
      poolBuffer(Role::Staging, stage.deviceBytes, nest));
  const int sms = smCount();

  std::deque<Pending> pending;
  auto scatterOldest = [&] {
    const Pending &oldest = pending.front();
    checkCuda(cudaEventSynchronize(pipe.done[oldest.slot]), nest,
              "copying C back from the GPU");
    oldest.c.scatter(oldest.pinned, 0, oldest.c.runCount());
    pending.pop_front();
  };
  Choice choice{0, 1};
  // The device buffer: B's block, then a slot's A and C per slot, sized by
  // the first (widest) block and the first (tallest) panel.
  size_t blockBytes = 0, slotDevice = 0;
  for (int64_t c0 = 0; c0 < q.n; c0 += stage.cols) {
    const int64_t cols = std::min(stage.cols, q.n - c0);
    const Source columns = b.from(0, 0, c0, element);
    Operand block = columns.op;
    if (h.b) {
      const Packing whole = columns.packing({q.batch, q.k, cols}, element);
      if (c0 > 0) {
        // The slots are about to hold B: C's panels in them go back first,
        // and the block's buffer is rewritten once its kernels are done.
        while (!pending.empty())
          scatterOldest();
        order(pipe.blockDone, pipe.compute, pipe.in, nest);
      } else {
        blockBytes = whole.bytes();
      }
      sendWhole(whole, device, slots, nest, "copying B to the GPU");
      block = whole.dense(device);
    }
    for (const Panel &panel : panelsOf(q.batch, q.m, stage.rows)) {
      const int slot = slots.acquire();
      const Extents aExtents{panel.batch, panel.rows, q.k};
      const Extents cExtents{panel.batch, panel.rows, cols};
      const Source aHost = a.from(panel.batch0, panel.row0, 0, element);
      const Source cHost = c.from(panel.batch0, panel.row0, c0, element);
      const Packing aPack = aHost.packing(aExtents, element);
      const Packing cPack = cHost.packing(cExtents, element);
      const size_t aBytes = h.a ? aPack.bytes() : 0;
      if (!slotDevice)
        slotDevice = aBytes + (h.c ? cPack.bytes() : 0);
      unsigned char *pinned = slots.at(slot);
      unsigned char *onDevice = device + blockBytes + slot * slotDevice;

      Problem sub = q;
      sub.batch = panel.batch;
      sub.m = panel.rows;
      sub.n = cols;
      sub.a = h.a ? aPack.dense(onDevice) : aHost.op;
      sub.b = Source{block, {}}.from(panel.batch0, 0, 0, element).op;
      sub.c = h.c ? cPack.dense(onDevice + aBytes) : cHost.op;
      if (q.epilogue.bias.ptr)
        sub.epilogue.bias = bias.from(panel.batch0, panel.row0, c0, element).op;
      if (h.a) {
        aPack.gather(pinned, 0, aPack.runCount());
        checkCuda(cudaMemcpyAsync(onDevice, pinned, aBytes,
                                  cudaMemcpyHostToDevice, pipe.in),
                  nest, "copying A to the GPU");
      }
      if (h.c && q.beta != 0) {
        cPack.gather(pinned + aBytes, 0, cPack.runCount());
        checkCuda(cudaMemcpyAsync(onDevice + aBytes, pinned + aBytes,
                                  cPack.bytes(), cudaMemcpyHostToDevice,
                                  pipe.in),
                  nest, "copying C to the GPU");
      }
      order(pipe.ready[slot], pipe.in, pipe.compute, nest);

      const Problem launched = oriented(sub, stage.alongN);
      if (verifying()) {
        // The check snapshots C: the panel's copies must have landed.
        checkCuda(cudaStreamSynchronize(pipe.in), nest, "copying a panel");
        LaunchCheck check(launched);
        choice = launchChosen(launched, plan, sms, pipe.compute);
        checkCuda(cudaStreamSynchronize(pipe.compute), nest,
                  "kernel execution");
        check.report();
      } else {
        choice = launchChosen(launched, plan, sms, pipe.compute);
      }
      if (h.c) {
        order(pipe.ready[slot], pipe.compute, pipe.out, nest);
        checkCuda(cudaMemcpyAsync(pinned + aBytes, onDevice + aBytes,
                                  cPack.bytes(), cudaMemcpyDeviceToHost,
                                  pipe.out),
                  nest, "copying C back from the GPU");
        checkCuda(cudaEventRecord(pipe.done[slot], pipe.out), nest,
                  "recording a staging event");
        pending.push_back({slot, cPack, pinned + aBytes});
      } else {
        checkCuda(cudaEventRecord(pipe.done[slot], pipe.compute), nest,
                  "recording a staging event");
      }
      // Panel i-1's C goes back while the GPU works on panel i.
      while (pending.size() > 1)
        scatterOldest();
    }
  }
  while (!pending.empty())
    scatterOldest();
  checkCuda(cudaStreamSynchronize(pipe.compute), nest, "kernel execution");
  return choice;
}

Operand stageBias(const Operand &bias, const Extents &extents,
                  size_t elementSize, const char *nest) {
  const Packing packing(bias, extents, elementSize);
  Slots slots(pipeline(nest),
              std::max(packing.runBytes(),
                       std::min(packing.bytes(), kChunkBytes)),
              nest);
  unsigned char *device = static_cast<unsigned char *>(
      poolBuffer(Role::Bias, packing.bytes(), nest));
  sendWhole(packing, device, slots, nest, "copying the bias to the GPU");
  checkCuda(cudaStreamSynchronize(pipeline(nest).in), nest,
            "copying the bias to the GPU");
  return packing.dense(device);
}

} // namespace gemm_rt::detail
