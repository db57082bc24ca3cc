//===- check.h - Fatal errors of the runtime --------------------*- C++ -*-===//
//
// A CUDA failure inside a rewritten nest cannot be handed back to code that
// never expected one, so the runtime reports it, naming the nest, and aborts.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_CHECK_H
#define GEMM_RUNTIME_CHECK_H

#include <cuda_runtime.h>
#include <string>

namespace gemm_rt::detail {

/// Prints "gemm-opt runtime: nest <nest>: <message>" to stderr and aborts.
[[noreturn]] void fatal(const char *nest, const std::string &message);

/// Aborts with "<what> failed: <CUDA's description>" unless err is cudaSuccess.
void checkCuda(cudaError_t err, const char *nest, const char *what);

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_CHECK_H
