//===- Epilogue.cpp - C = act(alpha * acc + beta * C + bias) --------------===//
//
// The epilogue: a thread's accumulators into C, by rows where C's columns are
// contiguous, by columns where only its rows are. An op with a bias or an
// activation finishes each element through gemm_rt::finishElement, the one
// definition that the runtime's other paths share.
//
//===----------------------------------------------------------------------===//

#include "KernelParts.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace mlir::gemm::kernel {

/// `value`, the product term of element (row, col), as stored: through the
/// problem's epilogue where the op has one.
static std::string finished(bool fused, StringRef value, StringRef row,
                            StringRef col) {
  if (!fused)
    return value.str();
  return llvm::formatv("finish({0}, {1}, {2})", value, row, col);
}

/// The comment and signature of storeC; `cm` names the row-stride
/// parameter, or leaves it unnamed where the epilogue does not read it.
/// A fused epilogue takes the problem's and the batch, for finish().
static void printStoreCHead(llvm::raw_ostream &os, StringRef cm, bool fused) {
  if (fused)
    os << "/// C = act(alpha * acc + beta * C + bias) on this thread's elements, the\n"
          "/// bias and the activation as `ep` says (a null bias is none). beta == 0\n"
          "/// never reads C, so NaN or garbage there cannot reach the result.\n";
  else
    os << "/// C = alpha * acc + beta * C on this thread's elements. beta == 0 never\n"
          "/// reads C, so NaN or garbage there cannot reach the result.\n";
  os << "template <bool Vec>\n"
        "/// Row i of the thread's tile is rowBase + (i / ROW_GROUP) * ROW_STEP +\n"
        "/// i % ROW_GROUP, and likewise for columns.\n"
        "__device__ __forceinline__ void storeC(const T (&acc)[TM][TN], T *c, "
        "long long "
     << cm
     << ", long long cn, long long m, long long n, long long rowBase, long "
        "long colBase, T alpha, T beta"
     << (fused ? ", const gemm_rt::Epilogue &ep, long long batch" : "")
     << ") {\n";
  if (fused)
    os << "  // The bias and the activation of element (row, col), after the "
          "whole sum.\n"
          "  const auto finish = [&](T v, long long row, long long col) {\n"
          "    return gemm_rt::finishElement<T>(ep, v, batch, row, col);\n"
          "  };\n";
}

/// The scalar store of one element through `dst`, whose product term is
/// alpha * `acc` (+ beta * *dst).
static void printScalarStore(llvm::raw_ostream &os, StringRef acc, bool fused,
                             StringRef row, StringRef col) {
  std::string value = llvm::formatv("beta == T(0) ? alpha * {0}\n"
                                    "                            : alpha * {0} "
                                    "+ beta * *dst",
                                    acc);
  if (!fused) {
    os << "        *dst = " << value << ";\n";
    return;
  }
  os << "        const T value = beta == T(0) ? alpha * " << acc
     << "\n"
        "                                     : alpha * "
     << acc << " + beta * *dst;\n"
     << "        *dst = " << finished(fused, "value", row, col) << ";\n";
}

void printEpilogue(llvm::raw_ostream &os, StringRef cn, int64_t cPack,
                   bool fused) {
  printStoreCHead(os, "cm", fused);
  if (fused)
    os << "  // Column j of the thread's tile.\n"
          "  const auto colOf = [&](int j) {\n"
          "    return colBase + (j / COL_GROUP) * COL_STEP + j % COL_GROUP;\n"
          "  };\n";
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
          "            out.v[w] = "
       << finished(fused, "alpha * acc[i][j + w]", "row", "colOf(j + w)")
       << ";\n"
          "        } else {\n"
          "          const Pack<C_PACK> old = *dst;\n"
          "#pragma unroll\n"
          "          for (int w = 0; w < C_PACK; ++w)\n"
          "            out.v[w] = "
       << finished(fused, "alpha * acc[i][j + w] + beta * old.v[w]", "row",
                   "colOf(j + w)")
       << ";\n"
          "        }\n"
          "        *dst = out;\n"
          "        continue;\n"
          "      }\n";
  os << "#pragma unroll\n"
        "      for (int w = 0; w < C_PACK; ++w) {\n"
        "        if (!colIn[j + w])\n"
        "          continue;\n"
        "        T *dst = rowPtr + colOffset[j + w];\n";
  printScalarStore(os, "acc[i][j + w]", fused, "row", "colOf(j + w)");
  os << "      }\n"
        "    }\n"
        "  }\n"
        "}\n\n";
}

/// storeC for a C whose rows are contiguous (unit row stride): each column
/// of the thread's tile through one pointer, its rows at constant offsets
/// and, where aligned, in packs of C_PACK rows; no per-column offsets stay
/// live across the tile.
void printEpilogueByColumns(llvm::raw_ostream &os, bool fused) {
  printStoreCHead(os, "", fused);
  StringRef row = "rowBase + offset + w";
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
        "            out.v[w] = "
     << finished(fused, "alpha * acc[i + w][j]", row, "col")
     << ";\n"
        "        } else {\n"
        "          const Pack<C_PACK> old = *dst;\n"
        "#pragma unroll\n"
        "          for (int w = 0; w < C_PACK; ++w)\n"
        "            out.v[w] = "
     << finished(fused, "alpha * acc[i + w][j] + beta * old.v[w]", row, "col")
     << ";\n"
        "        }\n"
        "        *dst = out;\n"
        "        continue;\n"
        "      }\n"
        "#pragma unroll\n"
        "      for (int w = 0; w < C_PACK; ++w) {\n"
        "        if (rowBase + offset + w >= m)\n"
        "          continue;\n"
        "        T *dst = colPtr + offset + w;\n";
  printScalarStore(os, "acc[i + w][j]", fused, row, "col");
  os << "      }\n"
        "    }\n"
        "  }\n"
        "}\n\n";
}

} // namespace mlir::gemm::kernel
