//===- KernelConfig.cpp - Configurations of the kernel templates ----------===//
//
// A printer: every constant comes from the op's #gemm.kernel (gemm-specialize
// wrote it from lib/Target's KernelPlan); the kernel bodies are the templates
// of runtime/include/gemm_kernels.
//
//===----------------------------------------------------------------------===//

#include "KernelConfig.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <iterator>

using namespace mlir;
using namespace mlir::gemm;

namespace {

StringRef boolText(bool value) { return value ? "true" : "false"; }

/// Where the next K tile waits, for the configuration's comment.
std::string prefetchText(ScheduleAttr s) {
  switch (s.getPrefetch()) {
  case Prefetch::Smem:
    return "two shared-memory buffers (the next K tile loads while the "
           "current\n/// one is multiplied)";
  case Prefetch::Regs:
    return "one shared-memory buffer and a register prefetch of the next K "
           "tile";
  case Prefetch::Async:
    return llvm::formatv("{0} shared-memory buffers filled by cp.async (up "
                         "to {1} K tiles ahead),\n/// warps paced by "
                         "mbarriers",
                         s.getStages(), s.getStages() - 1);
  case Prefetch::None:
    return "no prefetch";
  }
  llvm_unreachable("unknown prefetch kind");
}

std::string computeText(KernelAttr k) {
  if (k.getDmmaDepth() == 0)
    return "scalar FMA";
  if (!k.getDmmaWide())
    return "FP64 tensor-core mma.sync m8n8k4";
  return llvm::formatv("FP64 tensor-core mma.sync m16n8k{0} (m8n8k4 before "
                       "sm_90)",
                       k.getDmmaDepth());
}

/// Move `t` as the struct `name` of tile_move.def's fields, in its order.
std::string tileMoveText(StringRef name, TileMoveAttr t) {
  const int64_t values[] = {
      t.getX(),       t.getXUnit(),  t.getKUnit(),    t.getPack(),
      t.getAlongK(),  t.getWholeStore(), t.getPacks(), t.getLoads(),
      t.getRegular(), t.getSwizzled(), t.getKInner()};
  struct Field {
    StringRef type, name;
  };
  static const Field fields[] = {
#define GEMM_TILE_MOVE_FIELD(type, name, meaning) {#type, #name},
#include "gemm_kernels/tile_move.def"
#undef GEMM_TILE_MOVE_FIELD
  };
  static_assert(std::size(fields) == std::size(values),
                "a value for each field of tile_move.def");
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "  struct " << name << " {\n";
  for (auto [field, value] : llvm::zip_equal(fields, values))
    os << "    static constexpr " << field.type << " " << field.name << " = "
       << (field.type == "bool" ? boolText(value) : llvm::itostr(value))
       << ";\n";
  os << "  };\n";
  return text;
}

} // namespace

void mlir::gemm::printKernelBody(llvm::raw_ostream &os, MatmulOp op,
                                 KernelAttr k) {
  ScheduleAttr s = k.getSchedule();
  os << "  using T = " << (op.getElementType().isF64() ? "double" : "float")
     << ";\n"
     << llvm::formatv("  static constexpr int BM = {0}, BN = {1}, BK = {2}, "
                      "TM = {3}, TN = {4}, THREADS = {5};\n",
                      s.getBlockM(), s.getBlockN(), s.getBlockK(),
                      s.getThreadM(), s.getThreadN(), k.getThreads())
     << llvm::formatv("  static constexpr int STAGES = {0}, PAD = {1}, "
                      "OCCUPANCY = {2};\n",
                      s.getStages(), s.getPad(), s.getOccupancy());
  StringRef prefetch = stringifyPrefetch(s.getPrefetch());
  os << "  static constexpr auto PREFETCH = gemm_kernels::Prefetch::"
     << char(llvm::toUpper(prefetch.front())) << prefetch.drop_front()
     << ";\n"
     << llvm::formatv("  static constexpr int ROW_GROUP = {0}, ROW_STEP = "
                      "{1}, COL_GROUP = {2}, COL_STEP = {3};\n",
                      k.getRowGroup(), k.getRowStep(), k.getColGroup(),
                      k.getColStep())
     << "  static constexpr int DMMA_K = " << k.getDmmaDepth() << ";\n";
  // The templates read the tensor-core shape of dmma kernels only.
  if (k.getDmmaDepth() > 0)
    os << "  static constexpr bool DMMA_WIDE = " << boolText(k.getDmmaWide())
       << ";\n"
       << llvm::formatv("  static constexpr int A_GROUP = {0}, B_GROUP = "
                        "{1};\n",
                        k.getDmmaGroupA(), k.getDmmaGroupB());
  os << tileMoveText("A", k.getA()) << tileMoveText("B", k.getB())
     << llvm::formatv("  static constexpr bool C_ROW_UNIT = {0}, C_COL_UNIT "
                      "= {1}, C_BY_COLUMNS = {2};\n",
                      boolText(k.getCRowUnit()), boolText(k.getCColUnit()),
                      boolText(k.getCByColumns()))
     << llvm::formatv("  static constexpr int C_PACK = {0}, A_TILE_BYTES = "
                      "{1}, SMEM_BYTES = {2};\n",
                      k.getCPack(), k.getATileBytes(), k.getSharedBytes())
     << llvm::formatv("  static constexpr bool FUSED = {0}, SCALAR_TWIN = "
                      "{1};\n",
                      boolText(op.hasEpilogue()), boolText(k.getScalarTwin()));
}

void mlir::gemm::printKernelConfig(llvm::raw_ostream &os, StringRef name,
                                   MatmulOp op, KernelAttr k, StringRef body,
                                   StringRef kernel) {
  ScheduleAttr s = k.getSchedule();
  os << llvm::formatv(
      "/// {0}x{1}x{2} block tile, {3}x{4} register tile per thread ({5} "
      "threads),\n/// {6},\n/// {7},\n/// {8}-element vector accesses, shared "
      "rows padded by {9}.{10}\n",
      s.getBlockM(), s.getBlockN(), s.getBlockK(), s.getThreadM(),
      s.getThreadN(), k.getThreads(), computeText(k), prefetchText(s),
      s.getVector(), s.getPad(),
      s.getTranspose() ? "\n/// Transposed: it computes C^T = B^T A^T, so BM "
                         "runs along N."
                       : "");
  std::string transposed = llvm::formatv(
      "  static constexpr bool TRANSPOSED = {0};\n",
      boolText(s.getTranspose()));
  if (kernel.empty())
    os << "struct " << name << " {\n" << body << transposed << "};\n\n";
  else
    os << "struct " << name << " : " << kernel << " {\n"
       << "  using Kernel = " << kernel << ";\n"
       << transposed << "};\n\n";
}
