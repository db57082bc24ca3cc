//===- GemmAttrs.h - gemm dialect attributes --------------------*- C++ -*-===//
//
// Declares #gemm.target, #gemm.schedule and the Prefetch enum.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_OPT_DIALECT_GEMM_GEMMATTRS_H
#define GEMM_OPT_DIALECT_GEMM_GEMMATTRS_H

#include "gemm-opt/Dialect/Gemm/GemmDialect.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "gemm-opt/Dialect/Gemm/GemmEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "gemm-opt/Dialect/Gemm/GemmAttrs.h.inc"

namespace mlir::gemm {

/// The k depth of one FP64 mma.sync of a dmma kernel with a TM x TN
/// register tile and a BK-deep K step on sm_90: m16n8kK pairs 8-row blocks,
/// so an even TM takes the deepest of 16, 8 and 4 that divides BK; an odd TM
/// keeps m8n8k4. CodeGen prints it and the cost model counts it.
/// Whether a dmma kernel's row blocks pair into m16n8kK products on sm_90
/// (an even TM); otherwise it multiplies with m8n8k4.
inline bool dmmaPairsRows(int64_t threadM) { return threadM % 2 == 0; }

inline int64_t dmmaDepth(int64_t threadM, int64_t blockK) {
  if (!dmmaPairsRows(threadM))
    return 4;
  return blockK % 16 == 0 ? 16 : blockK % 8 == 0 ? 8 : 4;
}

} // namespace mlir::gemm

#endif // GEMM_OPT_DIALECT_GEMM_GEMMATTRS_H
