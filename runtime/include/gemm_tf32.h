//===- gemm_tf32.h - Float products on Hopper's tensor cores ----*- C++ -*-===//
//
// The launches of a float nest that its user opted in to TF32
// (gemm-opt --precision, or #pragma gemm_opt precision): one TF32 product
// (10-bit mantissas, an error of about 1e-3 of the product's scale), or
// three (3xTF32: each operand split into a TF32 part and its TF32
// remainder, FP32-accurate). They run the wgmma kernel of
// gemm_tensor/wgmma_tf32.cuh on an sm_90 GPU, on K-major copies of the
// operands where they are not K-major already (3xTF32: always, split). A
// problem that runsTf32 refuses runs one of the nest's FP32 kernels.
//
// Apart from gemm_runtime.h, since the printed kernels do not depend on it:
// a tuning database's rows stay valid.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_TF32_H
#define GEMM_TF32_H

#include "gemm_runtime.h"

namespace gemm_rt {

/// Whether the TF32 launches run `p`: a float problem of one matrix, no
/// bias or activation, C with a unit stride, extents the kernel's grid
/// takes, on an sm_90 GPU (the current device).
bool runsTf32(const Problem &p);

/// C = alpha * A * B + beta * C in TF32 (launchTf32) or 3xTF32
/// (launchTf32x3) on `stream`; cudaErrorInvalidValue where runsTf32 is
/// false.
cudaError_t launchTf32(const Problem &p, cudaStream_t stream);
cudaError_t launchTf32x3(const Problem &p, cudaStream_t stream);

} // namespace gemm_rt

#endif // GEMM_TF32_H
