//===- verify.cu - Checking results against an fp64 reference -------------===//
//
// gemm_rt::referenceCpu and gemm_rt::verify, and GEMM_OPT_VERIFY: with it
// set, run() checks each launch against launchReference (an fp64-accumulating
// GPU oracle) under the same norm-wise bound and reports on stderr.
//
//===----------------------------------------------------------------------===//
#include "checks/verify.h"

#include "gemm_tf32.h"

#include "core/check.h"
#include "launch/layout.h"
#include "core/switches.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

namespace gemm_rt {

using namespace detail;

namespace {
size_t elementSize(DType dtype) {
  return dtype == DType::F32 ? sizeof(float) : sizeof(double);
}

/// Machine epsilon: the gap between 1 and the next number of the type.
double epsilonOf(DType dtype) {
  return dtype == DType::F32 ? double(FLT_EPSILON) : DBL_EPSILON;
}

/// Element (b, r, c) of an operand laid out like `op` but based at `base`.
template <class T>
double elementAt(const void *base, const Operand &op, int64_t b, int64_t r,
                 int64_t c) {
  return double(
      static_cast<const T *>(base)[b * op.sb + r * op.sr + c * op.sc]);
}

/// Sum of the squares of a batch x rows x cols operand.
template <class T>
double sumOfSquares(const void *base, const Operand &op, int64_t batch,
                    int64_t rows, int64_t cols) {
  double sum = 0;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        double x = elementAt<T>(base, op, b, r, c);
        sum += x * x;
      }
  return sum;
}

template <class T>
void referenceCpuOf(const Problem &p, const void *cInitial, double *out) {
  std::vector<double> row(p.n);
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < p.m; ++i) {
      // i-l-j order streams rows of B, whatever the layout's strides.
      std::fill(row.begin(), row.end(), 0.0);
      for (int64_t l = 0; l < p.k; ++l) {
        double x = elementAt<T>(p.a.ptr, p.a, b, i, l);
        for (int64_t j = 0; j < p.n; ++j)
          row[j] += x * elementAt<T>(p.b.ptr, p.b, b, l, j);
      }
      double *outRow = out + (b * p.m + i) * p.n;
      for (int64_t j = 0; j < p.n; ++j) {
        outRow[j] = p.alpha * row[j];
        // BLAS semantics: with beta == 0, C is not read.
        if (p.beta != 0)
          outRow[j] += p.beta * elementAt<T>(cInitial, p.c, b, i, j);
        outRow[j] = finishElement<T>(p.epilogue, outRow[j], b, i, j);
      }
    }
}

/// The squared Frobenius error of a result against the reference, and
/// whether an Inf or NaN differs in kind.
template <class T>
ResultError errorOf(const Problem &p, const void *cResult,
                    const double *reference) {
  ResultError e;
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < p.m; ++i)
      for (int64_t j = 0; j < p.n; ++j) {
        double ref = reference[(b * p.m + i) * p.n + j];
        double got = elementAt<T>(cResult, p.c, b, i, j);
        // Inf or NaN in the inputs: the result must match it in kind.
        if (!std::isfinite(ref)) {
          if (!(got == ref || (std::isnan(got) && std::isnan(ref))))
            e.mismatch = true;
          continue;
        }
        if (!std::isfinite(got)) {
          e.mismatch = true;
          continue;
        }
        e.squared += (got - ref) * (got - ref);
      }
  return e;
}

template <class T>
double normwiseBoundOf(const Problem &p, const void *cInitial,
                       const double *reference, Products products) {
  double scale = std::fabs(p.alpha) *
                 std::sqrt(sumOfSquares<T>(p.a.ptr, p.a, p.batch, p.m, p.k)) *
                 std::sqrt(sumOfSquares<T>(p.b.ptr, p.b, p.batch, p.k, p.n));
  if (p.beta != 0)
    scale += std::fabs(p.beta) *
             std::sqrt(sumOfSquares<T>(cInitial, p.c, p.batch, p.m, p.n));
  // The bias adds one more rounding of each element; clamps add none.
  if (p.epilogue.bias.ptr)
    scale += std::sqrt(sumOfSquares<T>(p.epilogue.bias.ptr, p.epilogue.bias,
                                       p.batch, p.m, p.n));
  // K products summed in any order are off by at most K*eps/2 of
  // |alpha| |A||B|, and ||(|A||B|)||_F <= ||A||_F ||B||_F; the +2 covers the
  // roundings of the epilogue and of a reference that was itself rounded to
  // the element type. Constant c = 1.
  double bound = double(p.k + 2) * epsilonOf(p.dtype) * scale;
  // TF32 keeps 10 of the 23 mantissa bits of each operand, and the tensor
  // cores' sums lose up to a unit of FP32 per product; 3xTF32 drops only
  // the product of the two remainders.
  if (products == Products::Tf32)
    bound = (std::ldexp(1.0, -9) + double(p.k + 2) * std::ldexp(1.0, -22)) *
            scale;
  else if (products == Products::Tf32x3)
    bound += std::ldexp(1.0, -20) * scale;
  // A function passes that error on with its slope (at most 1.2) and adds
  // its own libm's rounding, which differs from the reference's by ulps.
  if (hasFunction(p.epilogue)) {
    double ref2 = 0;
    for (int64_t e = 0; e < p.batch * p.m * p.n; ++e)
      if (std::isfinite(reference[e]))
        ref2 += reference[e] * reference[e];
    bound = 1.2 * bound + 8 * epsilonOf(p.dtype) * std::sqrt(ref2);
  }
  return bound;
}

/// C's elements as normwiseRatio's `reference` takes them: `c` is a host
/// copy laid out like p.c (whose ptr is not read), returned as doubles,
/// element (b, i, j) at (b*m + i)*n + j.
std::vector<double> denseCopy(const Problem &p, const void *c) {
  std::vector<double> dense(size_t(p.batch * p.m * p.n));
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < p.m; ++i)
      for (int64_t j = 0; j < p.n; ++j)
        dense[(b * p.m + i) * p.n + j] =
            p.dtype == DType::F32 ? elementAt<float>(c, p.c, b, i, j)
                                  : elementAt<double>(c, p.c, b, i, j);
  return dense;
}

/// The span of C's elements in the problem as the kernel sees it.
Span spanOfC(const Problem &p) {
  return spanOf(p.c, {p.batch, p.m, p.n}, elementSize(p.dtype));
}

/// Where an element pointer into `span` lands in a copy of the span.
template <class Ptr> Ptr rebase(const void *ptr, const Span &span, Ptr copy) {
  auto base = reinterpret_cast<uintptr_t>(copy);
  return reinterpret_cast<Ptr>(base +
                               (reinterpret_cast<uintptr_t>(ptr) - span.begin));
}

/// A host copy of a device span.
std::vector<unsigned char> copyToHost(const Span &span, const char *nest,
                                      const char *what) {
  std::vector<unsigned char> host(span.size());
  checkCuda(cudaMemcpy(host.data(), reinterpret_cast<const void *>(span.begin),
                       span.size(), cudaMemcpyDeviceToHost),
            nest, what);
  return host;
}
} // namespace

void referenceCpu(const Problem &host, const void *cInitial, double *out) {
  if (host.dtype == DType::F32)
    referenceCpuOf<float>(host, cInitial, out);
  else
    referenceCpuOf<double>(host, cInitial, out);
}

double verify(const Problem &host, const void *cInitial, const void *cResult) {
  std::vector<double> reference(size_t(host.batch * host.m * host.n));
  referenceCpu(host, cInitial, reference.data());
  return normwiseRatio(host, cInitial, cResult, reference.data());
}

namespace detail {

bool verifying() {
  static const bool on = flagOn(Switch::Verify);
  return on;
}

Products productsOf(LaunchFn launch) {
  return launch == launchTf32     ? Products::Tf32
         : launch == launchTf32x3 ? Products::Tf32x3
                                  : Products::Native;
}

double normwiseBound(const Problem &host, const void *cInitial,
                     const double *reference, Products products) {
  if (host.dtype == DType::F32)
    return normwiseBoundOf<float>(host, cInitial, reference, products);
  return normwiseBoundOf<double>(host, cInitial, reference, products);
}

double errorRatio(const ResultError &error, double bound) {
  const double inf = std::numeric_limits<double>::infinity();
  if (error.mismatch)
    return inf;
  const double err = std::sqrt(error.squared);
  if (err == 0)
    return 0;
  return bound > 0 ? err / bound : inf;
}

double normwiseRatio(const Problem &host, const void *cInitial,
                     const void *cResult, const double *reference,
                     Products products) {
  const ResultError error =
      host.dtype == DType::F32 ? errorOf<float>(host, cResult, reference)
                               : errorOf<double>(host, cResult, reference);
  // The bound reads all of A and B: only an error needs it.
  if (error.mismatch || error.squared == 0)
    return errorRatio(error, 0);
  return errorRatio(error,
                    normwiseBound(host, cInitial, reference, products));
}

LaunchCheck::LaunchCheck(const Problem &device)
    : on(verifying()), device(device) {
  if (on)
    initialC = copyToHost(spanOfC(device), device.nest,
                          "GEMM_OPT_VERIFY: saving the initial C");
}

void LaunchCheck::report(LaunchFn ran) {
  if (!on)
    return;
  const Problem &p = device;
  const size_t size = elementSize(p.dtype);
  const Span cSpan = spanOfC(p);
  const Span aSpan = spanOf(p.a, {p.batch, p.m, p.k}, size);
  const Span bSpan = spanOf(p.b, {p.batch, p.k, p.n}, size);

  // The oracle: launchReference on a scratch copy of the initial C, with the
  // operands the kernel read (staged copies of host operands included).
  void *scratch = nullptr;
  checkCuda(cudaMalloc(&scratch, cSpan.size()), p.nest,
            "GEMM_OPT_VERIFY: allocating the oracle's C");
  checkCuda(cudaMemcpy(scratch, initialC.data(), cSpan.size(),
                       cudaMemcpyHostToDevice),
            p.nest, "GEMM_OPT_VERIFY: copying the initial C");
  Problem oracle = p;
  oracle.c.ptr = rebase(p.c.ptr, cSpan, scratch);
  checkCuda(launchReference(oracle, 0), p.nest,
            "GEMM_OPT_VERIFY: launching the oracle");
  checkCuda(cudaStreamSynchronize(0), p.nest,
            "GEMM_OPT_VERIFY: running the oracle");
  const Span scratchSpan{reinterpret_cast<uintptr_t>(scratch),
                         reinterpret_cast<uintptr_t>(scratch) + cSpan.size()};
  std::vector<unsigned char> oracleC =
      copyToHost(scratchSpan, p.nest, "GEMM_OPT_VERIFY: reading the oracle");
  checkCuda(cudaFree(scratch), p.nest,
            "GEMM_OPT_VERIFY: freeing the oracle's C");
  std::vector<unsigned char> resultC =
      copyToHost(cSpan, p.nest, "GEMM_OPT_VERIFY: reading C");
  std::vector<unsigned char> aHost =
      copyToHost(aSpan, p.nest, "GEMM_OPT_VERIFY: reading A");
  std::vector<unsigned char> bHost =
      copyToHost(bSpan, p.nest, "GEMM_OPT_VERIFY: reading B");
  const Operand &bias = p.epilogue.bias;
  const Span biasSpan = bias.ptr ? spanOf(bias, {p.batch, p.m, p.n}, size)
                                 : Span{0, 0};
  std::vector<unsigned char> biasHost;
  if (bias.ptr)
    biasHost =
        copyToHost(biasSpan, p.nest, "GEMM_OPT_VERIFY: reading the bias");

  Problem host = p;
  host.a.ptr = rebase(p.a.ptr, aSpan, aHost.data());
  host.b.ptr = rebase(p.b.ptr, bSpan, bHost.data());
  if (bias.ptr)
    host.epilogue.bias.ptr = rebase(bias.ptr, biasSpan, biasHost.data());
  const std::vector<double> reference =
      denseCopy(p, rebase(p.c.ptr, cSpan, oracleC.data()));
  double ratio =
      normwiseRatio(host, rebase(p.c.ptr, cSpan, initialC.data()),
                    rebase(p.c.ptr, cSpan, resultC.data()), reference.data(),
                    productsOf(ran));
  std::fprintf(stderr, "gemm-opt verify: nest %s: err/bound = %.3e %s\n",
               p.nest, ratio, ratio <= 1 ? "PASS" : "FAIL");
}

} // namespace detail

} // namespace gemm_rt
