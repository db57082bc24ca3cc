//===- gemm_runtime.h - gemm-opt runtime interface ---------------*- C++ -*-===//
//
// The interface between code that gemm-opt writes and libgemm_runtime. Every
// rewritten nest calls a generated launcher, which fills a Problem and hands
// it to gemm_rt::run together with the kernel to launch. run() decides whether
// the GPU can take the nest; when it returns false the caller runs its original
// loop, so a program built from gemm-opt output is correct with or without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_H
#define GEMM_RUNTIME_H

#include <cstdint>
#include <cuda_runtime.h>

namespace gemm_rt {

enum class DType { F32, F64 };

/// One strided operand: element (b, r, c) lives at ptr[b*sb + r*sr + c*sc]
/// (in elements). Strides may be any sign; sb is 0 for unbatched problems.
struct Operand {
  const void *ptr;
  int64_t sb, sr, sc;
};

/// C[b] = alpha * A[b] * B[b] + beta * C[b] for b < batch, with A[b] m x k,
/// B[b] k x n and C[b] m x n. BLAS semantics: beta == 0 never reads C.
struct Problem {
  const char *nest; ///< "file.cpp:line:col" of the nest, used in messages.
  DType dtype;
  int64_t batch, m, n, k;
  Operand a, b, c;
  double alpha, beta;
};

/// Launches a kernel for a problem whose operand pointers are device pointers.
/// Returns the launch's error (cudaGetLastError() after the launch).
using LaunchFn = cudaError_t (*)(const Problem &device, cudaStream_t stream);

/// Runs p with `launch`. Device and managed pointers are used in place; host
/// pointers are staged through a cached device pool and C is copied back.
/// Returns false, having touched nothing, when the caller must run its
/// original loop: no usable GPU, an empty extent, C overlapping A or B, or a C
/// layout that maps two elements to one address. CUDA errors abort the
/// program with a message that names p.nest.
bool run(const Problem &p, LaunchFn launch);

/// The plain reference kernel: one thread per element of C, accumulating in
/// double. It is the launcher's kernel until tuned kernels exist, and an oracle.
cudaError_t launchReference(const Problem &device, cudaStream_t stream);

} // namespace gemm_rt

#endif // GEMM_RUNTIME_H
