//===- magma_dgemm.cu - MAGMA's Fermi DGEMM -------------------------------===//
//
// [Nath et al. 2010] section 3 (docs/references.md): a 64 x 64 tile of C per
// block of 16 x 16 threads, K in steps of 16, each thread a 4 x 4 register
// block strided by 16. The paper reaches 58% of the C2050's DP peak with it.
// The algorithm is in magma_gemm.h; this file fixes its parameters for double
// precision.
//
//===----------------------------------------------------------------------===//
#include "magma_gemm.h"

namespace gemm_seeds {
using namespace gemm_rt;

namespace {
constexpr int blkM = 64; ///< Rows of C per block.
constexpr int blkN = 64; ///< Columns of C per block.
constexpr int blkK = 16; ///< Depth of one K step in shared memory.
} // namespace

cudaError_t launchMagmaDgemm(const Problem &device, cudaStream_t stream) {
  if (device.dtype != DType::F64 || hasEpilogue(device.epilogue))
    return cudaErrorInvalidValue;
  return detail::magma::launch<double, blkM, blkN, blkK>(device, stream);
}

} // namespace gemm_seeds
