//===- choose.h - A nest's kernel variant and split-K per problem -*- C++ -*-===//
//
// gemm-opt emits, for a nest whose extents are known only at run time, the
// model's best kernel for several problem sizes; run() picks among them here
// with the model's own terms, once the extents are known.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_CHOOSE_H
#define GEMM_RUNTIME_CHOOSE_H

#include "gemm_runtime.h"
#include "launch/split.h"

namespace gemm_rt::detail {

/// The most ways K is split; beyond it the chunks' sum costs more than the
/// blocks it fills gain on any problem in the benchmark.
constexpr int64_t kMaxSplits = 16;
/// The fewest K per chunk: a block's prologue (the pipeline's first tiles)
/// and epilogue (C) should stay a small share of its work.
constexpr int64_t kMinChunk = 256;

/// Calls visit(splits) for each split of K that choose() weighs for p: 1,
/// then powers of two up to kMaxSplits while p can be split so and each
/// chunk keeps kMinChunk of K. The tuning program times the same ones.
template <class Visit> void forEachSplit(const Problem &p, Visit &&visit) {
  for (int64_t splits = 1; splits <= kMaxSplits; splits *= 2) {
    if (splits > 1 && (p.k / splits < kMinChunk || !canSplit(p, splits)))
      break;
    visit(splits);
  }
}

/// Whether variant v of `plan` runs p split `splits` ways (Variant::runs):
/// a kernel without a scalar twin runs only where its packs fit. The first
/// variant of a generated plan runs every problem.
bool runnable(const Problem &p, const Plan &plan, int v, int64_t splits);

/// Whether some variant of `plan` runs p unsplit.
bool someVariantRuns(const Problem &p, const Plan &plan);

/// The problem of `measured` nearest to p, where each of p's extents is
/// within a quarter of its (the sum of the extents' log ratios is the
/// distance) and p can be split as it was; null if none is.
const Measured *nearestMeasured(const Problem &p, const Measured *measured,
                                int count);

/// The rows of C that an unsplit choice runs apart, in a second launch:
/// the tiles of a last, partial wave, as `variant` with K split `splits`
/// ways, so that they fill the SMs that the first launch's whole waves
/// leave idle at its end. `from` is their first row; 0: none.
struct Tail {
  int64_t from = 0;
  int variant = 0;
  int64_t splits = 1;
};

/// A variant of a plan, how many ways K is split, the predicted seconds (0
/// where the model was not asked: one unrated variant, or GEMM_OPT_CHOICE),
/// and the tail it runs apart or, unsplit, the slots its stream-K launch is
/// planned for (0: none).
struct Choice {
  int variant;
  int64_t splits;
  double seconds = 0;
  Tail tail = {};
  int64_t streamed = 0;
};

/// The K split that a tuning record and Measured give `choice`: 0 for a
/// stream-K launch.
inline int64_t measuredSplits(const Choice &choice) {
  return choice.streamed > 0 ? 0 : choice.splits;
}

/// Variant v of `plan` split `splits` ways on p, with the model's seconds
/// for it on a GPU of `sms` SMs (below). Unsplit, with the tail whose
/// launch the model predicts fastest where that beats one launch: the rows
/// of whole waves first, the rest as any runnable variant and split.
Choice predicted(const Problem &p, const Plan &plan, int v, int64_t splits,
                 int sms);

/// The slots of variant `var`'s stream-K launch on p on a GPU of `sms` SMs
/// (stream.h), where it has one for p and p's tiles end in a partial wave
/// after at least one whole one; else 0. Only a measurement picks it
/// (Measured::splits 0): whether its K loop runs as fast as the kernel's
/// own depends on how ptxas allocated its registers (docs/codegen.md).
int64_t streamSlots(const Problem &p, const Variant &var, int sms);

/// The runnable variant and split of `plan` with the least predicted time
/// for `p` on a GPU of `sms` SMs: the variant's rate, at most what DRAM can
/// stream to it, times its fill over the problem's tiles (RunTimeTerms.h),
/// plus the split's workspace and C traffic at DRAM speed and its second
/// kernel; an unsplit one with its tail (predicted()). A plan of one variant
/// without a rate runs as given. A call near a problem that the plan's
/// tuning database timed (Plan::measured), or, with GEMM_OPT_TUNE, that the
/// runtime timed (autotune.h), takes the measured choice instead where it
/// runs p, with the tail or the stream-K form it was timed with.
/// GEMM_OPT_CHOICE="v,s" overrides both where the plan has variant v, K
/// splits s ways and the choice runs p, with no tail, for experiments that
/// time each choice. GEMM_OPT_STREAM=N then runs an unsplit choice as
/// stream-K planned for N slots where it can, for checks.
Choice choose(const Problem &p, const Plan &plan, int sms);

/// The workspace that launchChoice() splits p `splits` ways through: the
/// device pool's chunk buffer, of at least splitWorkspaceBytes(p, splits).
void *splitWorkspace(const Problem &p, int64_t splits);

/// Launches the device problem `p` on `stream` with `choice`'s variant and
/// split (through splitWorkspace()), then its tail, or its stream-K form
/// (stream.h); aborts, naming the nest, if a launch fails.
void launchChoice(const Problem &p, const Plan &plan, const Choice &choice,
                  cudaStream_t stream);

/// launchChoice() with choose()'s variant and split. Returns the choice.
Choice launchChosen(const Problem &p, const Plan &plan, int sms,
                    cudaStream_t stream);

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_CHOOSE_H
