//===- timing.cu - Timing and checking a plan's choices on the GPU ---------===//
//
// What a tuning program (tune.cu) and run-time tuning (autotune.cu) share:
// packed random operands in device memory, the reference, each choice
// launched once into a poisoned C and checked against it under verify()'s
// bound, then timed between CUDA events; and the database's rows.
//
//===----------------------------------------------------------------------===//
#include "tuning/measure.h"

#include "core/check.h"
#include "launch/choose.h"
#include "core/device.h"
#include "gemm-opt-abi/TuningFormat.h"
#include "launch/layout.h"
#include "launch/split.h"
#include "launch/streamk.h"
#include "checks/verify.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gemm_rt::detail {

namespace {
/// Long kernels get fewer runs: at least kMinRuns, and beyond them only as
/// many as fit in kExtraSeconds, so that a large case stays minutes long.
constexpr double kExtraSeconds = 0.3;

/// The GPU's columns of a tuning record.
struct DeviceColumns {
  cudaDeviceProp prop;
  int driver = 0, runtime = 0;
};

DeviceColumns deviceColumns() {
  DeviceColumns d;
  int device = 0;
  checkCuda(cudaGetDevice(&device), "tune", "cudaGetDevice");
  checkCuda(cudaGetDeviceProperties(&d.prop, device), "tune",
            "cudaGetDeviceProperties");
  checkCuda(cudaDriverGetVersion(&d.driver), "tune", "cudaDriverGetVersion");
  checkCuda(cudaRuntimeGetVersion(&d.runtime), "tune",
            "cudaRuntimeGetVersion");
  return d;
}

/// A device allocation of one case, freed with it.
class DeviceBuffer {
public:
  DeviceBuffer(size_t bytes, const char *nest) : bytes(bytes), nest(nest) {
    checkCuda(cudaMalloc(&ptr, bytes), nest, "allocating a tuning buffer");
  }
  ~DeviceBuffer() {
    checkCuda(cudaFree(ptr), nest, "freeing a tuning buffer");
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  /// A host copy of the buffer.
  std::vector<unsigned char> toHost() const {
    std::vector<unsigned char> host(bytes);
    checkCuda(cudaMemcpy(host.data(), ptr, bytes, cudaMemcpyDeviceToHost),
              nest, "copying a tuning buffer to the host");
    return host;
  }

  void *ptr = nullptr;
  size_t bytes;

private:
  const char *nest;
};

/// splitmix64's finaliser: consecutive inputs give unrelated outputs.
__device__ uint64_t mixBits(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// A number in [-1, 1) from the top bits of h, exact in T.
__device__ float uniformOf(uint64_t h, float) {
  return float(h >> 40) * 0x1p-23f - 1.0f;
}
__device__ double uniformOf(uint64_t h, double) {
  return double(h >> 11) * 0x1p-52 - 1.0;
}

/// data[e] = a pseudo-random number in [-1, 1), a hash of e and the seed.
template <class T>
__global__ void fillRandom(T *data, int64_t count, uint64_t seed) {
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < count;
       e += int64_t(gridDim.x) * blockDim.x)
    data[e] = uniformOf(mixBits(seed * 0x9e3779b97f4a7c15ull + uint64_t(e)),
                        T());
}

/// Fills `buffer` with fillRandom's numbers of `dtype`.
void fillOperand(const DeviceBuffer &buffer, DType dtype, uint64_t seed,
                 const char *nest) {
  constexpr int threads = 256;
  const int64_t count = int64_t(buffer.bytes / elementSize(dtype));
  const unsigned blocks =
      unsigned(std::min<int64_t>((count + threads - 1) / threads, 1 << 16));
  if (dtype == DType::F32)
    fillRandom<<<blocks, threads>>>(static_cast<float *>(buffer.ptr), count,
                                    seed);
  else
    fillRandom<<<blocks, threads>>>(static_cast<double *>(buffer.ptr), count,
                                    seed);
  checkCuda(cudaGetLastError(), nest, "filling the operands");
}

/// A packed rows x cols operand whose unit stride runs along the row ('r')
/// or the column ('c'), batches back to back.
Operand packed(const void *ptr, char unit, int64_t rows, int64_t cols) {
  return unit == 'r' ? Operand{ptr, rows * cols, cols, 1}
                     : Operand{ptr, rows * cols, 1, rows};
}

/// The case's problem on packed operands of `layout` (A's, B's and C's
/// unit stride): alpha 1, beta 0, no epilogue.
Problem problemOf(const TuneNest &nest, const TuneCase &c, const char *layout,
                  const void *a, const void *b, const void *cPtr) {
  Problem p{};
  p.nest = nest.nest;
  p.dtype = nest.dtype;
  p.batch = c.batch;
  p.m = c.m;
  p.n = c.n;
  p.k = c.k;
  p.a = packed(a, layout[0], c.m, c.k);
  p.b = packed(b, layout[1], c.k, c.n);
  p.c = packed(cPtr, layout[2], c.m, c.n);
  p.alpha = 1;
  p.beta = 0;
  return p;
}

/// The check's bound for the case (verify()'s), from host copies of A and
/// B. The bound takes their Frobenius norms, which do not depend on the
/// order the elements are visited in, so the packed copies are read in
/// memory order, as if row-major, whatever the layout.
double boundOf(const TuneNest &nest, const TuneCase &c, const DeviceBuffer &a,
               const DeviceBuffer &b) {
  const std::vector<unsigned char> hostA = a.toHost(), hostB = b.toHost();
  // No epilogue: the reference is not read.
  return normwiseBound(
      problemOf(nest, c, "rrr", hostA.data(), hostB.data(), nullptr), nullptr,
      nullptr);
}

/// Adds (c - ref)^2 over `count` elements laid out alike to error[0] where
/// ref is finite, and sets mismatch where c differs from ref in kind.
template <class T>
__global__ void squaredError(const T *c, const T *ref, int64_t count,
                             double *error, int *mismatch) {
  double sum = 0;
  bool differs = false;
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < count;
       e += int64_t(gridDim.x) * blockDim.x) {
    const double got = c[e], want = ref[e];
    if (!isfinite(want))
      differs |= !(got == want || (isnan(got) && isnan(want)));
    else if (!isfinite(got))
      differs = true;
    else
      sum += (got - want) * (got - want);
  }
  atomicAdd(error, sum);
  if (differs)
    atomicOr(mismatch, 1);
}

/// What squaredError sums on the device for one check.
struct Sums {
  double squared;
  int mismatch;
};

/// err / bound of the result in `c` against `reference` (laid out alike),
/// summed on the GPU into `sums` (a Sums); +inf where C holds a NaN, as a
/// poisoned element the choice did not write does.
double checkRatio(const TuneNest &nest, const DeviceBuffer &c,
                  const DeviceBuffer &reference, const DeviceBuffer &sums,
                  double bound) {
  Sums *device = static_cast<Sums *>(sums.ptr);
  checkCuda(cudaMemset(device, 0, sizeof(Sums)), nest.nest, "cudaMemset");
  constexpr int threads = 256;
  const int64_t count = int64_t(c.bytes / elementSize(nest.dtype));
  const unsigned blocks =
      unsigned(std::min<int64_t>((count + threads - 1) / threads, 1024));
  if (nest.dtype == DType::F32)
    squaredError<<<blocks, threads>>>(
        static_cast<const float *>(c.ptr),
        static_cast<const float *>(reference.ptr), count, &device->squared,
        &device->mismatch);
  else
    squaredError<<<blocks, threads>>>(
        static_cast<const double *>(c.ptr),
        static_cast<const double *>(reference.ptr), count, &device->squared,
        &device->mismatch);
  checkCuda(cudaGetLastError(), nest.nest, "launching the check");
  Sums host;
  checkCuda(cudaMemcpy(&host, device, sizeof(Sums), cudaMemcpyDeviceToHost),
            nest.nest, "running the check");
  return errorRatio({host.squared, host.mismatch != 0}, bound);
}

/// Seconds of one launch of `choice`, between two events.
double timeOnce(const Problem &p, const Plan &plan, const Choice &choice,
                cudaEvent_t start, cudaEvent_t stop) {
  checkCuda(cudaEventRecord(start), p.nest, "cudaEventRecord");
  launchChoice(p, plan, choice, 0);
  checkCuda(cudaEventRecord(stop), p.nest, "cudaEventRecord");
  checkCuda(cudaEventSynchronize(stop), p.nest, "running a timed kernel");
  float ms = 0;
  checkCuda(cudaEventElapsedTime(&ms, start, stop), p.nest,
            "cudaEventElapsedTime");
  return ms * 1e-3;
}

/// The median seconds of `runs` launches of `choice` after the warm-ups,
/// with fewer runs where the first warm-up says they would take long.
double medianSeconds(const Problem &p, const Plan &plan, const Choice &choice,
                     int runs) {
  cudaEvent_t start, stop;
  checkCuda(cudaEventCreate(&start), p.nest, "cudaEventCreate");
  checkCuda(cudaEventCreate(&stop), p.nest, "cudaEventCreate");
  const double first = timeOnce(p, plan, choice, start, stop);
  for (int i = 1; i < kWarmups; ++i)
    timeOnce(p, plan, choice, start, stop);
  // Compared in double: kExtraSeconds / first may not fit an int.
  if (kMinRuns + kExtraSeconds / first < runs)
    runs = kMinRuns + int(kExtraSeconds / first);
  std::vector<double> seconds(size_t(runs), 0.0);
  for (double &s : seconds)
    s = timeOnce(p, plan, choice, start, stop);
  checkCuda(cudaEventDestroy(start), p.nest, "cudaEventDestroy");
  checkCuda(cudaEventDestroy(stop), p.nest, "cudaEventDestroy");
  std::sort(seconds.begin(), seconds.end());
  return seconds[seconds.size() / 2];
}

/// The choices of case `c`: each listed variant with each split run() weighs
/// and the variant runs, unsplit with the tail run() would give it, and as
/// stream-K where it has that form for the problem (streamSlots).
std::vector<Choice> choicesOf(const TuneNest &nest, const TuneCase &c,
                              const Problem &p) {
  std::vector<Choice> choices;
  for (int i = 0; i < c.count; ++i) {
    const int v = c.variants[i];
    if (v < 0 || v >= nest.plan.count) {
      std::fprintf(stderr, "tune: nest %s: no variant %d (the plan has %d)\n",
                   nest.nest, v, nest.plan.count);
      continue;
    }
    forEachSplit(p, [&](int64_t splits) {
      if (runnable(p, nest.plan, v, splits))
        choices.push_back(predicted(p, nest.plan, v, splits, smCount()));
    });
    if (const int64_t slots = streamSlots(p, nest.plan.variants[v], smCount()))
      choices.push_back({v, 1, 0, {}, slots});
  }
  return choices;
}

} // namespace

std::FILE *openDatabase(const std::string &path) {
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::error_code ignored; // fopen reports a directory that is still missing.
  if (!dir.empty())
    std::filesystem::create_directories(dir, ignored);
  std::FILE *file = std::fopen(path.c_str(), "a");
  if (!file) {
    std::fprintf(stderr, "tune: cannot open the tuning database %s: %s\n",
                 path.c_str(), std::strerror(errno));
    return nullptr;
  }
  // No rows: only the header, if the file is empty.
  if (!appendRows(file, "")) {
    std::fprintf(stderr, "tune: cannot use the tuning database %s\n",
                 path.c_str());
    std::fclose(file);
    return nullptr;
  }
  return file;
}

bool appendRows(std::FILE *db, const std::string &rows) {
  const int fd = fileno(db);
  int locked;
  while ((locked = ::flock(fd, LOCK_EX)) != 0 && errno == EINTR) {
  }
  if (locked != 0) {
    std::fprintf(stderr, "tune: cannot lock the tuning database: %s\n",
                 std::strerror(errno));
    return false;
  }
  // Under the lock: another writer may have written the header since this
  // one opened the file.
  struct stat before {};
  bool ok = ::fstat(fd, &before) == 0;
  const std::string text =
      before.st_size == 0 ? std::string(gemm_tuning::kHeader) + "\n" + rows
                          : rows;
  size_t done = 0;
  while (ok && done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    ok = n > 0;
    done += ok ? size_t(n) : 0;
  }
  const int error = errno;
  // Rows cut short (a full disk) are taken back: the file holds whole rows.
  const bool cut = !ok && done > 0 && ::ftruncate(fd, before.st_size) != 0;
  ::flock(fd, LOCK_UN);
  if (!ok)
    std::fprintf(stderr, "tune: cannot write the tuning database: %s%s\n",
                 std::strerror(error), cut ? " (a partial row is left)" : "");
  return ok;
}

size_t timeCaseBytes(DType dtype, const TuneCase &c) {
  return size_t(c.batch * (c.m * c.k + c.k * c.n + 2 * c.m * c.n)) *
         elementSize(dtype);
}

// Poisons C, runs each choice once and checks it, then times it.
std::vector<Timed> timeCase(const TuneNest &nest, const TuneCase &c,
                            int runs) {
  const size_t size = elementSize(nest.dtype);
  const DeviceBuffer a(size_t(c.batch * c.m * c.k) * size, nest.nest),
      b(size_t(c.batch * c.k * c.n) * size, nest.nest),
      cBuf(size_t(c.batch * c.m * c.n) * size, nest.nest),
      reference(cBuf.bytes, nest.nest), sums(sizeof(Sums), nest.nest);
  fillOperand(a, nest.dtype, 1, nest.nest);
  fillOperand(b, nest.dtype, 2, nest.nest);
  const Problem p = problemOf(nest, c, nest.layout, a.ptr, b.ptr, cBuf.ptr);
  Problem oracle = p;
  oracle.c.ptr = reference.ptr;
  checkCuda(launchReference(oracle, 0), nest.nest, "launching the reference");
  checkCuda(cudaDeviceSynchronize(), nest.nest, "running the reference");
  const double bound = boundOf(nest, c, a, b);

  std::vector<Timed> rows;
  for (const Choice &choice : choicesOf(nest, c, p)) {
    // All bits set is a NaN in f32 and f64: an element left unwritten fails.
    // Split-K's chunks too, or a chunk the kernel skipped would sum what an
    // earlier choice left there.
    checkCuda(cudaMemset(cBuf.ptr, 0xff, cBuf.bytes), nest.nest,
              "poisoning C");
    // A tail's split takes the same buffer, of fewer rows.
    const int64_t splits = std::max(choice.splits, choice.tail.splits);
    if (splits > 1)
      checkCuda(cudaMemset(splitWorkspace(p, splits), 0xff,
                           splitWorkspaceBytes(p, splits)),
                nest.nest, "poisoning the split's workspace");
    // Stream-K's partial sums too, so that a sum read before it was written
    // fails; not its counters, which the launches keep.
    if (choice.streamed > 0)
      checkCuda(cudaMemset(streamKLaunch(p, nest.plan.variants[choice.variant],
                                        choice.streamed)
                               .partials,
                           0xff, poolCapacity(Role::Chunks)),
                nest.nest, "poisoning the stream-K partial sums");
    launchChoice(p, nest.plan, choice, 0);
    checkCuda(cudaDeviceSynchronize(), nest.nest, "running a kernel");
    const double ratio = checkRatio(nest, cBuf, reference, sums, bound);
    rows.push_back({choice, medianSeconds(p, nest.plan, choice, runs), ratio});
  }
  return rows;
}

/// Appends the case's rows to the database, one record per choice whose
/// variant has a schedule, all in one locked write.
bool writeRecords(std::FILE *db, const TuneNest &nest, const TuneCase &c,
                  const std::vector<Timed> &rows) {
  const DeviceColumns d = deviceColumns();
  char *text = nullptr;
  size_t size = 0;
  std::FILE *buffer = open_memstream(&text, &size);
  if (!buffer) {
    std::fprintf(stderr, "tune: cannot format the tuning records: %s\n",
                 std::strerror(errno));
    return false;
  }
  for (const Timed &row : rows) {
    const char *schedule = nest.plan.variants[row.choice.variant].schedule;
    if (!schedule)
      continue;
    gemm_tuning::writeRecord(
        buffer, {d.prop.name, d.prop.major * 10 + d.prop.minor,
                 d.prop.multiProcessorCount, d.driver, d.runtime,
                 nest.plan.version, nest.plan.templates,
                 dtypeName(nest.dtype), nest.layout, c.batch, c.m, c.n, c.k,
                 /*betaZero=*/true, measuredSplits(row.choice), schedule,
                 row.seconds * 1e6, gflopsOf(c, row.seconds),
                 /*cublasGFlops=*/0, row.passed()});
  }
  const bool formatted = std::fclose(buffer) == 0;
  const std::string lines = formatted ? std::string(text, size) : "";
  std::free(text);
  return formatted && appendRows(db, lines);
}
} // namespace gemm_rt::detail
