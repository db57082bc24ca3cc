//===- magma_sgemm.cu - MAGMA's Fermi SGEMM -------------------------------===//
//
// [Nath et al. 2010] section 3 and [Kurzak et al. 2011] Table 2
// (docs/references.md): a 96 x 96 tile of C per block of 16 x 16 threads, K in
// steps of 16, each thread a 6 x 6 register block strided by 16. The paper
// reaches 63% of the C2050's SP peak with it. The algorithm is in magma_gemm.h;
// this file fixes its parameters for single precision.
//
//===----------------------------------------------------------------------===//
#include "magma_gemm.h"

namespace gemm_seeds {
using namespace gemm_rt;

namespace {
constexpr int blkM = 96; ///< Rows of C per block.
constexpr int blkN = 96; ///< Columns of C per block.
constexpr int blkK = 16; ///< Depth of one K step in shared memory.
} // namespace

cudaError_t launchMagmaSgemm(const Problem &device, cudaStream_t stream) {
  if (device.dtype != DType::F32 || hasEpilogue(device.epilogue))
    return cudaErrorInvalidValue;
  return detail::magma::launch<float, blkM, blkN, blkK>(device, stream);
}

} // namespace gemm_seeds
