//===- stream.h - Stream-K: the last waves' tiles cut into pieces -*- C++ -*-===//
//
// A launch of one block per tile of C leaves SMs idle in its last, partial
// wave. Stream-K ([Osama et al. 2023], "data-parallel + stream-K") runs the
// tiles of every whole wave but the last a tile per block, and cuts the
// last whole wave and the partial one into equal shares of their K steps,
// one per slot; a tile split between two shares is summed from two partial
// sums (docs/codegen.md, "Stream-K").
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_STREAM_H
#define GEMM_RUNTIME_STREAM_H

#include "gemm_runtime.h"

#include <cstddef>
#include <vector>

namespace gemm_rt::detail {

/// The blocks of a stream-K launch: the tiles run whole, one block each,
/// then the pieces, and how many tiles are split in two (pairs).
struct StreamKPlan {
  int32_t whole = 0;
  std::vector<StreamPiece> pieces;
  int32_t pairs = 0;
};

/// The stream-K launch of `tiles` tiles of K `k`, in steps of `blockK`, on
/// `slots` resident blocks, where there are more tiles than slots. Each
/// share is at least a tile's steps, so that a tile has at most two pieces;
/// a piece's range starts at a multiple of blockK. The GPU starts blocks in
/// order as slots free up, so the pieces go longest first, which finishes
/// them all within a few steps of an equal share each (test/Runtime/
/// stream.test).
StreamKPlan planStreamK(int64_t tiles, int64_t k, int64_t blockK, int64_t slots);

/// The tiles of variant `var` over p's C.
int64_t tilesOf(const Problem &p, const Variant &var);

/// The stream-K launch of variant `var` on the device problem p for
/// `slots` resident blocks (streamKFits): its pieces (the last plan's kept),
/// its partial sums in the device pool's chunk buffer and its counters in
/// their own, zeroed when allocated.
StreamK streamKLaunch(const Problem &p, const Variant &var, int64_t slots);

/// Whether variant `var` has a stream-K form for p (one product, a K step,
/// K > 0) whose pieces, planned for `slots` slots, fit StreamK's table.
bool streamKFits(const Problem &p, const Variant &var, int64_t slots);

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_STREAM_H
