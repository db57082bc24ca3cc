//===- seeds.h - The seed papers' kernels -----------------------*- C++ -*-===//
//
// The kernels of the papers gemm-opt's schedules come from
// (docs/references.md), kept beside the GPU checks that run them
// (seeds_check.cu) and the benchmark that times them (bench/bench.cu); they
// are not part of the runtime, which never launches them. Programs that use
// them compile test/gpu/seeds/*.cu with their own sources.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_SEEDS_H
#define GEMM_SEEDS_H

#include "gemm_runtime.h"

namespace gemm_seeds {

using gemm_rt::Problem;

// The hand-tuned kernels of the seed papers, in CUDA C for any sm: what the
// GPU checks and the benchmark compare the generated kernels with. Each takes
// any problem: its tile is the fast path, ragged edges are zero-filled and
// operands are read through their strides, so every layout works. Batches go
// on grid.z. Each takes one element type and returns cudaErrorInvalidValue,
// launching nothing, for the other and for a problem with an epilogue.

/// MAGMA's Fermi DGEMM ([Nath et al. 2010]): a 64x64 tile of C per block of 16x16
/// threads, K steps of 16 through shared memory, each thread a 4x4 register
/// block strided by 16, the next K slice prefetched into registers. f64 only.
cudaError_t launchMagmaDgemm(const Problem &device, cudaStream_t stream);

/// MAGMA's Fermi SGEMM ([Nath et al. 2010], [Kurzak et al. 2011] Table 2): the DGEMM's scheme
/// with a 96x96x16 tile and a 6x6 register block strided by 16. f32 only.
cudaError_t launchMagmaSgemm(const Problem &device, cudaStream_t stream);

/// Tan et al.'s DGEMM ([Tan et al. 2011] Algorithm 3): a 64x64 tile per block of 256
/// threads, a 4x4 register block per thread, 128-bit shared-memory reads, and
/// the K slice (bk = 16) split into two 64x8 shared buffers: the next half is
/// loaded into one while the other is multiplied, one barrier per half-step.
/// Global loads are 128-bit where an operand is unit-stride along the loaded
/// direction and 16-byte aligned (checked at launch), scalar otherwise. f64
/// only.
cudaError_t launchTanDgemm(const Problem &device, cudaStream_t stream);

/// Volkov and Demmel's SGEMM ([Volkov & Demmel 2008] Figure 4): a 64x16 tile of C per
/// block of 64 threads, each thread one row of it in 16 registers; B goes
/// through shared memory in 16x16 blocks, A streams from global memory
/// through registers (coalesced when A is column-major). f32 only.
cudaError_t launchVolkovSgemm(const Problem &device, cudaStream_t stream);

/// Each seed kernel with the element type it takes.
struct SeedKernel {
  const char *name;
  gemm_rt::LaunchFn launch;
  gemm_rt::DType dtype;
};
inline const SeedKernel seedKernels[] = {
    {"magma-dgemm", launchMagmaDgemm, gemm_rt::DType::F64},
    {"tan-dgemm", launchTanDgemm, gemm_rt::DType::F64},
    {"magma-sgemm", launchMagmaSgemm, gemm_rt::DType::F32},
    {"volkov-sgemm", launchVolkovSgemm, gemm_rt::DType::F32},
};

} // namespace gemm_seeds

#endif // GEMM_SEEDS_H
