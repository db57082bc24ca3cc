//===- gemm_checks.h - Test oracles -----------------------------*- C++ -*-===//
//
// The CPU reference and the norm-wise check that tests hold a result to
// (GEMM_OPT_VERIFY checks every launch with the same bound): for test
// programs, not for the generated launchers (gemm_runtime.h).
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_CHECKS_H
#define GEMM_CHECKS_H

#include "gemm_runtime.h"

namespace gemm_rt {

/// Computes, on the CPU with fp64 accumulation, out = act(alpha*A*B + beta*C0
/// + bias) for a problem whose operands (the bias too) are host memory.
/// `cInitial` points at element (0, 0, 0) of C0, laid out with host.c's
/// strides (host.c.ptr is not read); it may be null when beta == 0, since C0
/// is then not read. `out` receives batch*m*n values densely, element
/// (b, i, j) at (b*m + i)*n + j. Costs O(batch*m*n*k) on one core: meant for
/// tests and small problems.
void referenceCpu(const Problem &host, const void *cInitial, double *out);

/// Checks a result against referenceCpu under the norm-wise GEMM bound
///   ||C - Cref||_F <= L (K + 2) eps (|alpha| ||A||_F ||B||_F + |beta| ||C0||_F
///                                    + ||bias||_F) + F eps ||Cref||_F
/// (eps: the element type's machine epsilon; the beta term only if beta != 0;
/// the bias as broadcast over C). Clamps do not widen errors: L = 1, F = 0.
/// An activation with a function (tanh, sigmoid, GELU) passes an error on
/// with a slope of at most L = 1.2 (GELU's steepest is 1.13), and its libm
/// call rounds differently on the GPU, on the host and in the reference's
/// fp64: F = 8 ulps of the result (CUDA's tanhf, expf and erff are within 2).
/// It returns err / bound: the result passes iff the ratio is <= 1. It is
/// +inf if the result holds Inf or NaN where the reference does not (or the
/// other way round). cInitial and cResult are C before and after, laid out
/// like host.c (whose ptr is not read); cInitial may be null when beta == 0.
///
/// With the environment variable GEMM_OPT_VERIFY set (to anything but "" or
/// "0"), run() checks every launch the same way against launchReference on
/// the GPU and prints "gemm-opt verify: nest <nest>: err/bound = <r> PASS" (or
/// FAIL) to stderr. A failure is only reported: run() returns as usual and
/// the result stays in C.
double verify(const Problem &host, const void *cInitial, const void *cResult);

} // namespace gemm_rt

#endif // GEMM_CHECKS_H
