//===- autotune.h - GEMM_OPT_TUNE: choices measured at run time -*- C++ -*-===//
//
// With GEMM_OPT_TUNE=1 the runtime measures what the model would otherwise
// predict: on the first call of a plan near no problem measured yet, it
// times every variant and K split of the plan on scratch buffers of the
// call's extents and layout (timing.h), keeps the fastest that passed its
// check for later calls, and appends the timings to the tuning database
// (gemm_tuning::defaultPath), whose rows for the plan's kernels later runs
// read back.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_AUTOTUNE_H
#define GEMM_RUNTIME_AUTOTUNE_H

#include "gemm_runtime.h"

#include <istream>
#include <optional>
#include <string>
#include <vector>

namespace gemm_rt::detail {

/// The measured choice for the device problem p, with GEMM_OPT_TUNE set:
/// the database's or this process's measurement of the plan's kernels near
/// p's extents, else one made now. nullopt where GEMM_OPT_TUNE is unset or
/// "0", there is no GPU, the plan names no build (Plan::version,
/// templates), an operand is neither row- nor column-major, the GPU lacks
/// the memory to time p apart, or no choice passed its check. Thread-safe: one thread times, others wait.
std::optional<Measured> tunedAtRunTime(const Problem &p, const Plan &plan);

/// The fastest passing choice of each problem that the database `in` timed
/// for `plan`'s kernels on `device`, in `dtype` and layout class `layout`:
/// rows of other GPUs, builds (the plan's version and templates), problems
/// or kernels are skipped, as are malformed lines.
std::vector<Measured> readMeasured(std::istream &in, const std::string &device,
                                   const Plan &plan, DType dtype,
                                   const std::string &layout);

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_AUTOTUNE_H
