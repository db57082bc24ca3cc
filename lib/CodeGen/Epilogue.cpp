//===- Epilogue.cpp - C = alpha * acc + beta * C --------------------------===//
//
// The epilogue: a thread's accumulators into C, by rows where C's columns are
// contiguous, by columns where only its rows are.
//
//===----------------------------------------------------------------------===//

#include "KernelParts.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace mlir::gemm::kernel {

/// The comment and signature of storeC; `cm` names the row-stride
/// parameter, or leaves it unnamed where the epilogue does not read it.
static void printStoreCHead(llvm::raw_ostream &os, StringRef cm) {
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

} // namespace mlir::gemm::kernel
