//===- Record.cpp - The optimisation record -------------------------------===//

#include "Record.h"

#include "gemm-opt/Dialect/Gemm/GemmOps.h"
#include "gemm-opt/Target/OpModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace mlir;
using namespace mlir::gemm;

namespace gemm_opt {
namespace {

/// A YAML single-quoted scalar.
std::string quoted(StringRef text) {
  std::string out = "'";
  for (char c : text)
    out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

/// An extent of C's type, '?' where it is only known at run time.
std::string extent(MemRefType type, int64_t dim) {
  return type.isDynamicDim(dim) ? "'?'" : std::to_string(type.getDimSize(dim));
}

void printLauncher(raw_ostream &os, const Nest &nest, ModuleOp module) {
  os << "  - Name:            " << nest.name << "\n"
     << "    Type:            " << (nest.isDouble ? "f64" : "f32") << "\n"
     << "    Layout:          { A: " << layoutName(nest.a)
     << ", B: " << layoutName(nest.b) << ", C: " << layoutName(nest.c)
     << " }\n";
  auto func = module.lookupSymbol<func::FuncOp>(nest.symbol);
  if (!func)
    return;
  for (MatmulOp op : func.getOps<MatmulOp>()) {
    MemRefType c = op.getCType(), a = op.getAType();
    int row = op.isBatched() ? 1 : 0;
    os << "    Shape:           { Batch: "
       << (op.isBatched() ? extent(c, 0) : "1") << ", M: " << extent(c, row)
       << ", N: " << extent(c, row + 1) << ", K: " << extent(a, row + 1)
       << " }\n";
    SmallVector<ScheduleAttr> schedules = op.getSchedules();
    if (schedules.empty())
      continue;
    const GpuTarget &target = targetOf(module);
    os << "    Target:          " << target.name << "\n"
       << "    Schedules:\n";
    for (ScheduleAttr s : schedules) {
      std::string text;
      raw_string_ostream(text) << s;
      os << "      - Schedule:        " << quoted(text) << "\n"
         << formatv("        PredictedGFLOPs: {0:F1}\n",
                    fullRate(target, op, s));
    }
  }
}

} // namespace

void printRecord(raw_ostream &os, ArrayRef<RemarkRecord> remarks,
                 const FrontendResult &result, ModuleOp module) {
  for (const RemarkRecord &r : remarks) {
    os << "--- !" << (r.rewritten ? "Passed" : "Missed") << "\n"
       << "Pass:            gemm\n"
       << "Name:            " << (r.rewritten ? "Rewritten" : "NotRewritten")
       << "\n"
       << "DebugLoc:        { File: " << quoted(r.file)
       << ", Line: " << r.line << ", Column: " << r.column << " }\n"
       << (r.rewritten ? "Message:         " : "Reason:          ")
       << quoted(r.rewritten ? StringRef(r.message)
                             : StringRef(r.message).split(": ").second)
       << "\n";
    if (!r.rewritten)
      continue;
    // One launcher, or one per instantiation of a template, at the nest.
    os << "Launchers:\n";
    for (const Nest &nest : result.nests)
      if (nest.line == r.line && nest.column == r.column)
        printLauncher(os, nest, module);
  }
  os << "...\n";
}

} // namespace gemm_opt
