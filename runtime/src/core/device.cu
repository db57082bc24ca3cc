//===- device.cu - The GPU, pointer kinds and the staging pool ------------===//
//
// Implements the queries and the pool declared in device.h.
//
//===----------------------------------------------------------------------===//
#include "core/device.h"

#include "core/check.h"
#include "core/switches.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <link.h>
#include <memory>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace gemm_rt::detail {

namespace {
/// What the probe learns of one GPU: its name and SMs, or why it is unusable.
struct Gpu {
  std::string name;
  int sms = 0;
  /// "no GPU (<the CUDA call that failed>: <its error>)", or empty.
  std::string missing;
};

/// Probes `device`, or the current device where it is negative.
Gpu probeGpu(int device) {
  Gpu gpu;
  auto succeeded = [&](cudaError_t error, const char *call) {
    if (error != cudaSuccess)
      gpu.missing = std::string("no GPU (") + call + ": " +
                    cudaGetErrorString(error) + ")";
    return error == cudaSuccess;
  };
  int count = 0;
  cudaDeviceProp prop;
  // cudaFree(nullptr) creates the context, which fails on a GPU that exists
  // but cannot be used (prohibited compute mode, no free exclusive slot).
  bool usable =
      succeeded(cudaGetDeviceCount(&count), "cudaGetDeviceCount") &&
      // A count of 0 says what cudaErrorNoDevice says.
      succeeded(count > 0 ? cudaSuccess : cudaErrorNoDevice,
                "cudaGetDeviceCount") &&
      (device >= 0 || succeeded(cudaGetDevice(&device), "cudaGetDevice")) &&
      succeeded(cudaGetDeviceProperties(&prop, device),
                "cudaGetDeviceProperties") &&
      succeeded(cudaFree(nullptr), "cudaFree");
  if (!usable) {
    // The program's own CUDA calls must not see our probe's error.
    (void)cudaGetLastError();
    return gpu;
  }
  gpu.name = prop.name;
  gpu.sms = prop.multiProcessorCount;
  return gpu;
}

/// The process's first probe, on the device current then: whether it can
/// use a GPU at all.
const Gpu &firstGpu() {
  static const Gpu probed = probeGpu(-1);
  return probed;
}

/// The current device's probe, made once per device (a call runs on the
/// device DeviceScope made current).
const Gpu &currentGpu() {
  static std::mutex mutex;
  static std::unique_ptr<Gpu> probed[kMaxDevices];
  const int device = currentDevice();
  std::lock_guard<std::mutex> lock(mutex);
  if (!probed[device])
    probed[device] = std::make_unique<Gpu>(probeGpu(device));
  return *probed[device];
}
} // namespace

int currentDevice() {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  if (device >= kMaxDevices)
    fatal("(any)", "device " + std::to_string(device) + " is current, and "
                   "the runtime keeps state for the first " +
                   std::to_string(kMaxDevices) + " GPUs only; set "
                   "CUDA_VISIBLE_DEVICES to fewer");
  return device;
}

const char *gpuName() {
  if (!firstGpu().missing.empty())
    return nullptr;
  return currentGpu().name.c_str();
}

const char *noGpuReason() { return firstGpu().missing.c_str(); }

int smCount() { return currentGpu().sms; }

Pointer pointerOf(const void *ptr, const char *nest) {
  cudaPointerAttributes attrs;
  checkCuda(cudaPointerGetAttributes(&attrs, ptr), nest,
            "cudaPointerGetAttributes");
  switch (attrs.type) {
  case cudaMemoryTypeDevice:
    return {PointerKind::Device, attrs.device};
  case cudaMemoryTypeManaged:
    return {PointerKind::Managed, attrs.device};
  default:
    // Pinned host memory could be read in place, but staging is always right.
    return {PointerKind::Host, -1};
  }
}

int visibleGpus() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count <= 0) {
    (void)cudaGetLastError();
    return 0;
  }
  return count;
}

std::optional<int> localRank() {
  // The variables that MPI launchers and Slurm set to a rank's index among
  // the ranks of its node, so that each rank takes its own GPU.
  for (const char *name :
       {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
        "MV2_COMM_WORLD_LOCAL_RANK", "PMI_LOCAL_RANK", "PALS_LOCAL_RANKID",
        "SLURM_LOCALID"}) {
    const char *value = std::getenv(name);
    char *end = nullptr;
    const long rank = value && *value ? std::strtol(value, &end, 10) : -1;
    if (rank >= 0 && end && !*end)
      return int(rank);
  }
  return std::nullopt;
}

int hostCallDevice() {
  const int count = visibleGpus();
  if (count == 0)
    return currentDevice();
  if (const std::optional<std::vector<int>> listed = gpusSwitch();
      listed && !listed->empty())
    return listed->front() % count;
  if (const std::optional<int> rank = localRank())
    return *rank % count;
  return currentDevice();
}

DeviceScope::DeviceScope(int device, const char *nest)
    : previous(currentDevice()) {
  if (device != previous)
    checkCuda(cudaSetDevice(device), nest, "cudaSetDevice");
}

DeviceScope::~DeviceScope() {
  if (currentDevice() != previous)
    (void)cudaSetDevice(previous);
}

namespace {
/// The initial program break, the 47th field of /proc/self/stat (Linux 3.3
/// on); 0 where it cannot be read, so that no pointer counts as heap.
uintptr_t heapStart() {
  static const uintptr_t start = [] {
    uintptr_t value = 0;
    if (FILE *stat = std::fopen("/proc/self/stat", "r")) {
      char line[4096];
      // Field 2, the command, is in parentheses and may hold spaces.
      const char *field = std::fgets(line, sizeof line, stat)
                              ? std::strrchr(line, ')')
                              : nullptr;
      for (int n = 2; field && n < 47; ++n)
        field = std::strchr(field + 1, ' ');
      if (field)
        value = std::strtoull(field + 1, nullptr, 10);
      std::fclose(stat);
    }
    return value;
  }();
  return start;
}

/// The calling thread's stack, [bottom, top); empty where it cannot be read.
struct Stack {
  uintptr_t bottom = 0, top = 0;
};

Stack threadStack() {
  thread_local const Stack stack = [] {
    Stack s;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
      return s;
    void *base = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &base, &size) == 0 && base && size)
      s = {reinterpret_cast<uintptr_t>(base),
           reinterpret_cast<uintptr_t>(base) + size};
    pthread_attr_destroy(&attr);
    return s;
  }();
  return stack;
}

/// A loaded segment of the program or of a library, [begin, end).
struct Segment {
  uintptr_t begin, end;
};

/// The loadable segments (code, constants, data, bss) of every object
/// loaded when first asked; libraries opened later are not among them.
const std::vector<Segment> &loadedSegments() {
  static const std::vector<Segment> segments = [] {
    std::vector<Segment> found;
    dl_iterate_phdr(
        [](dl_phdr_info *info, size_t, void *out) {
          for (int i = 0; i < info->dlpi_phnum; ++i) {
            const ElfW(Phdr) &header = info->dlpi_phdr[i];
            if (header.p_type == PT_LOAD && header.p_memsz)
              static_cast<std::vector<Segment> *>(out)->push_back(
                  {info->dlpi_addr + header.p_vaddr,
                   info->dlpi_addr + header.p_vaddr + header.p_memsz});
          }
          return 0;
        },
        &found);
    return found;
  }();
  return segments;
}
} // namespace

bool surelyHost(const void *ptr) {
  const auto address = reinterpret_cast<uintptr_t>(ptr);
  // Only while the caller runs on the thread's own stack (not a coroutine's
  // or a signal handler's) is [frame, top) the live stack.
  const auto frame = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  const Stack stack = threadStack();
  if (frame >= stack.bottom && frame < stack.top && address > frame &&
      address < stack.top)
    return true;
  const uintptr_t heap = heapStart();
  if (heap && address >= heap &&
      address < reinterpret_cast<uintptr_t>(sbrk(0)))
    return true;
  return std::any_of(loadedSegments().begin(), loadedSegments().end(),
                     [&](const Segment &segment) {
                       return address >= segment.begin && address < segment.end;
                     });
}

const char *pointerKindName(PointerKind kind) {
  static const char *const names[] = {"device", "managed", "host-staged"};
  return names[static_cast<int>(kind)];
}

namespace {
struct Buffer {
  void *ptr = nullptr;
  size_t capacity = 0;
};

/// The current device's buffer for `role`: each GPU has its own pool.
Buffer &bufferOf(Role role) {
  static Buffer buffers[kMaxDevices][static_cast<int>(Role::Arrivals) + 1];
  return buffers[currentDevice()][static_cast<int>(role)];
}
} // namespace

void *poolBuffer(Role role, size_t bytes, const char *nest) {
  Buffer &buf = bufferOf(role);
  if (bytes <= buf.capacity)
    return buf.ptr;
  size_t capacity = std::max(bytes, 2 * buf.capacity);
  checkCuda(cudaFree(buf.ptr), nest, "freeing a pool buffer");
  buf = {};
  // Staging sizes its panels to the free memory: doubling may not fit.
  if (capacity > bytes && cudaMalloc(&buf.ptr, capacity) != cudaSuccess) {
    (void)cudaGetLastError();
    capacity = bytes;
  }
  if (capacity == bytes)
    checkCuda(cudaMalloc(&buf.ptr, capacity), nest,
              "allocating a pool buffer");
  buf.capacity = capacity;
  return buf.ptr;
}

size_t poolCapacity(Role role) { return bufferOf(role).capacity; }

} // namespace gemm_rt::detail
