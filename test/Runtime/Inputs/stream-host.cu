//===- stream-host.cu - Stream-K's pieces and the runtime's pick of it ----===//
//
// First plans stream-K launches (planStreamK) of many shapes (tiles, K,
// K step, slots) and counts what would make one wrong: an element of K of
// a tile run twice or never, a tile in more than two pieces, a pair that
// is not one tile's first piece and its second, a piece that starts off a
// K step. Then runs the plans of the bench's large problems through the
// GPU's dispatch as a model: blocks start in order as slots free up, each
// taking its K steps' time, and prints how far past an equal share of the
// steps per slot the last one ends. Last it prints what
// gemm_rt::detail::choose picks where the bench's DGEMM kernels for the
// H200 have stream-K forms, without and with a measured one. Host code: no
// GPU is needed.
//
//===----------------------------------------------------------------------===//
#include "launch/choose.h"
#include "launch/streamk.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <queue>
#include <vector>

namespace {

using gemm_rt::detail::StreamKPlan;

/// Errors in the plan of one launch.
int64_t planErrors(int64_t tiles, int64_t k, int64_t blockK, int64_t slots) {
  const StreamKPlan plan =
      gemm_rt::detail::planStreamK(tiles, k, blockK, slots);
  std::vector<int> runs(size_t(tiles * k), 0), pieces(size_t(tiles), 0);
  for (int64_t t = 0; t < plan.whole; ++t) {
    ++pieces[size_t(t)];
    for (int64_t e = 0; e < k; ++e)
      ++runs[size_t(t * k + e)];
  }
  // Per pair: its tile, and how many first and second pieces it has.
  std::vector<int64_t> pairTile(size_t(plan.pairs), -1);
  std::vector<int> firsts(size_t(plan.pairs), 0), seconds(size_t(plan.pairs), 0);
  int64_t errors = 0;
  for (const gemm_rt::StreamPiece &p : plan.pieces) {
    if (p.tile < plan.whole || p.tile >= tiles || p.first < 0 ||
        p.first >= p.last || p.last > k || p.first % blockK != 0 ||
        p.pair >= plan.pairs) {
      ++errors;
      continue;
    }
    ++pieces[size_t(p.tile)];
    for (int64_t e = p.first; e < p.last; ++e)
      ++runs[size_t(p.tile * k + e)];
    if (p.pair < 0) {
      errors += p.first != 0 || p.last != k;
      continue;
    }
    errors += pairTile[size_t(p.pair)] >= 0 && pairTile[size_t(p.pair)] != p.tile;
    pairTile[size_t(p.pair)] = p.tile;
    ++(p.first == 0 ? firsts : seconds)[size_t(p.pair)];
  }
  for (int64_t e = 0; e < tiles * k; ++e)
    errors += runs[size_t(e)] != 1;
  for (int64_t t = 0; t < tiles; ++t)
    errors += pieces[size_t(t)] > 2;
  for (int32_t q = 0; q < plan.pairs; ++q)
    errors += firsts[size_t(q)] != 1 || seconds[size_t(q)] != 1;
  return errors;
}

/// The plan run through the GPU's dispatch as a model: each block takes
/// its K steps' time on the first slot free. Prints the end against an
/// equal share of all steps per slot, in steps.
void dispatch(const char *what, int64_t tiles, int64_t k, int64_t blockK,
              int64_t slots) {
  const StreamKPlan plan = gemm_rt::detail::planStreamK(tiles, k, blockK, slots);
  const int64_t steps = (k + blockK - 1) / blockK;
  std::priority_queue<int64_t, std::vector<int64_t>, std::greater<>> free;
  for (int64_t s = 0; s < slots; ++s)
    free.push(0);
  int64_t end = 0;
  const auto run = [&](int64_t length) {
    const int64_t start = free.top();
    free.pop();
    free.push(start + length);
    end = std::max(end, start + length);
  };
  for (int64_t t = 0; t < plan.whole; ++t)
    run(steps);
  for (const gemm_rt::StreamPiece &p : plan.pieces)
    run((p.last - p.first + blockK - 1) / blockK);
  const int64_t equal = (tiles * steps + slots - 1) / slots;
  const int64_t waves = (tiles + slots - 1) / slots * steps;
  std::printf("%s: %zu pieces, ends at %lld steps: an equal share %lld, "
              "a block per tile %lld\n",
              what, plan.pieces.size(), (long long)end, (long long)equal,
              (long long)waves);
}

cudaError_t none(const gemm_rt::Problem &, cudaStream_t) {
  return cudaSuccess;
}
cudaError_t noStream(const gemm_rt::Problem &, const gemm_rt::StreamK &,
                     cudaStream_t) {
  return cudaSuccess;
}
bool unbatched(const gemm_rt::Problem &p) { return p.batch == 1; }

// choose-host.cu's kernels: 0: 128x128x8/8x8, 1: 64x128, 2 and 3: 256x64;
// each with a stream-K form for one product.
const gemm_rt::Variant variants[] = {
    {none, 128, 128, 1, 66908.2, 0.5, 1.0, nullptr, nullptr, noStream,
     unbatched, 8},
    {none, 64, 128, 1, 49719.9, 0.5, 1.0, nullptr, nullptr, noStream,
     unbatched, 8},
    {none, 256, 64, 1, 52191.0, 1.0, 1.0, nullptr, nullptr, noStream,
     unbatched, 16},
    {none, 256, 64, 1, 57381.9, 0.5, 1.0, nullptr, nullptr, noStream,
     unbatched, 8},
};
const gemm_rt::Plan plan{variants, 4, 4800.0};

// A tuning database's choice at 4096^3: variant 0 as stream-K (splits 0).
const gemm_rt::Measured measured[] = {{1, 4096, 4096, 4096, 0, 0}};
const gemm_rt::Plan tuned{variants, 4, 4800.0, "", "", measured, 1};

void pick(const char *what, int64_t batch, int64_t m, int64_t n, int64_t k,
          const gemm_rt::Plan &plan = plan) {
  // Row-major A, B and C; the pointers are never touched.
  const gemm_rt::Problem p{what,       gemm_rt::DType::F64,
                           batch,      m,
                           n,          k,
                           {nullptr, m * k, k, 1},
                           {nullptr, k * n, n, 1},
                           {nullptr, m * n, n, 1},
                           1.0,        0.0};
  const gemm_rt::detail::Choice c = gemm_rt::detail::choose(p, plan, 132);
  std::printf("%s: variant %d, %lld-way split", what, c.variant,
              (long long)c.splits);
  if (c.tail.from > 0)
    std::printf("; rows from %lld as variant %d", (long long)c.tail.from,
                c.tail.variant);
  if (c.streamed > 0)
    std::printf("; stream-K for %lld slots", (long long)c.streamed);
  std::printf("\n");
}

} // namespace

int main() {
  int64_t launches = 0, errors = 0;
  for (int64_t slots = 1; slots <= 40; ++slots)
    for (int64_t tiles = slots + 1; tiles <= 3 * slots + 2; ++tiles)
      for (auto [k, blockK] : {std::pair<int64_t, int64_t>{1, 8}, {8, 8},
                               {24, 8}, {61, 16}, {100, 4}}) {
        errors += planErrors(tiles, k, blockK, slots);
        ++launches;
      }
  std::printf("stream-K plans: %lld launches, %lld errors\n",
              (long long)launches, (long long)errors);
  // 128x128 tiles at two blocks per SM (f32) and one (f64) on 132 SMs.
  dispatch("f32 4096^3", 1024, 4096, 16, 264);
  dispatch("f32 8192^3", 4096, 8192, 16, 264);
  dispatch("f64 4096^3", 1024, 4096, 8, 132);
  dispatch("f64 3000^3", 576, 3000, 8, 132);

  pick("4096^3", 1, 4096, 4096, 4096);
  pick("measured 4096^3", 1, 4096, 4096, 4096, tuned);
  pick("measured 4000^3", 1, 4000, 4000, 4000, tuned);
  pick("measured 4224x4096x4096", 1, 4224, 4096, 4096, tuned);
  pick("measured, a batch of 2", 2, 4096, 4096, 4096, tuned);
  setenv("GEMM_OPT_STREAM", "3", 1);
  pick("GEMM_OPT_STREAM=3 1024^3", 1, 1024, 1024, 1024);
  pick("GEMM_OPT_STREAM=3 batch of 2", 2, 1024, 1024, 1024);
  setenv("GEMM_OPT_CHOICE", "0,2", 1);
  pick("GEMM_OPT_STREAM=3 GEMM_OPT_CHOICE=0,2 1024^3", 1, 1024, 1024, 1024);
  unsetenv("GEMM_OPT_STREAM");
  setenv("GEMM_OPT_CHOICE", "0,1", 1);
  pick("GEMM_OPT_CHOICE=0,1 4096^3", 1, 4096, 4096, 4096);
  return 0;
}
