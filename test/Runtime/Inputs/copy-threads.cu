//===- copy-threads.cu - The copy threads' hand-over -----------------------===//
//
// Runs pack.h's parallelFor the ways a staged call does: jobs back to back
// (workers still spinning), after a pause longer than their spin window
// (workers asleep), after pauses about as long as it (some asleep, some
// spinning), and of one piece (the caller alone). Every element of every job must be visited exactly once, by
// bodies that see their own job's context. Then a gather and a scatter of
// 12 MiB (many pieces, runs cut across them) must round-trip bit for bit.
// Host code: no GPU.
//
//===----------------------------------------------------------------------===//
#include "host/gather.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

using namespace gemm_rt::detail;

namespace {
struct Visits {
  int job;
  std::vector<std::atomic<int>> *counts;
  std::atomic<int> *wrongJob;
  int *currentJob;
};

void visit(const void *context, int64_t begin, int64_t end) {
  const Visits &v = *static_cast<const Visits *>(context);
  if (v.job != *v.currentJob)
    ++*v.wrongJob;
  for (int64_t i = begin; i < end; ++i)
    ++(*v.counts)[i];
}

/// Runs one job of `count` elements in pieces of `grain`; returns the
/// elements not visited exactly once.
int64_t job(int id, int64_t count, int64_t grain, std::atomic<int> &wrong,
            int &current) {
  std::vector<std::atomic<int>> counts(count);
  current = id;
  const Visits v{id, &counts, &wrong, &current};
  parallelFor(count, grain, visit, &v);
  int64_t bad = 0;
  for (const std::atomic<int> &c : counts)
    bad += c.load() != 1;
  return bad;
}
} // namespace

int main() {
  std::mt19937 random(7);
  std::atomic<int> wrong{0};
  int current = -1;
  int64_t bad = 0, jobs = 0;
  auto some = [&](int n) {
    for (int i = 0; i < n; ++i, ++jobs) {
      const int64_t count = 1 + random() % 200000;
      const int64_t grain = 1 + random() % 5000;
      bad += job(int(jobs), count, grain, wrong, current);
    }
  };
  some(200);
  std::printf("back to back: %lld jobs, %lld elements off, %d wrong job\n",
              (long long)jobs, (long long)bad, wrong.load());
  for (int round = 0; round < 5; ++round) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    some(3);
  }
  std::printf("after sleeping: %lld jobs, %lld elements off, %d wrong job\n",
              (long long)jobs, (long long)bad, wrong.load());
  for (int round = 0; round < 20; ++round) {
    // About the spin window: some workers sleep, some wake as the job ends.
    std::this_thread::sleep_for(std::chrono::microseconds(350 + 20 * round));
    some(1);
  }
  std::printf("at the spin window: %lld jobs, %lld elements off, %d wrong "
              "job\n",
              (long long)jobs, (long long)bad, wrong.load());
  bad += job(int(jobs++), 1000, 1000, wrong, current);
  std::printf("one piece: %lld elements off, %d wrong job\n", (long long)bad,
              wrong.load());

  // 12 MiB of doubles as 1000 runs of 1573 elements, ld 1579 in the host.
  const int64_t runs = 1000, length = 1573, ld = 1579;
  std::vector<double> host(runs * ld), back(runs * ld, -1.0);
  for (double &x : host)
    x = std::uniform_real_distribution<double>(-1, 1)(random);
  const HostGather packing({host.data(), 0, ld, 1}, {1, runs, length},
                        sizeof(double));
  std::vector<unsigned char> dense(packing.bytes());
  packing.gather(dense.data(), 0, runs);
  const HostGather out({back.data(), 0, ld, 1}, {1, runs, length},
                    sizeof(double));
  out.scatter(dense.data(), 0, runs);
  int64_t differ = 0, padding = 0;
  for (int64_t r = 0; r < runs; ++r)
    for (int64_t t = 0; t < ld; ++t) {
      const double x = back[r * ld + t];
      if (t < length)
        differ += std::memcmp(&x, &host[r * ld + t], sizeof x) != 0;
      else
        padding += x != -1.0;
    }
  std::printf("12 MiB round trip: %lld elements differ, %lld padding "
              "elements written\n",
              (long long)differ, (long long)padding);
  return 0;
}
