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
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"

#include <cassert>
#include <iterator>
#include <optional>

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

/// A field of a .def list, as the printer writes it.
struct Field {
  StringRef type, name;
  bool dmma = false;
};

/// A field's value (none: not printed), named as in the list.
struct FieldValue {
  StringRef name;
  std::optional<int64_t> value;
};

/// `static constexpr <type> <name> = <value>;` for each field whose value
/// is given, in the list's order, which the values follow.
void printFields(llvm::raw_ostream &os, StringRef indent,
                 ArrayRef<Field> fields, ArrayRef<FieldValue> values) {
  for (auto [field, named] : llvm::zip_equal(fields, values)) {
    if (field.name != named.name)
      llvm::report_fatal_error("the printer's values are not in the order of "
                               "the field list: " +
                               named.name);
    const std::optional<int64_t> &value = named.value;
    if (!value)
      continue;
    os << indent << "static constexpr " << field.type << " " << field.name
       << " = ";
    if (field.type == "bool")
      os << boolText(*value);
    else if (field.type == "int")
      os << *value;
    else {
      assert(field.type == "gemm_kernels::Prefetch" && "a type to print");
      StringRef name = stringifyPrefetch(static_cast<Prefetch>(*value));
      os << field.type << "::" << char(llvm::toUpper(name.front()))
         << name.drop_front();
    }
    os << ";\n";
  }
}

/// Move `t` as the struct `name` of tile_move.def's fields, in its order.
std::string tileMoveText(StringRef name, TileMoveAttr t) {
  static const Field fields[] = {
#define GEMM_TILE_MOVE_FIELD(type, name, meaning) {#type, #name},
#include "gemm_kernels/tile_move.def"
#undef GEMM_TILE_MOVE_FIELD
  };
  const FieldValue values[] = {{"X", t.getX()},
                               {"X_UNIT", t.getXUnit()},
                               {"K_UNIT", t.getKUnit()},
                               {"PACK", t.getPack()},
                               {"ALONG_K", t.getAlongK()},
                               {"WHOLE_STORE", t.getWholeStore()},
                               {"PACKS", t.getPacks()},
                               {"LOADS", t.getLoads()},
                               {"REGULAR", t.getRegular()},
                               {"SWIZZLED", t.getSwizzled()},
                               {"K_INNER", t.getKInner()}};
  static_assert(std::size(fields) == std::size(values),
                "a value for each field of tile_move.def");
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "  struct " << name << " {\n";
  printFields(os, "    ", fields, values);
  os << "  };\n";
  return text;
}

} // namespace

void mlir::gemm::printKernelBody(llvm::raw_ostream &os, MatmulOp op,
                                 KernelAttr k) {
  static const Field fields[] = {
#define GEMM_KERNEL_FIELD(type, name, meaning) {#type, #name},
#define GEMM_DMMA_FIELD(type, name, meaning) {#type, #name, true},
#include "gemm_kernels/kernel_config.def"
#undef GEMM_DMMA_FIELD
#undef GEMM_KERNEL_FIELD
  };
  ScheduleAttr s = k.getSchedule();
  FieldValue values[] = {{"BM", s.getBlockM()},
                         {"BN", s.getBlockN()},
                         {"BK", s.getBlockK()},
                         {"TM", s.getThreadM()},
                         {"TN", s.getThreadN()},
                         {"THREADS", k.getThreads()},
                         {"STAGES", s.getStages()},
                         {"PAD", s.getPad()},
                         {"OCCUPANCY", s.getOccupancy()},
                         {"PREFETCH", int64_t(s.getPrefetch())},
                         {"ROW_GROUP", k.getRowGroup()},
                         {"ROW_STEP", k.getRowStep()},
                         {"COL_GROUP", k.getColGroup()},
                         {"COL_STEP", k.getColStep()},
                         {"DMMA_K", k.getDmmaDepth()},
                         {"DMMA_WIDE", k.getDmmaWide()},
                         {"A_GROUP", k.getDmmaGroupA()},
                         {"B_GROUP", k.getDmmaGroupB()},
                         {"C_ROW_UNIT", k.getCRowUnit()},
                         {"C_COL_UNIT", k.getCColUnit()},
                         {"C_BY_COLUMNS", k.getCByColumns()},
                         {"C_PACK", k.getCPack()},
                         {"A_TILE_BYTES", k.getATileBytes()},
                         {"SMEM_BYTES", k.getSharedBytes()},
                         {"FUSED", op.hasEpilogue()},
                         {"SCALAR_TWIN", k.getScalarTwin()}};
  static_assert(std::size(fields) == std::size(values),
                "a value for each field of kernel_config.def");
  // The templates read the tensor-core fields of dmma kernels only.
  for (auto [field, named] : llvm::zip_equal(fields, values))
    if (field.dmma && k.getDmmaDepth() == 0)
      named.value.reset();
  os << "  using T = " << (op.getElementType().isF64() ? "double" : "float")
     << ";\n";
  printFields(os, "  ", fields, values);
  os << tileMoveText("A", k.getA()) << tileMoveText("B", k.getB());
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
  std::string transposed =
      llvm::formatv("  static constexpr bool TRANSPOSED = {0};\n",
                    boolText(s.getTranspose()));
  if (kernel.empty())
    os << "struct " << name << " {\n" << body << transposed << "};\n\n";
  else
    os << "struct " << name << " : " << kernel << " {\n"
       << "  using Kernel = " << kernel << ";\n"
       << transposed << "};\n\n";
}
