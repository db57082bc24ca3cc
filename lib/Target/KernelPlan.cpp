//===- KernelPlan.cpp - Every fact of one kernel, computed once -----------===//
//
// The rules by which a schedule's kernel moves its tiles, groups its
// fragments and stores C. They follow from alignment alone: a pack is as
// wide as the schedule's vector where the unit stride and the padded rows
// keep every pack aligned, and one element otherwise.
//
//===----------------------------------------------------------------------===//

#include "gemm-opt/Target/KernelPlan.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir::gemm;

namespace {

/// The k depth of one FP64 mma.sync on sm_90: m16n8kK pairs 8-row blocks,
/// so an even TM takes m16n8k8 where 8 divides BK, else m16n8k4; an odd TM
/// keeps m8n8k4. m16n8k16 is not used: it runs no faster than m16n8k8 (H100:
/// 126.7 FMAs per clock per SM for both) but holds twice the fragments live
/// (ptxas 13.0: 248 registers for an 8x8 tile, k8 fits far fewer).
int64_t dmmaDepthOf(const Schedule &s) {
  if (s.threadM % 2 != 0)
    return 4;
  return s.blockK % 8 == 0 ? 8 : 4;
}

/// How an input tile of extent x moves (TileMovePlan). Packs run along the
/// unit stride, x unless only k has one; single elements still do, so that
/// a warp's loads share cache lines.
TileMovePlan planMove(Precision precision, TileStrides strides, int64_t x,
                      const Schedule &s, int64_t threads) {
  TileMovePlan t;
  t.x = x;
  t.xUnit = strides.xUnit;
  t.kUnit = strides.kUnit;
  int64_t v = s.vector;
  if (v > 1 && strides.xUnit && x % v == 0)
    t.pack = v;
  else if (v > 1 && strides.kUnit && s.blockK % v == 0)
    t.pack = v, t.alongK = true;
  else if (!strides.xUnit && strides.kUnit)
    t.alongK = true;
  // Along k a pack's elements land in `pack` shared rows one by one, but
  // for m16n8k8 dmma, whose lanes read two k of a row, a tile of rows of
  // 16 k or more (whole cache lines) is stored rows of x (isKInner) and a
  // pack lands whole; with rows of 8 k it ran no faster (docs/codegen.md).
  bool kInnerDmma = s.compute == Compute::Dmma && dmmaDepthOf(s) == 8 &&
                    s.blockK % 16 == 0 && t.alongK && t.pack == 2;
  t.wholeStore = t.pack > 1 && (t.alongK ? kInnerDmma
                                         : (x + s.pad) % t.pack == 0);
  t.packs = x * s.blockK / t.pack;
  t.loads = llvm::divideCeil(t.packs, threads);
  int64_t line = (t.alongK ? s.blockK : x) / t.pack;
  t.regular = t.packs % threads == 0 && threads % line == 0;
  // A warp of a regular tile stores 32 / line rows of x, 4 k apart across
  // its line, element by element. Rows of 4 mod 32 words put k and k + 8
  // on one bank: 2-way conflicts for 4 packs a line, 4-way for 8, which
  // the swizzle removes (measured: docs/cost-model.md, "Measurements behind the code",
  // swizzle). FMA kernels read a whole tile row alike, whose order the XOR
  // only permutes.
  t.swizzled = precision == Precision::F32 && s.compute == Compute::Fma &&
               t.alongK && t.pack == 4 && !t.wholeStore && t.regular &&
               (line == 4 || line == 8) && x % 16 == 0 &&
               (x + s.pad) % 32 == 4;
  return t;
}

/// Elements per fragment read of a tile side: the vector width where the
/// thread's tile and the padded rows keep the packs aligned.
int64_t fragmentGroup(int64_t tile, int64_t block, const Schedule &s) {
  return tile % s.vector == 0 && (block + s.pad) % s.vector == 0 ? s.vector
                                                                  : 1;
}

} // namespace

/// The A tiles' bytes, rounded up to 32 so that the B tiles after them stay
/// aligned for the widest pack (4 x f64).
static int64_t aTileBytesOf(Precision precision, const Schedule &s) {
  return llvm::alignTo(s.stages * s.blockK * (s.blockM + s.pad) *
                           elementBytes(precision),
                       32);
}

int64_t mlir::gemm::kernelSharedBytes(Precision precision, const Schedule &s) {
  return aTileBytesOf(precision, s) +
         s.stages * s.blockK * (s.blockN + s.pad) * elementBytes(precision);
}

KernelPlan mlir::gemm::planKernel(Precision precision, const Schedule &s,
                                  const Problem &given) {
  const Problem problem = orient(given, s);
  KernelPlan k;
  k.schedule = s;
  k.threads = s.threads();
  k.a = planMove(precision, problem.a, s.blockM, s, k.threads);
  k.b = planMove(precision, problem.b, s.blockN, s, k.threads);
  if (s.compute == Compute::Dmma) {
    // A lane holds one row and two adjacent columns of each 8 x 8 product;
    // it reads neighbouring blocks' fragments as one 16-byte pack where the
    // rows pair into m16n8kK products (A) or a product takes one B register
    // (k4, B), and the padded rows keep the packs aligned.
    k.dmmaDepth = dmmaDepthOf(s);
    k.dmmaWide = s.threadM % 2 == 0;
    k.dmmaGroupA =
        k.dmmaWide && !isKInner(k.a) && (s.blockM + s.pad) % 2 == 0 ? 2 : 1;
    k.dmmaGroupB = k.dmmaDepth == 4 && (s.threadN / 2) % 2 == 0 &&
                           (s.blockN + s.pad) % 2 == 0
                       ? 2
                       : 1;
    k.rowGroup = k.dmmaGroupA, k.rowStep = 8 * k.dmmaGroupA;
    k.colGroup = 2 * k.dmmaGroupB, k.colStep = 8 * k.dmmaGroupB;
  } else {
    k.rowGroup = fragmentGroup(s.threadM, s.blockM, s);
    k.colGroup = fragmentGroup(s.threadN, s.blockN, s);
    k.rowStep = (s.blockM / s.threadM) * k.rowGroup;
    k.colStep = (s.blockN / s.threadN) * k.colGroup;
  }
  // C is stored in packs along its unit stride: along rows when only its
  // rows are contiguous.
  k.cRowUnit = problem.cUnitRows;
  k.cColUnit = problem.cUnitColumns;
  k.cByColumns = k.cRowUnit && !k.cColUnit;
  k.cPack = k.cColUnit     ? std::min(k.colGroup, s.vector)
            : k.cByColumns ? std::min(k.rowGroup, s.vector)
                           : 1;
  k.aTileBytes = aTileBytesOf(precision, s);
  k.sharedBytes = kernelSharedBytes(precision, s);
  return k;
}
