//===- check.cu - Fatal errors of the runtime -----------------------------===//
//
// Implements the error reporting declared in check.h.
//
//===----------------------------------------------------------------------===//
#include "core/check.h"

#include <cstdio>
#include <cstdlib>

namespace gemm_rt::detail {

void fatal(const char *nest, const std::string &message) {
  std::fprintf(stderr, "gemm-opt runtime: nest %s: %s\n", nest,
               message.c_str());
  std::abort();
}

void checkCuda(cudaError_t err, const char *nest, const char *what) {
  if (err != cudaSuccess)
    fatal(nest, std::string(what) + " failed: " + cudaGetErrorString(err));
}

} // namespace gemm_rt::detail
