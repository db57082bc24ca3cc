//===- sweep.h - Interface between the sweep harness and its kernels -----===//
//
// gen.py writes, per translation unit, the generated launchers of some
// variants (static, so each stays in its own unit) and one extern wrapper per
// variant that takes a SweepArgs; variants.inc declares the wrappers and
// lists the variants for sweep.cu.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_SWEEP_H
#define GEMM_OPT_SWEEP_H

#include "gemm_runtime.h"

/// One call of a generated launcher. Pointers may be device or host memory;
/// a.sb, b.sb and c.sb are only passed to batched launchers.
struct SweepArgs {
  int64_t batch, m, n, k;
  gemm_rt::Operand a, b, c;
  double alpha, beta;
};

/// One generated variant: an element type, a schedule and operand layouts.
struct SweepVariant {
  const char *name;
  gemm_rt::DType dtype;
  const char *schedule; ///< "BMxBNxBK/TMxTN/vV/prefetch/pPAD".
  /// Layouts of A, B and C: 'r' row-major, 'c' column-major, 'g' strides
  /// fully dynamic (the harness cycles through row- and column-major).
  const char *layout;
  bool batched;
  bool isDefault;                      ///< The element type's default schedule.
  bool (*call)(const SweepArgs &args); ///< The launcher, through run().
  gemm_rt::LaunchFn launch;            ///< Its kernel's launch(), for timing.
};

#endif // GEMM_OPT_SWEEP_H
