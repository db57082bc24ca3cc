//===- pipeline.cu - Each GPU's streams and pinned ring -------------------===//
//
// Implements pipeline.h.
//
//===----------------------------------------------------------------------===//
#include "host/pipeline.h"

#include "checks/verify.h"
#include "core/check.h"
#include "core/device.h"

#include <algorithm>
#include <utility>

namespace gemm_rt::detail {

Pipeline::Pipeline(const char *nest) {
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

unsigned char *Pipeline::ring(size_t bytes, const char *nest) {
  if (bytes > pinnedBytes) {
    checkCuda(cudaFreeHost(pinned), nest, "freeing the pinned ring");
    pinned = nullptr;
    // Portable: a split call's GPUs all copy from the first one's ring.
    checkCuda(cudaHostAlloc(reinterpret_cast<void **>(&pinned), bytes,
                            cudaHostAllocPortable),
              nest, "allocating the pinned ring");
    pinnedBytes = bytes;
  }
  return pinned;
}

Pipeline &pipeline(const char *nest) {
  static Pipeline *perDevice[kMaxDevices] = {};
  Pipeline *&shared = perDevice[currentDevice()];
  if (!shared)
    shared = new Pipeline(nest);
  return *shared;
}

void order(cudaEvent_t event, cudaStream_t earlier, cudaStream_t later,
           const char *nest) {
  checkCuda(cudaEventRecord(event, earlier), nest,
            "recording a staging event");
  checkCuda(cudaStreamWaitEvent(later, event, 0), nest,
            "ordering the staging streams");
}

Slots::Slots(std::vector<Pipeline *> readers, size_t bytes, const char *nest)
    : readers(std::move(readers)),
      ring(this->readers.front()->ring(kSlots * bytes, nest)), bytes(bytes),
      nest(nest) {}

int Slots::acquire() {
  const int slot = next;
  next = (next + 1) % kSlots;
  if (used[slot])
    for (Pipeline *pipe : readers)
      checkCuda(cudaEventSynchronize(pipe->done[slot]), nest,
                "waiting for a staging slot");
  used[slot] = true;
  return slot;
}

void sendWhole(const HostGather &whole, const std::vector<Target> &targets,
               Slots &slots, const char *nest, const char *what) {
  const int64_t chunk =
      std::max<int64_t>(1, int64_t(slots.size() / whole.runBytes()));
  for (int64_t r = 0; r < whole.runCount(); r += chunk) {
    const int64_t last = std::min(whole.runCount(), r + chunk);
    const int slot = slots.acquire();
    whole.gather(slots.at(slot), r, last);
    for (const Target &to : targets) {
      const DeviceScope on(to.device, nest);
      checkCuda(cudaMemcpyAsync(to.buffer + r * whole.runBytes(),
                                slots.at(slot), (last - r) * whole.runBytes(),
                                cudaMemcpyHostToDevice, to.pipe->in),
                nest, what);
      checkCuda(cudaEventRecord(to.pipe->done[slot], to.pipe->in), nest,
                "recording a staging event");
    }
  }
}

Choice launchStaged(const Problem &launched, const Plan &plan, int sms,
                    const Pipeline &pipe, const char *nest) {
  if (!verifying())
    return launchChosen(launched, plan, sms, pipe.compute);
  // The check snapshots C: the copies in must have landed.
  checkCuda(cudaStreamSynchronize(pipe.in), nest, "copying a panel");
  LaunchCheck check(launched);
  const Choice choice = launchChosen(launched, plan, sms, pipe.compute);
  checkCuda(cudaStreamSynchronize(pipe.compute), nest, "kernel execution");
  check.report(plan.variants[choice.variant].launch);
  return choice;
}

size_t chunkSlot(const HostGather &whole) {
  return std::max(whole.runBytes(), std::min(whole.bytes(), kChunkBytes));
}

} // namespace gemm_rt::detail
