//===- TileMoves.cpp - Input tiles into shared memory ---------------------===//
//
// How a kernel's threads move the A and B tiles from global to shared memory:
// the packs along each operand's unit stride, the cursors that step them
// through K, register loads and stores or cp.async copies, zero-filled edges.
//
//===----------------------------------------------------------------------===//

#include "KernelParts.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace mlir::gemm::kernel {

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
static std::string packSource(const TileLoad &t) {
  return (Twine(t.name) + " + " +
          scaled("gx", t.xStride == "1" ? "1" : "xStride") + " + " +
          scaled("kk", t.kStride == "1" ? "1" : "kStride"))
      .str();
}

/// `roomCheck`, the cursor's test that pack i lies inside the matrix along
/// x, unless the block's whole tile does (Inside); an irregular tile's packs
/// past its end stay outside.
static std::string insideOr(const TileLoad &t, StringRef roomCheck) {
  std::string inside =
      t.regular ? "Inside"
                : llvm::formatv("(Inside && threadIdx.x + i * THREADS < "
                                "{0}_PACKS)",
                                t.upper)
                      .str();
  return llvm::formatv("({0} || {1})", inside, roomCheck);
}

/// The test that pack i lies whole inside the matrix along x.
static std::string packIn(const TileLoad &t) {
  return insideOr(t, t.alongK
                         ? "0 < c.room[i]"
                         : llvm::formatv("c.room[i] == {0}_PACK", t.upper).str());
}

/// The conditions under which element v of pack i lies inside the matrix:
/// along x from the cursor's room, along K only in a partial tile.
static std::string elementIn(const TileLoad &t) {
  return llvm::formatv(
      "{0} && (KFull || {1} < kLeft)",
      insideOr(t, t.alongK ? "0 < c.room[i]" : "v < c.room[i]"),
      t.alongK ? "kk + v" : "kk");
}

static std::string describe(const TileLoad &t) {
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
static void printSkipPastTile(llvm::raw_ostream &os, const TileLoad &t) {
  if (!t.regular)
    os << llvm::formatv("    if (threadIdx.x + i * THREADS >= {0}_PACKS)\n"
                        "      continue;\n",
                        t.upper);
}

/// The head of a loop over this thread's packs that takes each pack's
/// source from the cursor and steps the cursor to the next K tile.
static void printPackStep(llvm::raw_ostream &os, const TileLoad &t) {
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
  std::string whole = packIn(t);
  std::string lastK = t.alongK ? llvm::formatv("kk + {0}_PACK - 1", u).str() : "kk";
  os << llvm::formatv(
      "/// Loads this thread's packs of the {0} tile under the cursor into "
      "registers,\n/// kLeft rows before K's end, and steps the cursor; "
      "elements outside the\n/// matrix read as zero. KFull: the whole tile "
      "lies inside K; Inside: inside\n/// M and N.\n"
      "template <bool Vec, bool KFull, bool Inside>\n"
      "__device__ __forceinline__ void load{0}(Pack<{0}_PACK> (&r)[{0}_LOADS], "
      "Cursor<{0}_LOADS> &c, int kLeft) {{\n",
      u);
  printPackStep(os, t);
  // An if-else rather than `continue`: where the vector branch is always
  // taken, nvcc warns of an unreachable loop after a `continue`.
  auto elements = [&](StringRef indent) {
    os << llvm::formatv("#pragma unroll\n"
                        "{0}for (int v = 0; v < {1}_PACK; ++v)\n"
                        "{0}  r[i].v[v] = {2} ? src[v] : T(0);\n",
                        indent, u, elementIn(t));
  };
  if (t.pack > 1) {
    os << llvm::formatv(
        "    if (Vec && {0} && (KFull || {1} < kLeft)) {{\n"
        "      r[i] = *reinterpret_cast<const Pack<{2}_PACK> *>(src);\n"
        "    } else {{\n",
        whole, lastK, u);
    elements("      ");
    os << "    }\n";
  } else {
    elements("    ");
  }
  os << "  }\n}\n\n";

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
      "from {1}, a valid address. KFull and\n/// Inside as for load{0}.\n"
      "template <bool Vec, bool KFull, bool Inside>\n"
      "__device__ __forceinline__ void copy{0}(T (&tile)[BK][{2} + PAD], "
      "Cursor<{0}_LOADS> &c, const T *{1}, int kLeft) {{\n",
      u, n, t.extent);
  printPackStep(os, t);
  printSkipPastTile(os, t);
  auto elements = [&](StringRef indent) {
    os << llvm::formatv("#pragma unroll\n"
                        "{0}for (int v = 0; v < {1}_PACK; ++v) {{\n"
                        "{0}  const bool in = {2};\n"
                        "{0}  copyAsync<1>(&tile[{3}][{4}], in ? src + v : "
                        "{5}, in);\n"
                        "{0}}\n",
                        indent, u, elementIn(t), t.alongK ? "kk + v" : "kk",
                        t.alongK ? "x" : "x + v", n);
  };
  if (t.packedSmemStore) {
    os << llvm::formatv(
        "    if (Vec && {1} && (KFull || kk < kLeft)) {{\n"
        "      copyAsync<{0}_PACK>(&tile[kk][x], src, true);\n"
        "    } else {{\n",
        u, packIn(t));
    elements("      ");
    os << "    }\n";
  } else {
    elements("    ");
  }
  os << "  }\n}\n\n";
}

/// The cp.async and mbarrier primitives (PTX ISA, "cp.async", "mbarrier";
/// sm_80 and later). Before sm_80 they degrade to plain copies and block
/// barriers, so a schedule stays portable.
void printAsyncPrimitives(llvm::raw_ostream &os) {
  os << "/// The shared-memory address of p, as PTX takes it.\n"
        "__device__ __forceinline__ unsigned sharedAddress(const void *p) {\n"
        "  return unsigned(__cvta_generic_to_shared(p));\n"
        "}\n\n"
        "/// Copies N elements from global to shared memory without registers;\n"
        "/// `in` false writes zeros (a source size of 0 reads nothing).\n"
        "template <int N>\n"
        "__device__ __forceinline__ void copyAsync(T *dst, const T *src, bool "
        "in) {\n"
        "  constexpr int BYTES = N * sizeof(T);\n"
        "#if __CUDA_ARCH__ >= 800\n"
        "  const unsigned s = sharedAddress(dst);\n"
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
        "/// Waits until every copy this thread issued has landed.\n"
        "__device__ __forceinline__ void waitCopies() {\n"
        "#if __CUDA_ARCH__ >= 800\n"
        "  asm volatile(\"cp.async.wait_all;\\n\" ::: \"memory\");\n"
        "#endif\n"
        "}\n\n"
        "/// The pipeline's barriers (PTX ISA, \"mbarrier\"), one phase per tile\n"
        "/// through a buffer, each completed by all THREADS threads: a buffer's\n"
        "/// `full` one by the copies that fill it, its `empty` one by the reads\n"
        "/// of it. Before sm_80 the copies are plain stores and a wait is a\n"
        "/// __syncthreads, which every thread reaches in the same order.\n"
        "__device__ __forceinline__ void initBarrier(unsigned long long &bar) {\n"
        "#if __CUDA_ARCH__ >= 800\n"
        "  asm volatile(\"mbarrier.init.shared.b64 [%0], %1;\\n\"\n"
        "               :: \"r\"(sharedAddress(&bar)), \"r\"(THREADS) : \"memory\");\n"
        "#endif\n"
        "}\n\n"
        "/// This thread is done reading the buffer of `bar`.\n"
        "__device__ __forceinline__ void arrive(unsigned long long &bar) {\n"
        "#if __CUDA_ARCH__ >= 800\n"
        "  asm volatile(\"mbarrier.arrive.shared.b64 _, [%0];\\n\"\n"
        "               :: \"r\"(sharedAddress(&bar)) : \"memory\");\n"
        "#endif\n"
        "}\n\n"
        "/// Arrives on `bar` once this thread's copies so far have landed.\n"
        "__device__ __forceinline__ void arriveOnCopies(unsigned long long &bar) {\n"
        "#if __CUDA_ARCH__ >= 800\n"
        "  asm volatile(\"cp.async.mbarrier.arrive.noinc.shared.b64 [%0];\\n\"\n"
        "               :: \"r\"(sharedAddress(&bar)) : \"memory\");\n"
        "#endif\n"
        "}\n\n"
        "/// Waits until phase `phase` of `bar` has completed (sm_90's try_wait\n"
        "/// suspends the thread for a while rather than spin).\n"
        "__device__ __forceinline__ void waitPhase(unsigned long long &bar, int phase) {\n"
        "#if __CUDA_ARCH__ >= 800\n"
        "  unsigned done;\n"
        "  do {\n"
        "    asm volatile(\"{ .reg .pred p;\\n\"\n"
        "#if __CUDA_ARCH__ >= 900\n"
        "                 \"mbarrier.try_wait.parity.shared.b64 p, [%1], %2;\\n\"\n"
        "#else\n"
        "                 \"mbarrier.test_wait.parity.shared.b64 p, [%1], %2;\\n\"\n"
        "#endif\n"
        "                 \"selp.u32 %0, 1, 0, p; }\\n\"\n"
        "                 : \"=r\"(done) : \"r\"(sharedAddress(&bar)), \"r\"(phase & 1)\n"
        "                 : \"memory\");\n"
        "  } while (!done);\n"
        "#else\n"
        "  __syncthreads();\n"
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
      "template <bool Vec, bool KFull, bool Inside>\n"
      "__device__ __forceinline__ void {0}Tiles({1}Cursor<A_LOADS> &ca, "
      "Cursor<B_LOADS> &cb{2}, int kLeft) {{\n"
      "  {0}A<Vec, KFull, Inside>({3}, kLeft);\n"
      "  {0}B<Vec, KFull, Inside>({4}, kLeft);\n"
      "}\n\n",
      verb, dst, src, aArgs, bArgs);
}

} // namespace mlir::gemm::kernel
