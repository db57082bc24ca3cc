//===- stream.cu - Stream-K: the last waves' tiles cut into pieces --------===//
#include "launch/streamk.h"

#include "core/check.h"
#include "core/device.h"
#include "launch/layout.h"

#include <algorithm>
#include <tuple>

namespace gemm_rt::detail {

StreamKPlan planStreamK(int64_t tiles, int64_t k, int64_t blockK,
                      int64_t slots) {
  StreamKPlan plan;
  const int64_t steps = std::max<int64_t>((k + blockK - 1) / blockK, 1);
  plan.whole = int32_t(tiles >= 2 * slots ? (tiles / slots - 1) * slots : 0);
  const int64_t work = (tiles - plan.whole) * steps;
  const int64_t share = (work + slots - 1) / slots;
  // The cuts: every tile's first step and every share's.
  for (int64_t at = 0; at < work;) {
    const int64_t tile = at / steps, first = at - tile * steps;
    const int64_t shareEnd = (at / share + 1) * share;
    const int64_t last = std::min(steps, shareEnd - tile * steps);
    const bool whole = first == 0 && last == steps;
    // A tile's first piece opens its pair, its second (first > 0) joins it.
    const int32_t pair = whole ? -1 : first == 0 ? plan.pairs++ : plan.pairs - 1;
    plan.pieces.push_back({int32_t(plan.whole + tile),
                           int32_t(std::min(first * blockK, k)),
                           int32_t(std::min(last * blockK, k)), pair});
    at = tile * steps + last;
  }
  std::stable_sort(plan.pieces.begin(), plan.pieces.end(),
                   [](const StreamPiece &a, const StreamPiece &b) {
                     return a.last - a.first > b.last - b.first;
                   });
  return plan;
}

namespace {
/// The bytes of the partial sums of a stream-K launch of variant `var` on
/// p whose plan has `pairs` pairs.
size_t streamPartialBytes(const Problem &p, const Variant &var,
                          int64_t pairs) {
  return size_t(2 * pairs * var.blockM * var.blockN) * elementSize(p.dtype);
}
} // namespace

int64_t tilesOf(const Problem &p, const Variant &var) {
  return ((p.m + var.blockM - 1) / var.blockM) *
         ((p.n + var.blockN - 1) / var.blockN);
}

StreamK streamKLaunch(const Problem &p, const Variant &var, int64_t slots) {
  const int64_t tiles = tilesOf(p, var);
  // The last plan: a loop of calls repeats its problem. Each thread keeps
  // its own, as the GPUs of a split call run on threads of their own.
  thread_local std::tuple<int64_t, int64_t, int64_t, int64_t> key{-1, 0, 0, 0};
  thread_local StreamKPlan plan;
  const auto wanted =
      std::make_tuple(tiles, p.k, var.blockK, std::min(slots, tiles));
  if (wanted != key) {
    plan = planStreamK(tiles, p.k, var.blockK, std::min(slots, tiles));
    key = wanted;
  }
  StreamK sk;
  sk.whole = plan.whole;
  sk.count = int32_t(plan.pieces.size());
  std::copy(plan.pieces.begin(), plan.pieces.end(), sk.piece);
  const size_t counters = size_t(std::max(plan.pairs, 1)) * sizeof(unsigned);
  const size_t before = poolCapacity(Role::Arrivals);
  sk.arrivals =
      static_cast<unsigned *>(poolBuffer(Role::Arrivals, counters, p.nest));
  if (poolCapacity(Role::Arrivals) != before)
    checkCuda(cudaMemset(sk.arrivals, 0, poolCapacity(Role::Arrivals)), p.nest,
              "zeroing the stream-K counters");
  sk.partials = poolBuffer(
      Role::Chunks, std::max<size_t>(streamPartialBytes(p, var, plan.pairs), 1),
      p.nest);
  return sk;
}

bool streamKFits(const Problem &p, const Variant &var, int64_t slots) {
  // Whole tiles aside, at most three pieces per slot (streamKLaunch plans for
  // no more slots than tiles).
  return var.streamed && var.streams(p) && var.blockK > 0 && p.k > 0 &&
         3 * std::min(slots, tilesOf(p, var)) <= kMaxStreamPieces;
}

} // namespace gemm_rt::detail
