//===- device.h - The GPU, pointer kinds and the staging pool ---*- C++ -*-===//
//
// What run() needs to know about the machine and about the caller's memory.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_DEVICE_H
#define GEMM_RUNTIME_DEVICE_H

#include "gemm_runtime.h" // detail::surelyHost

#include <cstddef>
#include <optional>

namespace gemm_rt::detail {

/// The GPUs whose state (probe, pool, staging) the runtime keeps apart.
constexpr int kMaxDevices = 64;

/// The calling thread's current device (0 where CUDA cannot say), below
/// kMaxDevices.
int currentDevice();

/// The name of the current GPU, or null when the process has none it can
/// use. Probed once per device; the probe prints nothing and leaves no CUDA
/// error behind.
const char *gpuName();

/// Why gpuName() is null: "no GPU (<the CUDA call>: <its error>)".
const char *noGpuReason();

/// The current GPU's SM count; call only when gpuName() is not null.
int smCount();

/// Where an operand's memory lives, as far as the kernel is concerned.
enum class PointerKind {
  Device,  ///< cudaMalloc'd: the kernel reads it in place.
  Managed, ///< cudaMallocManaged: the kernel reads it in place.
  Host,    ///< Anything else: the kernel reads a staged copy.
};

/// An operand's memory: its kind, and the device that holds it (-1 for
/// host memory).
struct Pointer {
  PointerKind kind;
  int device;
};

/// Where `ptr` points; a failing query aborts, naming `nest`.
Pointer pointerOf(const void *ptr, const char *nest);

/// How many GPUs the process sees (CUDA_VISIBLE_DEVICES); 0 without any.
int visibleGpus();

/// The rank's index among the ranks of its node, where an MPI launcher or
/// Slurm set one.
std::optional<int> localRank();

/// The GPU that runs a call whose operands are all host memory when it
/// runs on one: GEMM_OPT_GPUS's first index, else the MPI or Slurm local
/// rank's (each rank of a node its own GPU), both modulo the visible GPUs,
/// else the calling thread's current device (docs/switches.md).
int hostCallDevice();

/// Makes `device` current for the life of the scope, then the previous one
/// again, so that the caller's own CUDA calls are not moved to it.
class DeviceScope {
public:
  DeviceScope(int device, const char *nest);
  ~DeviceScope();
  DeviceScope(const DeviceScope &) = delete;
  DeviceScope &operator=(const DeviceScope &) = delete;

private:
  int previous;
};

/// The word trace lines use for `kind`.
const char *pointerKindName(PointerKind kind);

/// What a pool buffer holds: host operands' panels (staging.h), a staged
/// bias, the operand that every GPU of a split call holds whole (gpus.h),
/// split-K's chunks (or stream-K's partial sums), or stream-K's arrival
/// counters.
enum class Role { Staging, Bias, Whole, Chunks, Arrivals };

/// A device buffer of at least `bytes` bytes for `role`.
/// Buffers are reused across calls and grow geometrically where the memory
/// allows, else to `bytes`. They are never freed, since the driver releases
/// them at exit. Not thread-safe: the caller serialises uses.
void *poolBuffer(Role role, size_t bytes, const char *nest);

/// The bytes `role`'s buffer holds now.
size_t poolCapacity(Role role);

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_DEVICE_H
