//===- tail-host.cu - A choice's tail: the rows of C it runs apart --------===//
//
// Runs choices with a tail (choose.h) through launchChoice on host operands,
// with a plan whose "kernels" compute on the CPU (runOnCpu), and compares C
// with the whole product computed the same way: bit for bit, since each
// element is the same sum, and with C's padding untouched. The operands are
// laid out as the launch must slice them: A's rows reversed (a negative
// stride), B and C column-major, C padded, a bias along the rows, beta != 0
// and a clamp; also two matrices of a batch. No GPU is needed.
//
//===----------------------------------------------------------------------===//
#include "launch/choose.h"
#include "checks/cpu.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

using gemm_rt::Problem;

cudaError_t onCpu(const Problem &p, cudaStream_t) {
  gemm_rt::detail::runOnCpu(p);
  return cudaSuccess;
}

const gemm_rt::Variant variants[] = {{onCpu, 32, 32, 1, 1000.0},
                                     {onCpu, 16, 16, 1, 1000.0}};
const gemm_rt::Plan plan{variants, 2, 3350.0};

/// Deterministic values in [-1, 1) that no sum cancels exactly.
std::vector<double> values(size_t count, unsigned seed) {
  std::vector<double> v(count);
  for (size_t i = 0; i < count; ++i) {
    seed = seed * 1103515245u + 12345u;
    v[i] = double(seed >> 8 & 0xffff) / 32768.0 - 1.0;
  }
  return v;
}

void check(const char *what, int64_t batch, int64_t from, int restVariant) {
  const int64_t m = 203, n = 37, k = 29, ldc = m + 3;
  const int64_t aMatrix = m * k, cMatrix = ldc * n;
  const std::vector<double> a = values(size_t(batch * aMatrix), 1),
                            b = values(size_t(batch * k * n), 2),
                            bias = values(size_t(m), 3),
                            c0 = values(size_t(batch * cMatrix), 4);
  // A row-major with its rows in reverse order: row i at (m - 1 - i) * k.
  Problem p = gemm_rt::launcherProblem(
      "tail-host", gemm_rt::DType::F64, batch, m, n, k,
      {a.data() + (m - 1) * k, aMatrix, -k, 1}, {b.data(), k * n, 1, k},
      {c0.data(), cMatrix, 1, ldc}, 1.5, -0.5);
  p.epilogue.bias = {bias.data(), 0, 1, 0};
  p.epilogue.steps = 1;
  p.epilogue.step[0] = {gemm_rt::Step::Lower, true, {-0.25, 0}};

  std::vector<double> whole = c0, parts = c0;
  Problem q = p;
  q.c.ptr = whole.data();
  gemm_rt::detail::runOnCpu(q);
  q.c.ptr = parts.data();
  const gemm_rt::detail::Choice choice{0, 1, 0, {from, restVariant, 1}};
  gemm_rt::detail::launchChoice(q, plan, choice, 0);

  size_t differ = 0, padding = 0;
  for (size_t e = 0; e < parts.size(); ++e) {
    const bool element = int64_t(e % size_t(cMatrix)) % ldc < m;
    if (std::memcmp(&parts[e], &whole[e], sizeof(double)) != 0)
      ++(element ? differ : padding);
  }
  size_t changed = 0; // The whole product must have run at all.
  for (size_t e = 0; e < whole.size(); ++e)
    changed += whole[e] != c0[e];
  std::printf("%s: %zu elements differ, %zu padding changed, %zu changed\n",
              what, differ, padding, changed);
}

} // namespace

int main() {
  check("rows from 64 as variant 1", 1, 64, 1);
  check("rows from 202 as variant 0", 1, 202, 0);
  check("rows from 1 as variant 1", 1, 1, 1);
  check("batch of 2, rows from 96", 2, 96, 1);
  return 0;
}
