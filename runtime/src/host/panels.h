//===- panels.h - What planning and running a staging share -----*- C++ -*-===//
//
// The planner (stage_plan.cu) sizes the pinned ring and the panels that the
// pipeline (staging.cu) then runs: both see the problem oriented the same
// way, read operands through the same sources and count the same slots.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_PANELS_H
#define GEMM_RUNTIME_PANELS_H

#include "host/staging.h"
#include "launch/layout.h"

namespace gemm_rt::detail {

/// Slots of the pinned ring, and of panel buffers on the device.
inline constexpr int kSlots = 3;
/// A slot's largest size where panels can be smaller: pinned memory is
/// slow to allocate and taken from the host for good.
inline constexpr size_t kMaxSlotBytes = size_t(64) << 20;
/// The whole operand moves in chunks of about this size where panels leave
/// their slots smaller.
inline constexpr size_t kChunkBytes = size_t(16) << 20;

/// The problem whose rows the panels cut: p, or p transposed for panels
/// along N (transposed() is its own inverse).
inline Problem oriented(const Problem &p, bool alongN) {
  return alongN ? transposed(p) : p;
}

/// Transposing swaps A and B and turns every table's rows into columns.
inline Hosted oriented(Hosted h, bool alongN) {
  if (!alongN)
    return h;
  auto flip = [](Table t) {
    t.columns = !t.columns;
    return t;
  };
  return {h.b, h.a, h.c, flip(h.tb), flip(h.ta), flip(h.tc)};
}

/// An operand where a panel reads it: strided, or a table of host rows.
struct Source {
  Operand op;
  Table table;

  /// The operand from matrix b0, row r0 and column c0 on (a table is
  /// unbatched).
  Source from(int64_t b0, int64_t r0, int64_t c0, size_t element) const {
    Source s = *this;
    if (table.start) {
      s.table.start += table.columns ? c0 : r0;
      s.table.skip += table.columns ? r0 : c0;
    } else {
      s.op = operandAt(op, b0, r0, c0, element);
    }
    return s;
  }

  HostGather packing(const Extents &e, size_t element) const {
    return HostGather(op, e, element, table);
  }
};

/// The copy rates, each the best of two runs of 32 MiB through the ring.
Rates measureRates(const char *nest);

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_PANELS_H
