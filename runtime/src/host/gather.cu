//===- gather.cu - Dense copies of strided host operands ------------------===//
//
// Implements the packing and the copy threads declared in gather.h.
//
//===----------------------------------------------------------------------===//
#include "host/gather.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace gemm_rt::detail {

namespace {
int64_t extentOf(const Extents &e, int dim) {
  return dim == 0 ? e.batch : dim == 1 ? e.rows : e.cols;
}

int64_t strideOf(const Operand &op, int dim) {
  return dim == 0 ? op.sb : dim == 1 ? op.sr : op.sc;
}

int64_t &strideOf(Operand &op, int dim) {
  return dim == 0 ? op.sb : dim == 1 ? op.sr : op.sc;
}

int64_t magnitude(int64_t x) { return x < 0 ? -x : x; }

/// How long a copy thread spins for the next job before it sleeps: longer
/// than a staged call's wait for its copies and kernels between two of its
/// host copies, at sizes where the copies' time is mostly wake-ups.
constexpr std::chrono::microseconds kSpin(500);
/// A copy's pieces. One core copies 64 KiB in about 6 us; smaller pieces
/// would spend more in hand-overs than they gain in balance.
constexpr int64_t kPieceBytes = int64_t(64) << 10;
/// The copy threads, the caller's included, at most.
constexpr int kMaxThreads = 24;

/// Runs of at least this many bytes are scattered with streaming stores.
/// Shorter ones would leave the write-combining buffers part-filled.
constexpr size_t kStreamBytes = 4096;

/// memcpy into memory that the program reads later, if at all, from memory:
/// streaming stores skip reading each line before it is overwritten. On a
/// 32-core Xeon host of two H200s, 24 threads scattered pinned rows into
/// pageable memory at 114 GB/s this way, 75 with memcpy. Gathers into the
/// pinned ring keep memcpy: the link then reads the rows from the cache
/// (95 GB/s, 62 with streaming stores).
void scatterCopy(void *to, const void *from, size_t bytes) {
#if defined(__x86_64__)
  auto *d = static_cast<unsigned char *>(to);
  auto *s = static_cast<const unsigned char *>(from);
  if (bytes < kStreamBytes) {
    std::memcpy(d, s, bytes);
    return;
  }
  const size_t head = (16 - reinterpret_cast<uintptr_t>(d) % 16) % 16;
  std::memcpy(d, s, head);
  d += head;
  s += head;
  bytes -= head;
  for (; bytes >= 64; bytes -= 64, d += 64, s += 64)
    for (int i = 0; i < 64; i += 16)
      _mm_stream_si128(reinterpret_cast<__m128i *>(d + i),
                       _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i)));
  std::memcpy(d, s, bytes);
  _mm_sfence();
#else
  std::memcpy(to, from, bytes);
#endif
}

/// Copies share the copy threads; the caller's thread takes pieces too.
/// A worker that finishes spins a while before it sleeps: waking a sleeping
/// thread takes tens of microseconds on a virtual machine, longer than a
/// piece's copy, and a staged call's copies come a few microseconds apart.
/// The hand-over is lock-free for the same reason: workers that contend for
/// a mutex sleep in the kernel. Workers are never joined.
class CopyThreads {
public:
  CopyThreads() {
    // Gathers into pinned memory scale to about 24 threads: on a 32-core
    // Xeon host of two H200s, 16 threads copied 74 GB/s, 24 95, 32 101.
    const int threads = std::min(
        kMaxThreads, int(std::max(1u, std::thread::hardware_concurrency())));
    for (int t = 1; t < threads; ++t)
      std::thread([this] { serve(); }).detach();
  }

  void run(int64_t count, int64_t grain,
           void (*body)(const void *, int64_t, int64_t), const void *context) {
    Job job{body, context, count, std::max<int64_t>(grain, 1)};
    job.pieces = (count + job.piece - 1) / job.piece;
    if (job.pieces <= 1) {
      body(context, 0, count);
      return;
    }
    current.store(&job);
    signal();
    work(job);
    // Every piece is taken; a worker that comes later finds no job, and the
    // workers that took pieces are let finish.
    current.store(nullptr);
    while (active.load() != 0)
      pause();
  }

private:
  struct Job {
    void (*body)(const void *, int64_t, int64_t);
    const void *context;
    int64_t count, piece, pieces = 0;
    std::atomic<int64_t> next{0};
  };

  static void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }

  /// A new generation: spinning workers see it, sleeping ones are woken.
  void signal() {
    generation.fetch_add(1);
    if (sleepers.load() > 0) {
      std::lock_guard<std::mutex> lock(mutex);
      wake.notify_all();
    }
  }

  void work(Job &job) {
    for (int64_t i; (i = job.next++) < job.pieces;)
      job.body(job.context, i * job.piece,
               std::min(job.count, (i + 1) * job.piece));
  }

  void serve() {
    uint64_t seen = 0;
    for (;;) {
      using clock = std::chrono::steady_clock;
      const clock::time_point until = clock::now() + kSpin;
      for (int spins = 0; generation.load() == seen; ++spins) {
        pause();
        if (spins % 64 == 63 && clock::now() > until) {
          std::unique_lock<std::mutex> lock(mutex);
          ++sleepers;
          wake.wait(lock, [&] { return generation.load() != seen; });
          --sleepers;
        }
      }
      seen = generation.load();
      ++active;
      if (Job *job = current.load())
        work(*job);
      --active;
    }
  }

  std::mutex mutex;
  std::condition_variable wake;
  std::atomic<Job *> current{nullptr};
  std::atomic<uint64_t> generation{0};
  std::atomic<int> active{0}, sleepers{0};
};

/// What one parallel copy needs: runs [first, ...) of `packing`, whose
/// dense copy starts at `dense`.
struct CopyJob {
  const HostGather *packing;
  unsigned char *dense;
  int64_t first;
};
} // namespace

void parallelFor(int64_t count, int64_t grain,
                 void (*body)(const void *context, int64_t begin, int64_t end),
                 const void *context) {
  static CopyThreads *threads = new CopyThreads;
  // One job at a time: the GPUs of a split call (gpus.h) gather on their
  // own threads, and one job already takes the memory bandwidth.
  static std::mutex oneJob;
  std::lock_guard<std::mutex> lock(oneJob);
  threads->run(count, grain, body, context);
}

HostGather::HostGather(const Operand &host, const Extents &extents,
                 size_t elementSize, const Table &table)
    : host(host), extents(extents), element(elementSize), table(table) {
  // The dimensions that the copy spans: extent above 1 and a real stride;
  // a table's two (it is unbatched), its rows running.
  int dims[3], count = 0;
  if (table.start) {
    dims[count++] = table.columns ? 2 : 1;
    dims[count++] = table.columns ? 1 : 2;
    // The Problem's Operand of a table is not read: its copy's strides are
    // set here and in dense().
    this->host.sb = 0;
    strideOf(this->host, dims[1]) = 1;
  } else {
    for (int d = 0; d < 3; ++d)
      if (extentOf(extents, d) > 1 && strideOf(host, d) != 0)
        dims[count++] = d;
  }
  if (count == 0)
    return;
  // Smallest stride last; on a tie the later dimension runs (columns first).
  if (!table.start)
    std::stable_sort(dims, dims + count, [&](int x, int y) {
      return magnitude(strideOf(host, x)) > magnitude(strideOf(host, y));
    });
  inner = dims[count - 1];
  length = extentOf(extents, inner);
  outers = count - 1;
  for (int i = 0; i < outers; ++i) {
    outer[i] = dims[i];
    runs *= extentOf(extents, dims[i]);
  }
  // Runs start 16 bytes apart, so that vector loads stay aligned.
  const int64_t align = std::max<int64_t>(1, int64_t(16 / element));
  ld = runs > 1 ? (length + align - 1) / align * align : length;
}

Operand HostGather::dense(const void *base) const {
  Operand op = host;
  int64_t offset = 0;
  if (inner >= 0) {
    const int64_t unit = strideOf(host, inner);
    strideOf(op, inner) = magnitude(unit) == 1 ? unit : 1;
    if (unit == -1)
      offset = length - 1;
  }
  int64_t stride = ld;
  for (int i = outers - 1; i >= 0; --i) {
    strideOf(op, outer[i]) = stride;
    stride *= extentOf(extents, outer[i]);
  }
  op.ptr = static_cast<const unsigned char *>(base) + offset * element;
  return op;
}

int64_t HostGather::runOffset(int64_t run) const {
  if (table.start)
    return table.skip;
  int64_t offset = 0;
  for (int i = outers - 1; i >= 0; --i) {
    const int64_t e = extentOf(extents, outer[i]);
    offset += (run % e) * strideOf(host, outer[i]);
    run /= e;
  }
  return offset;
}

template <bool toDense>
void HostGather::copy(unsigned char *dense, int64_t first, int64_t last) const {
  const CopyJob job{this, dense, first};
  // Pieces are element ranges of the runs laid end to end, so that one long
  // run is shared out as well as many short ones.
  auto body = [](const void *context, int64_t begin, int64_t end) {
    const CopyJob &j = *static_cast<const CopyJob *>(context);
    const HostGather &p = *j.packing;
    const int64_t unit = p.inner >= 0 ? strideOf(p.host, p.inner) : 1;
    const size_t size = p.element;
    while (begin < end) {
      const int64_t run = j.first + begin / p.length;
      const int64_t t0 = begin % p.length;
      const int64_t t1 = std::min(p.length, t0 + (end - begin));
      unsigned char *h = static_cast<unsigned char *>(const_cast<void *>(
                             p.table.start ? p.table.start[run]
                                           : p.host.ptr)) +
                         p.runOffset(run) * int64_t(size);
      unsigned char *d = j.dense + size_t((run - j.first) * p.ld) * size;
      if (unit == 1 || unit == -1) {
        // A reversed run is stored reversed: one block either way.
        unsigned char *hs = unit == 1 ? h + t0 * int64_t(size)
                                      : h - (t1 - 1) * int64_t(size);
        unsigned char *ds = d + (unit == 1 ? t0 : p.length - t1) * size;
        const size_t bytes = size_t(t1 - t0) * size;
        toDense ? (void)std::memcpy(ds, hs, bytes) : scatterCopy(hs, ds, bytes);
      } else {
        for (int64_t t = t0; t < t1; ++t) {
          unsigned char *he = h + t * unit * int64_t(size);
          toDense ? std::memcpy(d + t * size, he, size)
                  : std::memcpy(he, d + t * size, size);
        }
      }
      begin += t1 - t0;
    }
  };
  const int64_t elements = (last - first) * length;
  parallelFor(elements, kPieceBytes / int64_t(element), body, &job);
}

void HostGather::gather(void *dense, int64_t first, int64_t last) const {
  copy<true>(static_cast<unsigned char *>(dense), first, last);
}

void HostGather::scatter(const void *dense, int64_t first, int64_t last) const {
  copy<false>(static_cast<unsigned char *>(const_cast<void *>(dense)), first,
              last);
}

} // namespace gemm_rt::detail
