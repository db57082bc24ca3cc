//===- GemmAttrs.cpp - gemm dialect attributes ----------------------------===//
//
// The generated attribute storage, parsers and printers, the checks on
// #gemm.schedule, and the constants each #gemm.fn takes.
//
//===----------------------------------------------------------------------===//

#include "gemm-opt/Dialect/Gemm/GemmAttrs.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::gemm;

#include "gemm-opt/Dialect/Gemm/GemmEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "gemm-opt/Dialect/Gemm/GemmAttrs.cpp.inc"

void GemmDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "gemm-opt/Dialect/Gemm/GemmAttrs.cpp.inc"
      >();
}

/// Checks that `values` has `size` positive entries; `what` names the list and
/// its entries for the message, e.g. "block" and "[BM, BN, BK]".
static LogicalResult
verifyTileList(function_ref<InFlightDiagnostic()> emitError, StringRef what,
               StringRef entries, ArrayRef<int64_t> values, size_t size) {
  if (values.size() != size)
    return emitError() << what << " must have " << size << " entries "
                       << entries << ", got " << values.size();
  if (llvm::any_of(values, [](int64_t v) { return v <= 0; }))
    return emitError() << what << " entries must be positive, got ["
                       << llvm::make_range(values.begin(), values.end())
                       << "]";
  return success();
}

LogicalResult
ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                     ArrayRef<int64_t> block, ArrayRef<int64_t> thread,
                     int64_t warps, int64_t stages, int64_t vector,
                     Prefetch prefetch, int64_t pad, Compute compute,
                     int64_t occupancy, bool /*transpose*/) {
  if (failed(verifyTileList(emitError, "block", "[BM, BN, BK]", block, 3)) ||
      failed(verifyTileList(emitError, "thread", "[TM, TN]", thread, 2)))
    return failure();
  // Each thread owns a whole TM x TN tile of the block tile.
  if (block[0] % thread[0] != 0)
    return emitError() << "BM (" << block[0] << ") must be a multiple of TM ("
                       << thread[0] << ")";
  if (block[1] % thread[1] != 0)
    return emitError() << "BN (" << block[1] << ") must be a multiple of TN ("
                       << thread[1] << ")";
  if (warps < 1)
    return emitError() << "warps must be at least 1, got " << warps;
  // One thread per register tile, in whole warps.
  int64_t threads = (block[0] / thread[0]) * (block[1] / thread[1]);
  if (threads != warps * 32)
    return emitError() << "warps (" << warps << ") must equal the block's "
                       << "(BM / TM) * (BN / TN) = " << threads
                       << " threads divided by 32";
  if (stages < 1)
    return emitError() << "stages must be at least 1, got " << stages;
  // A shared-memory prefetch has two buffers, a cp.async pipeline two or
  // more, the others one.
  int64_t least = prefetch == Prefetch::Smem || prefetch == Prefetch::Async
                      ? 2
                      : 1;
  int64_t most = prefetch == Prefetch::Async ? stages : least;
  if (stages < least || stages > most)
    return emitError() << "prefetch = " << stringifyPrefetch(prefetch)
                       << " needs " << least
                       << (prefetch == Prefetch::Async ? " stages or more"
                           : least == 1               ? " stage"
                                                      : " stages")
                       << ", got " << stages;
  // 1, 2 and 4 elements are the scalar, 64-bit and 128-bit accesses of f32.
  if (vector != 1 && vector != 2 && vector != 4)
    return emitError() << "vector must be 1, 2 or 4, got " << vector;
  if (pad < 0)
    return emitError() << "pad must be non-negative, got " << pad;
  // dmma: a warp owns an 8*TM x 4*TN tile of m8n8k4 products, each thread a
  // pair of adjacent columns per product.
  if (compute == Compute::Dmma &&
      (block[0] % (8 * thread[0]) != 0 || block[1] % (4 * thread[1]) != 0 ||
       thread[1] % 2 != 0 || block[2] % 4 != 0))
    return emitError() << "compute = dmma needs BM a multiple of 8 * TM, BN "
                       << "of 4 * TN, an even TN and BK a multiple of 4";
  if (occupancy < 1)
    return emitError() << "occupancy must be at least 1, got " << occupancy;
  return success();
}

unsigned FnAttr::getParamCount() const {
  switch (getFunction()) {
  case Function::Tanh:
  case Function::Sigmoid:
    return 0;
  case Function::GeluTanh:
    return 2;
  case Function::GeluErf:
    return 1;
  }
  llvm_unreachable("unknown activation function");
}

/// A timed problem needs positive extents and a kernel's index.
static LogicalResult verifyTimed(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> extents, int64_t kernel) {
  if (llvm::any_of(extents, [](int64_t x) { return x <= 0; }))
    return emitError() << "batch, m, n and k must be positive, got ["
                       << llvm::make_range(extents.begin(), extents.end())
                       << "]";
  if (kernel < 0)
    return emitError() << "kernel must index the op's kernels, got " << kernel;
  return success();
}

LogicalResult
MeasuredAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                     int64_t batch, int64_t m, int64_t n, int64_t k,
                     int64_t kernel, int64_t splits) {
  if (failed(verifyTimed(emitError, {batch, m, n, k}, kernel)))
    return failure();
  if (splits < 0)
    return emitError() << "splits must be 0 (stream-K) or more, got "
                       << splits;
  return success();
}

LogicalResult
TuneCaseAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                     int64_t batch, int64_t m, int64_t n, int64_t k,
                     int64_t kernel) {
  return verifyTimed(emitError, {batch, m, n, k}, kernel);
}
