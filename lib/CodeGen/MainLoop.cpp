//===- MainLoop.cpp - The K loop and its multiply -------------------------===//
//
// The K loop of each prefetch kind with its barriers, the remainder step, and
// the multiply of a K step: scalar FMAs or FP64 tensor-core mma.sync.
//
//===----------------------------------------------------------------------===//

#include "KernelParts.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace mlir::gemm::kernel {

/// copyTiles of a full K tile into buffer `buffer`.
static void printCopies(llvm::raw_ostream &os, StringRef buffer, StringRef indent) {
  os << indent << "copyTiles<Vec, true, Inside>(tileA[" << buffer << "], tileB["
     << buffer << "], ca, cb, a, b, BK);\n";
}

/// loadTiles of a full K tile.
static void printLoads(llvm::raw_ostream &os, StringRef indent) {
  os << indent << "loadTiles<Vec, true, Inside>(ra, rb, ca, cb, BK);\n";
}

/// storeA and storeB of the loaded registers into the tiles `a` and `b`.
static void printStores(llvm::raw_ostream &os, StringRef a, StringRef b,
                        StringRef indent) {
  os << indent << "storeA(" << a << ", ra);\n"
     << indent << "storeB(" << b << ", rb);\n";
}

/// The first tile into buffer 0, then `setup` and the head of a prefetching
/// K loop up to the global loads of the next tile.
static void printPrefetchHead(llvm::raw_ostream &os, StringRef setup) {
  os << "    if (kTiles > 0) {\n";
  printLoads(os, "      ");
  printStores(os, "tileA[0]", "tileB[0]", "      ");
  os << "    }\n"
        "    __syncthreads();\n"
     << setup
     << "    for (int t = 0; t < kTiles; ++t) {\n"
        "      const bool more = t + 1 < kTiles;\n"
        "      if (more) {\n";
  printLoads(os, "        ");
  os << "      }\n";
}

/// The multiply of a step whose next tile waits in registers. ptxas sinks
/// a load towards its first use, here the store at the step's end, where its
/// latency shows (224x64x28 FFMA with bounds-free loads: 33.2 -> 28.9
/// TFLOP/s); a fence halfway through the multiply keeps the loads in the
/// step's first half (33.5), and spread out rather than all at its top
/// (256x128x8: 48.0 against 44.5 with the fence at the top).
static void printFencedMultiply(llvm::raw_ostream &os, StringRef a,
                                StringRef b) {
  os << "      // Its fence keeps the loads above from sinking to the stores.\n"
     << "      multiplyTile<true>(acc, " << a << ", " << b << ", ty, tx);\n";
}

/// The last K rows short of a tile, as one more step through buffer 0 with
/// bounds on K; the pipeline's last barrier has freed every buffer.
void printRemainder(llvm::raw_ostream &os, bool async) {
  os << "    // The K rows short of a full tile: one more step, with K bounds,\n"
        "    // so that the loop above checks none.\n"
        "    if (kRest > 0) {\n";
  if (async)
    os << "      copyTiles<Vec, false, false>(tileA[0], tileB[0], ca, cb, a, b, kRest);\n"
          "      waitCopies();\n";
  else
    os << "      loadTiles<Vec, false, false>(ra, rb, ca, cb, kRest);\n"
          "      storeA(tileA[0], ra);\n"
          "      storeB(tileB[0], rb);\n";
  os << "      __syncthreads();\n"
        "      multiplyTile(acc, tileA[0], tileB[0], ty, tx);\n"
        "      __syncthreads();\n"
        "    }\n";
}

/// The K loop for each prefetch kind, with its barriers.
void printPipeline(llvm::raw_ostream &os, Prefetch prefetch, int64_t stages) {
  switch (prefetch) {
  case Prefetch::Smem:
    os << "    // Two shared buffers: the next K tile travels from global memory\n"
          "    // to registers while the current one is multiplied, then fills\n"
          "    // the other buffer.\n";
    // Pointers to the buffers, swapped per step, spare the step the index
    // arithmetic of tileA[t % 2] (256x128x8/8x16 f32, H200: 49.3 against
    // 48.6 TFLOP/s).
    printPrefetchHead(os, "    T (*readA)[BK][BM + PAD] = &tileA[0], "
                          "(*writeA)[BK][BM + PAD] = &tileA[1];\n"
                          "    T (*readB)[BK][BN + PAD] = &tileB[0], "
                          "(*writeB)[BK][BN + PAD] = &tileB[1];\n");
    printFencedMultiply(os, "*readA", "*readB");
    os << "      if (more) {\n";
    printStores(os, "*writeA", "*writeB", "        ");
    os << "      }\n"
          "      // One barrier per step: the next step reads the buffer just\n"
          "      // written and overwrites the one just read.\n"
          "      __syncthreads();\n"
          "      T (*readA0)[BK][BM + PAD] = readA, "
          "(*readB0)[BK][BN + PAD] = readB;\n"
          "      readA = writeA, readB = writeB;\n"
          "      writeA = readA0, writeB = readB0;\n"
          "    }\n";
    return;
  case Prefetch::Regs:
    os << "    // One shared buffer and a register prefetch: the next K tile is\n"
          "    // loaded before the current one is multiplied and stored after.\n";
    printPrefetchHead(os, "");
    printFencedMultiply(os, "tileA[0]", "tileB[0]");
    os << "      __syncthreads(); // everyone is done reading the buffer\n"
          "      if (more) {\n";
    printStores(os, "tileA[0]", "tileB[0]", "        ");
    os << "      }\n"
          "      __syncthreads(); // the next tile is in place\n"
          "    }\n";
    return;
  case Prefetch::Async: {
    // With three buffers or more a warp refills the buffer read in the last
    // step after its own multiply, by when the others are done reading it,
    // so warps run up to a step apart and meet at no block barrier (DGEMM
    // 128x128x8/8x8, 4 buffers, H200: 58.1 TFLOP/s against 45.3 with a
    // __syncthreads per step). With two it must refill before the multiply.
    StringRef refill = "      refill(t + STAGES - 1);\n";
    bool early = stages == 2;
    os << "    // STAGES shared buffers filled by cp.async. Tile u of the block\n"
          "    // goes to buffer u % STAGES, whose barriers complete once per\n"
          "    // tile: it waits for phase u / STAGES of the buffer's full\n"
          "    // barrier, and its copies for the empty barrier's phase of the\n"
          "    // tile before. Warps wait for data and free buffers only.\n"
          "    const auto refill = [&](int next) {\n"
          "      if (next < kTiles) {\n"
          "        const int u = used + next, buf = u % STAGES;\n"
          "        if (u >= STAGES)\n"
          "          waitPhase(empty[buf], u / STAGES - 1);\n";
    printCopies(os, "buf", "        ");
    os << "        arriveOnCopies(full[buf]);\n"
          "      }\n"
          "    };\n"
          "#pragma unroll\n"
          "    for (int s = 0; s < STAGES - 1; ++s)\n"
          "      refill(s);\n"
          "    for (int t = 0; t < kTiles; ++t) {\n"
          "      const int u = used + t, buf = u % STAGES;\n"
          "      waitPhase(full[buf], u / STAGES);\n"
       << (early ? refill : "")
       << "      multiplyTile(acc, tileA[buf], tileB[buf], ty, tx);\n"
          "      arrive(empty[buf]);\n"
       << (early ? "" : refill)
       << "    }\n"
          "    used += kTiles;\n"
          "    // The remainder's or the next row tile's copies refill buffers still\n"
          "    // read here.\n"
          "    __syncthreads();\n";
    return;
  }
  case Prefetch::None:
    os << "    // No prefetch: load, wait, multiply, wait.\n"
          "    for (int t = 0; t < kTiles; ++t) {\n";
    printLoads(os, "      ");
    printStores(os, "tileA[0]", "tileB[0]", "      ");
    os << "      __syncthreads();\n"
          "      multiplyTile(acc, tileA[0], tileB[0], ty, tx);\n"
          "      __syncthreads();\n"
          "    }\n";
    return;
  }
}

/// The cp.async pipeline's barriers and its count of the tiles through its
/// buffers, which sets their phases across row tiles.
void printPipelineSetup(llvm::raw_ostream &os) {
  os << "  __shared__ unsigned long long full[STAGES], empty[STAGES];\n"
        "  if (threadIdx.x == 0)\n"
        "    for (int s = 0; s < STAGES; ++s) {\n"
        "      initBarrier(full[s]);\n"
        "      initBarrier(empty[s]);\n"
        "    }\n"
        "  __syncthreads();\n"
        "  int used = 0;\n";
}

/// acc += A tile * B tile over one K step with scalar FMAs: (ty, tx) is the
/// thread's place in the (BM / TM) x (BN / TN) grid.
void printFmaMultiply(llvm::raw_ostream &os) {
  os << "/// acc += A tile * B tile over one K step, on this thread's fragments.\n"
        "template <bool Fence = false>\n"
        "__device__ __forceinline__ void multiplyTile(T (&acc)[TM][TN], "
        "const T (&ta)[BK][BM + PAD], const T (&tb)[BK][BN + PAD], int ty, "
        "int tx) {\n"
        "#pragma unroll\n"
        "  for (int kk = 0; kk < BK; ++kk) {\n"
        "    if (Fence && kk == BK / 2)\n"
        "      __syncwarp(); // see the pipeline\n"
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
        "    // Columns outer, rows serpentine: each FMA shares an operand with\n"
        "    // the one before, which ptxas serves from its reuse cache.\n"
        "#pragma unroll\n"
        "    for (int j = 0; j < TN; ++j)\n"
        "#pragma unroll\n"
        "      for (int s = 0; s < TM; ++s) {\n"
        "        const int i = j % 2 ? TM - 1 - s : s;\n"
        "        acc[i][j] += fa[i / ROW_GROUP].v[i % ROW_GROUP] *\n"
        "                     fb[j / COL_GROUP].v[j % COL_GROUP];\n"
        "      }\n"
        "  }\n"
        "}\n\n";
}

/// The mma.sync that adds the 16 x 8 product of row blocks 2r, 2r + 1 and
/// column block j over DMMA_K k to the accumulators. Its A registers are the
/// rows' fragments for each 4 k in turn, its B registers the column's: a
/// m16n8kK product is K / 4 m16n8k4 ones (PTX ISA, "Matrix Fragments for
/// mma.m16n8k4/8/16 with .f64").
static void printMma16x8(llvm::raw_ostream &os, int64_t k) {
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
        "template <bool Fence = false>\n"
        "__device__ __forceinline__ void multiplyTile(T (&acc)[TM][TN], "
        "const T (&ta)[BK][BM + PAD], const T (&tb)[BK][BN + PAD], int ty, "
        "int tx) {\n"
        "  const int wm0 = (ty / (BN / WN)) * WM, wn0 = (ty % (BN / WN)) * WN;\n"
        "#pragma unroll\n"
        "  for (int k0 = 0; k0 < BK; k0 += DMMA_K) {\n"
        "    if (Fence && k0 == BK / DMMA_K / 2 * DMMA_K)\n"
        "      __syncwarp(); // see the pipeline\n"
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

} // namespace mlir::gemm::kernel
