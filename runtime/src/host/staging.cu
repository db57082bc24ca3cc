//===- staging.cu - Host operands streamed through pinned memory ----------===//
//
// Implements the panel pipeline declared in staging.h, as stage_plan.cu
// planned it. The host thread gathers panel i into a slot of the
// pinned ring while the GPU copies and multiplies panel i-1, then scatters
// panel i-1's C; three slots keep a slot free for the next gather.
//
//===----------------------------------------------------------------------===//
#include "host/pipeline.h"

#include "core/check.h"
#include "core/device.h"
#include "host/gather.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <utility>
#include <vector>

namespace gemm_rt::detail {

namespace {
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

double gbPerSecond(size_t bytes, std::chrono::steady_clock::duration t) {
  return double(bytes) / std::chrono::duration<double>(t).count() / 1e9;
}


/// A panel's C on its way back: scattered once its copy has landed.
struct Pending {
  int slot;
  HostGather c;
  const unsigned char *pinned;
};
} // namespace

Rates measureRates(const char *nest) {
  constexpr size_t bytes = size_t(32) << 20;
  Pipeline &pipe = pipeline(nest);
  unsigned char *pinned = pipe.ring(bytes, nest);
  void *device = poolBuffer(Role::Staging, bytes, nest);
  std::vector<unsigned char> pageable(bytes, 1);
  const Operand flat{pageable.data(), 0, 0, 1};
  const HostGather packing(flat, {1, 1, int64_t(bytes)}, 1);
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
      const HostGather whole = columns.packing({q.batch, q.k, cols}, element);
      if (c0 > 0) {
        // The slots are about to hold B: C's panels in them go back first,
        // and the block's buffer is rewritten once its kernels are done.
        while (!pending.empty())
          scatterOldest();
        order(pipe.blockDone, pipe.compute, pipe.in, nest);
      } else {
        blockBytes = whole.bytes();
      }
      sendWhole(whole, {{currentDevice(), &pipe, device}}, slots, nest,
                "copying B to the GPU");
      block = whole.dense(device);
    }
    for (const Panel &panel : panelsOf(q.batch, q.m, stage.rows)) {
      const int slot = slots.acquire();
      const Extents aExtents{panel.batch, panel.rows, q.k};
      const Extents cExtents{panel.batch, panel.rows, cols};
      const Source aHost = a.from(panel.batch0, panel.row0, 0, element);
      const Source cHost = c.from(panel.batch0, panel.row0, c0, element);
      const HostGather aPack = aHost.packing(aExtents, element);
      const HostGather cPack = cHost.packing(cExtents, element);
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
      choice = launchStaged(launched, plan, sms, pipe, nest);
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
  const HostGather packing(bias, extents, elementSize);
  Pipeline &pipe = pipeline(nest);
  Slots slots(pipe, chunkSlot(packing), nest);
  unsigned char *device = static_cast<unsigned char *>(
      poolBuffer(Role::Bias, packing.bytes(), nest));
  sendWhole(packing, {{currentDevice(), &pipe, device}}, slots, nest,
            "copying the bias to the GPU");
  checkCuda(cudaStreamSynchronize(pipe.in), nest,
            "copying the bias to the GPU");
  return packing.dense(device);
}

std::vector<Operand> broadcastWhole(const Operand &whole,
                                    const Extents &extents,
                                    size_t elementSize,
                                    const std::vector<int> &devices,
                                    const char *nest) {
  const HostGather packing(whole, extents, elementSize);
  std::vector<Target> targets;
  std::vector<Pipeline *> readers;
  for (int d : devices) {
    const DeviceScope on(d, nest);
    targets.push_back({d, &pipeline(nest),
                       static_cast<unsigned char *>(poolBuffer(
                           Role::Whole, packing.bytes(), nest))});
    readers.push_back(targets.back().pipe);
  }
  Slots slots(readers, chunkSlot(packing), nest);
  sendWhole(packing, targets, slots, nest, "copying B to the GPUs");
  std::vector<Operand> copies;
  for (const Target &to : targets) {
    checkCuda(cudaStreamSynchronize(to.pipe->in), nest,
              "copying B to the GPUs");
    copies.push_back(packing.dense(to.buffer));
  }
  return copies;
}

} // namespace gemm_rt::detail
