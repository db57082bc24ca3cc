//===- gemm_tuning.h - Measuring a plan's choices ---------------*- C++ -*-===//
//
// What tuning programs (gemm-opt --emit=tune) and experiments that time each
// choice of a plan call: the generated launchers need none of it
// (gemm_runtime.h). docs/tuning.md describes the records they write.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_TUNING_H
#define GEMM_TUNING_H

#include "gemm_runtime.h"

namespace gemm_rt {

/// What the calling thread's last run() on the GPU launched: the plan's
/// variant (of count) and its tile, and the K split; and where the rows of
/// a last partial wave of tiles ran apart (tailFrom > 0), from which row,
/// as which variant and split, or for how many slots its stream-K launch
/// was planned (streamed > 0). For experiments that set
/// GEMM_OPT_CHOICE="variant,splits" to time each choice of a plan
/// (bench/bench.cu --choices); the variant is 0 of 1 for run(p, launch).
struct LastRun {
  int variant, count;
  int64_t blockM, blockN, splits;
  int64_t tailFrom;
  int tailVariant;
  int64_t tailSplits;
  /// The slots a stream-K launch was planned for; 0: none.
  int64_t streamed;
};
LastRun lastRun();

/// One problem that a tuning program (gemm-opt --emit=tune) times a nest's
/// plan on, and the plan's variants to time for it: the model's first
/// schedules for that problem.
struct TuneCase {
  int64_t batch, m, n, k;
  const int *variants;
  int count;
};

/// One nest of a tuning program: its plan, the layout class its operands
/// are stored in (docs/tuning.md: A's, B's and C's unit stride, 'r' along
/// the row, 'c' along the column; "rcr" has B column-major), and its cases.
struct TuneNest {
  const char *nest;
  DType dtype;
  const char *layout;
  Plan plan;
  const TuneCase *cases;
  int caseCount;
};

/// The main() of a tuning program. For each case of each nest it fills
/// packed operands of the nest's layout with random numbers in [-1, 1) in
/// device memory (a nest of layout class 'g' is skipped), computes the
/// reference (launchReference) with alpha = 1 and beta = 0, then runs every
/// listed variant unsplit and with each split of K that run() could choose:
/// once into a C filled with NaN, checked against the reference under the
/// norm-wise bound of verify(), then timed (the median of runs between CUDA
/// events, after 3 warm-ups; long kernels get fewer runs, at least 5). It
/// prints a markdown table per case to stdout and appends one tuning record
/// per choice to the database (docs/tuning.md; cublas_gflops is 0, since a
/// tuning program does not link cuBLAS). Arguments: --db=FILE (default
/// $GEMM_OPT_TUNING_DB, else the user's cache file; its directory is
/// created; "none" records nothing), --runs=N (default 25).
/// Returns 0, 1 for a bad argument, a failed check or a database that
/// cannot be written, 2 without a GPU.
int tuneMain(int argc, char **argv, const TuneNest *nests, int count);

} // namespace gemm_rt

#endif // GEMM_TUNING_H
