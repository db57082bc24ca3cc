//===- Record.cpp - The optimisation record -------------------------------===//
//
// Each remark's message is split into args, as LLVM's remarks are: opt-viewer
// shows their values joined, and tools read the structured ones (Launcher,
// Type, Shape, Target, Schedule, PredictedGFLOPs) by key.
//
//===----------------------------------------------------------------------===//

#include "Record.h"

#include "gemm-opt/Dialect/Gemm/GemmOps.h"
#include "gemm-opt/Target/Explain.h"
#include "gemm-opt/Target/OpModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Remarks/Remark.h"
#include "llvm/Remarks/RemarkSerializer.h"
#include "llvm/Remarks/RemarkStringTable.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/StringSaver.h"

using namespace llvm;
using namespace mlir;
using namespace mlir::gemm;

namespace gemm_opt {
namespace {

/// The formats by the names that the flag and the file's suffix use.
constexpr std::pair<StringLiteral, remarks::Format> kFormats[] = {
    {"yaml", remarks::Format::YAML},
    {"bitstream", remarks::Format::Bitstream}};

/// The remarks of one record as they are built; their text lives in
/// `saver` until they are printed.
class RecordBuilder {
public:
  std::vector<remarks::Remark> remarks;

  /// Starts a remark at `r`'s nest, in its function.
  void add(remarks::Type type, StringRef name, const RemarkRecord &r) {
    remarks::Remark &remark = remarks.emplace_back();
    remark.RemarkType = type;
    remark.PassName = "gemm";
    remark.RemarkName = name;
    remark.FunctionName = saver.save(r.function);
    remark.Loc = remarks::RemarkLocation{saver.save(r.file), r.line, r.column};
  }

  /// Appends an arg to the last remark: the message goes on with `value`.
  void arg(StringRef key, const Twine &value) {
    remarks.back().Args.push_back({key, saver.save(value)});
  }

private:
  BumpPtrAllocator allocator;
  StringSaver saver{allocator};
};

/// An extent of C's type, '?' where it is only known at run time.
std::string extent(MemRefType type, int64_t dim) {
  return type.isDynamicDim(dim) ? "?" : std::to_string(type.getDimSize(dim));
}

/// Remarks on `nest`'s launcher at `r`: its operands, then each of its
/// schedules with the rate that gemm-select-schedule's remark predicts.
void addLauncher(RecordBuilder &record, const RemarkRecord &r,
                 const Nest &nest, ModuleOp module) {
  auto func = module.lookupSymbol<func::FuncOp>(nest.symbol);
  if (!func)
    return;
  for (MatmulOp op : func.getOps<MatmulOp>()) {
    MemRefType c = op.getCType(), a = op.getAType();
    int row = op.isBatched() ? 1 : 0;
    record.add(remarks::Type::Analysis, "Launcher", r);
    record.arg("Launcher", nest.name);
    record.arg("String", ": ");
    record.arg("Type", nest.isDouble ? "f64" : "f32");
    record.arg("String", op.isBatched() ? ", batch x M x N x K = "
                                        : ", M x N x K = ");
    record.arg("Shape", (op.isBatched() ? extent(c, 0) + " x " : "") +
                            extent(c, row) + " x " + extent(c, row + 1) +
                            " x " + extent(a, row + 1));
    record.arg("String", "; A ");
    record.arg("LayoutA", layoutName(nest.a));
    record.arg("String", ", B ");
    record.arg("LayoutB", layoutName(nest.b));
    record.arg("String", ", C ");
    record.arg("LayoutC", layoutName(nest.c));
    const GpuTarget &target = targetOf(module);
    SmallVector<ScheduleAttr> schedules = op.getSchedules();
    // The first is the one gemm-select-schedule chose.
    for (auto [i, schedule] : enumerate(schedules)) {
      record.add(remarks::Type::Analysis, i ? "Alternative" : "Schedule", r);
      record.arg("Launcher", nest.name);
      record.arg("String", " on ");
      record.arg("Target", target.name);
      record.arg("String", ": ");
      // As --schedule takes it.
      record.arg("Schedule", formatScheduleOptions(toSchedule(schedule)));
      record.arg("String", ", predicted ");
      record.arg("PredictedGFLOPs",
                 formatv("{0:F0}", predict(target, op, schedule).gflops()));
      record.arg("String", " GFLOP/s");
    }
  }
}

} // namespace

Expected<remarks::Format> parseRecordFormat(StringRef value) {
  if (value.empty())
    return remarks::Format::YAML;
  for (auto [name, format] : kFormats)
    if (value == name)
      return format;
  return createStringError("-fsave-optimization-record=" + value +
                           ": the format is yaml or bitstream (the file is "
                           "-foptimization-record-file=<file>)");
}

std::string recordSuffix(remarks::Format format) {
  const auto *known = find_if(
      kFormats, [&](const auto &entry) { return entry.second == format; });
  return (".opt." + known->first).str();
}

void printRecord(raw_ostream &os, remarks::Format format,
                 ArrayRef<RemarkRecord> remarks,
                 const FrontendResult &result, ModuleOp module) {
  RecordBuilder record;
  for (const RemarkRecord &r : remarks) {
    StringRef message = r.message;
    if (!r.rewritten) {
      // "loop nest not rewritten: <reason>"
      auto [verdict, reason] = message.split(": ");
      record.add(remarks::Type::Missed, "NotRewritten", r);
      record.arg("String", verdict + ": ");
      record.arg("Reason", reason);
      continue;
    }
    // One launcher, or one per instantiation of a template, at the nest;
    // the front end lists them before it remarks.
    SmallVector<const Nest *> nests;
    for (const Nest &nest : result.nests)
      if (nest.line == r.line && nest.column == r.column)
        nests.push_back(&nest);
    // "<summary>; rewritten to call <launcher>"
    StringRef launcher = nests.front()->name;
    record.add(remarks::Type::Passed, "Rewritten", r);
    record.arg("String", message.drop_back(launcher.size()));
    record.arg("Launcher", launcher);
    for (const Nest *nest : nests)
      addLauncher(record, r, *nest, module);
  }
  // The bitstream format writes its string table before the first remark.
  remarks::StringTable strings;
  for (remarks::Remark &remark : record.remarks)
    strings.internalize(remark);
  // Fails only for a format that parseRecordFormat does not return.
  std::unique_ptr<remarks::RemarkSerializer> serializer =
      cantFail(remarks::createRemarkSerializer(
          format, remarks::SerializerMode::Standalone, os, std::move(strings)));
  for (const remarks::Remark &remark : record.remarks)
    serializer->emit(remark);
}

} // namespace gemm_opt
