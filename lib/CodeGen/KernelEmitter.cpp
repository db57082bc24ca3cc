//===- KernelEmitter.cpp - CUDA kernels from scheduled matmuls ------------===//
//
// Prints the two-level tiled kernel of a #gemm.schedule: BM x BN x BK tiles of
// A and B in shared memory (k-major, rows padded), a TM x TN register tile per
// thread, the K loop pipelined as the schedule says, predicated zero-filled
// edges and a BLAS epilogue. Every decision is read off the schedule and the
// operand types; nothing here chooses.
//
// The thread-to-element map groups V consecutive rows (and columns), and
// strides the groups by the thread count along that dimension, so that the
// register fragments are vector loads from shared memory and consecutive
// threads store consecutive columns of C. With V = 1 it is the strided map of
// the MAGMA Fermi kernels.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "KernelParts.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::kernel;

namespace {

/// The most shared memory one block can have on any GPU CodeGen targets
/// (sm_90: 227 KB, CUDA C++ Programming Guide, Table 21); a GPU with less
/// reports the launch's error.
constexpr int64_t kMaxSharedBytes = 227 * 1024;

} // namespace

LogicalResult mlir::gemm::emitKernel(MatmulOp op, ScheduleAttr s,
                                     StringRef name, llvm::raw_ostream &os) {
  bool f64 = op.getElementType().isF64();
  int64_t elemBytes = f64 ? 8 : 4;
  int64_t bm = s.getBlockM(), bn = s.getBlockN(), bk = s.getBlockK();
  int64_t tm = s.getThreadM(), tn = s.getThreadN();
  int64_t v = s.getVector(), pad = s.getPad();
  bool batched = op.isBatched();
  // SMEM_BYTES below: the A tiles rounded up to 32 bytes, then the B tiles.
  int64_t smemBytes =
      llvm::alignTo(s.getStages() * bk * (bm + pad) * elemBytes, 32) +
      s.getStages() * bk * (bn + pad) * elemBytes;
  if (smemBytes > kMaxSharedBytes)
    return op.emitError("the schedule's tiles need ")
           << smemBytes << " bytes of shared memory; at most "
           << kMaxSharedBytes << " fit a block (sm_90)";
  bool async = s.getPrefetch() == Prefetch::Async;

  // A transposed kernel computes C^T = B^T A^T: its A is B^T, its B is A^T.
  bool transpose = s.getTranspose();
  MemRefType aType =
      transpose ? transposedType(op.getBType()) : op.getAType();
  MemRefType bType =
      transpose ? transposedType(op.getAType()) : op.getBType();
  MemRefType cType =
      transpose ? transposedType(op.getCType()) : op.getCType();
  int64_t threads = (bm / tm) * (bn / tn);
  TileLoad a = describeLoad('a', aType, batched, v, bm, bk, pad, threads);
  TileLoad b = describeLoad('b', bType, batched, v, bn, bk, pad, threads);
  // Where a thread's rows and columns of C lie: groups of adjacent rows
  // (columns), a step apart. FMA threads read their groups from shared
  // memory as packs; a dmma thread holds one row and two adjacent columns of
  // each 8 x 8 product.
  bool dmma = s.getCompute() == Compute::Dmma;
  int64_t rowGroup = tm % v == 0 && (bm + pad) % v == 0 ? v : 1;
  int64_t colGroup = tn % v == 0 && (bn + pad) % v == 0 ? v : 1;
  int64_t rowStep = (bm / tm) * rowGroup, colStep = (bn / tn) * colGroup;
  // The deepest product that a K step holds whole; without row-block pairs
  // only m8n8k4 fits.
  bool wideDmma = dmma && dmmaPairsRows(tm);
  int64_t dmmaK = dmmaDepth(tm, bk);
  int64_t aGroup = dmmaGroupA(tm, bm, pad);
  int64_t bGroup = dmmaGroupB(tn, bn, pad, dmmaK);
  if (dmma)
    rowGroup = aGroup, rowStep = 8 * aGroup, colGroup = 2 * bGroup,
    colStep = 8 * bGroup;
  unsigned row = batched ? 1 : 0;
  std::string cm = strideText(cType, row, "p.c.sr");
  std::string cn = strideText(cType, row + 1, "p.c.sc");
  // C is stored in packs along its unit stride: along rows when only its
  // rows are contiguous.
  bool byColumns = cm == "1" && cn != "1";
  int64_t cPack = cn == "1"   ? std::min(colGroup, v)
                  : byColumns ? std::min(rowGroup, v)
                              : 1;

  std::string prefetchText;
  switch (s.getPrefetch()) {
  case Prefetch::Smem:
    prefetchText = "two shared-memory buffers (the next K tile loads\n// "
                   "while the current one is multiplied)";
    break;
  case Prefetch::Regs:
    prefetchText = "one shared-memory buffer and a register prefetch of the "
                   "next K tile";
    break;
  case Prefetch::Async:
    prefetchText = llvm::formatv("{0} shared-memory buffers filled by "
                                 "cp.async\n// (up to {1} K tiles ahead), "
                                 "warps paced by mbarriers",
                                 s.getStages(), s.getStages() - 1);
    break;
  case Prefetch::None:
    prefetchText = "no prefetch";
    break;
  }
  os << llvm::formatv(
      "// Kernel: {0}x{1}x{2} block tile, {3}x{4} register tile per thread "
      "({5} threads),\n// {15}, {6}-element vector accesses, {7},\n// "
      "shared rows padded by {8} elements.{18}\n"
      "// Internal linkage: every rewritten file numbers its nests from 0.\n"
      "namespace {{\nnamespace {9}_impl {{\n"
      "using T = {10};\n"
      "// Block tile: C rows, C columns and the K step.\n"
      "constexpr int BM = {0}, BN = {1}, BK = {2};\n"
      "// Register tile of C per thread.\n"
      "constexpr int TM = {3}, TN = {4};\n"
      "constexpr int THREADS = (BM / TM) * (BN / TN);\n"
      "// Shared-memory buffers, and the padding of their rows in elements.\n"
      "constexpr int STAGES = {11}, PAD = {8};\n"
      "// The thread's rows of C come in groups of ROW_GROUP adjacent rows,\n"
      "// ROW_STEP apart; likewise its columns.\n"
      "constexpr int ROW_GROUP = {12}, ROW_STEP = {13};\n"
      "constexpr int COL_GROUP = {14}, COL_STEP = {16};\n"
      "// Elements per store of C.\n"
      "constexpr int C_PACK = {17};\n"
      "// Shared memory: the A tiles, rounded up to 32 bytes, then the B "
      "tiles.\n"
      "constexpr int A_TILE_BYTES =\n"
      "    (STAGES * BK * (BM + PAD) * int(sizeof(T)) + 31) / 32 * 32;\n"
      "constexpr int SMEM_BYTES =\n"
      "    A_TILE_BYTES + STAGES * BK * (BN + PAD) * int(sizeof(T));\n",
      bm, bn, bk, tm, tn, threads, v, prefetchText, pad, name,
      f64 ? "double" : "float", s.getStages(), rowGroup, rowStep, colGroup,
      !dmma       ? "scalar FMA"
      : wideDmma ? llvm::formatv("FP64 tensor-core mma.sync m16n8k{0} (m8n8k4 "
                                 "before sm_90)", dmmaK).str()
                 : "FP64 tensor-core mma.sync m8n8k4", colStep,
      cPack,
      transpose ? "\n// Transposed: it computes C^T = B^T A^T, so BM runs along N."
                : "");
  if (dmma)
    os << "// Each warp computes a WM x WN tile of 8 x 8 products, DMMA_K k at a\n"
          "// time.\n"
          "constexpr int WM = 8 * TM, WN = 4 * TN, DMMA_K = "
       << dmmaK
       << ";\n"
          "// Blocks of 8 rows (columns) whose fragments a lane loads as one "
          "pack.\n"
          "constexpr int A_GROUP = "
       << aGroup << ", B_GROUP = " << bGroup
       << ";\n"
          "/// Where the product's column 2 * (lane % 4) + c of 8-column block "
          "j\n/// lies in the lane's accumulators, in the order of its "
          "columns.\n"
          "__device__ constexpr int accColumn(int j, int c) {\n"
          "  return (j / B_GROUP) * 2 * B_GROUP + c * B_GROUP + j % B_GROUP;\n"
          "}\n";
  os << "\n/// N elements moved as one access (128 bits for 4 x f32 or 2 x "
        "f64).\n"
        "template <int N> struct alignas(N * sizeof(T)) Pack { T v[N]; };\n\n"
        "/// A compile-time flag passed as a value.\n"
        "template <bool B> struct Flag {\n"
        "  static constexpr bool value = B;\n"
        "};\n\n";
  if (async)
    printAsyncPrimitives(os);
  printCursor(os);
  for (const TileLoad &t : {a, b}) {
    printTileLayout(os, t);
    if (async)
      printTileCopy(os, t);
    else
      printTileLoadStore(os, t);
  }
  printTilePair(os, async);
  if (dmma)
    printDmmaMultiply(os, dmmaK, wideDmma);
  else
    printFmaMultiply(os);
  bool fused = op.hasEpilogue();
  if (byColumns)
    printEpilogueByColumns(os, fused);
  else
    printEpilogue(os, cn == "1" ? "1" : "cn", cPack, fused);

  // The schedule's occupancy caps ptxas's registers at what that many
  // blocks leave each thread, so the kernel keeps the residency that the
  // cost model counted on.
  os << "// Blocks per SM whose registers the kernel must fit.\n"
        "constexpr int OCCUPANCY = "
     << s.getOccupancy()
     << ";\n\n"
        "template <bool Vec>\n"
        "__global__ void __launch_bounds__(THREADS, OCCUPANCY) kernel(const "
        "gemm_rt::Problem p) {\n"
        "  // Dynamic shared memory, which may pass the 48 KB of a static\n"
        "  // declaration; both tiles aligned for the widest pack (4 x f64).\n"
        "  extern __shared__ __align__(32) unsigned char smem[];\n"
        "  auto &tileA = *reinterpret_cast<T (*)[STAGES][BK][BM + PAD]>(smem);\n"
        "  auto &tileB =\n"
        "      *reinterpret_cast<T (*)[STAGES][BK][BN + PAD]>(smem + "
        "A_TILE_BYTES);\n";
  if (dmma)
    os << "  // The warp and the lane; warps tile the block row by row.\n"
          "  const int ty = threadIdx.x / 32, tx = threadIdx.x % 32;\n"
          "  const int rowIn = (ty / (BN / WN)) * WM + A_GROUP * (tx / 4);\n"
          "  const int colIn = (ty % (BN / WN)) * WN + 2 * B_GROUP * (tx % 4);\n";
  else
    os << "  // Consecutive threads own consecutive column groups of C.\n"
          "  const int ty = threadIdx.x / (BN / TN), tx = threadIdx.x % (BN / "
          "TN);\n"
          "  const int rowIn = ty * ROW_GROUP, colIn = tx * COL_GROUP;\n";
  if (async)
    printPipelineSetup(os);
  os << "  const long long n0 = (long long)blockIdx.x * BN;\n"
        "  // Full K tiles, and the rows short of one.\n"
        "  const int kTiles = int(p.k / BK), kRest = int(p.k % BK);\n"
        "  const T alpha = T(p.alpha), beta = T(p.beta);\n"
        "  // A is [M][K] and B is [K][N]: x runs along M for A and along N "
        "for B.\n"
     << "  const long long aX = " << a.xStride
     << ", aK = " << a.kStride << ";\n"
     << "  const long long bX = " << b.xStride << ", bK = " << b.kStride
     << ";\n"
     << "  const long long cm = " << cm << ", cn = " << cn << ";\n"
     << "  // Batches and row tiles beyond the grid's limits loop.\n"
        "  for (long long batch = blockIdx.z; batch < p.batch; batch += "
        "gridDim.z)\n"
        "  for (long long m0 = (long long)blockIdx.y * BM; m0 < p.m;\n"
        "       m0 += (long long)gridDim.y * BM) {\n"
        "    const T *a = static_cast<const T *>(p.a.ptr) + batch * p.a.sb;\n"
        "    const T *b = static_cast<const T *>(p.b.ptr) + batch * p.b.sb;\n"
        "    T *c = static_cast<T *>(const_cast<void *>(p.c.ptr)) + batch * "
        "p.c.sb;\n"
        "    T acc[TM][TN];\n"
        "#pragma unroll\n"
        "    for (int i = 0; i < TM; ++i)\n"
        "#pragma unroll\n"
        "      for (int j = 0; j < TN; ++j)\n"
        "        acc[i][j] = T(0);\n"
        "    Cursor<A_LOADS> ca = startA(a, aX, aK, p.m, m0);\n"
        "    Cursor<B_LOADS> cb = startB(b, bX, bK, p.n, n0);\n";
  if (!async)
    os << "    Pack<A_PACK> ra[A_LOADS];\n"
          "    Pack<B_PACK> rb[B_LOADS];\n";
  // The bounds of every pack cost a K step more instructions than its
  // loads (SASS: 314 against 206 per step of a 128x64x16 dmma kernel);
  // blocks inside M and N, all but the last row and column, skip them.
  os << "    // A block inside M and N runs a K loop without bounds on its "
        "packs.\n"
        "    const auto kLoop = [&](auto inside) {\n"
        "      constexpr bool Inside = decltype(inside)::value;\n";
  std::string loop;
  llvm::raw_string_ostream loopOs(loop);
  printPipeline(loopOs, s.getPrefetch(), s.getStages());
  for (StringRef line : llvm::split(StringRef(loop).rtrim('\n'), '\n'))
    os << (line.starts_with("#") ? "" : "  ") << line << "\n";
  os << "    };\n"
        "    if (m0 + BM <= p.m && n0 + BN <= p.n)\n"
        "      kLoop(Flag<true>{});\n"
        "    else\n"
        "      kLoop(Flag<false>{});\n";
  printRemainder(os, async);
  os << "    storeC<Vec>(acc, c, cm, cn, p.m, p.n, m0 + rowIn, n0 + colIn, "
        "alpha, beta"
     << (fused ? ", p.epilogue, batch" : "")
     << ");\n"
        "  }\n"
        "}\n\n";

  SmallVector<std::string> checks;
  if (a.pack > 1)
    checks.push_back("packAligned(p.a, A_PACK)");
  if (b.pack > 1)
    checks.push_back("packAligned(p.b, B_PACK)");
  if (cPack > 1)
    checks.push_back("packAligned(p.c, C_PACK)");
  // Kernels without packs need no alignment check.
  if (!checks.empty())
    os << "/// True if every pack of n elements of x starts at a multiple of "
          "its size.\n"
          "/// The packs run along x's unit stride, so every other stride (the\n"
          "/// batch's too) must step whole packs; where both strides are 1\n"
          "/// (rows that overlap) one of them does not.\n"
          "inline bool packAligned(const gemm_rt::Operand &x, int n) {\n"
          "  const bool rows = x.sr % n == 0, cols = x.sc % n == 0;\n"
          "  return reinterpret_cast<unsigned long long>(x.ptr) % (n * "
          "sizeof(T)) == 0 &&\n"
          "         x.sb % n == 0 && ((rows && (cols || x.sc == 1)) || "
          "(cols && x.sr == 1));\n"
          "}\n\n";
  os << "/// Launches the vector variant when every packed access is "
        "aligned, the\n/// scalar one otherwise.\n";
  if (transpose)
    os << "cudaError_t launch(const gemm_rt::Problem &given, cudaStream_t "
          "stream) {\n"
          "  // The kernel computes C^T = B^T A^T.\n"
          "  const gemm_rt::Problem p = gemm_rt::transposed(given);\n";
  else
    os << "cudaError_t launch(const gemm_rt::Problem &p, cudaStream_t stream) "
          "{\n";
  os << "  const long long gridM = (p.m + BM - 1) / BM;\n"
        "  const dim3 grid(unsigned((p.n + BN - 1) / BN),\n"
        "                  unsigned(gridM < 65535 ? gridM : 65535),\n"
        "                  unsigned(p.batch < 65535 ? p.batch : 65535));\n"
        "  const bool aligned = ";
  os << (checks.empty() ? "true" : llvm::join(checks, " && ")) << ";\n"
     << "  const auto start = aligned ? kernel<true> : kernel<false>;\n"
        "  // Past 48 KB a kernel must opt in to its dynamic shared memory.\n"
        "  if (SMEM_BYTES > 48 * 1024) {\n"
        "    const cudaError_t err = cudaFuncSetAttribute(\n"
        "        start, cudaFuncAttributeMaxDynamicSharedMemorySize, "
        "SMEM_BYTES);\n"
        "    if (err != cudaSuccess)\n"
        "      return err;\n"
        "  }\n"
        "  start<<<grid, THREADS, SMEM_BYTES, stream>>>(p);\n"
        "  return cudaGetLastError();\n"
        "}\n"
     << "} // namespace " << name << "_impl\n"
     << "} // namespace\n\n";
  return success();
}
