//===- verify.h - Checking results against an fp64 reference ----*- C++ -*-===//
//
// The norm-wise check behind gemm_rt::verify and behind GEMM_OPT_VERIFY,
// which checks every launch run() makes against launchReference.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_VERIFY_H
#define GEMM_RUNTIME_VERIFY_H

#include "gemm_checks.h"

#include <vector>

namespace gemm_rt::detail {

/// The products that a launch summed: in the element type, or on TF32
/// tensor cores (gemm_tf32.h), whose bound adds the operands' truncation
/// (one TF32 product: 2^-9 of |alpha| ||A|| ||B||, and the tensor cores'
/// sums) or the split's dropped product (3xTF32: 2^-20).
enum class Products { Native, Tf32, Tf32x3 };

/// What `launch` sums in.
Products productsOf(LaunchFn launch);

/// err / bound for a result against a reference (see gemm_rt::verify). The
/// operands of `host` and cInitial / cResult are host memory; `reference`
/// holds the exact-ish result densely, element (b, i, j) at (b*m + i)*n + j.
double normwiseRatio(const Problem &host, const void *cInitial,
                     const void *cResult, const double *reference,
                     Products products = Products::Native);

/// How far a result is from the reference: the squared Frobenius norm of
/// the difference over the elements where the reference is finite, and
/// whether any element differs from it in kind (finite, Inf or NaN).
struct ResultError {
  double squared = 0;
  bool mismatch = false;
};

/// The norm-wise bound of gemm_rt::verify on ||C - Cref||_F for `host`
/// (whose operands are host memory); `reference` as for normwiseRatio.
double normwiseBound(const Problem &host, const void *cInitial,
                     const double *reference,
                     Products products = Products::Native);

/// err / bound: 0 for no error, +inf for a mismatch or an error where the
/// bound is 0.
double errorRatio(const ResultError &error, double bound);

/// Whether GEMM_OPT_VERIFY is set to something other than "" or "0".
bool verifying();

/// GEMM_OPT_VERIFY's check of one launch. Construct it just before the launch
/// (it snapshots C, since the kernel overwrites it) and call report() once
/// the launch has finished. Both do nothing unless GEMM_OPT_VERIFY is set to
/// something other than "" or "0".
class LaunchCheck {
public:
  /// `device` is the problem as the kernel sees it: device pointers.
  explicit LaunchCheck(const Problem &device);

  /// Runs launchReference on a scratch copy of the initial C and prints
  /// "gemm-opt verify: nest <nest>: err/bound = <r> PASS|FAIL" to stderr,
  /// under the bound of what `ran` (the variant's launch) sums in. A
  /// failure changes nothing else: run() goes on and returns as usual.
  void report(LaunchFn ran);

  /// Whether GEMM_OPT_VERIFY asked for the check.
  bool enabled() const { return on; }

private:
  bool on;
  Problem device;
  std::vector<unsigned char> initialC; ///< C's span before the launch.
};

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_VERIFY_H
