//===- pipeline.h - Each GPU's streams and pinned ring ----------*- C++ -*-===//
//
// What the staged paths (staging.cu, slices.cu) share: each GPU's streams,
// events and pinned ring, kept between calls; the ring's slots, handed out
// once every GPU that read a slot is done with it; and an operand sent
// whole, in chunks gathered once each and sent to every GPU that needs it.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_PIPELINE_H
#define GEMM_RUNTIME_PIPELINE_H

#include "host/gather.h"
#include "host/panels.h"
#include "launch/choose.h"

#include <cuda_runtime.h>
#include <vector>

namespace gemm_rt::detail {

/// What the pipeline keeps between calls: streams, events and the ring.
struct Pipeline {
  cudaStream_t in, compute, out;
  /// Per slot: its copies in landed, its contents free; the kernels done
  /// with a block of B.
  cudaEvent_t ready[kSlots], done[kSlots], blockDone;
  unsigned char *pinned = nullptr;
  size_t pinnedBytes = 0;

  explicit Pipeline(const char *nest);

  /// The ring, grown to `bytes` (never shrunk: it is reused by every call).
  unsigned char *ring(size_t bytes, const char *nest);
};

/// The current device's pipeline: streams, events and pinned memory of
/// each GPU are its own.
Pipeline &pipeline(const char *nest);

/// Makes `later` wait, through `event`, for the work queued on `earlier`.
void order(cudaEvent_t event, cudaStream_t earlier, cudaStream_t later,
           const char *nest);

/// The ring's slots of `bytes` each, in turn: a slot is handed out once the
/// GPUs that read it (their pipelines, the ring's owner first) are done with
/// what it last held.
class Slots {
public:
  Slots(std::vector<Pipeline *> readers, size_t bytes, const char *nest);
  Slots(Pipeline &pipe, size_t bytes, const char *nest)
      : Slots(std::vector<Pipeline *>{&pipe}, bytes, nest) {}

  int acquire();
  unsigned char *at(int slot) const { return ring + slot * bytes; }
  size_t size() const { return bytes; }

private:
  std::vector<Pipeline *> readers;
  unsigned char *ring;
  size_t bytes;
  const char *nest;
  bool used[kSlots] = {};
  int next = 0;
};

/// Where a whole operand goes: a buffer on a GPU, sent on its pipeline.
struct Target {
  int device;
  Pipeline *pipe;
  unsigned char *buffer;
};

/// Queues `whole` to every target on its `in` stream, in chunks of its runs
/// gathered once each through the ring, whose readers are the targets'
/// pipelines in order.
void sendWhole(const HostGather &whole, const std::vector<Target> &targets,
               Slots &slots, const char *nest, const char *what);

/// Launches `launched`, whose operands are on the device, on `pipe`'s
/// compute stream. Under GEMM_OPT_VERIFY it first waits for the copies in,
/// and checks the launch (which it then waits for).
Choice launchStaged(const Problem &launched, const Plan &plan, int sms,
                    const Pipeline &pipe, const char *nest);

/// A slot for sending `whole` in chunks: a run at least, at most a chunk.
size_t chunkSlot(const HostGather &whole);

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_PIPELINE_H
