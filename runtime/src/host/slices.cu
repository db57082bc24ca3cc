//===- slices.cu - A split call in slices of K ----------------------------===//
//
// Implements planSlices (gpus.h) and runSlices (slices.h). One host thread
// drives every GPU: it gathers slice s into a slot of the first GPU's ring
// (B's rows first, sent at once, then each GPU's columns of A) while the
// GPUs copy and multiply the slices before it.
//
//===----------------------------------------------------------------------===//
#include "host/slices.h"

#include "core/check.h"
#include "core/device.h"
#include "host/pipeline.h"

#include <algorithm>
#include <deque>

namespace gemm_rt::detail {

namespace {
/// Slices are multiples of the kernels' largest tiles, and no thinner than
/// kMinDepth: each slice reads and writes C's rows once more, and A's rows
/// go in runs of the slice's depth. On two H200s, f32 8192^3 in slices of
/// 1024 ran 1.65x of one GPU (B copied once to every GPU before the shares:
/// 1.49x), f32 16384^3 in slices of 512 1.55x (1.80x), f64 16384^3 in
/// slices of 256 1.07x (1.75x).
constexpr int64_t kSliceGrain = 128;
constexpr int64_t kMinDepth = 1024;

HostGather bSlice(const Problem &p, int64_t k0, int64_t depth,
                  size_t element) {
  return HostGather(operandAt(p.b, 0, k0, 0, element), {1, depth, p.n},
                    element);
}

HostGather aSlice(const Problem &p, const Share &share, int64_t k0,
                  int64_t depth, size_t element) {
  return HostGather(operandAt(p.a, 0, share.begin, k0, element),
                    {1, share.rows, depth}, element);
}

HostGather cRows(const Problem &p, const Share &share, size_t element) {
  return HostGather(operandAt(p.c, 0, share.begin, 0, element),
                    {1, share.rows, p.n}, element);
}

/// A pinned slot's bytes for slices of `depth`: B's rows, every GPU's A.
size_t sliceBytes(const Problem &p, const std::vector<Share> &shares,
                  int64_t depth, size_t element) {
  size_t bytes = bSlice(p, 0, depth, element).bytes();
  for (const Share &share : shares)
    bytes += aSlice(p, share, 0, depth, element).bytes();
  return bytes;
}

/// One GPU's part: its rows of C on the device, after which its slots
/// (a slice of B, then of A) lie.
struct Part {
  int device;
  Pipeline *pipe;
  HostGather c;
  unsigned char *buffer;
  size_t bBytes, aBytes;
  /// The share's problem, C as its device copy, the bias where it is read.
  Problem rows;
  Choice choice{0, 1};

  unsigned char *slot(int s) const {
    return buffer + c.bytes() + size_t(s) * (bBytes + aBytes);
  }
};

/// `sub` restricted to runs [first, first + count) of C's dense copy: rows
/// where they are its runs, else columns.
Problem band(Problem sub, const HostGather &c, int64_t first, int64_t count) {
  if (c.runCount() == 1)
    return sub;
  const size_t element = elementSize(sub.dtype);
  const bool rows = sub.c.sc == 1 || sub.c.sc == -1;
  const int64_t r0 = rows ? first : 0, c0 = rows ? 0 : first;
  (rows ? sub.m : sub.n) = count;
  if (rows)
    sub.a = operandAt(sub.a, 0, r0, 0, element);
  else
    sub.b = operandAt(sub.b, 0, 0, c0, element);
  sub.c = operandAt(sub.c, 0, r0, c0, element);
  if (sub.epilogue.bias.ptr)
    sub.epilogue.bias = operandAt(sub.epilogue.bias, 0, r0, c0, element);
  return sub;
}

/// A band of C on its way back: scattered once its copy has landed.
struct Pending {
  int slot;
  const Part *part;
  int64_t first, last;
  const unsigned char *pinned;
};
} // namespace

SlicePlan planSlices(const Problem &p, const std::vector<Share> &shares,
                     size_t budget) {
  SlicePlan plan;
  if (p.batch != 1 || shares.empty())
    return plan;
  const size_t element = elementSize(p.dtype);
  // A slice fits a pinned slot, and every GPU's budget holds its rows of C
  // and three slices.
  auto fits = [&](int64_t depth) {
    if (sliceBytes(p, shares, depth, element) > kMaxSlotBytes)
      return false;
    for (const Share &share : shares)
      if (cRows(p, share, element).bytes() +
              kSlots * (bSlice(p, 0, depth, element).bytes() +
                        aSlice(p, share, 0, depth, element).bytes()) >
          budget)
        return false;
    return true;
  };
  int64_t depth = p.k;
  if (!fits(depth))
    for (depth = p.k / kSliceGrain * kSliceGrain; depth > 0 && !fits(depth);)
      depth -= kSliceGrain;
  if (depth < std::min(p.k, kMinDepth))
    return plan;
  size_t runBytes = 1;
  int64_t runs = 1;
  for (const Share &share : shares) {
    const HostGather c = cRows(p, share, element);
    runBytes = std::max(runBytes, c.runBytes());
    runs = std::max(runs, c.runCount());
  }
  plan.depth = depth;
  plan.slices = (p.k + depth - 1) / depth;
  // Bands of a chunk: the last band's copy back is what the kernels
  // cannot hide.
  plan.bandRuns = std::clamp<int64_t>(int64_t(kChunkBytes / runBytes), 1, runs);
  plan.pinnedSlot = std::max(sliceBytes(p, shares, depth, element),
                             size_t(plan.bandRuns) * runBytes);
  return plan;
}

std::vector<Choice> runSlices(const Problem &p, const Plan &plan,
                              const Split &split,
                              const std::vector<Operand> &biasOn) {
  const char *nest = p.nest;
  const size_t element = elementSize(p.dtype);
  const SlicePlan &sliced = split.slices;
  std::vector<Part> parts;
  std::vector<Pipeline *> readers;
  for (size_t i = 0; i < split.shares.size(); ++i) {
    const Share &share = split.shares[i];
    const DeviceScope on(share.device, nest);
    const HostGather c = cRows(p, share, element);
    const size_t bBytes = bSlice(p, 0, sliced.depth, element).bytes();
    const size_t aBytes = aSlice(p, share, 0, sliced.depth, element).bytes();
    auto *buffer = static_cast<unsigned char *>(poolBuffer(
        Role::Staging, c.bytes() + kSlots * (bBytes + aBytes), nest));
    Problem rows = rowsOf(p, share);
    rows.c = c.dense(buffer);
    rows.epilogue.bias = biasOn[i];
    parts.push_back({share.device, &pipeline(nest), c, buffer, bBytes, aBytes,
                     rows});
    readers.push_back(parts.back().pipe);
  }
  Slots slots(readers, sliced.pinnedSlot, nest);
  if (p.beta != 0)
    for (const Part &part : parts)
      sendWhole(part.c, {{part.device, part.pipe, part.buffer}}, slots, nest,
                "copying C to the GPU");

  // Each GPU's bands of the last slice, each done when its event is.
  std::vector<std::vector<cudaEvent_t>> bands(parts.size());
  for (int64_t s = 0; s < sliced.slices; ++s) {
    const bool last = s + 1 == sliced.slices;
    const int64_t k0 = s * sliced.depth;
    const int64_t depth = std::min(sliced.depth, p.k - k0);
    const int slot = slots.acquire();
    unsigned char *pinned = slots.at(slot);
    const HostGather b = bSlice(p, k0, depth, element);
    b.gather(pinned, 0, b.runCount());
    for (const Part &part : parts) {
      const DeviceScope on(part.device, nest);
      checkCuda(cudaMemcpyAsync(part.slot(slot), pinned, b.bytes(),
                                cudaMemcpyHostToDevice, part.pipe->in),
                nest, "copying B to the GPU");
    }
    size_t offset = b.bytes();
    for (size_t i = 0; i < parts.size(); ++i) {
      Part &part = parts[i];
      const HostGather a = aSlice(p, split.shares[i], k0, depth, element);
      a.gather(pinned + offset, 0, a.runCount());
      const DeviceScope on(part.device, nest);
      Pipeline &pipe = *part.pipe;
      checkCuda(cudaMemcpyAsync(part.slot(slot) + part.bBytes, pinned + offset,
                                a.bytes(), cudaMemcpyHostToDevice, pipe.in),
                nest, "copying A to the GPU");
      offset += a.bytes();
      order(pipe.ready[slot], pipe.in, pipe.compute, nest);
      Problem sub = part.rows;
      sub.k = depth;
      sub.a = a.dense(part.slot(slot) + part.bBytes);
      sub.b = b.dense(part.slot(slot));
      if (s > 0)
        sub.beta = 1;
      if (!last) {
        sub.epilogue.bias = {nullptr, 0, 0, 0};
        sub.epilogue.steps = 0;
        part.choice = launchStaged(sub, plan, smCount(), pipe, nest);
        checkCuda(cudaEventRecord(pipe.done[slot], pipe.compute), nest,
                  "recording a staging event");
        continue;
      }
      // The slot is free once its copies have landed: nothing reads its
      // device half after this slice.
      checkCuda(cudaEventRecord(pipe.done[slot], pipe.in), nest,
                "recording a staging event");
      for (int64_t first = 0; first < part.c.runCount();
           first += sliced.bandRuns) {
        const int64_t count =
            std::min(sliced.bandRuns, part.c.runCount() - first);
        part.choice = launchStaged(band(sub, part.c, first, count), plan,
                                   smCount(), pipe, nest);
        cudaEvent_t done;
        checkCuda(cudaEventCreateWithFlags(&done, cudaEventDisableTiming),
                  nest, "creating a staging event");
        checkCuda(cudaEventRecord(done, pipe.compute), nest,
                  "recording a staging event");
        bands[i].push_back(done);
      }
    }
  }

  // The bands go back in turn, each GPU's alternating, each scattered while
  // the next one's copy runs.
  std::deque<Pending> pending;
  auto scatterOldest = [&] {
    const Pending &oldest = pending.front();
    checkCuda(cudaEventSynchronize(oldest.part->pipe->done[oldest.slot]), nest,
              "copying C back from the GPU");
    oldest.part->c.scatter(oldest.pinned, oldest.first, oldest.last);
    pending.pop_front();
  };
  size_t most = 0;
  for (const std::vector<cudaEvent_t> &events : bands)
    most = std::max(most, events.size());
  for (size_t n = 0; n < most; ++n)
    for (size_t i = 0; i < parts.size(); ++i) {
      if (n >= bands[i].size())
        continue;
      const Part &part = parts[i];
      const int64_t first = int64_t(n) * sliced.bandRuns;
      const int64_t last = std::min(part.c.runCount(), first + sliced.bandRuns);
      const int slot = slots.acquire();
      const DeviceScope on(part.device, nest);
      Pipeline &pipe = *part.pipe;
      checkCuda(cudaStreamWaitEvent(pipe.out, bands[i][n], 0), nest,
                "ordering the staging streams");
      checkCuda(cudaMemcpyAsync(slots.at(slot),
                                part.buffer + first * part.c.runBytes(),
                                (last - first) * part.c.runBytes(),
                                cudaMemcpyDeviceToHost, pipe.out),
                nest, "copying C back from the GPU");
      checkCuda(cudaEventRecord(pipe.done[slot], pipe.out), nest,
                "recording a staging event");
      pending.push_back({slot, &part, first, last, slots.at(slot)});
      while (pending.size() > 1)
        scatterOldest();
    }
  while (!pending.empty())
    scatterOldest();
  std::vector<Choice> choices;
  for (size_t i = 0; i < parts.size(); ++i) {
    const DeviceScope on(parts[i].device, nest);
    checkCuda(cudaStreamSynchronize(parts[i].pipe->compute), nest,
              "kernel execution");
    for (cudaEvent_t event : bands[i])
      checkCuda(cudaEventDestroy(event), nest, "destroying a staging event");
    choices.push_back(parts[i].choice);
  }
  return choices;
}

} // namespace gemm_rt::detail
