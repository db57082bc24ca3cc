//===- gpus.h - One call's rows of C on several GPUs ------------*- C++ -*-===//
//
// A call whose A, B and C are all host memory may run on several GPUs at
// once. C's rows are shared among them in proportion to each GPU's
// predicted speed on the whole call. Where each GPU can hold its rows of C,
// the call runs in slices of K (slices.h). Else B goes first, whole, to
// every GPU: each chunk gathered once and sent over all links at once
// (where it fits half of each GPU's staging budget; else each GPU stages B
// itself, in blocks if need be). Then each GPU stages its rows of A and C
// through its own ring and streams (staging.h), on a thread of its own, and
// writes its rows of C back. The copy threads serve one gather at a time,
// so the host's copies of all GPUs add up: the split is taken where the
// GPUs' predicted time, and the host's copies, both beat one GPU clearly.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_GPUS_H
#define GEMM_RUNTIME_GPUS_H

#include "host/profit.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace gemm_rt::detail {

/// Rows [begin, begin + rows) of C, run on `device`.
struct Share {
  int device;
  int64_t begin, rows;
};

/// The GPUs that a call of host operands may use, the one it runs on when
/// unsplit first (hostCallDevice): GEMM_OPT_GPUS's list, or with "all" every
/// visible GPU; unset, the visible GPUs of the first one's kind, or that one
/// alone under an MPI or Slurm launcher (each rank has its own).
std::vector<int> hostCallDevices();

/// Rows [0, m) shared among `devices` in proportion to `speeds`, every
/// share but the last a multiple of `grain`; a device whose share would be
/// empty gets none.
std::vector<Share> shareRows(int64_t m, const std::vector<int> &devices,
                             const std::vector<double> &speeds, int64_t grain);

/// The rows of p that `share` names: A's, C's and the bias's from its
/// first row on, B whole.
Problem rowsOf(const Problem &p, const Share &share);

/// A split call in slices of K (slices.h): each GPU keeps its rows of C
/// while the slices come in; the last slice sends C back in bands of runs
/// (of C's dense copy: rows where C is row-major).
struct SlicePlan {
  /// K's depth per slice (the last one's the rest), and the slices; 0: none.
  int64_t depth = 0, slices = 0;
  /// Runs of C per band; bytes of a pinned slot (a slice's rows of B and
  /// every GPU's columns of A, or a band).
  int64_t bandRuns = 0;
  size_t pinnedSlot = 0;
};

/// The slices for p's `shares` (A, B and C host memory, unbatched, no
/// tables): as deep as a pinned slot allows, and every GPU's `budget` with
/// its rows of C and three slices, in multiples of 128 (the kernels' tiles)
/// unless K is less. Depth 0 where slices would be thinner than 1024 (and
/// K): C's traffic and A's short runs would then cost more than the overlap
/// gains.
SlicePlan planSlices(const Problem &p, const std::vector<Share> &shares,
                     size_t budget);

/// How a call runs on several GPUs: in slices of K, or each share's staging
/// on its GPU; and the predicted seconds of all. With `wholeB` B is copied
/// to every GPU before the shares run, which read it there.
struct Split {
  std::vector<Share> shares;
  SlicePlan slices;
  std::vector<StagePlan> stages;
  bool wholeB = false;
  double seconds = 0;
};

/// The predicted seconds of a split call: B's `wholeBytes` gathered once
/// and sent to every GPU at once (0 where each GPU stages B itself), then
/// the shares side by side, the slowest taking `slowest`; or the host's
/// copies of all (`hostBytes`, B's included), where those take longer.
double splitSeconds(double wholeBytes, double slowest, double hostBytes,
                    const Rates &rates);

/// The split of p (A, B and C host memory as `hosted` says; `one` its route
/// on hostCallDevice()), or nullopt where one GPU is predicted about as
/// fast. GEMM_OPT_GPUS naming several GPUs, or all, takes the split wherever
/// each GPU gets rows. Runs under run()'s lock, on the host-call GPU.
std::optional<Split> planSplit(const Problem &p, const Plan &plan,
                               Hosted hosted, const Route &one);

/// Runs p as `split` says, the calling thread the first share, and returns
/// once all of C is back, with each share's choice of kernel. A host bias
/// (`biasHosted`) is staged to each GPU.
std::vector<Choice> runSplit(const Problem &p, const Plan &plan,
                             Hosted hosted, bool biasHosted,
                             const Split &split);

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_GPUS_H
