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

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// The most shared memory one block can have on any GPU CodeGen targets
/// (sm_90: 227 KB, CUDA C++ Programming Guide, Table 21); a GPU with less
/// reports the launch's error.
constexpr int64_t kMaxSharedBytes = 227 * 1024;

/// How one input tile moves from global to shared memory. Tiles are stored
/// k-major, `tile[k][x]`, where x runs over M for A and over N for B.
struct TileLoad {
  char name;            ///< 'a' or 'b'.
  StringRef upper;      ///< "A" or "B", for constant names.
  StringRef extent;     ///< "BM" or "BN".
  int64_t x;            ///< Its value.
  std::string xStride;  ///< Stride between x neighbours, as C++.
  std::string kStride;  ///< Stride between k neighbours, as C++.
  int64_t pack;         ///< Elements per global access (1 or V).
  bool alongK;          ///< Packs run along k (else along x).
  bool packedSmemStore; ///< Packs can be stored to shared memory whole.
  /// A thread's packs lie a fixed address step apart: every thread has
  /// the same number, and the threads cover whole lines of packs along
  /// the packed dimension, so pack i is pack 0 moved i * THREADS / line
  /// lines on.
  bool regular;
};

/// C++ for a stride: the literal where the type fixes it to 1, so that the
/// compiler sees contiguous accesses, else the problem's run-time value.
std::string strideText(MemRefType type, unsigned dim, StringRef field) {
  return hasUnitStride(type, dim) ? "1" : field.str();
}

/// `index * stride`, or just `index` for a unit stride.
std::string scaled(StringRef index, StringRef stride) {
  return stride == "1" ? index.str() : (index + " * " + stride).str();
}

/// The type of the transposed matrix: its last two extents and strides
/// swapped.
MemRefType transposedType(MemRefType type) {
  SmallVector<int64_t> shape(type.getShape()), strides;
  int64_t offset;
  // The op's operand constraint admits strided layouts only.
  (void)getStridesAndOffset(type, strides, offset);
  int64_t rank = type.getRank();
  std::swap(shape[rank - 2], shape[rank - 1]);
  std::swap(strides[rank - 2], strides[rank - 1]);
  return MemRefType::get(
      shape, type.getElementType(),
      StridedLayoutAttr::get(type.getContext(), offset, strides));
}

TileLoad describeLoad(char name, MemRefType type, bool batched, int64_t v,
                      int64_t x, int64_t bk, int64_t pad, int64_t threads) {
  unsigned row = batched ? 1 : 0;
  std::string sr = strideText(type, row, llvm::formatv("p.{0}.sr", name).str());
  std::string sc =
      strideText(type, row + 1, llvm::formatv("p.{0}.sc", name).str());
  // A is [M][K]: x is its row; B is [K][N]: x is its column.
  TileLoad t{name, name == 'a' ? "A" : "B", name == 'a' ? "BM" : "BN", x,
             name == 'a' ? sr : sc, name == 'a' ? sc : sr, 1, false, false,
             false};
  TilePacking packing =
      packTile({t.xStride == "1", t.kStride == "1"}, v, x, bk, pad);
  t.pack = packing.pack;
  t.alongK = packing.alongK;
  t.packedSmemStore = packing.wholeStore;
  int64_t line = t.alongK ? bk / t.pack : x / t.pack;
  t.regular = (x * bk / t.pack) % threads == 0 && threads % line == 0;
  return t;
}

/// The address of a pack's first element in the first K tile,
/// `a + gx * xStride + kk * kStride` with unit strides folded.
std::string packSource(const TileLoad &t) {
  return (Twine(t.name) + " + " +
          scaled("gx", t.xStride == "1" ? "1" : "xStride") + " + " +
          scaled("kk", t.kStride == "1" ? "1" : "kStride"))
      .str();
}

/// The conditions under which element v of pack i lies inside the matrix:
/// along x from the cursor's room, along K only in a partial tile.
std::string elementIn(const TileLoad &t) {
  return llvm::formatv("{0} < c.room[i] && (KFull || {1} < kLeft)",
                       t.alongK ? "0" : "v", t.alongK ? "kk + v" : "kk");
}

std::string describe(const TileLoad &t) {
  if (t.pack == 1)
    return "one element at a time";
  return llvm::formatv("{0}-element packs along {1}", t.pack,
                       t.alongK ? "K" : (t.name == 'a' ? "M" : "N"));
}

/// The cursor that both tiles' loads or copies step through K with.
void printCursor(llvm::raw_ostream &os) {
  os << "/// Where a thread's packs of a tile start in global memory at the "
        "current K\n"
        "/// tile, and how many of each pack's elements lie inside the matrix "
        "along x\n"
        "/// (0 for a pack past the tile). Set once per row tile, so that the "
        "K loop\n"
        "/// only steps pointers: addresses and x bounds recomputed per tile "
        "would cost\n"
        "/// more instructions than the loads themselves. Where a tile's packs "
        "of a\n/// thread lie `stride` apart, only src[0] is kept, so that "
        "the other pointers\n/// take no registers.\n"
        "template <int LOADS> struct Cursor {\n"
        "  const T *src[LOADS];\n"
        "  int room[LOADS];\n"
        "  long long step;   ///< BK rows of K.\n"
        "  long long stride; ///< From one pack of the thread to the next.\n"
        "};\n\n";
}

/// The tile's pack constants, where each pack sits in it, and its cursor's
/// start.
void printTileLayout(llvm::raw_ostream &os, const TileLoad &t) {
  char n = t.name;
  StringRef u = t.upper;
  std::string packs = llvm::formatv("{0}_PACKS", u);
  os << llvm::formatv(
      "// The {0} tile moves {1}: {2} packs of {0}_PACK elements, {0}_LOADS "
      "per thread.\n"
      "constexpr int {0}_PACK = {3};\n"
      "constexpr int {2} = {4} * BK / {0}_PACK;\n"
      "constexpr int {0}_LOADS = ({2} + THREADS - 1) / THREADS;\n\n",
      u, describe(t), packs, t.pack, t.extent);

  // A line is the packs along the packed dimension at one index of the
  // other. In a regular tile pack i is THREADS / LINE lines past pack 0, so
  // the offsets between a thread's packs are constants.
  std::string fast = llvm::formatv("({0} % LINE) * {1}_PACK",
                                   t.regular ? "threadIdx.x" : "e", u);
  std::string slow = t.regular ? "threadIdx.x / LINE + i * (THREADS / LINE)"
                               : "e / LINE";
  os << llvm::formatv(
      "/// Where the thread's pack i of the {0} tile sits: tile row kk (along "
      "K),\n/// column x.\n"
      "__device__ __forceinline__ void {1}Coords(int i, int &kk, int &x) {{\n"
      "  constexpr int LINE = {2} / {0}_PACK;\n"
      "{3}"
      "  kk = {4};\n"
      "  x = {5};\n"
      "}\n\n",
      u, n, t.alongK ? "BK" : t.extent,
      t.regular ? "" : "  const int e = threadIdx.x + i * THREADS;\n",
      t.alongK ? fast : slow, t.alongK ? slow : fast);

  // A pack along K needs only its x inside; one along x needs all of them.
  os << llvm::formatv(
      "/// This thread's cursor over the {0} tiles at x0 of the xs x ks "
      "matrix.\n"
      "__device__ __forceinline__ Cursor<{0}_LOADS> start{0}(const T *{1}, "
      "long long xStride, long long kStride, long long xs, long long x0) {{\n"
      "  Cursor<{0}_LOADS> c;\n"
      "#pragma unroll\n"
      "  for (int i = 0; i < {0}_LOADS; ++i) {{\n"
      "    const int e = threadIdx.x + i * THREADS;\n"
      "    int kk, x;\n"
      "    {1}Coords(i, kk, x);\n"
      "    const long long gx = x0 + x;\n"
      "    const long long room = e < {2} ? xs - gx : 0;\n"
      "    c.src[i] = {3};\n"
      "    c.room[i] = int(room < {0}_PACK ? (room > 0 ? room : 0) : "
      "{0}_PACK);\n"
      "  }\n"
      "  c.step = BK * kStride;\n{4}"
      "  return c;\n"
      "}\n\n",
      u, n, packs, packSource(t),
      t.regular ? llvm::formatv("  c.stride = {0}_LOADS > 1 ? c.src[{0}_LOADS "
                                "> 1 ? 1 : 0] - c.src[0] : 0;\n",
                                u)
                      .str()
                : "");
}

/// Skips a pack past the tile's last, which only an irregular tile has.
void printSkipPastTile(llvm::raw_ostream &os, const TileLoad &t) {
  if (!t.regular)
    os << llvm::formatv("    if (threadIdx.x + i * THREADS >= {0}_PACKS)\n"
                        "      continue;\n",
                        t.upper);
}

/// The head of a loop over this thread's packs that takes each pack's
/// source from the cursor and steps the cursor to the next K tile.
void printPackStep(llvm::raw_ostream &os, const TileLoad &t) {
  os << llvm::formatv(
      "#pragma unroll\n"
      "  for (int i = 0; i < {0}_LOADS; ++i) {{\n"
      "    int kk, x;\n"
      "    {1}Coords(i, kk, x);\n",
      t.upper, t.name);
  if (t.regular)
    os << llvm::formatv("    const T *src = c.src[0] + i * c.stride;\n"
                        "    if (i == {0}_LOADS - 1)\n"
                        "      c.src[0] += c.step;\n",
                        t.upper);
  else
    os << "    const T *src = c.src[i];\n"
          "    c.src[i] += c.step;\n";
}

/// loadA/loadB: a thread's packs of a tile into registers; storeA/storeB:
/// those registers into a shared-memory tile.
void printTileLoadStore(llvm::raw_ostream &os, const TileLoad &t) {
  char n = t.name;
  StringRef u = t.upper;
  std::string whole = t.alongK ? "0 < c.room[i]"
                               : llvm::formatv("c.room[i] == {0}_PACK", u).str();
  std::string lastK = t.alongK ? llvm::formatv("kk + {0}_PACK - 1", u).str() : "kk";
  os << llvm::formatv(
      "/// Loads this thread's packs of the {0} tile under the cursor into "
      "registers,\n/// kLeft rows before K's end, and steps the cursor; "
      "elements outside the\n/// matrix read as zero. KFull: the whole tile "
      "lies inside K.\n"
      "template <bool Vec, bool KFull>\n"
      "__device__ __forceinline__ void load{0}(Pack<{0}_PACK> (&r)[{0}_LOADS], "
      "Cursor<{0}_LOADS> &c, int kLeft) {{\n",
      u);
  printPackStep(os, t);
  if (t.pack > 1)
    os << llvm::formatv(
        "    if (Vec && {0} && (KFull || {1} < kLeft)) {{\n"
        "      r[i] = *reinterpret_cast<const Pack<{2}_PACK> *>(src);\n"
        "      continue;\n"
        "    }\n",
        whole, lastK, u);
  os << llvm::formatv(
      "#pragma unroll\n"
      "    for (int v = 0; v < {0}_PACK; ++v)\n"
      "      r[i].v[v] = {1} ? src[v] : T(0);\n"
      "  }\n"
      "}\n\n",
      u, elementIn(t));

  os << llvm::formatv(
      "/// Stores the registers of load{0} into a shared-memory tile.\n"
      "__device__ __forceinline__ void store{0}(T (&tile)[BK][{1} + PAD], "
      "const Pack<{0}_PACK> (&r)[{0}_LOADS]) {{\n"
      "#pragma unroll\n"
      "  for (int i = 0; i < {0}_LOADS; ++i) {{\n"
      "    int kk, x;\n"
      "    {2}Coords(i, kk, x);\n",
      u, t.extent, n);
  printSkipPastTile(os, t);
  if (t.packedSmemStore)
    os << llvm::formatv(
        "    *reinterpret_cast<Pack<{0}_PACK> *>(&tile[kk][x]) = r[i];\n", u);
  else
    os << llvm::formatv("#pragma unroll\n"
                        "    for (int v = 0; v < {0}_PACK; ++v)\n"
                        "      tile[{1}][{2}] = r[i].v[v];\n",
                        u, t.alongK ? "kk + v" : "kk",
                        t.alongK ? "x" : "x + v");
  os << "  }\n}\n\n";
}

/// The cp.async twin of load/store: this thread's packs of the tile go
/// straight from global to shared memory. A pack that is contiguous on both
/// sides and wholly inside the matrix is one copy; the others go element by
/// element, those outside the matrix as zero fills.
void printTileCopy(llvm::raw_ostream &os, const TileLoad &t) {
  char n = t.name;
  StringRef u = t.upper;
  os << llvm::formatv(
      "/// Copies this thread's packs of the {0} tile under the cursor into a\n"
      "/// shared-memory tile with cp.async, kLeft rows before K's end, and "
      "steps the\n/// cursor; elements outside the matrix are zero-filled "
      "from {1}, a valid address.\n"
      "template <bool Vec, bool KFull>\n"
      "__device__ __forceinline__ void copy{0}(T (&tile)[BK][{2} + PAD], "
      "Cursor<{0}_LOADS> &c, const T *{1}, int kLeft) {{\n",
      u, n, t.extent);
  printPackStep(os, t);
  printSkipPastTile(os, t);
  if (t.packedSmemStore)
    os << llvm::formatv(
        "    if (Vec && c.room[i] == {0}_PACK && (KFull || kk < kLeft)) {{\n"
        "      copyAsync<{0}_PACK>(&tile[kk][x], src, true);\n"
        "      continue;\n"
        "    }\n",
        u);
  os << llvm::formatv(
      "#pragma unroll\n"
      "    for (int v = 0; v < {0}_PACK; ++v) {{\n"
      "      const bool in = {1};\n"
      "      copyAsync<1>(&tile[{2}][{3}], in ? src + v : {4}, in);\n"
      "    }\n"
      "  }\n"
      "}\n\n",
      u, elementIn(t), t.alongK ? "kk + v" : "kk", t.alongK ? "x" : "x + v",
      n);
}

/// The cp.async primitives (PTX ISA, "cp.async"; sm_80 and later). Before
/// sm_80 they degrade to plain copies, so a schedule stays portable.
void printAsyncPrimitives(llvm::raw_ostream &os) {
  os << "/// Copies N elements from global to shared memory without registers;\n"
        "/// `in` false writes zeros (a source size of 0 reads nothing).\n"
        "template <int N>\n"
        "__device__ __forceinline__ void copyAsync(T *dst, const T *src, bool "
        "in) {\n"
        "  constexpr int BYTES = N * sizeof(T);\n"
        "#if __CUDA_ARCH__ >= 800\n"
        "  const unsigned s = unsigned(__cvta_generic_to_shared(dst));\n"
        "  // 16-byte copies bypass L1 (.cg): the tile is read once per block.\n"
        "  if constexpr (BYTES == 16)\n"
        "    asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16, %2;\\n\"\n"
        "                 :: \"r\"(s), \"l\"(src), \"r\"(in ? 16 : 0));\n"
        "  else\n"
        "    asm volatile(\"cp.async.ca.shared.global [%0], [%1], %2, %3;\\n\"\n"
        "                 :: \"r\"(s), \"l\"(src), \"n\"(BYTES), \"r\"(in ? BYTES : 0));\n"
        "#else\n"
        "  *reinterpret_cast<Pack<N> *>(dst) =\n"
        "      in ? *reinterpret_cast<const Pack<N> *>(src) : Pack<N>{};\n"
        "#endif\n"
        "}\n\n"
        "/// Closes the group of copies issued since the last call.\n"
        "__device__ __forceinline__ void commitCopies() {\n"
        "#if __CUDA_ARCH__ >= 800\n"
        "  asm volatile(\"cp.async.commit_group;\\n\" ::: \"memory\");\n"
        "#endif\n"
        "}\n\n"
        "/// Waits until at most PENDING groups of this thread's copies are in "
        "flight.\n"
        "template <int PENDING>\n"
        "__device__ __forceinline__ void waitCopies() {\n"
        "#if __CUDA_ARCH__ >= 800\n"
        "  asm volatile(\"cp.async.wait_group %0;\\n\" :: \"n\"(PENDING) : "
        "\"memory\");\n"
        "#endif\n"
        "}\n\n";
}

/// loadTiles or copyTiles: the next K tile of both operands, kLeft rows
/// before K's end when KFull is false.
void printTilePair(llvm::raw_ostream &os, bool async) {
  StringRef verb = async ? "copy" : "load";
  StringRef dst = async ? "T (&ta)[BK][BM + PAD], T (&tb)[BK][BN + PAD], "
                        : "Pack<A_PACK> (&ra)[A_LOADS], Pack<B_PACK> "
                          "(&rb)[B_LOADS], ";
  StringRef src = async ? ", const T *a, const T *b" : "";
  StringRef aArgs = async ? "ta, ca, a" : "ra, ca";
  StringRef bArgs = async ? "tb, cb, b" : "rb, cb";
  os << llvm::formatv(
      "/// The next K tile of A and B, kLeft rows before K's end.\n"
      "template <bool Vec, bool KFull>\n"
      "__device__ __forceinline__ void {0}Tiles({1}Cursor<A_LOADS> &ca, "
      "Cursor<B_LOADS> &cb{2}, int kLeft) {{\n"
      "  {0}A<Vec, KFull>({3}, kLeft);\n"
      "  {0}B<Vec, KFull>({4}, kLeft);\n"
      "}\n\n",
      verb, dst, src, aArgs, bArgs);
}

/// copyTiles of a full K tile into buffer `buffer`.
void printCopies(llvm::raw_ostream &os, StringRef buffer, StringRef indent) {
  os << indent << "copyTiles<Vec, true>(tileA[" << buffer << "], tileB["
     << buffer << "], ca, cb, a, b, BK);\n";
}

/// loadTiles of a full K tile.
void printLoads(llvm::raw_ostream &os, StringRef indent) {
  os << indent << "loadTiles<Vec, true>(ra, rb, ca, cb, BK);\n";
}

void printStores(llvm::raw_ostream &os, StringRef buffer, StringRef indent) {
  os << indent << "storeA(tileA[" << buffer << "], ra);\n"
     << indent << "storeB(tileB[" << buffer << "], rb);\n";
}

/// The first tile into buffer 0, then the head of a prefetching K loop up to
/// the global loads of the next tile; `step` declares per-step names.
void printPrefetchHead(llvm::raw_ostream &os, StringRef step) {
  os << "    if (kTiles > 0) {\n";
  printLoads(os, "      ");
  printStores(os, "0", "      ");
  os << "    }\n"
        "    __syncthreads();\n"
        "    for (int t = 0; t < kTiles; ++t) {\n"
     << step
     << "      const bool more = t + 1 < kTiles;\n"
        "      if (more) {\n";
  printLoads(os, "        ");
  os << "      }\n";
}

/// The last K rows short of a tile, as one more step through buffer 0 with
/// bounds on K; the pipeline's last barrier has freed every buffer.
void printRemainder(llvm::raw_ostream &os, bool async) {
  os << "    // The K rows short of a full tile: one more step, with K bounds,\n"
        "    // so that the loop above checks none.\n"
        "    if (kRest > 0) {\n";
  if (async)
    os << "      copyTiles<Vec, false>(tileA[0], tileB[0], ca, cb, a, b, kRest);\n"
          "      commitCopies();\n"
          "      waitCopies<0>();\n";
  else
    os << "      loadTiles<Vec, false>(ra, rb, ca, cb, kRest);\n"
          "      storeA(tileA[0], ra);\n"
          "      storeB(tileB[0], rb);\n";
  os << "      __syncthreads();\n"
        "      multiplyTile(acc, tileA[0], tileB[0], ty, tx);\n"
        "      __syncthreads();\n"
        "    }\n";
}

/// The K loop for each prefetch kind, with its barriers.
void printPipeline(llvm::raw_ostream &os, Prefetch prefetch) {
  switch (prefetch) {
  case Prefetch::Smem:
    os << "    // Two shared buffers: the next K tile travels from global memory\n"
          "    // to registers while the current one is multiplied, then fills\n"
          "    // the other buffer.\n";
    printPrefetchHead(os, "      const int cur = t % 2;\n");
    os << "      multiplyTile(acc, tileA[cur], tileB[cur], ty, tx);\n"
          "      if (more) {\n";
    printStores(os, "cur ^ 1", "        ");
    os << "      }\n"
          "      // One barrier per step: the next step reads the buffer just\n"
          "      // written and overwrites the one just read.\n"
          "      __syncthreads();\n"
          "    }\n";
    return;
  case Prefetch::Regs:
    os << "    // One shared buffer and a register prefetch: the next K tile is\n"
          "    // loaded before the current one is multiplied and stored after.\n";
    printPrefetchHead(os, "");
    os << "      multiplyTile(acc, tileA[0], tileB[0], ty, tx);\n"
          "      __syncthreads(); // everyone is done reading the buffer\n"
          "      if (more) {\n";
    printStores(os, "0", "        ");
    os << "      }\n"
          "      __syncthreads(); // the next tile is in place\n"
          "    }\n";
    return;
  case Prefetch::Async:
    os << "    // STAGES shared buffers filled by cp.async: the copies of the next\n"
          "    // STAGES - 1 K tiles are in flight while the current one is\n"
          "    // multiplied, and no register holds them.\n"
          "#pragma unroll\n"
          "    for (int s = 0; s < STAGES - 1; ++s) {\n"
          "      if (s < kTiles) {\n";
    printCopies(os, "s", "        ");
    os << "      }\n"
          "      commitCopies();\n"
          "    }\n"
          "    for (int t = 0; t < kTiles; ++t) {\n"
          "      // Tile t has landed (this thread's copies, then everyone's),\n"
          "      // and nobody still reads the buffer that the next copy refills.\n"
          "      waitCopies<STAGES - 2>();\n"
          "      __syncthreads();\n"
          "      const int next = t + STAGES - 1;\n"
          "      if (next < kTiles) {\n";
    printCopies(os, "next % STAGES", "        ");
    os << "      }\n"
          "      commitCopies();\n"
          "      multiplyTile(acc, tileA[t % STAGES], tileB[t % STAGES], ty, tx);\n"
          "    }\n"
          "    // The remainder's or the next row tile's copies refill buffers still\n"
          "    // read here.\n"
          "    __syncthreads();\n";
    return;
  case Prefetch::None:
    os << "    // No prefetch: load, wait, multiply, wait.\n"
          "    for (int t = 0; t < kTiles; ++t) {\n";
    printLoads(os, "      ");
    printStores(os, "0", "      ");
    os << "      __syncthreads();\n"
          "      multiplyTile(acc, tileA[0], tileB[0], ty, tx);\n"
          "      __syncthreads();\n"
          "    }\n";
    return;
  }
}

/// acc += A tile * B tile over one K step with scalar FMAs: (ty, tx) is the
/// thread's place in the (BM / TM) x (BN / TN) grid.
void printFmaMultiply(llvm::raw_ostream &os) {
  os << "/// acc += A tile * B tile over one K step, on this thread's fragments.\n"
        "__device__ __forceinline__ void multiplyTile(T (&acc)[TM][TN], "
        "const T (&ta)[BK][BM + PAD], const T (&tb)[BK][BN + PAD], int ty, "
        "int tx) {\n"
        "#pragma unroll\n"
        "  for (int kk = 0; kk < BK; ++kk) {\n"
        "    Pack<ROW_GROUP> fa[TM / ROW_GROUP];\n"
        "    Pack<COL_GROUP> fb[TN / COL_GROUP];\n"
        "#pragma unroll\n"
        "    for (int g = 0; g < TM / ROW_GROUP; ++g)\n"
        "      fa[g] = *reinterpret_cast<const Pack<ROW_GROUP> *>(\n"
        "          &ta[kk][g * ROW_STEP + ty * ROW_GROUP]);\n"
        "#pragma unroll\n"
        "    for (int g = 0; g < TN / COL_GROUP; ++g)\n"
        "      fb[g] = *reinterpret_cast<const Pack<COL_GROUP> *>(\n"
        "          &tb[kk][g * COL_STEP + tx * COL_GROUP]);\n"
        "#pragma unroll\n"
        "    for (int i = 0; i < TM; ++i)\n"
        "#pragma unroll\n"
        "      for (int j = 0; j < TN; ++j)\n"
        "        acc[i][j] += fa[i / ROW_GROUP].v[i % ROW_GROUP] *\n"
        "                     fb[j / COL_GROUP].v[j % COL_GROUP];\n"
        "  }\n"
        "}\n\n";
}

/// The mma.sync that adds the 16 x 8 product of row blocks 2r, 2r + 1 and
/// column block j over DMMA_K k to the accumulators. Its A registers are the
/// rows' fragments for each 4 k in turn, its B registers the column's: a
/// m16n8kK product is K / 4 m16n8k4 ones (PTX ISA, "Matrix Fragments for
/// mma.m16n8k4/8/16 with .f64").
void printMma16x8(llvm::raw_ostream &os, int64_t k) {
  int64_t slices = k / 4;
  SmallVector<std::string> aRegs, bRegs, aArgs, bArgs;
  for (int64_t s = 0; s < slices; ++s) {
    for (int64_t h = 0; h < 2; ++h) {
      aRegs.push_back(llvm::formatv("%{0}", 4 + 2 * s + h));
      aArgs.push_back(llvm::formatv("\"d\"(fa[{0}][2 * r + {1}])", s, h));
    }
    bRegs.push_back(llvm::formatv("%{0}", 4 + 2 * slices + s));
    bArgs.push_back(llvm::formatv("\"d\"(fb[{0}][j])", s));
  }
  os << llvm::formatv(
      "        asm(\"mma.sync.aligned.m16n8k{0}.row.col.f64.f64.f64.f64 \"\n"
      "            \"{{%0, %1, %2, %3}, {{{1}}, {{{2}}, {{%0, %1, %2, %3};\"\n"
      "            : \"+d\"(acc[2 * r][accColumn(j, 0)]), "
      "\"+d\"(acc[2 * r][accColumn(j, 1)]),\n"
      "              \"+d\"(acc[2 * r + 1][accColumn(j, 0)]), "
      "\"+d\"(acc[2 * r + 1][accColumn(j, 1)])\n"
      "            : {3},\n"
      "              {4});\n",
      k, llvm::join(aRegs, ", "), llvm::join(bRegs, ", "),
      llvm::join(aArgs, ", "), llvm::join(bArgs, ", "));
}

/// acc += A tile * B tile with FP64 tensor-core products: (ty, tx) is the
/// warp and the lane. Lane l holds A[l/4][l%4] and B[l%4][l/4] of each
/// 8 x 4 and 4 x 8 block and C[l/4][2*(l%4) + {0, 1}] of each 8 x 8 result,
/// which is the m8n8k4 layout and, for row blocks taken in pairs, the
/// m16n8kK one; sm_90 has the wider products (PTX ISA 7.8), which need an
/// even TM. Which rows and columns of the warp tile a product's rows and
/// columns stand for is free, so that a lane's fragments of neighbouring
/// blocks lie side by side and load as one 16-byte pack: with A_GROUP = 2,
/// row g of block pair p is warp row 16p + 2g (block 2p) or 16p + 2g + 1
/// (block 2p + 1); B_GROUP = 2 does the same for the columns of block
/// pairs. A lane's C then holds groups of 2 rows and 2 * B_GROUP adjacent
/// columns, which accColumn orders for the epilogue.
void printDmmaMultiply(llvm::raw_ostream &os, int64_t k, bool wide) {
  os << "/// acc += A tile * B tile: per DMMA_K k, one m16n8k{DMMA_K} product\n"
        "/// per pair of 8-row blocks and 8-column block on sm_90, or one\n"
        "/// m8n8k4 per 8 x 8 block and 4 k before it.\n"
        "__device__ __forceinline__ void multiplyTile(T (&acc)[TM][TN], "
        "const T (&ta)[BK][BM + PAD], const T (&tb)[BK][BN + PAD], int ty, "
        "int tx) {\n"
        "  const int wm0 = (ty / (BN / WN)) * WM, wn0 = (ty % (BN / WN)) * WN;\n"
        "#pragma unroll\n"
        "  for (int k0 = 0; k0 < BK; k0 += DMMA_K) {\n"
        "    T fa[DMMA_K / 4][TM], fb[DMMA_K / 4][TN / 2];\n"
        "#pragma unroll\n"
        "    for (int s = 0; s < DMMA_K / 4; ++s) {\n"
        "      const int k = k0 + 4 * s + tx % 4;\n"
        "#pragma unroll\n"
        "      for (int g = 0; g < TM / A_GROUP; ++g) {\n"
        "        const Pack<A_GROUP> x = *reinterpret_cast<const Pack<A_GROUP> *>(\n"
        "            &ta[k][wm0 + g * 8 * A_GROUP + A_GROUP * (tx / 4)]);\n"
        "#pragma unroll\n"
        "        for (int h = 0; h < A_GROUP; ++h)\n"
        "          fa[s][g * A_GROUP + h] = x.v[h];\n"
        "      }\n"
        "#pragma unroll\n"
        "      for (int g = 0; g < TN / 2 / B_GROUP; ++g) {\n"
        "        const Pack<B_GROUP> x = *reinterpret_cast<const Pack<B_GROUP> *>(\n"
        "            &tb[k][wn0 + g * 8 * B_GROUP + B_GROUP * (tx / 4)]);\n"
        "#pragma unroll\n"
        "        for (int h = 0; h < B_GROUP; ++h)\n"
        "          fb[s][g * B_GROUP + h] = x.v[h];\n"
        "      }\n"
        "    }\n";
  if (wide) {
    os << "#if __CUDA_ARCH__ >= 900\n"
          "#pragma unroll\n"
          "    for (int r = 0; r < TM / 2; ++r)\n"
          "#pragma unroll\n"
          "      for (int j = 0; j < TN / 2; ++j)\n";
    printMma16x8(os, k);
    os << "#else\n";
  }
  os << "#pragma unroll\n"
        "    for (int s = 0; s < DMMA_K / 4; ++s)\n"
        "#pragma unroll\n"
        "      for (int i = 0; i < TM; ++i)\n"
        "#pragma unroll\n"
        "        for (int j = 0; j < TN / 2; ++j)\n"
        "          asm(\"mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 \"\n"
        "              \"{%0, %1}, {%2}, {%3}, {%0, %1};\"\n"
        "              : \"+d\"(acc[i][accColumn(j, 0)]), "
        "\"+d\"(acc[i][accColumn(j, 1)])\n"
        "              : \"d\"(fa[s][i]), \"d\"(fb[s][j]));\n";
  if (wide)
    os << "#endif\n";
  os << "  }\n"
        "}\n\n";
}

/// The comment and signature of storeC; `cm` names the row-stride
/// parameter, or leaves it unnamed where the epilogue does not read it.
void printStoreCHead(llvm::raw_ostream &os, StringRef cm) {
  os << "/// C = alpha * acc + beta * C on this thread's elements. beta == 0 never\n"
        "/// reads C, so NaN or garbage there cannot reach the result.\n"
        "template <bool Vec>\n"
        "/// Row i of the thread's tile is rowBase + (i / ROW_GROUP) * ROW_STEP +\n"
        "/// i % ROW_GROUP, and likewise for columns.\n"
        "__device__ __forceinline__ void storeC(const T (&acc)[TM][TN], T *c, "
        "long long "
     << cm
     << ", long long cn, long long m, long long n, long long rowBase, long "
        "long colBase, T alpha, T beta) {\n";
}

void printEpilogue(llvm::raw_ostream &os, StringRef cn, int64_t cPack) {
  printStoreCHead(os, "cm");
  os << "  // Column offsets and bounds once, so that a row needs one pointer\n"
        "  // (per-element addresses would crowd out the accumulators).\n"
        "  long long colOffset[TN];\n"
        "  bool colIn[TN];\n"
        "#pragma unroll\n"
        "  for (int j = 0; j < TN; ++j) {\n"
        "    const long long col = colBase + (j / COL_GROUP) * COL_STEP + j % "
        "COL_GROUP;\n"
     << "    colOffset[j] = " << scaled("col", cn) << ";\n"
     << "    colIn[j] = col < n;\n"
        "  }\n"
        "#pragma unroll\n"
        "  for (int i = 0; i < TM; ++i) {\n"
        "    const long long row = rowBase + (i / ROW_GROUP) * ROW_STEP + i % "
        "ROW_GROUP;\n"
        "    if (row >= m)\n"
        "      continue;\n"
        "    T *rowPtr = c + row * cm;\n"
        "#pragma unroll\n"
        "    for (int j = 0; j < TN; j += C_PACK) {\n";
  if (cPack > 1)
    os << "      if (Vec && colIn[j + C_PACK - 1]) {\n"
          "        Pack<C_PACK> *dst = reinterpret_cast<Pack<C_PACK> *>(rowPtr + colOffset[j]);\n"
          "        Pack<C_PACK> out;\n"
          "        if (beta == T(0)) {\n"
          "#pragma unroll\n"
          "          for (int w = 0; w < C_PACK; ++w)\n"
          "            out.v[w] = alpha * acc[i][j + w];\n"
          "        } else {\n"
          "          const Pack<C_PACK> old = *dst;\n"
          "#pragma unroll\n"
          "          for (int w = 0; w < C_PACK; ++w)\n"
          "            out.v[w] = alpha * acc[i][j + w] + beta * old.v[w];\n"
          "        }\n"
          "        *dst = out;\n"
          "        continue;\n"
          "      }\n";
  os << "#pragma unroll\n"
        "      for (int w = 0; w < C_PACK; ++w) {\n"
        "        if (!colIn[j + w])\n"
        "          continue;\n"
        "        T *dst = rowPtr + colOffset[j + w];\n"
        "        *dst = beta == T(0) ? alpha * acc[i][j + w]\n"
        "                            : alpha * acc[i][j + w] + beta * *dst;\n"
        "      }\n"
        "    }\n"
        "  }\n"
        "}\n\n";
}

/// storeC for a C whose rows are contiguous (unit row stride): each column
/// of the thread's tile through one pointer, its rows at constant offsets
/// and, where aligned, in packs of C_PACK rows; no per-column offsets stay
/// live across the tile.
void printEpilogueByColumns(llvm::raw_ostream &os) {
  printStoreCHead(os, "");
  os << "  // C's rows are contiguous: a column needs one pointer, and its rows\n"
        "  // lie at constant offsets from it.\n"
        "#pragma unroll\n"
        "  for (int j = 0; j < TN; ++j) {\n"
        "    const long long col = colBase + (j / COL_GROUP) * COL_STEP + j % "
        "COL_GROUP;\n"
        "    if (col >= n)\n"
        "      continue;\n"
        "    T *colPtr = c + col * cn + rowBase;\n"
        "#pragma unroll\n"
        "    for (int i = 0; i < TM; i += C_PACK) {\n"
        "      const int offset = (i / ROW_GROUP) * ROW_STEP + i % ROW_GROUP;\n"
        "      if (Vec && C_PACK > 1 && rowBase + offset + C_PACK - 1 < m) {\n"
        "        Pack<C_PACK> *dst = reinterpret_cast<Pack<C_PACK> *>(colPtr + offset);\n"
        "        Pack<C_PACK> out;\n"
        "        if (beta == T(0)) {\n"
        "#pragma unroll\n"
        "          for (int w = 0; w < C_PACK; ++w)\n"
        "            out.v[w] = alpha * acc[i + w][j];\n"
        "        } else {\n"
        "          const Pack<C_PACK> old = *dst;\n"
        "#pragma unroll\n"
        "          for (int w = 0; w < C_PACK; ++w)\n"
        "            out.v[w] = alpha * acc[i + w][j] + beta * old.v[w];\n"
        "        }\n"
        "        *dst = out;\n"
        "        continue;\n"
        "      }\n"
        "#pragma unroll\n"
        "      for (int w = 0; w < C_PACK; ++w) {\n"
        "        if (rowBase + offset + w >= m)\n"
        "          continue;\n"
        "        T *dst = colPtr + offset + w;\n"
        "        *dst = beta == T(0) ? alpha * acc[i + w][j]\n"
        "                            : alpha * acc[i + w][j] + beta * *dst;\n"
        "      }\n"
        "    }\n"
        "  }\n"
        "}\n\n";
}

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
                                 "cp.async\n// (up to {1} K tiles ahead)",
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
      bm, bn, bk, tm, tn, (bm / tm) * (bn / tn), v, prefetchText, pad, name,
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
        "template <int N> struct alignas(N * sizeof(T)) Pack { T v[N]; };\n\n";
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
  if (byColumns)
    printEpilogueByColumns(os);
  else
    printEpilogue(os, cn == "1" ? "1" : "cn", cPack);

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
  printPipeline(os, s.getPrefetch());
  printRemainder(os, async);
  os << "    storeC<Vec>(acc, c, cm, cn, p.m, p.n, m0 + rowIn, n0 + colIn, "
        "alpha, beta);\n"
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
          "inline bool packAligned(const gemm_rt::Operand &x, int n) {\n"
          "  auto multiple = [n](long long s) { return s == 1 || s % n == 0; "
          "};\n"
          "  return reinterpret_cast<unsigned long long>(x.ptr) % (n * "
          "sizeof(T)) == 0 &&\n"
          "         x.sb % n == 0 && multiple(x.sr) && multiple(x.sc);\n"
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
