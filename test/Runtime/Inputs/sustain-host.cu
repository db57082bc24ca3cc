//===- sustain-host.cu - Which timed choices are timed again -------------===//
//
// Prints, for a few tables of timed choices, what
// gemm_rt::detail::toSustain asks timeCase to time again under sustained
// load, step by step, with made-up sustained times (each choice 10% slower
// than at first, or as a case gives). Host code: no GPU is needed.
//
//===----------------------------------------------------------------------===//
#include "timing.h"

#include <cstdio>
#include <vector>

namespace {

using gemm_rt::detail::Timed;

/// A choice of variant v timed at `us`, passing its check unless `failed`.
Timed timed(int v, double us, bool failed = false) {
  Timed row{};
  row.choice.variant = v;
  row.choice.splits = 1;
  row.seconds = us * 1e-6;
  row.ratio = failed ? 2 : 0.5;
  return row;
}

/// Runs timeCase's loop on `rows`, with sustained times of `slower` times
/// the first, printing each step's choices.
void steps(const char *name, std::vector<Timed> rows,
           const std::vector<double> &slower) {
  std::printf("%s:", name);
  for (std::vector<size_t> more = gemm_rt::detail::toSustain(rows);
       !more.empty(); more = gemm_rt::detail::toSustain(rows)) {
    std::printf(" [");
    for (size_t i : more) {
      std::printf(" %d", rows[i].choice.variant);
      rows[i].seconds *= slower[i];
      rows[i].sustained = true;
    }
    std::printf(" ]");
  }
  std::printf("\n");
}

} // namespace

int main() {
  // The fastest alone: the others are slower than its sustained time.
  steps("apart", {timed(0, 100), timed(1, 150), timed(2, 120)},
        {1.1, 1.1, 1.1});
  // 1 and 2 ran faster than 0's sustained 110 us, 3 did not. The fastest
  // sustained time only falls, so no third step is left.
  steps("close", {timed(0, 100), timed(1, 104), timed(2, 102), timed(3, 112)},
        {1.1, 1.1, 1.03, 1.0});
  // A failed check is never timed again, however fast; 2 ran faster than
  // 1's sustained 120 us.
  steps("failed", {timed(0, 50, true), timed(1, 100), timed(2, 115)},
        {1.0, 1.2, 1.0});
  // Nothing passed: nothing to time again.
  steps("none", {timed(0, 50, true)}, {1.0});
  steps("empty", {}, {});
}
