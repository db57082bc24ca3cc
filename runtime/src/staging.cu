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
#include "verify.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <optional>
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

Hosted oriented(Hosted h, bool alongN) {
  return alongN ? Hosted{h.b, h.a, h.c} : h;
}

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

/// `op` from matrix b0, row r0 on.
Operand shifted(const Operand &op, int64_t b0, int64_t r0, size_t element) {
  Operand o = op;
  o.ptr = static_cast<const unsigned char *>(op.ptr) +
          (b0 * op.sb + r0 * op.sr) * int64_t(element);
  return o;
}

/// Staging of the oriented problem q in panels of `rows` rows.
std::optional<StagePlan> planRows(const Problem &q, const Plan &plan,
                                  Hosted h, const Machine &machine,
                                  int64_t rows, bool alongN) {
  const size_t element = elementSize(q.dtype);
  const int64_t batch = rows >= q.m ? std::min(rows / q.m, q.batch) : 1;
  const int64_t m = std::min(rows, q.m);
  const size_t a = h.a ? Packing(q.a, {batch, m, q.k}, element).bytes() : 0;
  const size_t c = h.c ? Packing(q.c, {batch, m, q.n}, element).bytes() : 0;
  const size_t whole =
      h.b ? Packing(q.b, {q.batch, q.k, q.n}, element).bytes() : 0;
  StagePlan stage;
  stage.alongN = alongN;
  stage.rows = rows;
  stage.panels = panelCount(q.batch, q.m, rows);
  stage.deviceBytes = whole + kSlots * (a + c);
  stage.pinnedSlot = std::max(a + c, std::min(whole, kChunkBytes));
  if (h.b)
    stage.pinnedSlot = std::max(
        stage.pinnedSlot, Packing(q.b, {q.batch, q.k, q.n}, element).runBytes());
  if (stage.deviceBytes > machine.deviceBudget)
    return std::nullopt;
  Problem panel = q;
  panel.batch = batch;
  panel.m = m;
  const Problem launched = oriented(panel, alongN);
  const double kernel = kernelSeconds(
      launched, choose(launched, plan, machine.sms).seconds);
  const PanelCost cost{double(a) + (q.beta != 0 ? double(c) : 0), double(c),
                       kernel};
  stage.seconds = stagedSeconds(double(whole), cost, stage.panels,
                                machine.rates);
  return stage;
}

/// Panels along N where C's rows are not contiguous but its columns are.
bool prefersN(const Problem &p) {
  return p.m > 1 && (p.c.sr == 1 || p.c.sr == -1) && p.c.sc != 1 &&
         p.c.sc != -1;
}

std::optional<StagePlan> planAxis(const Problem &p, const Plan &plan,
                                  Hosted hosted, const Machine &machine,
                                  bool alongN) {
  const Problem q = oriented(p, alongN);
  const Hosted h = oriented(hosted, alongN);
  const size_t element = elementSize(q.dtype);
  // Panel heights: the whole problem, even splits of it, and the largest
  // that fits the budget and a slot's cap.
  std::vector<int64_t> heights;
  const int64_t total = q.batch * q.m;
  for (int64_t panels : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128})
    heights.push_back((total + panels - 1) / panels);
  const double perRow =
      double(element) * double((h.a ? q.k : 0) + (h.c ? q.n : 0)) + 1;
  const double whole =
      h.b ? double(Packing(q.b, {q.batch, q.k, q.n}, element).bytes()) : 0;
  const double room = double(machine.deviceBudget) - whole;
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
        planRows(q, plan, h, machine, rows, alongN);
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
    best = planRows(q, plan, h, machine, 1, alongN);
  return best;
}

/// What the pipeline keeps between calls: streams, events and the ring.
struct Pipeline {
  cudaStream_t in, compute, out;
  cudaEvent_t ready[kSlots], done[kSlots];
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

Pipeline &pipeline(const char *nest) {
  static Pipeline *shared = new Pipeline(nest);
  return *shared;
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
                      const Machine &machine) {
  const bool n = prefersN(p);
  std::optional<StagePlan> best = planAxis(p, plan, hosted, machine, n);
  if (!best)
    best = planAxis(p, plan, hosted, machine, !n);
  return best ? *best : StagePlan{};
}

Machine currentMachine(const char *nest) {
  static const Rates rates = measureRates(nest);
  Machine machine{rates, smCount(), 0};
  if (const char *limit = std::getenv("GEMM_OPT_DEVICE_MEMORY")) {
    machine.deviceBudget = std::strtoull(limit, nullptr, 10);
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
  Pipeline &pipe = pipeline(nest);
  unsigned char *ring = pipe.ring(kSlots * stage.pinnedSlot, nest);
  unsigned char *device = static_cast<unsigned char *>(
      poolBuffer(Role::Staging, stage.deviceBytes, nest));
  const int sms = smCount();

  bool used[kSlots] = {};
  int next = 0;
  // The next slot, once the GPU is done with its last contents.
  auto acquire = [&] {
    const int slot = next;
    next = (next + 1) % kSlots;
    if (used[slot])
      checkCuda(cudaEventSynchronize(pipe.done[slot]), nest,
                "waiting for a staging slot");
    used[slot] = true;
    return slot;
  };

  // The whole operand, in chunks of runs through the ring.
  std::optional<Packing> whole;
  size_t wholeBytes = 0;
  if (h.b) {
    whole.emplace(q.b, Extents{q.batch, q.k, q.n}, element);
    wholeBytes = whole->bytes();
    const int64_t chunk = std::max<int64_t>(
        1, int64_t(stage.pinnedSlot / whole->runBytes()));
    for (int64_t r = 0; r < whole->runCount(); r += chunk) {
      const int64_t last = std::min(whole->runCount(), r + chunk);
      const int slot = acquire();
      unsigned char *pinned = ring + slot * stage.pinnedSlot;
      whole->gather(pinned, r, last);
      checkCuda(cudaMemcpyAsync(device + r * whole->runBytes(), pinned,
                                (last - r) * whole->runBytes(),
                                cudaMemcpyHostToDevice, pipe.in),
                nest, "copying B to the GPU");
      checkCuda(cudaEventRecord(pipe.done[slot], pipe.in), nest,
                "recording a staging event");
    }
  }
  const Operand wholeOperand = h.b ? whole->dense(device) : q.b;

  std::deque<Pending> pending;
  auto scatterOldest = [&] {
    const Pending &c = pending.front();
    checkCuda(cudaEventSynchronize(pipe.done[c.slot]), nest,
              "copying C back from the GPU");
    c.c.scatter(c.pinned, 0, c.c.runCount());
    pending.pop_front();
  };
  Choice choice{0, 1};
  size_t slotDevice = 0;
  for (const Panel &panel : panelsOf(q.batch, q.m, stage.rows)) {
    const int slot = acquire();
    const Extents aExtents{panel.batch, panel.rows, q.k};
    const Extents cExtents{panel.batch, panel.rows, q.n};
    const Operand aHost = shifted(q.a, panel.batch0, panel.row0, element);
    const Operand cHost = shifted(q.c, panel.batch0, panel.row0, element);
    const Packing a(aHost, aExtents, element), c(cHost, cExtents, element);
    const size_t aBytes = h.a ? a.bytes() : 0;
    if (!slotDevice)
      slotDevice = aBytes + (h.c ? c.bytes() : 0);
    unsigned char *pinned = ring + slot * stage.pinnedSlot;
    unsigned char *onDevice = device + wholeBytes + slot * slotDevice;

    Problem sub = q;
    sub.batch = panel.batch;
    sub.m = panel.rows;
    sub.a = h.a ? a.dense(onDevice) : aHost;
    sub.b = shifted(wholeOperand, panel.batch0, 0, element);
    sub.c = h.c ? c.dense(onDevice + aBytes) : cHost;
    if (q.epilogue.bias.ptr)
      sub.epilogue.bias =
          shifted(q.epilogue.bias, panel.batch0, panel.row0, element);
    if (h.a) {
      a.gather(pinned, 0, a.runCount());
      checkCuda(cudaMemcpyAsync(onDevice, pinned, aBytes,
                                cudaMemcpyHostToDevice, pipe.in),
                nest, "copying A to the GPU");
    }
    if (h.c && q.beta != 0) {
      c.gather(pinned + aBytes, 0, c.runCount());
      checkCuda(cudaMemcpyAsync(onDevice + aBytes, pinned + aBytes,
                                c.bytes(), cudaMemcpyHostToDevice, pipe.in),
                nest, "copying C to the GPU");
    }
    checkCuda(cudaEventRecord(pipe.ready[slot], pipe.in), nest,
              "recording a staging event");
    checkCuda(cudaStreamWaitEvent(pipe.compute, pipe.ready[slot], 0), nest,
              "ordering a panel after its copies");

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
      checkCuda(cudaEventRecord(pipe.ready[slot], pipe.compute), nest,
                "recording a staging event");
      checkCuda(cudaStreamWaitEvent(pipe.out, pipe.ready[slot], 0), nest,
                "ordering a copy after its kernel");
      checkCuda(cudaMemcpyAsync(pinned + aBytes, onDevice + aBytes,
                                c.bytes(), cudaMemcpyDeviceToHost, pipe.out),
                nest, "copying C back from the GPU");
      checkCuda(cudaEventRecord(pipe.done[slot], pipe.out), nest,
                "recording a staging event");
      pending.push_back({slot, c, pinned + aBytes});
    } else {
      checkCuda(cudaEventRecord(pipe.done[slot], pipe.compute), nest,
                "recording a staging event");
    }
    // Panel i-1's C goes back while the GPU works on panel i.
    while (pending.size() > 1)
      scatterOldest();
  }
  while (!pending.empty())
    scatterOldest();
  checkCuda(cudaStreamSynchronize(pipe.compute), nest, "kernel execution");
  return choice;
}

} // namespace gemm_rt::detail
