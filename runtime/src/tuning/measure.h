//===- timing.h - Timing and checking a plan's choices on the GPU -*- C++ -*-===//
//
// The measurements behind tuning: a tuning program's (gemm_rt::tuneMain)
// and GEMM_OPT_TUNE's at run time (autotune.h).
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_TIMING_H
#define GEMM_RUNTIME_TIMING_H

#include "launch/choose.h"
#include "gemm_checks.h"
#include "gemm_tuning.h"

#include <cstdio>
#include <string>
#include <vector>

namespace gemm_rt::detail {

/// The timing protocol of bench/bench.cu: kWarmups warm-ups, then the
/// median of runs each between two CUDA events; long kernels get fewer
/// runs, at least kMinRuns.
constexpr int kWarmups = 3;
constexpr int kMinRuns = 5;

/// One timed choice of a case: its median seconds and err / bound.
struct Timed {
  Choice choice;
  double seconds, ratio;
  bool passed() const { return ratio <= 1; }
};

/// Times case `c` of `nest` (whose layout holds 'r' and 'c' only) on packed
/// random operands in device memory: each listed variant, unsplit and with
/// each split of K that run() weighs, launched once into a C (and a split's
/// workspace) poisoned with NaN and checked against launchReference under
/// verify()'s bound, then timed with at most `runs` runs. It allocates A, B,
/// C and the reference for the case.
std::vector<Timed> timeCase(const TuneNest &nest, const TuneCase &c, int runs);

/// The bytes of device memory that timeCase allocates for `c`.
size_t timeCaseBytes(DType dtype, const TuneCase &c);

/// The database at `path` opened for appending, its directory created and
/// the header written if it is empty (under appendRows' lock); null, having
/// said why, if it cannot be opened.
std::FILE *openDatabase(const std::string &path);

/// Appends `rows` (whole lines) to `db`, a database that openDatabase
/// opened, in one write under an exclusive flock of the file that every
/// writer takes, with the header first if the file is empty then: rows of
/// concurrent writers never interleave and the header is written once.
/// Rows cut short by a failed write are truncated away. False, having said
/// why, if the file cannot be locked or written.
bool appendRows(std::FILE *db, const std::string &rows);

/// Appends one tuning record per timed choice whose variant has a schedule,
/// with appendRows; false if they cannot be written.
bool writeRecords(std::FILE *db, const TuneNest &nest, const TuneCase &c,
                  const std::vector<Timed> &rows);

/// 2 batch m n k / seconds, in GFLOP/s.
inline double gflopsOf(const TuneCase &c, double seconds) {
  return 2.0 * c.batch * c.m * c.n * c.k / seconds / 1e9;
}

inline const char *dtypeName(DType dtype) {
  return dtype == DType::F32 ? "f32" : "f64";
}

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_TIMING_H
