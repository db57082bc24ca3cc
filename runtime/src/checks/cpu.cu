//===- cpu.cu - Running the lifted problem on the CPU ---------------------===//
//
// Implements GEMM_OPT_DEVICE=cpu (cpu.h).
//
//===----------------------------------------------------------------------===//
#include "checks/cpu.h"

#include "gemm_checks.h"

#include "core/switches.h"

#include <cstdlib>
#include <cstring>
#include <vector>

namespace gemm_rt::detail {

namespace {
template <class T> void store(const Problem &p, const std::vector<double> &v) {
  T *c = static_cast<T *>(const_cast<void *>(p.c.ptr));
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < p.m; ++i)
      for (int64_t j = 0; j < p.n; ++j)
        c[b * p.c.sb + i * p.c.sr + j * p.c.sc] = T(v[(b * p.m + i) * p.n + j]);
}
} // namespace

bool cpuMode() {
  static const bool on = [] {
    const char *value = switchValue(Switch::Device);
    return value && std::strcmp(value, "cpu") == 0;
  }();
  return on;
}

void runOnCpu(const Problem &host) {
  // The whole result is computed before C is written, so that C's initial
  // values feed beta however the strides order its elements.
  std::vector<double> result(size_t(host.batch * host.m * host.n));
  referenceCpu(host, host.c.ptr, result.data());
  if (host.dtype == DType::F32)
    store<float>(host, result);
  else
    store<double>(host, result);
}

} // namespace gemm_rt::detail
