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

/// Whether a dmma kernel's row blocks pair into m16n8kK products on sm_90
/// (an even TM); otherwise it multiplies with m8n8k4.
inline bool dmmaPairsRows(int64_t threadM) { return threadM % 2 == 0; }

/// The k depth of one FP64 mma.sync of a dmma kernel with a TM x TN
/// register tile and a BK-deep K step on sm_90: m16n8kK pairs 8-row blocks,
/// so an even TM takes m16n8k8 where 8 divides BK, else m16n8k4; an odd TM
/// keeps m8n8k4. m16n8k16 is not used: it runs no faster than m16n8k8 (H100:
/// 126.7 FMAs per clock per SM for both) but holds twice the fragments live
/// (ptxas 13.0: 248 registers for an 8x8 tile, k8 fits far fewer). CodeGen
/// prints the depth and the cost model counts it.
inline int64_t dmmaDepth(int64_t threadM, int64_t blockK) {
  if (!dmmaPairsRows(threadM))
    return 4;
  return blockK % 8 == 0 ? 8 : 4;
}

/// How many 8-row blocks of A (8-column blocks of B) a dmma lane reads as
/// one 16-byte pack: KernelEmitter lays the warp tile out so that a lane's
/// elements of a block pair sit side by side. A pairs where rows pair into
/// m16n8kK products (a0, a1 of one product) and the padded rows keep packs
/// aligned; B only where a product takes one B register (k4), as otherwise
/// each pair would be moved apart into two products' registers.
inline int64_t dmmaGroupA(int64_t threadM, int64_t blockM, int64_t pad) {
  return dmmaPairsRows(threadM) && (blockM + pad) % 2 == 0 ? 2 : 1;
}
inline int64_t dmmaGroupB(int64_t threadN, int64_t blockN, int64_t pad,
                          int64_t depth) {
  return depth == 4 && (threadN / 2) % 2 == 0 && (blockN + pad) % 2 == 0 ? 2
                                                                          : 1;
}

/// Which dimensions of an input's tile have a static unit stride in memory:
/// x (M for A, N for B) and k.
struct TileStrides {
  bool xUnit = true, kUnit = false;

  bool operator==(const TileStrides &o) const {
    return xUnit == o.xUnit && kUnit == o.kUnit;
  }
};

/// How CodeGen moves an input's tile from global to shared memory, where it
/// is stored k-major (`tile[k][x]`): in packs of `pack` elements along the
/// contiguous dimension, x unless only k is. A pack lands in shared memory
/// whole only along x, with rows padded to keep it aligned; along k its
/// elements go to `pack` rows one by one (one store, or one cp.async, each).
/// CodeGen prints this and the cost model counts it.
struct TilePacking {
  int64_t pack = 1;
  bool alongK = false;
  bool wholeStore = false;
};

inline TilePacking packTile(TileStrides strides, int64_t vector, int64_t x,
                            int64_t blockK, int64_t pad) {
  TilePacking t;
  if (vector > 1 && strides.xUnit && x % vector == 0)
    t.pack = vector;
  else if (vector > 1 && strides.kUnit && blockK % vector == 0)
    t.pack = vector, t.alongK = true;
  // Single elements still go along the contiguous dimension, so that a
  // warp's loads share cache lines.
  else if (!strides.xUnit && strides.kUnit)
    t.alongK = true;
  t.wholeStore = t.pack > 1 && !t.alongK && (x + pad) % t.pack == 0;
  return t;
}

} // namespace mlir::gemm

#endif // GEMM_OPT_DIALECT_GEMM_GEMMATTRS_H
