//===- cpu.h - Running the lifted problem on the CPU ------------*- C++ -*-===//
//
// GEMM_OPT_DEVICE=cpu makes run() compute the lifted Problem on the CPU
// instead of sending the nest back to its loop when there is no GPU. A
// program built from gemm-opt output then computes through exactly what the
// front end lifted (operands, strides, batch, alpha, beta), so a recognition
// error changes its results on a machine without a GPU, where differential
// tests (test/fuzz) can see it.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_CPU_H
#define GEMM_RUNTIME_CPU_H

#include "gemm_runtime.h"

namespace gemm_rt::detail {

/// True if GEMM_OPT_DEVICE is "cpu". Read once.
bool cpuMode();

/// C = act(alpha * A * B + beta * C + bias) for host operands, through
/// referenceCpu: it writes C's elements and nothing else, and reads C only if
/// beta != 0.
void runOnCpu(const Problem &host);

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_CPU_H
